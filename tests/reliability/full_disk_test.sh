#!/usr/bin/env bash
# Usage: full_disk_test.sh TIMEF_BINARY SCRATCH_DIR
# Writes hello-world into small tmpfs filesystems that fill up at different stages (16 KiB and
# 64 KiB fill up among the values shards; three and nine tenths of the release's size in the
# catalog or the hashing) and into a read-only one: every write must exit 1 with one
# `timef: error:` line naming a file (no native stack trace), commit nothing and remove its staging
# directory.
# Mounting needs root (CI runs as root); elsewhere the test reports itself skipped (exit 77).
set -u
timef=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "full_disk_test: needs root to mount tmpfs; skipped" >&2
  exit 77
fi
mounts=()
cleanup() { for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done; }
trap cleanup EXIT

"$timef" demo "$scratch/pristine" >/dev/null 2>&1 || fail "undisturbed demo write failed"
# The demo also writes the composed releases; the budgets below are fractions of hello-world 1.0.0,
# the first release it writes, so that no release fits.
total=$(du -sb "$scratch/pristine/timef/hello-world/1.0.0" | cut -f1)
echo "hello-world takes $total bytes"

check_failed_write() {  # NAME MOUNTPOINT
  local name=$1 mnt=$2
  run "$name" 1 demo "$mnt/registry"
  expect_in "$name" "$scratch/$name.err" "timef: error: "
  grep -qE "timef: error: /[^:]+" "$scratch/$name.err" || fail "$name: the error names no file"
  expect_not_in "$name" "$scratch/$name.err" "Stack Trace"
  expect_lines "$name" "$scratch/$name.err" 1
  [ -z "$(find "$mnt" -name manifest.json 2>/dev/null)" ] || fail "$name: a manifest was committed"
  [ -z "$(find "$mnt" -name '*.tmp-*' 2>/dev/null)" ] || fail "$name: staging directory left"
  [ ! -e "$mnt/registry/timef/hello-world/1.0.0" ] || fail "$name: release directory exists"
  sed 's/^/  /' "$scratch/$name.err"
}

for size_kb in 16 64 $((total * 3 / 10 / 1024)) $((total * 9 / 10 / 1024)); do
  mnt=$scratch/full-$size_kb
  mkdir -p "$mnt"
  mount -t tmpfs -o "size=${size_kb}k" tmpfs "$mnt" || { fail "cannot mount tmpfs"; continue; }
  mounts+=("$mnt")
  check_failed_write "full_${size_kb}k" "$mnt"
done

mnt=$scratch/read-only
mkdir -p "$mnt"
if mount -t tmpfs -o size=16m tmpfs "$mnt"; then
  mounts+=("$mnt")
  mkdir -p "$mnt/registry"
  mount -o remount,ro "$mnt" || fail "cannot remount read-only"
  check_failed_write read_only "$mnt"
else
  fail "cannot mount tmpfs"
fi
finish full_disk_test
