#!/usr/bin/env bash
# Runs the built `timef parquet` commands on a committed parquet-wasm fixture and checks their
# outputs and exit codes. Usage: parquet_cli_test.sh TIMEF_BINARY SOURCE_DIR SCRATCH_DIR
set -u
timef=$1
source_dir=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
input="$source_dir/tests/parquet/data/parquet_wasm_v2_page_index.parquet"
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# expect_exit CODE COMMAND...: runs COMMAND, stdout to $scratch/out, stderr to $scratch/err.
expect_exit() {
  local want=$1; shift
  "$@" >"$scratch/out" 2>"$scratch/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got (want $want): $* -- $(head -c 300 "$scratch/err")"
}

# meta: valid JSON with the file's row count, columns and page locations.
expect_exit 0 "$timef" parquet meta "$input"
python3 - "$scratch/out" <<'PY' || fail "meta JSON content"
import json, sys
meta = json.load(open(sys.argv[1]))
assert meta["num_rows"] == 3000, meta["num_rows"]
assert [c["name"] for c in meta["columns"]] == ["id", "label", "x"]
assert meta["num_row_groups"] == 3
chunk = meta["row_groups"][0]["columns"][0]
assert chunk["codec"] == "ZSTD" and chunk["pages"] and chunk["pages"][0]["first_row_index"] == 0
assert isinstance(chunk["statistics"]["min_value"], int)
PY

# dump: one JSON object per row.
expect_exit 0 "$timef" parquet dump "$input"
cp "$scratch/out" "$scratch/all.jsonl"
[ "$(wc -l <"$scratch/all.jsonl")" -eq 3000 ] || fail "dump row count"
head -1 "$scratch/all.jsonl" | grep -qx '{"id":-1000,"label":null,"x":"NaN"}' ||
  fail "dump first row: $(head -1 "$scratch/all.jsonl")"
sed -n 2p "$scratch/all.jsonl" | grep -qx '{"id":-997,"label":"label-1","x":0.125}' ||
  fail "dump second row: $(sed -n 2p "$scratch/all.jsonl")"

# Selections.
expect_exit 0 "$timef" parquet dump "$input" --columns x,id --rows 1500:1502
[ "$(cat "$scratch/out")" = $'{"x":187.5,"id":3500}\n{"x":187.625,"id":3503}' ] ||
  fail "dump selection: $(cat "$scratch/out")"
expect_exit 0 "$timef" parquet dump "$input" --row-group 2 --rows :1
[ "$(cat "$scratch/out")" = "$(sed -n 2001p "$scratch/all.jsonl")" ] || fail "row group dump"

# rewrite, for each encoding option and both compressions: same rows.
rewrite_case() {
  local name=$1; shift
  expect_exit 0 "$timef" parquet rewrite "$input" "$scratch/$name.parquet" "$@"
  expect_exit 0 "$timef" parquet dump "$scratch/$name.parquet"
  cmp -s "$scratch/out" "$scratch/all.jsonl" || fail "rewrite $name changed the rows"
}
rewrite_case plain --compression none
rewrite_case delta --encoding id=DELTA_BINARY_PACKED --encoding label=DELTA_BYTE_ARRAY \
  --encoding x=BYTE_STREAM_SPLIT --level 3 --page-size 4096
rewrite_case dict --encoding id=RLE_DICTIONARY --encoding label=RLE_DICTIONARY \
  --encoding x=RLE_DICTIONARY --row-group-rows 700
rewrite_case dlba --encoding label=delta_length_byte_array --data-page-version 2
expect_exit 0 "$timef" parquet meta "$scratch/dict.parquet"
python3 - "$scratch/out" <<'PY' || fail "rewrite options not applied"
import json, sys
meta = json.load(open(sys.argv[1]))
assert meta["num_row_groups"] == 5, meta["num_row_groups"]
assert "RLE_DICTIONARY" in meta["row_groups"][0]["columns"][1]["encodings"]
assert meta["created_by"].startswith("timef")
PY

# Refusals: an encoding that does not fit names the column, and nothing is written.
expect_exit 1 "$timef" parquet rewrite "$input" "$scratch/bad.parquet" --encoding label=BYTE_STREAM_SPLIT
grep -q "label" "$scratch/err" || fail "error does not name the column: $(cat "$scratch/err")"
[ ! -e "$scratch/bad.parquet" ] || fail "failed rewrite left its output"
ls "$scratch" | grep -q '\.tmp-' && fail "failed rewrite left a temporary file"
expect_exit 1 "$timef" parquet rewrite "$input" "$scratch/bad.parquet" --encoding nope=PLAIN

# Usage errors exit 2; bad input exits 1.
expect_exit 2 "$timef" parquet
expect_exit 2 "$timef" parquet dump
expect_exit 2 "$timef" parquet dump "$input" --rows 5
expect_exit 2 "$timef" parquet rewrite "$input" "$scratch/x.parquet" --encoding id
expect_exit 2 "$timef" parquet rewrite "$input" "$scratch/x.parquet" --compression lz4
expect_exit 1 "$timef" parquet dump "$input" --rows 10:3001
expect_exit 1 "$timef" parquet dump "$input" --columns nope
expect_exit 1 "$timef" parquet meta "$scratch/does-not-exist.parquet"
printf 'PAR1 not really' >"$scratch/junk.parquet"
expect_exit 1 "$timef" parquet dump "$scratch/junk.parquet"
grep -q "junk.parquet" "$scratch/err" || fail "error does not name the file"

[ "$failures" -eq 0 ] && echo "all parquet CLI checks passed"
exit $((failures > 0))
