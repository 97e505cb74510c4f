#!/usr/bin/env bash
# Interop of timef's Parquet engine with hyparquet and parquet-wasm (Node) and DuckDB:
#  - files parquet-wasm writes (data page v2, delta encodings, BYTE_STREAM_SPLIT, lists with
#    nulls, zstd/snappy/gzip/lz4/none) are dumped by timef, hyparquet and DuckDB alike;
#  - `timef parquet rewrite` of each, for every encoding option, zstd and none, v1 and v2 pages,
#    is read back by timef, hyparquet, parquet-wasm and DuckDB (read_parquet through its C API, in
#    parquet_duckdb_oracle) with the original rows (see interop_readers.sh for the comparison).
# Usage: parquet_interop_test.sh TIMEF_BINARY ORACLE_BINARY SCRATCH_DIR
set -u
timef=$1
oracle=$2
scratch=$3
node_dir="$(cd "$(dirname "$0")/node" && pwd)"
# shellcheck source=interop_readers.sh
source "$(dirname "$0")/interop_readers.sh"
rm -rf "$scratch" && mkdir -p "$scratch"

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
originals=()
rewrites=()
while read -r name; do
  file="$scratch/$name"
  originals+=("$file")
  n=0
  for opts in "${options[@]}"; do
    out="$scratch/${name%.parquet}.rewrite$n.parquet"
    # shellcheck disable=SC2086
    "$timef" parquet rewrite "$file" "$out" $opts 2>"$out.err" || fail "rewrite $name with $opts: $(cat "$out.err")"
    rewrites+=("$out")
    n=$((n + 1))
  done
done <"$scratch/fixtures.txt"

read_all timef hyparquet parquet-wasm duckdb -- "${originals[@]}" "${rewrites[@]}"

for file in "${originals[@]}"; do
  # parquet-wasm's own reading is the reference for what the file holds.
  expected="$file.parquet-wasm"
  expect_rows "$file" "$expected" timef hyparquet duckdb
  for out in "${rewrites[@]}"; do
    [[ "$out" == "${file%.parquet}".rewrite* ]] && expect_rows "$out" "$expected" timef hyparquet parquet-wasm duckdb
  done
done
[ "${#rewrites[@]}" -eq $((${#originals[@]} * ${#options[@]})) ] || fail "a rewrite is missing"

[ "$failures" -eq 0 ] && echo "all parquet interop checks passed"
exit $((failures > 0))
