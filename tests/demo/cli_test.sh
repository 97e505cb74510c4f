#!/usr/bin/env bash
# Usage: cli_test.sh TIMEF_BINARY SCRATCH_DIR
# Checks `timef demo|info|verify|records|tasks|cat` on the hello-world release: each command's
# happy path and at least one failure, with exit codes 0 (ok), 1 (data problem), 2 (usage).
# The IDs and steps used here are the constants of include/timef/demo.h.
set -u
timef=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

registry=$scratch/registry
release=$registry/timef/hello-world/1.0.0

# ---- demo ----
run demo 0 demo "$registry"
[ "$(cat "$scratch/demo.out")" = "$release" ] || fail "demo: stdout is not the release path"
[ -f "$release/manifest.json" ] || fail "demo: no manifest.json in $release"
before=$(stat -c %Y "$release/manifest.json" 2>/dev/null)
run demo_again 0 demo "$registry"
[ "$(cat "$scratch/demo_again.out")" = "$release" ] || fail "demo_again: stdout is not the path"
expect_in demo_again "$scratch/demo_again.err" "already committed"
[ "$(stat -c %Y "$release/manifest.json")" = "$before" ] || fail "demo_again: release rewritten"
touch "$scratch/not-a-dir"
run demo_bad_root 1 demo "$scratch/not-a-dir"

# ---- info ----
run info 0 info "$release"
for text in "timef/hello-world@1.0.0" "TimeF hello world" "4 records" "14 signals" \
    "classification" "ts_correspondence" "heart_rate" "float64" "bpm" "millivolt" \
    "control.duckdb" "time_series/part-00000000.parquet" "payloads/" "total "; do
  expect_in info "$scratch/info.out" "$text"
done
grep -qE '^  heart_rate +float64 +bpm +yes' "$scratch/info.out" ||
  fail "info: heart_rate row does not say float64, bpm, nullable"
grep -qE '^  answer +3$' "$scratch/info.out" || fail "info: expected 3 answer tasks"
run info_missing 1 info "$scratch/no-such-release"
expect_in info_missing "$scratch/info_missing.err" "no-such-release"
run info_usage 2 info

# ---- verify ----
run verify 0 verify "$release"
grep -qE '^ok: [0-9]+ files, [0-9]+ bytes verified$' "$scratch/verify.out" ||
  fail "verify: unexpected output '$(cat "$scratch/verify.out")'"
