#!/usr/bin/env bash
# Usage: import_cli_test.sh TIMEF_BINARY FIXTURE_BINARY SCRATCH_DIR
# `timef import edf` (docs/cli.md, docs/importing.md): two EDFlib files become one release of two
# records whose path is the last stdout line and which `timef verify` accepts; the values of one
# channel equal EDFlib's digital samples through the documented formula; bad input exits 1 with
# one `timef: error:` line naming the file and field, commits nothing and leaves no staging.
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
release=$root/test/night/1.0.0

run import 0 import edf "$in/night.edf" "$in/day.bdf" --root "$root" --dataset test/night \
  --version 1.0.0 --license CC0-1.0 --threads 2
[ "$(tail -n 1 "$scratch/import.out")" = "$release" ] || fail "import: last stdout line is not $release"
expect_in import "$scratch/import.err" "imported test/night@1.0.0: 2 records, 6 signals, 6 annotation occurrences"
run verify 0 verify "$release"
# --jobs is the import's name of --threads (used above): 1 job writes the same values shards.
run import_jobs1 0 import edf "$in/night.edf" "$in/day.bdf" --root "$scratch/root-jobs1" \
  --dataset test/night --version 1.0.0 --license CC0-1.0 --jobs 1
shards=$(cd "$release" && find time_series -type f | sort)
[ -n "$shards" ] || fail "import: no values shards in $release"
for f in $shards; do
  cmp -s "$release/$f" "$scratch/root-jobs1/test/night/1.0.0/$f" ||
    fail "import: $f differs between --threads 2 and --jobs 1"
done
# --compression-level: the values read back at level 1 are those of the default level (below: 19
# compresses them into other bytes); a level outside 1..22 is a usage error (exit 2) before
# anything is written.
run import_level1 0 import edf "$in/night.edf" "$in/day.bdf" --root "$scratch/root-level1" \
  --dataset test/night --version 1.0.0 --license CC0-1.0 --compression-level 1
run cat_default 0 cat "$release" --signal 1 --format json
run cat_level1 0 cat "$scratch/root-level1/test/night/1.0.0" --signal 1 --format json
cmp -s "$scratch/cat_default.out" "$scratch/cat_level1.out" ||
  fail "import: --compression-level 1 changed the values"
# The default level is 3 (kImportCompressionLevel), not the writer's 19: the default import wrote
# the bytes of --compression-level 3 and not those of 19, and the help says so.
for level in 3 19; do
  run "import_level$level" 0 import edf "$in/night.edf" "$in/day.bdf" \
    --root "$scratch/root-level$level" --dataset test/night --version 1.0.0 --license CC0-1.0 \
    --compression-level "$level"
  same=1
  for f in $shards; do
    cmp -s "$release/$f" "$scratch/root-level$level/test/night/1.0.0/$f" || same=0
  done
  if [ "$level" = 3 ]; then
    [ "$same" = 1 ] || fail "import: the default level did not write --compression-level 3's bytes"
  else
    [ "$same" = 0 ] || fail "import: the default level wrote --compression-level 19's bytes"
  fi
done
run import_help 0 import --help
expect_in import_help "$scratch/import_help.out" "1..22, default 3"
run import_level23 2 import edf "$in/night.edf" --root "$scratch/root-level23" \
  --dataset test/night --version 1.0.0 --license CC0-1.0 --compression-level 23
expect_in import_level23 "$scratch/import_level23.err" "expected a whole number from 1 to 22, got '23'"
[ ! -e "$scratch/root-level23" ] || fail "import: a refused --compression-level left $scratch/root-level23"
run records 0 records "$release" --format json
expect_lines records "$scratch/records.out" 2
expect_in records "$scratch/records.out" '"start":"2021-03-14T15:09:26.123400Z"'
run signals 0 signals "$release" --format json
expect_in signals "$scratch/signals.out" '"name":"EEG Fpz-Cz","spec_type":"eeg"'
expect_in signals "$scratch/signals.out" '"name":"Resp oro-nasal","spec_type":"respiration"'

# Channel 0 of night.edf, value by value, against EDFlib (float32 printed with 9 digits).
run cat 0 cat "$release" --signal 1 --format json
python3 - "$scratch/cat.out" "$in/night.ch0.txt" <<'PY' || fail "cat: values differ from EDFlib's"
import json, struct, sys
def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]
got = [f32(json.loads(line)["value"]) for line in open(sys.argv[1])]
want = [f32(float(line)) for line in open(sys.argv[2])]
if got != want:
    sys.exit(f"{len(got)} values, {len(want)} expected; first difference at "
             f"{next(i for i, (a, b) in enumerate(zip(got, want)) if a != b) if len(got) == len(want) else '-'}")
PY

# The same inputs under a card file, keeping the digital integers.
cat >"$scratch/card.json" <<'JSON'
{"name": "Night", "description": "EDFlib test files", "license": "CC0-1.0", "tags": ["sleep"]}
JSON
run import_card 0 import edf "$in/night.edf" --root "$root" --dataset test/night --version 1.1.0 \
  --card "$scratch/card.json" --keep-digital --spec-type "Temp rectal=temp"
run info_card 0 info "$root/test/night/1.1.0"
expect_in info_card "$scratch/info_card.out" "Night"
run signals_card 0 signals "$root/test/night/1.1.0" --format json
expect_in signals_card "$scratch/signals_card.out" '"spec_type":"eeg","dtype":"int16"'
expect_in signals_card "$scratch/signals_card.out" '"name":"Temp rectal","spec_type":"temp"'

# Bad input: one error line naming the file and field, nothing committed, no staging left.
run bad 1 import edf "$in/night.edf" "$in/bad.edf" --root "$root" --dataset test/bad --version 1.0.0 \
  --license CC0-1.0
expect_error_lines bad
expect_lines bad "$scratch/bad.err" 1
expect_in bad "$scratch/bad.err" "$in/bad.edf: digital minimum[1]: "
[ -e "$root/test/bad" ] && fail "bad: something was written under $root/test/bad"
run missing 1 import edf "$in/none.edf" --root "$root" --dataset test/bad --version 1.0.0 \
  --license CC0-1.0
expect_in missing "$scratch/missing.err" "$in/none.edf"
run no_license 1 import edf "$in/night.edf" --root "$root" --dataset test/bad --version 1.0.0
expect_in no_license "$scratch/no_license.err" "--license"
run bad_card 1 import edf "$in/night.edf" --root "$root" --dataset test/bad --version 1.0.0 \
  --card "$in/night.ch0.txt"
expect_in bad_card "$scratch/bad_card.err" "night.ch0.txt: not JSON"
run again 1 import edf "$in/night.edf" --root "$root" --dataset test/night --version 1.0.0 \
  --license CC0-1.0
expect_error_lines again
run bad_format 2 import nosuchformat "$in/night.edf" --root "$root" --dataset test/bad --version 1.0.0
[ -e "$root/test/bad" ] && fail "something was written under $root/test/bad"
find "$root" -name '*.tmp-*' | grep -q . && fail "a staging directory (*.tmp-*) was left behind"

finish "importers_cli"
