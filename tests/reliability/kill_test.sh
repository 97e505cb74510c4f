#!/usr/bin/env bash
# Usage: kill_test.sh TIMEF_BINARY SCRATCH_DIR [KILLS [RELEASE WRITER [ARGS...]]]
# SIGKILLs a real writer (`timef demo ROOT`, or `WRITER ARGS... ROOT` writing the release
# ROOT/RELEASE, e.g. the bench corpus: `bench/ecg/1.0.0 timef_python_peer write small`) at KILLS
# points spread evenly over one write's
# duration (values, payloads, catalog, audit, hashing, manifest, fsync, rename all fall inside it)
# and checks after each kill that the registry holds either no release or a complete one that
# `timef verify` passes, that nothing but `*.tmp-*` staging directories was left behind, and that
# the same write then succeeds. KILLS defaults to 24; CTest passes 16 (6 under the sanitizers); the long run uses 200+.
# Leftover staging directories are expected after a kill; removing them is `timef gc`'s job
# (docs/format.md §3.3: never automatic): after each kill `timef gc --older-than 0` must remove
# every one of them and leave a committed release verifying.
set -u
timef=$1
scratch=$2
kills=${3:-24}
release_rel=${4:-timef/hello-world/1.0.0}
if [ $# -ge 5 ]; then
  writer=("${@:5}")
else
  writer=("$timef" demo)
fi
dataset_rel=$(dirname "$release_rel")
org_rel=$(dirname "$dataset_rel")
version=$(basename "$release_rel")
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

# The slower of two undisturbed writes sets the time scale (in microseconds).
duration_us=0
for run in 1 2; do
  t0=$(date +%s%N)
  "${writer[@]}" "$scratch/timing-$run" >/dev/null 2>&1 || fail "undisturbed write failed"
  t1=$(date +%s%N)
  [ $(((t1 - t0) / 1000)) -gt "$duration_us" ] && duration_us=$(((t1 - t0) / 1000))
done
echo "one write takes ${duration_us} us; killing it at $kills points"

outcome_none=0
outcome_complete=0
leftover_staging=0
gc_removed=0
for i in $(seq 1 "$kills"); do
  root=$scratch/root-$i
  mkdir -p "$root"
  # Stratified delays over [0, 1.2 x duration) with a per-run offset, so every stage is hit.
  delay_us=$(((duration_us * 12 / 10) * (i - 1) / kills + (RANDOM % (duration_us / kills + 1))))
  "${writer[@]}" "$root" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  release=$root/$release_rel

  # Only staging directories may be left besides a committed release and its parent folders.
  while IFS= read -r path; do
    case "$path" in
      "$root" | "$root/$org_rel" | "$root/$dataset_rel") ;;
      "$release" | "$release"/*) ;;
      "$root/$dataset_rel/$version.tmp-"*) ;;
      # The composed demo releases written after hello-world 1.0.0, committed or staged.
      "$root/timef/hello-child" | "$root/timef/hello-child/1.0.0" | "$root/timef/hello-child/1.0.0"*) ;;
      "$root/timef/hello-world/1.1.0" | "$root/timef/hello-world/1.1.0"*) ;;
      # The Zarr demo release, written last (committed or staged).
      "$root/timef/hello-zarr" | "$root/timef/hello-zarr/1.0.0" | "$root/timef/hello-zarr/1.0.0"*) ;;
      *) fail "kill $i (${delay_us} us): unexpected path left behind: ${path#"$root"/}" ;;
    esac
  done < <(find "$root" -mindepth 0)
  staging=$(find "$root/$dataset_rel" -maxdepth 1 -name "$version.tmp-*" 2>/dev/null | wc -l)
  leftover_staging=$((leftover_staging + staging))

  if [ -e "$release" ]; then
    outcome_complete=$((outcome_complete + 1))
    [ -f "$release/manifest.json" ] || fail "kill $i: release directory without manifest.json"
    "$timef" verify "$release" >/dev/null 2>"$scratch/verify-$i.err" ||
      { fail "kill $i (${delay_us} us): the committed release does not verify"; cat "$scratch/verify-$i.err" >&2; }
  else
    outcome_none=$((outcome_none + 1))
  fi

  # timef gc removes every staging directory the kill left (of any release the writer was
  # writing), and nothing else.
  all_staging=$(find "$root" -mindepth 3 -maxdepth 3 -type d -name '*.tmp-*' | wc -l)
  if [ "$all_staging" -gt 0 ] || [ -e "$release" ]; then
    "$timef" gc "$root" --older-than 0 >"$scratch/gc-$i.out" 2>"$scratch/gc-$i.err" ||
      { fail "kill $i: timef gc failed"; cat "$scratch/gc-$i.err" >&2; }
    removed=$(grep -c '^removed ' "$scratch/gc-$i.out")
    [ "$removed" -eq "$all_staging" ] ||
      fail "kill $i: timef gc removed $removed directories, the kill left $all_staging"
    left=$(find "$root" -name '*.tmp-*' | wc -l)
    [ "$left" -eq 0 ] || fail "kill $i: $left staging paths left after timef gc"
    if [ -e "$release" ]; then
      "$timef" verify "$release" >/dev/null 2>&1 || fail "kill $i: the release does not verify after gc"
    fi
    gc_removed=$((gc_removed + removed))
  fi

  # The same write succeeds afterwards, and the result verifies.
  "${writer[@]}" "$root" >/dev/null 2>"$scratch/rerun-$i.err" ||
    { fail "kill $i: re-running the write failed"; cat "$scratch/rerun-$i.err" >&2; }
  "$timef" verify "$release" >/dev/null 2>&1 || fail "kill $i: the re-run release does not verify"
  rm -rf "$root"
done
echo "kills: $kills; no release: $outcome_none; complete release: $outcome_complete;" \
  "staging directories left: $leftover_staging; removed by timef gc: $gc_removed"
# The early kills must land before the commit, or the test proved nothing. (How many land after
# it depends on the machine's load, so that count is reported, not asserted.)
[ "$outcome_none" -gt 0 ] || fail "no kill landed before the commit"
finish kill_test