# Same size, one byte changed: open passes, verify names the file.
cp -r "$release" "$scratch/corrupt"
shard=$(cd "$scratch/corrupt" && ls time_series/*.parquet | head -n 1)
printf 'X' | dd of="$scratch/corrupt/$shard" bs=1 seek=100 conv=notrunc status=none
run verify_corrupt 1 verify "$scratch/corrupt"
expect_in verify_corrupt "$scratch/verify_corrupt.err" "$shard"
[ -s "$scratch/verify_corrupt.out" ] && fail "verify_corrupt: stdout should be empty"

# ---- records ----
run records 0 records "$release"
expect_lines records "$scratch/records.out" 5
grep -qE '^ +1 +2023-11-14T22:13:20Z +4 +4 ' "$scratch/records.out" ||
  fail "records: record 1 line (start time, 4 sources, 4 signals) missing"
grep -qE '^ +3 +- +1 +2 ' "$scratch/records.out" || fail "records: record 3 has no start time"
run records_ids 0 records "$release" --ids 3,1
expect_lines records_ids "$scratch/records_ids.out" 3
[ "$(awk 'NR > 1 { print $1 }' "$scratch/records_ids.out" | tr '\n' ' ')" = "3 1 " ] ||
  fail "records_ids: IDs not in caller order"
run records_limit 0 records "$release" --limit 2
expect_lines records_limit "$scratch/records_limit.out" 3
run records_unknown 1 records "$release" --ids 2,99
expect_in records_unknown "$scratch/records_unknown.err" "99"
[ -s "$scratch/records_unknown.out" ] && fail "records_unknown: stdout should be empty"
run records_bad_ids 2 records "$release" --ids one

# ---- tasks ----
run tasks 0 tasks "$release"
expect_lines tasks "$scratch/tasks.out" 11
for type in classification answer scalar_prediction temporal_localization forecasting \
    ts_editing ts_generation ts_correspondence; do
  expect_in tasks "$scratch/tasks.out" " $type "
done
expect_in tasks "$scratch/tasks.out" "by annotation vocabulary"
expect_in tasks "$scratch/tasks.out" "() (explicit empty answer)"
expect_in tasks "$scratch/tasks.out" "step_point 5000 on signal 2"
run tasks_type 0 tasks "$release" --type ts_generation
expect_lines tasks_type "$scratch/tasks_type.out" 2
expect_in tasks_type "$scratch/tasks_type.out" "record 4"
run tasks_split 0 tasks "$release" --split test
expect_lines tasks_split "$scratch/tasks_split.out" 4
expect_not_in tasks_split "$scratch/tasks_split.out" " train "
run tasks_limit 0 tasks "$release" --limit 3
expect_lines tasks_limit "$scratch/tasks_limit.out" 4
run tasks_bad_type 2 tasks "$release" --type regression
run tasks_table 0 tasks "$release" --table
expect_lines tasks_table "$scratch/tasks_table.out" 10
expect_in tasks_table "$scratch/tasks_table.out" '{"task_id":1,"type":"classification","split":"train"'
expect_in tasks_table "$scratch/tasks_table.out" '"input_record_ids":[1]'
run tasks_table_type 0 tasks "$release" --table --type ts_generation
expect_lines tasks_table_type "$scratch/tasks_table_type.out" 1
expect_in tasks_table_type "$scratch/tasks_table_type.out" '"type":"ts_generation"'

# ---- cat ----
run cat_special 0 cat "$release" --signal 2 --steps 4999:5002
expect_lines cat_special "$scratch/cat_special.out" 4
expect_in cat_special "$scratch/cat_special.out" "step,offset_us,value"
expect_in cat_special "$scratch/cat_special.out" "5000,20000000,nan"
run cat_inf 0 cat "$release" --signal 2 --steps 12345:12346 --format json
expect_in cat_inf "$scratch/cat_inf.out" '{"step":12345,"offset_us":49380000,"value":"Infinity"}'
# Past the end is clamped; the last step holds -0.0.
run cat_tail 0 cat "$release" --signal 2 --steps 39998:50000
expect_lines cat_tail "$scratch/cat_tail.out" 3
expect_in cat_tail "$scratch/cat_tail.out" "39999,159996000,-0.0"
# Nulls: an empty cell in CSV, null in JSON; the NaN step is a value.
run cat_null_csv 0 cat "$release" --signal 5 --steps 3:4
grep -qE '^3,[0-9]+,$' "$scratch/cat_null_csv.out" || fail "cat_null_csv: step 3 is not empty"
run cat_null_json 0 cat "$release" --signal 5 --format json
expect_lines cat_null_json "$scratch/cat_null_json.out" 40
grep -qE '^\{"step":3,"offset_us":[0-9]+,"value":null\}$' "$scratch/cat_null_json.out" ||
  fail "cat_null_json: step 3 is not null"
grep -qE '^\{"step":11,"offset_us":[0-9]+,"value":"NaN"\}$' "$scratch/cat_null_json.out" ||
  fail "cat_null_json: step 11 is not NaN"
# Ordinal text: no time column; an empty string is quoted so it differs from a null.
run cat_text 0 cat "$release" --signal 12
expect_in cat_text "$scratch/cat_text.out" "step,value"
expect_in cat_text "$scratch/cat_text.out" '1,""'
expect_in cat_text "$scratch/cat_text.out" "2,coffee ☕ at 9"
run cat_enum 0 cat "$release" --signal 3 --steps 60:61
expect_in cat_enum "$scratch/cat_enum.out" "60,60000000,af"
run cat_reversed 2 cat "$release" --signal 2 --steps 10:5
[ -s "$scratch/cat_reversed.err" ] || fail "cat_reversed: no message"
run cat_negative 2 cat "$release" --signal 2 --steps=-1:
run cat_bad_window 2 cat "$release" --signal 2 --steps 1-2
run cat_unknown 1 cat "$release" --signal 9999
expect_in cat_unknown "$scratch/cat_unknown.err" "9999"

finish "dataset CLI"
