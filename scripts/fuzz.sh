#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR (cmake -DTIMEF_BUILD_FUZZ=ON with clang) for
# SECONDS each (second argument, else $FUZZ_SECONDS, else 60). Seeds and input limits:
# scripts/fuzz-common.sh; each growing corpus stays in BUILD_DIR/fuzz-corpus/<target>/. Crashing inputs are written to BUILD_DIR/fuzz-artifacts/ and
# make the script fail. The executions of each run are printed (stat::number_of_executed_units).
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS] [TARGET...]
set -euo pipefail
build_dir=${1:?usage: scripts/fuzz.sh BUILD_DIR [SECONDS] [TARGET...]}
seconds=${2:-${FUZZ_SECONDS:-60}}
case $seconds in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2; exit 2 ;;
esac
[ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be positive" >&2; exit 2; }
shift $(($# >= 2 ? 2 : 1))
targets=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/fuzz-common.sh"
[ ${#targets[@]} -gt 0 ] || targets=("${fuzz_all_targets[@]}")
artifacts="$build_dir/fuzz-artifacts/"
mkdir -p "$artifacts"

for name in "${targets[@]}"; do
  target="$build_dir/fuzz/fuzz_$name"
  [ -x "$target" ] || { echo "fuzz.sh: $target not built" >&2; exit 1; }
  corpus="$build_dir/fuzz-corpus/$name"
  mkdir -p "$corpus"
  fuzz_seeds "$name" "$root"
  max_len=$(fuzz_max_len "$name")
  echo "fuzz_$name: ${seconds}s, corpus $corpus, seeds ${seeds[*]}"
  # -entropic=0: with tens of thousands of coverage features (the engine's many decode paths), the
  # entropic scheduler of clang 14's libFuzzer spends over 70 % of the run updating its frequency
  # tables; the classic scheduler runs about 10x more inputs in the same time.
  "$target" -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 \
    -entropic=0 -print_final_stats=1 -artifact_prefix="$artifacts$name-" "$corpus" "${seeds[@]}"
done
