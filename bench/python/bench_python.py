#!/usr/bin/python3
"""Python against C++ on the ECG bench corpus, in the same run (scripts/bench.sh runs it).

Measures, interleaved round by round with the C++ peer (timef_python_peer) on one release:
  * random single series: reader.get(Signal, id).to_numpy()  vs  GetSignal(id)->LoadValues()
  * random series by ID through the locator index: reader.signal_values(id).to_numpy()  vs
    GetSignalValues(id).Load()
  * a full pass: every record by iter_records(), every signal's to_numpy()  vs  IterRecords() and
    LoadValues()
and writes bench/results/python.json plus a Markdown summary on stdout. Ratios are Python/C++
(1.0 = equal; above 1 = Python slower); per-series differences are in µs.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--size", default="medium", choices=["small", "medium", "large"])
    ap.add_argument("--work", default=None, help="corpus directory (default BUILD/bench-work/python)")
    ap.add_argument("--picks", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import timef  # noqa: E402

    peer = os.path.join(build, "bench-suite", "timef_python_peer")
    work = os.path.abspath(args.work or os.path.join(build, "bench-work", f"python-{args.size}"))
    release = os.path.join(work, "bench", "ecg", "1.0.0")
    if not os.path.isfile(os.path.join(release, "manifest.json")):
        os.makedirs(work, exist_ok=True)
        start = time.perf_counter()
        out = subprocess.run([peer, "write", args.size, work], check=True, capture_output=True,
                             text=True).stdout.strip()
        release = out
        print(f"wrote the {args.size} ECG corpus in {time.perf_counter() - start:.1f} s: {out}",
              file=sys.stderr)

    with timef.TimeFReader.open(release) as reader:
        signal_ids = [s.id for r in reader.iter_records() for s in r.signals]
    rng = random.Random(42)
    picks = [rng.choice(signal_ids) for _ in range(args.picks)]
    ids_file = os.path.join(work, "picks.txt")
    with open(ids_file, "w") as f:
        f.write("\n".join(map(str, picks)) + "\n")

    py = {"get_signal_us": [], "signal_values_us": [], "full_pass_s": []}
    cxx = {"get_signal_us": [], "signal_values_us": [], "full_pass_s": []}
    n_values = 0
    for _ in range(args.rounds):
        with timef.TimeFReader.open(release) as reader:
            reader.record_ids()
            reader.signal_values(picks[0])
            for sid in picks:
                start = time.perf_counter()
                reader.get(timef.Signal, sid).to_numpy()
                py["get_signal_us"].append((time.perf_counter() - start) * 1e6)
                start = time.perf_counter()
                reader.signal_values(sid).to_numpy()
                py["signal_values_us"].append((time.perf_counter() - start) * 1e6)
            start = time.perf_counter()
            n_values = 0
            for record in reader.iter_records():
                for signal in record.signals:
                    n_values += signal.to_numpy().size
            py["full_pass_s"].append(time.perf_counter() - start)
        measured = json.loads(subprocess.run([peer, "measure", release, ids_file, "1"], check=True,
                                             capture_output=True, text=True).stdout)
        for key in cxx:
            cxx[key].extend(measured[key])

    summary = {}
    for key in py:
        p, c = median(py[key]), median(cxx[key])
        summary[key] = {"python": p, "cxx": c, "ratio": p / c, "difference": p - c}
    report = {"corpus": {"size": args.size, "release": release, "signals": len(signal_ids),
                         "values": n_values},
              "picks": args.picks, "rounds": args.rounds,
              "load_average": os.getloadavg()[0], "summary": summary,
              "python": py, "cxx": cxx}
    out_dir = args.out or os.path.join(os.path.dirname(__file__), "..", "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "python.json"), "w") as f:
        json.dump(report, f, indent=1)

    units = {"get_signal_us": "µs", "signal_values_us": "µs", "full_pass_s": "s"}
    print(f"## Python vs C++ ({args.size} ECG corpus: {len(signal_ids)} signals, "
          f"{n_values:,} values; load {report['load_average']:.1f})\n")
    print("| workload | Python | C++ | Python/C++ | Python − C++ |")
    print("| --- | --- | --- | --- | --- |")
    names = {"get_signal_us": "random `get(Signal, id).to_numpy()`",
             "signal_values_us": "random `signal_values(id).to_numpy()`",
             "full_pass_s": "full pass (`iter_records`, every `to_numpy()`)"}
    for key, s in summary.items():
        u = units[key]
        print(f"| {names[key]} | {s['python']:.4g} {u} | {s['cxx']:.4g} {u} | {s['ratio']:.3f}× "
              f"| {s['difference']:+.4g} {u} |")


if __name__ == "__main__":
    main()
