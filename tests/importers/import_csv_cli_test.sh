#!/usr/bin/env bash
# Usage: import_csv_cli_test.sh TIMEF_BINARY SCRATCH_DIR
# `timef import csv` (docs/cli.md, docs/importing.md "CSV and TSV"): CSV and TSV files become one
# release whose path is the last stdout line and which `timef verify` accepts; values, nulls,
# units and axes read back; bad input (a ragged row, a time that does not parse, time going back,
# an empty file, a cell that is not a number) exits 1 with one `timef: error:` line naming the
# file and line, commits nothing and leaves no staging.
set -u
timef=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

in=$scratch/in
mkdir -p "$in"
printf 'time,ECG II (mV),Resp\n0,0.5,1\n0.004,0.25,\n0.008,-0.125,3\n' >"$in/a.csv"
printf 'timestamp\tECG II (mV)\tResp\n2024-01-01T00:00:00Z\t1\t2\n2024-01-01T00:00:00.01Z\t3\t4\n2024-01-01T00:00:00.05Z\t5\t6\n' >"$in/b.tsv"
root=$scratch/root
release=$root/test/csv/1.0.0

run import 0 import csv "$in/a.csv" "$in/b.tsv" --root "$root" --dataset test/csv --version 1.0.0 \
  --license CC0-1.0 --unit Resp=mV
[ "$(tail -n 1 "$scratch/import.out")" = "$release" ] || fail "import: last stdout line is not $release"
expect_in import "$scratch/import.err" "imported test/csv@1.0.0: 2 records, 4 signals"
run verify 0 verify "$release"
run records 0 records "$release" --format json
expect_lines records "$scratch/records.out" 2
expect_in records "$scratch/records.out" '"start":"2024-01-01T00:00:00Z"'
run signals 0 signals "$release" --format json
expect_in signals "$scratch/signals.out" '"name":"ECG II","spec_type":"ecg"'
expect_in signals "$scratch/signals.out" '"name":"Resp","spec_type":"respiration"'
run cat 0 cat "$release" --signal 2 --format json
python3 - "$scratch/cat.out" <<'PY' || fail "cat: Resp of a.csv is not 1, null, 3"
import json, sys
got = [json.loads(line)["value"] for line in open(sys.argv[1])]
sys.exit(0 if got == [1.0, None, 3.0] else f"got {got}")
PY

# --rate without a time column, --delimiter, --dtype float32.
printf 'EEG Fz;EEG Cz\n1;2\n3;4\n' >"$in/c.txt"
run rate 0 import csv "$in/c.txt" --root "$root" --dataset test/rate --version 1.0.0 \
  --license CC0-1.0 --rate 128 --delimiter ';' --dtype float32 --unit 'EEG Fz=uV' --unit 'EEG Cz=uV'
run rate_signals 0 signals "$root/test/rate/1.0.0" --format json
expect_in rate_signals "$scratch/rate_signals.out" '"dtype":"float32"'
run edf_option 1 import edf "$in/a.csv" --root "$root" --dataset test/bad --version 1.0.0 \
  --license CC0-1.0 --rate 10
expect_in edf_option "$scratch/edf_option.err" "options of csv"

# Bad input: one error line naming the file and the line, nothing committed, no staging left.
printf 'time,v\n0,1\n1,2,3\n' >"$in/ragged.csv"
printf 'time,v\n0,1\nlater,2\n' >"$in/badtime.csv"
printf 'time,v\n0,1\n2,2\n1,3\n' >"$in/back.csv"
: >"$in/empty.csv"
printf 'time,v\n0,1\n1,x\n' >"$in/nan.csv"
for case in "ragged:line 3" "badtime:line 3, column 'time'" "back:line 4, column 'time'" \
  "empty:line 1" "nan:line 3, column 'v'"; do
  name=${case%%:*}
  where=${case#*:}
  run "bad_$name" 1 import csv "$in/a.csv" "$in/$name.csv" --root "$root" --dataset test/bad \
    --version 1.0.0 --license CC0-1.0
  expect_error_lines "bad_$name"
  expect_lines "bad_$name" "$scratch/bad_$name.err" 1
  expect_in "bad_$name" "$scratch/bad_$name.err" "timef: error: $in/$name.csv: $where: "
done
[ -e "$root/test/bad" ] && fail "bad: something was written under $root/test/bad"
find "$root" -name '*.tmp-*' | grep -q . && fail "a staging directory (*.tmp-*) was left behind"

finish "importers_csv_cli"
