#!/usr/bin/env bash
# `timef parquet rewrite` of files DuckDB writes, read back by hyparquet and parquet-wasm (Node),
# DuckDB and timef itself. The inputs (snappy v1, zstd v2 and uncompressed pages; integers of every
# width, signed and unsigned, int64/uint64 beyond 2^53, floats with NaN, ±Infinity and -0.0,
# strings, binary, UUIDs, lists with nulls) and the option sets (every encoding option on every
# column it fits, zstd and none, v1 and v2 pages, page sizes, row-group splits) are those of
# tests/parquet/rewrite_duckdb_test.cc, taken from the parquet_duckdb_oracle tool that shares its
# definitions. The reference is DuckDB's reading of its own file; every reader's rows of every
# rewrite must equal it.
# Usage: parquet_interop_duckdb_test.sh TIMEF_BINARY ORACLE_BINARY SCRATCH_DIR
set -u
timef=$1
oracle=$2
scratch=$3
node_dir="$(cd "$(dirname "$0")/node" && pwd)"
# shellcheck source=interop_readers.sh
source "$(dirname "$0")/interop_readers.sh"
rm -rf "$scratch" && mkdir -p "$scratch"

"$oracle" fixtures "$scratch" >"$scratch/fixtures.txt" || {
  echo "cannot write the DuckDB fixtures" >&2
  exit 1
}
"$oracle" rewrites >"$scratch/rewrites.txt" || {
  echo "cannot list the rewrite option sets" >&2
  exit 1
}
[ "$(wc -l <"$scratch/fixtures.txt")" -ge 3 ] || fail "too few fixtures"
[ "$(wc -l <"$scratch/rewrites.txt")" -ge 7 ] || fail "too few option sets"

originals=()
rewrites=()
duckdb_rewrites=()
declare -A duckdb_reads_of
while read -r name; do
  originals+=("$scratch/$name")
  while IFS=$'\t' read -r option_set duckdb_reads args; do
    out="$scratch/${name%.parquet}.$option_set.parquet"
    # shellcheck disable=SC2086  # args holds the CLI options, none with spaces
    "$timef" parquet rewrite "$scratch/$name" "$out" $args 2>"$out.err" </dev/null ||
      fail "rewrite $name with $args: $(cat "$out.err")"
    rewrites+=("$out")
    duckdb_reads_of[$out]=$duckdb_reads
    # DuckDB refuses DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY (see duckdb_rewrite_cases.h): the
    # other readers still check that rewrite.
    [ "$duckdb_reads" = 1 ] && duckdb_rewrites+=("$out")
  done <"$scratch/rewrites.txt"
done <"$scratch/fixtures.txt"

read_all duckdb -- "${originals[@]}" "${duckdb_rewrites[@]}" &
duckdb_batch=$!
read_all timef hyparquet parquet-wasm -- "${originals[@]}" "${rewrites[@]}"
wait "$duckdb_batch"

for original in "${originals[@]}"; do
  expected="$original.duckdb"
  # The readers agree on DuckDB's own file, so a difference below is the rewrite's. Except that
  # parquet-wasm (arrow-rs) does not read DuckDB's v2 file at all: it refuses the file's
  # DELTA_BINARY_PACKED pages with "'min_delta' too large" (DuckDB's deltas of INT32 values do not
  # fit 32 bits; arrow-rs wants them to). A reader limit on DuckDB's file, not on the rewrite,
  # which parquet-wasm reads below.
  original_readers=(timef hyparquet parquet-wasm)
  [[ "$original" == */duckdb_ZstdV2.parquet ]] && original_readers=(timef hyparquet)
  expect_rows "$original" "$expected" "${original_readers[@]}"
  for out in "${rewrites[@]}"; do
    [[ "$out" == "${original%.parquet}".* ]] || continue
    expect_rows "$out" "$expected" timef hyparquet parquet-wasm
    [ "${duckdb_reads_of[$out]}" = 1 ] && expect_rows "$out" "$expected" duckdb
  done
done
checked=$((${#originals[@]} + ${#rewrites[@]}))
[ "${#rewrites[@]}" -eq $((${#originals[@]} * $(wc -l <"$scratch/rewrites.txt"))) ] ||
  fail "expected a rewrite per fixture and option set"

[ "$failures" -eq 0 ] && echo "all $checked DuckDB-written and rewritten files read back alike"
exit $((failures > 0))
