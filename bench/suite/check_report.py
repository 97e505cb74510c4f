#!/usr/bin/env python3
"""Runs timef_bench_suite --quick into a scratch directory and checks its report (issue 6).

Fails when a required workload, field, peer figure or output file is missing, when a figure is
not a positive number, or when the suite reported a failed workload. Speed is not judged.

usage: check_report.py --suite BIN        run the quick suite, then check
       check_report.py --report DIR       check an existing results directory
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

REQUIRED_WORKLOADS = {"write", "scan", "random_series", "batched_random", "window",
                      "task_hydration", "verify"}
# (corpus, workload, peer) figures issue 6 asks for explicitly.
REQUIRED_PEERS = [("ecg", "scan", "duckdb"), ("tsqa", "scan", "duckdb"),
                  ("ecg", "random_series", "raw_mmap"), ("tsqa", "random_series", "raw_mmap"),
                  ("ecg", "random_series", "duckdb")]
REQUIRED_ROWS = [("ecg", "write_peak_rss"), ("ecg", "write_throughput"), ("ecg", "window"),
                 ("tsqa", "window"), ("tasks", "task_hydration"), ("long", "window")]


def positive(value):
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def check(out_dir):
    problems = []
    latest = os.path.join(out_dir, "latest.json")
    if not os.path.exists(latest):
        return ["no latest.json in " + out_dir]
    if not glob.glob(os.path.join(out_dir, "suite-*.json")):
        problems.append("no timestamped suite-*.json")
    md_path = os.path.join(out_dir, "latest.md")
    if not os.path.exists(md_path) or "| corpus | workload |" not in open(md_path).read():
        problems.append("latest.md missing or without the results table")
    report = json.load(open(latest))
    for key in ("machine", "git", "parameters", "results", "corpora"):
        if key not in report:
            problems.append("missing top-level key " + key)
    for key in ("cpu_model", "cores", "ram_bytes"):
        if key not in report.get("machine", {}):
            problems.append("machine lacks " + key)
    if "revision" not in report.get("git", {}):
        problems.append("git lacks revision")
    if report.get("failures", 1) != 0:
        problems.append("suite reported failures: %s" %
                        [c.get("errors", c.get("error")) for c in report.get("corpora", [])])
    rows = {}
    for row in report.get("results", []):
        where = "%s/%s" % (row.get("corpus"), row.get("workload"))
        for key in ("corpus", "workload", "unit", "timef", "peers", "ratio"):
            if key not in row:
                problems.append(where + " lacks " + key)
        timef = row.get("timef") or {}
        for stat in ("median", "min", "max"):
            if not positive(timef.get(stat)):
                problems.append("%s timef.%s is %r" % (where, stat, timef.get(stat)))
        if positive(timef.get("min")) and not timef["min"] <= timef["median"] <= timef["max"]:
            problems.append(where + " timef min <= median <= max fails")
        for peer in ("duckdb", "raw_mmap"):
            if peer not in row.get("peers", {}) or peer not in row.get("ratio", {}):
                problems.append("%s lacks peer key %s" % (where, peer))
                continue
            summary, ratio = row["peers"][peer], row["ratio"][peer]
            if (summary is None) != (ratio is None):
                problems.append("%s: %s summary and ratio disagree" % (where, peer))
            if ratio is not None and not positive(ratio):
                problems.append("%s ratio.%s is %r" % (where, peer, ratio))
        rows[(row.get("corpus"), row.get("workload"))] = row
    missing = REQUIRED_WORKLOADS - {w for (_, w) in rows}
    if missing:
        problems.append("missing workloads: " + ", ".join(sorted(missing)))
    for corpus, workload in REQUIRED_ROWS:
        if (corpus, workload) not in rows:
            problems.append("missing row %s/%s" % (corpus, workload))
    for corpus, workload, peer in REQUIRED_PEERS:
        row = rows.get((corpus, workload))
        if row is None or row["ratio"].get(peer) is None:
            problems.append("%s/%s has no ratio to %s" % (corpus, workload, peer))
    for corpus in report.get("corpora", []):
        sizes = corpus.get("sizes", {})
        if not sizes.get("by_encoding"):
            problems.append("%s: no bytes per encoding" % corpus.get("corpus"))
        for spec in sizes.get("by_spec_type", []):
            if not positive(spec.get("shard_bytes")) or not positive(spec.get("raw_value_bytes")):
                problems.append("%s/%s: empty sizes" % (corpus.get("corpus"), spec.get("spec_type")))
    return problems


def main():
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--suite")
    group.add_argument("--report")
    args = parser.parse_args()
    if args.report:
        problems = check(args.report)
    else:
        with tempfile.TemporaryDirectory(prefix="timef-suite-check-") as tmp:
            out = os.path.join(tmp, "results")
            run = subprocess.run([args.suite, "--quick", "--out", out, "--work",
                                  os.path.join(tmp, "work")], timeout=240)
            problems = check(out)
            if run.returncode != 0:
                problems.insert(0, "suite exited with %d" % run.returncode)
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print("report OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
