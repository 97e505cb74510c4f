#!/usr/bin/python3
"""Training-input throughput of timef.torch on the suite's ECG corpus, against numpy peers in the
same run (scripts/bench.sh runs it in `make bench`, after bench_python.py).

    /usr/bin/python3 bench/python/train_input.py --build build [--size medium] [--epochs 3]
        [--out bench/results]

The corpus: timef_python_peer writes the suite's ECG corpus (bench/corpus: records of 12 leads x
5,000 float32 at 500 Hz) into BUILD/bench-work/python-SIZE, the directory bench_python.py uses;
next to it this script writes bench/ecg-train@1.0.0, the same records and values (read from the
corpus, rewritten by timef.write with default options) plus one classification task per record
(five rhythm classes by record index). Workloads, each through a DataLoader with
timef.torch.Sampler (shuffled, seed 0) and batch 32:

  * TaskDataset without values (collate_pad): items/s of the first epoch (which reads the target
    table) and of a later one.
  * TaskDataset(load_values=True) (an item is a record's 12 leads) and SignalDataset (an item is
    one lead), collate_pad, with num_workers=0 and with two persistent workers; the peers serve
    the same values, item structure and collation from an in-memory numpy array (the floor) and
    from a .npy file opened with mmap_mode="r". Epochs are interleaved peer by peer; the first of
    each loader is a warm-up, the figure is the median of the others.
  * Data pages a SignalDataset epoch decodes (num_workers=0, the reader's counters) in storage
    order, in the Sampler's order (the default window 8, and window 4) and in a uniform
    permutation, with the neighbour correlation (Pearson's r of consecutive indices); and a
    TaskDataset(load_values=True) epoch in batches, in task order and in the Sampler's.

Writes train_input.json into --out and prints a Markdown report.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

CLASSES = ["N", "V", "A", "L", "R"]
BATCH = 32


def ecg_corpus(build, size):
    work = os.path.join(build, "bench-work", f"python-{size}")
    release = os.path.join(work, "bench", "ecg", "1.0.0")
    if not os.path.isfile(os.path.join(release, "manifest.json")):
        os.makedirs(work, exist_ok=True)
        peer = os.path.join(build, "bench-suite", "timef_python_peer")
        subprocess.run([peer, "write", size, work], check=True, stdout=subprocess.DEVNULL)
    return work, release


def supervised_copy(timef, work, corpus):
    """bench/ecg-train@1.0.0 in WORK: the corpus's records and values plus a task per record."""
    release = os.path.join(work, "bench", "ecg-train", "1.0.0")
    if os.path.isfile(os.path.join(release, "manifest.json")):
        return release
    dataset = timef.Dataset("bench/ecg-train", "1.0.0")
    with timef.TimeFReader.open(corpus) as reader:
        for i, source_record in enumerate(reader.iter_records()):
            record = dataset.add_record(timef.Record(start_time_us=source_record.start_time_us))
            device = record.add_source("ecg")
            for signal in source_record.signals:
                device.add_signal(timef.Signal(signal.name, timef.Spec(
                    "ecg", dtype=signal.spec.dtype, unit=signal.spec.unit),
                    signal.axis, signal.to_numpy().copy()))
            dataset.add_task(timef.ClassificationTask(
                inputs=[record], targets=[CLASSES[i % len(CLASSES)]], target_schema="rhythm",
                split="test" if i % 10 == 9 else "train"))
        card = {"name": "ECG corpus with labels", "license": "CC0-1.0", "domains": ["cardiology"],
                "description": "The bench ECG corpus's records and values, a task per record."}
    return timef.write(dataset, work, threads=2, card=card)


