#!/usr/bin/env bash
# Usage: fault_injection_test.sh TIMEF_BINARY FAULT_SHIM SCRATCH_DIR
# Injected I/O errors (fault_inject.c, through LD_PRELOAD) at every stage of a write — a values
# shard, each payload file, the catalog, the manifest and the directory fsyncs — with EIO and
# ENOSPC: every write exits 1 with one `timef: error:` line naming a file and the system's reason,
# commits nothing, removes its staging directory; the same write then succeeds and verifies.
# Then a reader meets a file it may not open (permission denied, as an unprivileged user): verify
# and cat exit 1 naming that file.
set -u
timef=$1
shim=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

faulted_write() {  # NAME MATCH OP ERRNO SKIP REASON
  local name=$1 match=$2 op=$3 code=$4 skip=$5 reason=$6 root=$scratch/$1
  mkdir -p "$root"
  # In the sanitizer build the shim is preloaded ahead of the ASan runtime; it only wraps
  # write/pwrite/fsync and forwards to the next definition, so ASan's link-order check is moot.
  TIMEF_FAULT_MATCH=$match TIMEF_FAULT_OP=$op TIMEF_FAULT_ERRNO=$code TIMEF_FAULT_SKIP=$skip \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    LD_PRELOAD=$shim "$timef" demo "$root" >"$scratch/$name.out" 2>"$scratch/$name.err"
  local status=$?
  [ "$status" -eq 1 ] || fail "$name: exit $status, expected 1 ($(head -c 300 "$scratch/$name.err"))"
  expect_in "$name" "$scratch/$name.err" "timef: error: "
  grep -qE "timef: error: /[^:]+" "$scratch/$name.err" || fail "$name: the error names no file"
  expect_in "$name" "$scratch/$name.err" "$reason"
  expect_not_in "$name" "$scratch/$name.err" "Stack Trace"
  expect_lines "$name" "$scratch/$name.err" 1
  [ -z "$(find "$root" -name manifest.json)" ] || fail "$name: a manifest was committed"
  [ -z "$(find "$root" -name '*.tmp-*')" ] || fail "$name: staging directory left"
  sed 's/^/  /' "$scratch/$name.err"
  # Nothing was left that stops the same write from succeeding.
  "$timef" demo "$root" >/dev/null 2>&1 || fail "$name: the write failed again without a fault"
  "$timef" verify "$root/timef/hello-world/1.0.0" >/dev/null 2>&1 || fail "$name: verify after rerun"
}

eio="Input/output error"
nospc="No space left on device"
faulted_write shard_first_write part-00000000.parquet write EIO 0 "$eio"
faulted_write shard_after_three part-00000003.parquet write ENOSPC 0 "$nospc"
faulted_write shard_fsync part-00000005.parquet fsync EIO 0 "$eio"
faulted_write text_payload_write text-00000000.parquet write EIO 0 "$eio"
faulted_write offsets_payload_fsync offsets-00000000.parquet fsync EIO 0 "$eio"
faulted_write catalog_write control.duckdb write ENOSPC 3 "$nospc"
# DuckDB reports a failed fsync without the reason.
faulted_write catalog_fsync control.duckdb fsync EIO 0 "fsync failed"
faulted_write manifest_fsync manifest.json fsync EIO 0 "$eio"

# ---- a file the reader may not open ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  release=$scratch/perm/timef/hello-world/1.0.0
  "$timef" demo "$scratch/perm" >/dev/null 2>&1 || fail "perm: demo"
  chmod -R a+rX "$scratch" && chmod 000 "$release"/time_series/*.parquet
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  for cmd in verify cat; do
    args=("$release")
    [ "$cmd" = cat ] && args=("$release" --signal 2)
    "${as_nobody[@]}" "$timef" "$cmd" "${args[@]}" >"$scratch/perm-$cmd.out" 2>"$scratch/perm-$cmd.err"
    status=$?
    [ "$status" -eq 1 ] || fail "perm $cmd: exit $status, expected 1"
    grep -qE "timef: error: .*/time_series/part-[0-9]+\.parquet" "$scratch/perm-$cmd.err" ||
      fail "perm $cmd: the error names no shard"
    expect_in "perm_$cmd" "$scratch/perm-$cmd.err" "Permission denied"
    sed 's/^/  /' "$scratch/perm-$cmd.err"
  done
else
  echo "fault_injection_test: permission checks need root and setpriv; skipped" >&2
fi
finish fault_injection_test
