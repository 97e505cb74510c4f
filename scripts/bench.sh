#!/usr/bin/env bash
# `make bench`: runs every benchmark binary of the build and keeps their JSON output in
# bench/results/. QUICK=1 shortens every run (CI proves the benchmarks work, not their speed).
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results"
mkdir -p "$out"
shopt -s nullglob
benches=("$build"/bench/*)
if [ ${#benches[@]} -eq 0 ]; then
  echo "no benchmarks yet"
  exit 0
fi
min_time=()
[ "${QUICK:-0}" = 1 ] && min_time=(--benchmark_min_time=0.01)
for b in "${benches[@]}"; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  echo "== $name" >&2
  "$b" "${min_time[@]}" --benchmark_out="$out/$name.json" --benchmark_out_format=json
done
echo "results in $out" >&2