def make_peers(torch, Dataset, signals, tasks, scratch):
    """The numpy floor and .npy memmap datasets of the same items as `signals` and `tasks`."""
    reader = signals._open()
    signal_values = np.stack(reader.load_values([sid for sid, _ in signals._items]))
    first = tasks[0]["values"][0]
    names = list(first)
    rows = []
    for i in range(len(tasks)):
        item = tasks[i]
        rows.append(np.stack([item["values"][0][n].numpy() for n in names]))
    task_values = np.stack(rows)
    task_meta = [(tasks[i]["task_id"], tasks[i]["label"]) for i in range(len(tasks))]
    signal_meta = list(signals._items)

    class Signals(Dataset):
        def __init__(self, array, copy):
            self.array, self.copy = array, copy

        def __len__(self):
            return len(self.array)

        def __getitem__(self, i):
            row = np.array(self.array[i]) if self.copy else self.array[i]
            return {"signal_id": signal_meta[i][0], "record_id": signal_meta[i][1],
                    "values": torch.from_numpy(row)}

    class Tasks(Dataset):
        def __init__(self, array, copy):
            self.array, self.copy = array, copy

        def __len__(self):
            return len(self.array)

        def __getitem__(self, i):
            row = np.array(self.array[i]) if self.copy else self.array[i]
            return {"task_id": task_meta[i][0], "label": task_meta[i][1],
                    "values": [{n: torch.from_numpy(row[j]) for j, n in enumerate(names)}]}

    peers = {}
    for label, array, cls in (("signals", signal_values, Signals), ("tasks", task_values, Tasks)):
        path = os.path.join(scratch, f"{label}.npy")
        np.save(path, array)
        peers[label] = {"numpy": cls(array, False),
                        "npy memmap": cls(np.load(path, mmap_mode="r"), True)}
    return peers, {"signals": signal_values.shape, "tasks": task_values.shape}


def epoch_rates(torch, datasets, workers, epochs, collate, Sampler):
    """{peer: [items/s per timed epoch]}, epochs interleaved peer by peer after a warm-up."""
    from torch.utils.data import DataLoader
    loaders = {}
    for name, dataset in datasets.items():
        sampler = Sampler(dataset, seed=0, num_replicas=1, rank=0)
        loaders[name] = (sampler, DataLoader(dataset, batch_size=BATCH, sampler=sampler,
                                             collate_fn=collate, num_workers=workers,
                                             persistent_workers=workers > 0))
    rates = {name: [] for name in datasets}
    for epoch in range(epochs + 1):
        for name, (sampler, loader) in loaders.items():
            sampler.set_epoch(epoch)
            start = time.perf_counter()
            n = sum(len(batch["task_id" if "task_id" in batch else "signal_id"])
                    for batch in loader)
            seconds = time.perf_counter() - start
            if epoch > 0:
                rates[name].append(n / seconds)
    del loaders
    return rates


def pages(Sampler, SignalDataset, release):
    n = len(SignalDataset(release))
    orders = {"storage order": list(range(n))}
    for window in (8, 4):  # the default, and the window that keeps this corpus under 1.5x
        orders[f"timef.torch.Sampler (block 64, window {window})"] = list(Sampler(
            range(n), seed=0, block_size=64, window=window, num_replicas=1, rank=0))
    orders["uniform permutation"] = np.random.default_rng(0).permutation(n).tolist()
    out = {}
    for label, order in orders.items():
        signals = SignalDataset(release)
        reader = signals._open()
        before = reader.counters()["data_pages_decoded"]
        for i in order:
            signals[i]
        g = np.asarray(order, dtype=np.float64)
        out[label] = {"pages": reader.counters()["data_pages_decoded"] - before,
                      "neighbour_r": float(np.corrcoef(g[:-1], g[1:])[0, 1])}
    return out


