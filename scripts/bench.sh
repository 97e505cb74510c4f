#!/usr/bin/env bash
# `make bench`: runs the benchmark suite (build/bench-suite/timef_bench_suite: every corpus and
# workload with DuckDB and raw-mmap peers in the same run; JSON + Markdown report in
# bench/results/, latest.json and latest.md) and then every Google Benchmark program of the build
# (bench/results/<program>.json).
#
# QUICK=1 runs the suite in --quick mode only (small corpora, fewer repeats; < 2 minutes): CI
# proves the suite works, not its speed. The Google Benchmark programs are skipped then, because
# some of them (catalog_bench) need minutes for a single iteration.
# SUITE_ARGS passes extra arguments to the suite, e.g. SUITE_ARGS="--size medium".
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results"
mkdir -p "$out"

suite="$build/bench-suite/timef_bench_suite"
suite_status=0
if [ -x "$suite" ]; then
  args=(--out "$out")
  [ "${QUICK:-0}" = 1 ] && args+=(--quick)
  # shellcheck disable=SC2206  # SUITE_ARGS is split on purpose
  extra=(${SUITE_ARGS:-})
  echo "== timef_bench_suite ${args[*]} ${extra[*]}" >&2
  start=$(date +%s)
  "$suite" "${args[@]}" "${extra[@]}" || suite_status=$?
  echo "suite took $(( $(date +%s) - start )) s; report in $out/latest.md" >&2
else
  echo "benchmark suite not built (needs the writer and reader modules)" >&2
fi

# Python against C++ on the ECG corpus (bench/python/bench_python.py), then the training-input
# workload on it, when the module is built.
if [ -x "$build/bench-suite/timef_python_peer" ] && [ -d "$build/python/timef" ]; then
  py_args=(--build "$build" --out "$out")
  if [ "${QUICK:-0}" = 1 ]; then py_args+=(--size small --picks 50 --rounds 1); fi
  echo "== bench_python.py ${py_args[*]}" >&2
  /usr/bin/python3 "$root/bench/python/bench_python.py" "${py_args[@]}" >"$out/python.md" ||
    suite_status=$?
  cat "$out/python.md" >&2
  # Training input (timef.torch DataLoaders against numpy-array and .npy-memmap peers) on the
  # same ECG corpus (bench/python/train_input.py).
  train_args=(--build "$build" --out "$out")
  if [ "${QUICK:-0}" = 1 ]; then train_args+=(--size small --epochs 1); fi
  echo "== train_input.py ${train_args[*]}" >&2
  /usr/bin/python3 "$root/bench/python/train_input.py" "${train_args[@]}" >"$out/train_input.md" ||
    suite_status=$?
  cat "$out/train_input.md" >&2
fi

# Import throughput (issue 33): EDF and WFDB 212 files written in the run, imported with 1 and 2
# jobs, against EDFlib's decode of the same EDF files (bench/import). The full bench also imports
# one EDF file of IMPORT_MEMORY_GIB GiB (default 2; 0 skips it) for the peak RSS; the quick one
# does not write it.
import_bench="$build/bench-suite/timef_import_bench"
if [ -x "$import_bench" ]; then
  import_args=(--out "$out")
  if [ "${QUICK:-0}" = 1 ]; then
    import_args+=(--quick)
  else
    import_args+=(--size medium --repeats 3 --memory-gib "${IMPORT_MEMORY_GIB:-2}")
  fi
  echo "== timef_import_bench ${import_args[*]}" >&2
  "$import_bench" "${import_args[@]}" >&2 || suite_status=$?
fi

# `timef view` range API (issue 36): overview and 10-second window of a 21.6 M-step signal
# against decoding it whole (bench/view; --quick: 2.16 M steps).
view_bench="$build/bench-suite/timef_view_bench"
if [ -x "$view_bench" ]; then
  view_args=(--out "$out")
  [ "${QUICK:-0}" = 1 ] && view_args+=(--quick)
  echo "== timef_view_bench ${view_args[*]}" >&2
  "$view_bench" "${view_args[@]}" >&2 || suite_status=$?
fi

# Remote reads over HTTP (issue 35): the ECG corpus served by nginx on loopback; scan, random
# series (latency, bytes against the pages needed) and pull against local reads and curl
# (bench/remote; --quick: the small corpus).
remote_bench="$build/bench-suite/timef_remote_bench"
if [ -x "$remote_bench" ]; then
  remote_args=(--out "$out")
  [ "${QUICK:-0}" = 1 ] && remote_args+=(--quick)
  echo "== timef_remote_bench ${remote_args[*]}" >&2
  "$remote_bench" "${remote_args[@]}" >&2 || suite_status=$?
fi

if [ "${QUICK:-0}" = 1 ]; then
  exit "$suite_status"
fi

shopt -s nullglob
benches=("$build"/bench/*)
for b in "${benches[@]}"; do
  [ -f "$b" ] && [ -x "$b" ] || continue  # programs only, not CMake's directories
  name=$(basename "$b")
  echo "== $name" >&2
  "$b" --benchmark_out="$out/$name.json" --benchmark_out_format=json
done
echo "results in $out" >&2
exit "$suite_status"
