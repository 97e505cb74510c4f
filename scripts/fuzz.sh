#!/usr/bin/env bash
# Runs the libFuzzer targets built in BUILD_DIR (cmake -DTIMEF_BUILD_FUZZ=ON with clang) for
# SECONDS each (second argument, else $FUZZ_SECONDS, else 60). Seeds: fuzz/corpus/ plus the
# Parquet files the test suite keeps; the growing corpus stays in BUILD_DIR/fuzz-corpus/.
# Crashing inputs are written to BUILD_DIR/fuzz-artifacts/ and make the script fail.
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS]
set -euo pipefail
build_dir=${1:?usage: scripts/fuzz.sh BUILD_DIR [SECONDS]}
seconds=${2:-${FUZZ_SECONDS:-60}}
case $seconds in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2; exit 2 ;;
esac
[ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be positive" >&2; exit 2; }
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
# -entropic=0: with tens of thousands of coverage features (the engine's many decode paths), the
# entropic scheduler of clang 14's libFuzzer spends over 70 % of the run updating its frequency
# tables; the classic scheduler runs about 10x more inputs in the same time.
"$target" -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
  -entropic=0 -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" "${seeds[@]}"
