#!/usr/bin/env bash
# Runs the libFuzzer targets built in BUILD_DIR (cmake -DTIMEF_BUILD_FUZZ=ON with clang) for
# FUZZ_SECONDS each (default 60). Seeds: fuzz/corpus/ plus the Parquet files the test suite keeps.
# Crashing inputs are written to BUILD_DIR/fuzz-artifacts/. Usage: scripts/fuzz.sh BUILD_DIR
set -euo pipefail
build_dir=${1:?usage: scripts/fuzz.sh BUILD_DIR}
seconds=${FUZZ_SECONDS:-60}
root="$(cd "$(dirname "$0")/.." && pwd)"
target="$build_dir/fuzz/fuzz_parquet_read"
[ -x "$target" ] || { echo "fuzz.sh: $target not built" >&2; exit 1; }

corpus="$build_dir/fuzz-corpus/parquet_read"
artifacts="$build_dir/fuzz-artifacts/"
mkdir -p "$corpus" "$artifacts"
seeds=()
for dir in "$root/fuzz/corpus" "$root/tests/parquet/data"; do
  [ -d "$dir" ] && seeds+=("$dir")
done
echo "fuzz_parquet_read: ${seconds}s, corpus $corpus, seeds ${seeds[*]}"
"$target" -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
  -artifact_prefix="$artifacts" "$corpus" "${seeds[@]}"
