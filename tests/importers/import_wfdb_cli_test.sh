#!/usr/bin/env bash
# Usage: import_wfdb_cli_test.sh TIMEF_BINARY WFDB_FIXTURE_BINARY SCRATCH_DIR
# `timef import wfdb` (docs/cli.md, docs/importing.md): records written by wfdb_fixture (a WFDB
# writer made from PhysioNet's format documentation) become one release whose path is the last
# stdout line and which `timef verify` accepts; one signal's values equal the documented formula
# on the written samples; annotations arrive; bad input (a checksum mismatch, a truncated signal
# file, a header naming a missing signal file, an unknown annotation code, a sampling frequency of
# 0, a non-numeric field) exits 1 with one `timef: error:` line naming the file, commits nothing
# and leaves no staging.
set -u
timef=$1
fixture=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

in=$scratch/in
"$fixture" "$in" || fail "fixture: could not write $in"
root=$scratch/root
release=$root/test/wfdb/1.0.0

# One record by its .hea, one by its record name.
run import 0 import wfdb "$in/rec212.hea" "$in/rec16" --root "$root" --dataset test/wfdb \
  --version 1.0.0 --license CC0-1.0 --threads 2
[ "$(tail -n 1 "$scratch/import.out")" = "$release" ] || fail "import: last stdout line is not $release"
expect_in import "$scratch/import.err" "imported test/wfdb@1.0.0: 2 records, 3 signals, 15 annotation occurrences"
expect_in import "$scratch/import.err" "warning: $in/rec16.hea: line 2, units: 'NU' of 'Pleth' is not a known unit"
run verify 0 verify "$release"
run records 0 records "$release" --format json
expect_lines records "$scratch/records.out" 2
expect_in records "$scratch/records.out" '"start":"2021-03-14T08:30:00Z"'
run signals 0 signals "$release" --format json
expect_in signals "$scratch/signals.out" '"name":"MLII","spec_type":"signal"'
expect_in signals "$scratch/signals.out" '"name":"ECG V1","spec_type":"ecg"'
expect_in signals "$scratch/signals.out" '"name":"Pleth","spec_type":"ppg"'

# Signal 1 (MLII of rec212), value by value (float32 printed with 9 digits).
run cat 0 cat "$release" --signal 1 --format json
python3 - "$scratch/cat.out" "$in/rec212.ch0.txt" <<'PY' || fail "cat: values differ from the written samples"
import json, struct, sys
def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]
got = [f32(json.loads(line)["value"]) for line in open(sys.argv[1])]
want = [f32(float(line)) for line in open(sys.argv[2])]
if got != want:
    sys.exit(f"{len(got)} values, {len(want)} expected")
PY

# Another annotator by name: a missing file is an error.
run annotator 1 import wfdb "$in/rec212" --annotator qrs --root "$root" --dataset test/wfdb \
  --version 1.1.0 --license CC0-1.0
expect_error_lines annotator
expect_in annotator "$scratch/annotator.err" "$in/rec212.qrs"

# Bad input: one error line naming the file, nothing committed, no staging left. Header line
# numbers count the fixture's two comment lines.
check_bad() {  # check_bad NAME INPUT TEXT
  run "$1" 1 import wfdb "$in/rec212" "$2" --root "$root" --dataset test/bad --version 1.0.0 \
    --license CC0-1.0
  expect_error_lines "$1"
  expect_lines "$1" "$scratch/$1.err" 1
  expect_in "$1" "$scratch/$1.err" "$3"
  # A checksum fails while the values are written: the dataset's directory may exist, but no
  # version of it (the staging directory is removed, checked below).
  [ -e "$root/test/bad/1.0.0" ] && fail "$1: $root/test/bad/1.0.0 was committed"
}
check_bad checksum "$in/bad/checksum" "$in/bad/checksum.dat: signal 1 'ECG V1' checksum: "
check_bad truncated "$in/bad/truncated.hea" "$in/bad/truncated.dat: length: "
check_bad missingdat "$in/bad/missingdat" "$in/bad/missingdat.dat: signal file: named by $in/bad/missingdat.hea line 4 (signal 0 'MLII')"
check_bad badcode "$in/bad/badcode" "$in/bad/badcode.atr: annotation at sample 3000: unknown annotation code 44"
check_bad rate0 "$in/bad/rate0" "$in/bad/rate0.hea: line 3, sampling frequency: must be above 0"
check_bad nonnumeric "$in/bad/nonnumeric" "$in/bad/nonnumeric.hea: line 5, ADC gain: not a number: '2OO'"
check_bad nothere "$in/bad/nothere" "$in/bad/nothere.hea"
find "$root" -name '*.tmp-*' | grep -q . && fail "a staging directory (*.tmp-*) was left behind"

finish "importers_wfdb_cli"
