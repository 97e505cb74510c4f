#!/usr/bin/env python3
"""Pairs timef and DuckDB results of parquet_reader_bench's JSON output and prints the ratios.

Usage: bench/parquet/ratios.py bench/results/parquet_reader_bench.json

Each BM_<case>_Timef/<args> is matched with BM_<case>_DuckDb/<args> (same file, same column, run
back to back). With repetitions, the medians are used. Ratio = DuckDB time / timef time, so a
value above 1 means timef decodes faster. CPU time counts the calling thread only; DuckDB runs
with one thread, so both sides are single-core.
"""
import json
import statistics
import sys


def main(path):
    with open(path) as f:
        report = json.load(f)
    runs = {}
    for b in report["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        runs.setdefault(b["run_name"], []).append(b)
    print("| case | timef ms (CPU) | DuckDB ms (CPU) | ratio CPU | ratio wall | timef MB/s | file MB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, timef in runs.items():
        if "_Timef/" not in name:
            continue
        duck = runs.get(name.replace("_Timef/", "_DuckDb/"))
        if not duck:
            continue

        def median(rs, key):
            return statistics.median(r[key] for r in rs)

        t_cpu, d_cpu = median(timef, "cpu_time"), median(duck, "cpu_time")
        t_wall, d_wall = median(timef, "real_time"), median(duck, "real_time")
        rate = median(timef, "bytes_per_second") / 1e6 if "bytes_per_second" in timef[0] else 0
        file_mb = timef[0].get("file_MB", "")
        file_mb = f"{file_mb:.0f}" if file_mb != "" else ""
        print(f"| {timef[0].get('label', name)} | {t_cpu:.1f} | {d_cpu:.1f} | "
              f"{d_cpu / t_cpu:.2f} | {d_wall / t_wall:.2f} | {rate:.0f} | {file_mb} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
