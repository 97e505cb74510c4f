# shellcheck shell=bash disable=SC2154  # timef, oracle, node_dir, scratch: set by the caller
# Sourced by the Parquet interop tests: runs independent readers over a batch of files and compares
# their rows. Every reader prints rows in the JSON-lines format of `timef parquet dump`, so rows
# compare with cmp: floats as their shortest round-trip text (bit-exact apart from NaN payloads),
# -0.0, ±Infinity and NaN spelled out, nulls, lists, strings, binary and UUIDs as hex, 64-bit
# integers in full. The caller sets: timef (CLI binary), oracle (parquet_duckdb_oracle binary),
# node_dir (tests/interop/node) and scratch (its fresh scratch directory).
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# read_all READER... -- FILE...: writes each READER's rows of each FILE to FILE.READER (no such
# file when the reader fails on FILE; its errors go to $scratch/READER.log). READER is timef,
# duckdb, hyparquet or parquet-wasm. The readers run in parallel, each over the whole batch, so
# Node and DuckDB start once per batch rather than once per file.
read_all() {
  local readers=() pids=() reader file
  while [ "$1" != "--" ]; do
    readers+=("$1")
    shift
  done
  shift
  local files=("$@")
  for reader in "${readers[@]}"; do
    for file in "${files[@]}"; do rm -f "$file.$reader"; done
    case $reader in
      timef)
        for file in "${files[@]}"; do
          "$timef" parquet dump "$file" >"$file.timef" 2>>"$scratch/timef.log" ||
            { echo "$file: (exit $?)" >>"$scratch/timef.log"; rm -f "$file.timef"; }
        done &
        ;;
      duckdb) "$oracle" dump --each "${files[@]}" 2>>"$scratch/duckdb.log" & ;;
      hyparquet | parquet-wasm)
        node "$node_dir/dump.mjs" "$reader" --each "${files[@]}" 2>>"$scratch/$reader.log" &
        ;;
      *)
        echo "read_all: unknown reader $reader" >&2
        exit 2
        ;;
    esac
    pids+=($!)
  done
  wait "${pids[@]}"
}

# expect_rows FILE EXPECTED READER...: each READER's rows of FILE (from read_all) equal EXPECTED.
expect_rows() {
  local file=$1 expected=$2 reader
  shift 2
  [ -s "$expected" ] || {
    fail "no expected rows for $file ($expected)"
    return
  }
  for reader in "$@"; do
    if [ ! -f "$file.$reader" ]; then
      fail "$reader cannot read $file: $(grep -F -A4 "$file:" "$scratch/$reader.log" | head -5)"
    elif ! cmp -s "$file.$reader" "$expected"; then
      fail "$reader rows of $file differ from $expected: $(diff "$file.$reader" "$expected" | head -4 | cut -c1-400)"
    fi
  done
}