def task_pages(Sampler, TaskDataset, release):
    """Data pages a TaskDataset(load_values=True) epoch decodes in batches of BATCH (as a
    DataLoader asks, one __getitems__ per batch), in task order and in the default Sampler's."""
    n = len(TaskDataset(release))
    orders = {"task order": list(range(n)),
              "timef.torch.Sampler (block 64, window 8)": list(Sampler(
                  range(n), seed=0, num_replicas=1, rank=0))}
    out = {}
    for label, order in orders.items():
        tasks = TaskDataset(release, load_values=True).preload()
        reader = tasks._open()
        before = reader.counters()["data_pages_decoded"]
        for at in range(0, n, BATCH):
            tasks.__getitems__(order[at:at + BATCH])
        out[label] = {"pages": reader.counters()["data_pages_decoded"] - before}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--size", default="medium", choices=["small", "medium", "large"])
    ap.add_argument("--epochs", type=int, default=3, help="timed epochs per loader")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import timef
    import torch
    from torch.utils.data import Dataset
    from timef.torch import Sampler, SignalDataset, TaskDataset, collate_pad
    torch.set_num_threads(1)

    work, corpus = ecg_corpus(build, args.size)
    release = supervised_copy(timef, work, corpus)
    report = {"corpus": {"size": args.size, "release": release}, "batch_size": BATCH,
              "epochs": args.epochs}

    # TaskDataset without values: the first epoch reads the target table (the items' targets).
    no_values = {}
    dataset = TaskDataset(release)
    from torch.utils.data import DataLoader
    sampler = Sampler(dataset, seed=0, num_replicas=1, rank=0)
    loader = DataLoader(dataset, batch_size=BATCH, sampler=sampler, collate_fn=collate_pad)
    for epoch, label in ((0, "first epoch"), (1, "later epoch")):
        sampler.set_epoch(epoch)
        start = time.perf_counter()
        n = sum(len(batch["task_id"]) for batch in loader)
        no_values[label] = n / (time.perf_counter() - start)
    report["task_no_values_items_per_s"] = no_values

    signals = SignalDataset(release)
    tasks = TaskDataset(release, load_values=True).preload()
    scratch = os.path.join(work, "train-input-npy")
    os.makedirs(scratch, exist_ok=True)
    peers, shapes = make_peers(torch, Dataset, signals, tasks, scratch)
    report["corpus"].update({"tasks": shapes["tasks"][0], "signals": shapes["signals"][0],
                             "values_per_signal": shapes["signals"][1]})
    # The datasets' default: decode lanes of the main process's reader (workers get 1 each).
    report["decode_threads_num_workers_0"] = signals._open()._decode_threads
    throughput = {}
    for label, mine in (("TaskDataset(load_values=True)", tasks), ("SignalDataset", signals)):
        kind = "tasks" if mine is tasks else "signals"
        for workers in (0, 2):
            datasets = {"timef": mine, **peers[kind]}
            rates = epoch_rates(torch, datasets, workers, args.epochs, collate_pad, Sampler)
            throughput[f"{label}, num_workers={workers}"] = {
                name: {"median": statistics.median(r), "epochs": r} for name, r in rates.items()}
    report["throughput_items_per_s"] = throughput
    report["pages"] = pages(Sampler, SignalDataset, release)
    report["task_pages"] = task_pages(Sampler, TaskDataset, release)
    report["load_average"] = os.getloadavg()[0]

    out_dir = args.out or os.path.join(os.path.dirname(__file__), "..", "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "train_input.json"), "w") as f:
        json.dump(report, f, indent=1)

    c = report["corpus"]
    print(f"## Training input from Python ({args.size} ECG corpus: {c['tasks']} records/tasks, "
          f"{c['signals']} signals of {c['values_per_signal']:,} float32; batch {BATCH}, "
          f"median of {args.epochs} epochs; {report['decode_threads_num_workers_0']} decode "
          f"threads with num_workers=0; load {report['load_average']:.1f})\n")
    print("| TaskDataset without values | items/s | target |")
    print("| --- | ---: | --- |")
    for label, rate in no_values.items():
        print(f"| {label} | {rate:,.0f} | ≥ 5,000 |")
    print("\n| workload (collate_pad) | timef | numpy floor | .npy memmap | timef / floor "
          "| target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for label, r in throughput.items():
        t, f, m = (r[k]["median"] for k in ("timef", "numpy", "npy memmap"))
        target = "≥ 0.5×" if label.endswith("=0") else "≥ 0.8×"
        print(f"| {label} | {t:,.0f}/s | {f:,.0f}/s | {m:,.0f}/s | {t / f:.2f}× | {target} |")
    ordered = report["pages"]["storage order"]["pages"]
    print("\n| SignalDataset epoch order | data pages decoded | × ordered | neighbour r |")
    print("| --- | ---: | ---: | ---: |")
    for label, p in report["pages"].items():
        print(f"| {label} | {p['pages']:,} | {p['pages'] / ordered:.2f} | "
              f"{p['neighbour_r']:.3f} |")
    ordered = report["task_pages"]["task order"]["pages"]
    print(f"\n| TaskDataset(load_values=True) epoch order, batches of {BATCH} "
          "| data pages decoded | × task order |")
    print("| --- | ---: | ---: |")
    for label, p in report["task_pages"].items():
        print(f"| {label} | {p['pages']:,} | {p['pages'] / ordered:.2f} |")


if __name__ == "__main__":
    main()
