#!/usr/bin/env bash
# Interop of timef's Parquet engine with hyparquet and parquet-wasm (Node):
#  - files parquet-wasm writes (data page v2, delta encodings, BYTE_STREAM_SPLIT, lists with
#    nulls, zstd/snappy/gzip/lz4/none) are dumped by timef, hyparquet and parquet-wasm alike;
#  - `timef parquet rewrite` of each, for every encoding option, zstd and none, v1 and v2 pages,
#    is read back by all three with the original rows (floats compared as their dump text, which
#    is bit-exact apart from NaN payloads).
# Usage: parquet_interop_test.sh TIMEF_BINARY SCRATCH_DIR
set -u
timef=$1
scratch=$2
node_dir="$(cd "$(dirname "$0")/node" && pwd)"
rm -rf "$scratch" && mkdir -p "$scratch"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# same_rows FILE EXPECTED: every reader's dump of FILE equals EXPECTED.
same_rows() {
  local file=$1 expected=$2
  "$timef" parquet dump "$file" >"$file.timef" 2>"$file.err" || fail "timef dump $file: $(cat "$file.err")"
  cmp -s "$file.timef" "$expected" || fail "timef rows of $file differ: $(diff "$file.timef" "$expected" | head -3)"
  for reader in hyparquet parquet-wasm; do
    node "$node_dir/dump.mjs" "$reader" "$file" >"$file.$reader" 2>"$file.err" ||
      fail "$reader cannot read $file: $(head -5 "$file.err")"
    cmp -s "$file.$reader" "$expected" ||
      fail "$reader rows of $file differ: $(diff "$file.$reader" "$expected" | head -3)"
  done
}

node "$node_dir/write_fixtures.mjs" "$scratch" >"$scratch/fixtures.txt" || { echo "cannot write fixtures" >&2; exit 1; }
[ "$(wc -l <"$scratch/fixtures.txt")" -ge 5 ] || fail "too few fixtures"

# The option sets of the rewrites; columns: id i32 u16 x f s t flag xs (see write_fixtures.mjs).
options=(
  "--compression none"
  "--compression zstd --level 3 --data-page-version 2"
  "--encoding id=DELTA_BINARY_PACKED --encoding i32=DELTA_BINARY_PACKED --encoding u16=DELTA_BINARY_PACKED --encoding xs=DELTA_BINARY_PACKED --encoding x=BYTE_STREAM_SPLIT --encoding f=BYTE_STREAM_SPLIT --encoding s=DELTA_BYTE_ARRAY --encoding t=DELTA_LENGTH_BYTE_ARRAY --encoding flag=RLE --compression none --page-size 1024"
  "--encoding id=RLE_DICTIONARY --encoding i32=RLE_DICTIONARY --encoding x=RLE_DICTIONARY --encoding f=RLE_DICTIONARY --encoding s=RLE_DICTIONARY --encoding t=RLE_DICTIONARY --encoding xs=RLE_DICTIONARY --data-page-version 2 --level 1 --row-group-rows 600"
  "--encoding s=DELTA_LENGTH_BYTE_ARRAY --encoding t=DELTA_BYTE_ARRAY --encoding x=BYTE_STREAM_SPLIT --data-page-version 2 --compression none --page-size 300"
)
while read -r name; do
  file="$scratch/$name"
  # parquet-wasm's own reading is the reference for what the file holds.
  node "$node_dir/dump.mjs" parquet-wasm "$file" >"$file.expected" || fail "parquet-wasm cannot read $file"
  same_rows "$file" "$file.expected"
  n=0
  for opts in "${options[@]}"; do
    out="$scratch/${name%.parquet}.rewrite$n.parquet"
    # shellcheck disable=SC2086
    "$timef" parquet rewrite "$file" "$out" $opts 2>"$out.err" || fail "rewrite $name with $opts: $(cat "$out.err")"
    [ -f "$out" ] && same_rows "$out" "$file.expected"
    n=$((n + 1))
  done
done <"$scratch/fixtures.txt"

[ "$failures" -eq 0 ] && echo "all parquet interop checks passed"
exit $((failures > 0))
