#!/usr/bin/env bash
# Usage: legacy_cli_test.sh TIMEF_BINARY FIXTURE_BINARY SCRATCH_DIR
# The CLI on a legacy directory (docs/format.md §15): info, records, tasks, signals, cat and
# verify read it unchanged; `timef upgrade` writes a native release that `timef verify` accepts,
# prints its warnings once, and refuses to write onto the legacy release itself.
set -u
timef=$1
fixture=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

legacy=$scratch/root/legacy/fixture/1.0.0
mkdir -p "$(dirname "$legacy")"
"$fixture" "$legacy" --uuid16 || fail "fixture: could not write $legacy"

run info 0 info "$legacy"
expect_in info "$scratch/info.out" "legacy/fixture@1.0.0"
expect_in info "$scratch/info.out" "upgraded_from"
run records 0 records "$legacy" --format json
expect_lines records "$scratch/records.out" 3
expect_in records "$scratch/records.out" '{"id":1,"start":"2023-11-14T22:13:20Z","sources":2,"signals":3'
run tasks 0 tasks "$legacy"
expect_in tasks "$scratch/tasks.out" "ts_correspondence"
run signals 0 signals "$legacy" --record 1
expect_in signals "$scratch/signals.out" "lead_II"
run cat 0 cat "$legacy" --signal 1 --steps 0:3
expect_in cat "$scratch/cat.out" "-0"
run cat_irregular 0 cat "$legacy" --signal 2
expect_in cat_irregular "$scratch/cat_irregular.out" "300"
run verify 0 verify "$legacy"
expect_in verify "$scratch/verify.out" "ok: legacy release, 18 files"

# A corrupt legacy part fails verify, naming it.
cp -r "$scratch/root" "$scratch/corrupt"
corrupt=$scratch/corrupt/legacy/fixture/1.0.0
printf 'x' >>"$corrupt/tasks/task=answer/part-00000000.parquet"
run verify_corrupt 1 verify "$corrupt"
expect_in verify_corrupt "$scratch/verify_corrupt.err" "task=answer/part-00000000.parquet"

run upgrade 0 upgrade "$legacy" --out "$scratch/out"
[ "$(cat "$scratch/upgrade.out")" = "$scratch/out/legacy/fixture/1.0.0" ] ||
  fail "upgrade: stdout is not the release directory"
expect_in upgrade "$scratch/upgrade.err" 'warning: spec '"'"'label'"'"': unit "frobnicate"'
[ "$(grep -c '^warning: ' "$scratch/upgrade.err")" -eq 2 ] || fail "upgrade: not two warnings"
expect_in upgrade "$scratch/upgrade.err" "upgraded legacy/fixture@1.0.0: 3 records, 8 signals, 10 tasks"
run verify_upgraded 0 verify "$scratch/out/legacy/fixture/1.0.0"
run records_upgraded 0 records "$scratch/out/legacy/fixture/1.0.0" --format json
cmp -s "$scratch/records.out" "$scratch/records_upgraded.out" ||
  fail "records of the legacy directory and of its upgrade differ"
run cat_upgraded 0 cat "$scratch/out/legacy/fixture/1.0.0" --signal 1 --steps 0:3
cmp -s "$scratch/cat.out" "$scratch/cat_upgraded.out" || fail "cat differs after the upgrade"

# Compressing on several threads writes the same values shards.
run upgrade_threads 0 upgrade "$legacy" --out "$scratch/out-threads" --threads 3
for shard in "$scratch"/out/legacy/fixture/1.0.0/time_series/*.parquet; do
  cmp -s "$shard" "$scratch/out-threads/legacy/fixture/1.0.0/time_series/$(basename "$shard")" ||
    fail "upgrade_threads: $(basename "$shard") differs from the one-thread upgrade"
done
run upgrade_threads_zero 2 upgrade "$legacy" --out "$scratch/out-zero" --threads 0
expect_in upgrade_threads_zero "$scratch/upgrade_threads_zero.err" "from 1 to 256, got '0'"
run upgrade_again 1 upgrade "$legacy" --out "$scratch/out"
run upgrade_onto_itself 1 upgrade "$legacy" --out "$scratch/root"
expect_in upgrade_onto_itself "$scratch/upgrade_onto_itself.err" "legacy release itself"
run upgrade_version 0 upgrade "$legacy" --out "$scratch/root" --version 1.1.0
run verify_version 0 verify "$scratch/root/legacy/fixture/1.1.0"
run upgrade_no_out 2 upgrade "$legacy"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "legacy CLI: all checks passed"
