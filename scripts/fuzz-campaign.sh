#!/usr/bin/env bash
# A long fuzz campaign (issue 16): each target runs RUNS executions in the fast build (libFuzzer +
# UBSan, -O2: several times the inputs per second of the ASan build), then every input its corpus
# kept is replayed once through the address,undefined build, so ASan still sees each of them.
# Crashes of either pass land in FAST_DIR/fuzz-artifacts/ and fail the script. One line per target
# and pass with the executions (stat::number_of_executed_units) goes to FAST_DIR/campaign.log.
# Usage: scripts/fuzz-campaign.sh FAST_DIR ASAN_DIR RUNS [TARGET...]
# (`make fuzz-campaign` builds both directories first.)
set -euo pipefail
fast_dir=${1:?usage: scripts/fuzz-campaign.sh FAST_DIR ASAN_DIR RUNS [TARGET...]}
asan_dir=${2:?usage: scripts/fuzz-campaign.sh FAST_DIR ASAN_DIR RUNS [TARGET...]}
runs=${3:?usage: scripts/fuzz-campaign.sh FAST_DIR ASAN_DIR RUNS [TARGET...]}
case $runs in
  '' | *[!0-9]*) echo "fuzz-campaign.sh: RUNS must be a positive integer, got '$runs'" >&2; exit 2 ;;
esac
shift 3
targets=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/fuzz-common.sh"
[ ${#targets[@]} -gt 0 ] || targets=("${fuzz_all_targets[@]}")
artifacts="$fast_dir/fuzz-artifacts/"
log="$fast_dir/campaign.log"
mkdir -p "$artifacts"

executed() { sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1; }

for name in "${targets[@]}"; do
  fast="$fast_dir/fuzz/fuzz_$name"
  asan="$asan_dir/fuzz/fuzz_$name"
  for target in "$fast" "$asan"; do
    [ -x "$target" ] || { echo "fuzz-campaign.sh: $target not built" >&2; exit 1; }
  done
  corpus="$fast_dir/fuzz-corpus/$name"
  mkdir -p "$corpus"
  fuzz_seeds "$name" "$root"
  max_len=$(fuzz_max_len "$name")
  out="$fast_dir/campaign-$name.out"
  start=$(date +%s)
  echo "fuzz_$name: $runs runs, corpus $corpus"
  "$fast" -runs="$runs" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 -entropic=0 \
    -print_final_stats=1 -artifact_prefix="$artifacts$name-" "$corpus" "${seeds[@]}" \
    >"$out" 2>&1 || { tail -40 "$out"; echo "fuzz_$name: crash, see $out" >&2; exit 1; }
  fast_runs=$(executed "$out")
  seconds=$(($(date +%s) - start))
  kept=$(find "$corpus" -type f | wc -l)
  replay="$fast_dir/campaign-$name-asan.out"
  # -runs=0: load (execute) every corpus input once, then stop.
  "$asan" -runs=0 -max_len="$max_len" -rss_limit_mb=2048 -timeout=60 \
    -artifact_prefix="$artifacts$name-asan-" "$corpus" >"$replay" 2>&1 ||
    { tail -40 "$replay"; echo "fuzz_$name: ASan replay failed, see $replay" >&2; exit 1; }
  line="fuzz_$name: $fast_runs executions in ${seconds}s (UBSan -O2), corpus $kept inputs replayed under ASan+UBSan: no crash"
  echo "$line" | tee -a "$log"
done
