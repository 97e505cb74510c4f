#!/usr/bin/env bash
# Usage: cli_test.sh TIMEF_BINARY SCRATCH_DIR
# Checks `timef demo|info|verify|records|tasks|signals|cat` on the hello-world release: each
# command's happy path and at least one failure, with exit codes 0 (ok), 1 (data problem),
# 2 (usage); usage and data errors alike are one `timef: error: ` line each.
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
expect_error_lines demo_bad_root
# stderr is a file here: no progress bar, so no carriage return.
grep -q $'\r' "$scratch/demo.err" && fail "demo: progress bar drawn on a non-terminal stderr"
# Under a terminal (script(1) gives the command a pty) the bar is drawn and then cleared.
if command -v script >/dev/null; then
  script -qec "'$timef' demo '$scratch/tty-registry'" /dev/null >"$scratch/demo_tty.out" 2>&1 ||
    fail "demo_tty: exit $?"
  grep -qE 'values +\[#+ *\] +[0-9]+%' "$scratch/demo_tty.out" ||
    fail "demo_tty: no progress bar on a terminal"
  grep -q "wrote timef/hello-world@1.0.0" "$scratch/demo_tty.out" || fail "demo_tty: no summary"
fi

# ---- help and usage errors ----
run help 0 --help
for text in "Inspect:" "Verify:" "Write:" "signals" "cat" "verify" "demo" "manifest" "parquet"; do
  expect_in help "$scratch/help.out" "$text"
done
[ "$(grep -n '^Inspect:' "$scratch/help.out" | cut -d: -f1)" -lt \
  "$(grep -n '^Verify:' "$scratch/help.out" | cut -d: -f1)" ] || fail "help: Inspect not before Verify"
expect_in help "$scratch/help.out" "Compose:"
grep -A3 '^Compose:' "$scratch/help.out" | grep -q derive || fail "help: derive not under Compose"
run no_command 2
expect_error_lines no_command
run unknown_command 2 frobnicate
expect_error_lines unknown_command
run cat_help 0 cat --help
expect_in cat_help "$scratch/cat_help.out" "clamped to the signal"

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
expect_error_lines info_usage
expect_in info_usage "$scratch/info_usage.err" "timef: error: DIR is required (see 'timef info --help')"
# A tiny release is not mostly catalog (DECIDE: 16 KiB DuckDB blocks): at most 1 MiB.
catalog_bytes=$(stat -c %s "$release/control.duckdb")
[ "$catalog_bytes" -le 1048576 ] || fail "info: control.duckdb is $catalog_bytes bytes"
grep -qE '^  control\.duckdb +[0-9,]+ B \([0-9.]+ KiB\)$' "$scratch/info.out" ||
  fail "info: control.duckdb is not shown below 1 MiB"
# A dataset directory, an organization directory and a registry root are named as such, with
# the versions or datasets found in them.
run info_dataset_dir 1 info "$registry/timef/hello-world"
expect_error_lines info_dataset_dir
expect_in info_dataset_dir "$scratch/info_dataset_dir.err" "a dataset directory; its versions: 1.0.0"
run info_registry 1 info "$registry"
# The demo also writes the composed releases (timef/hello-child@1.0.0, timef/hello-world@1.1.0).
expect_in info_registry "$scratch/info_registry.err" \
  "a registry root; its datasets: timef/hello-child (1.0.0), timef/hello-world (1.0.0, 1.1.0)"
expect_in info_registry "$scratch/info_registry.err" "e.g. $registry/timef/hello-child/1.0.0"
run records_org_dir 1 records "$registry/timef"
expect_in records_org_dir "$scratch/records_org_dir.err" \
  "an organization directory; its datasets: hello-child (1.0.0), hello-world (1.0.0, 1.1.0)"
run manifest_registry 1 manifest show "$registry"
expect_in manifest_registry "$scratch/manifest_registry.err" "a registry root"

# ---- verify ----
run verify 0 verify "$release"
grep -qE '^ok: [0-9]+ files, [0-9]+ bytes verified$' "$scratch/verify.out" ||
  fail "verify: unexpected output '$(cat "$scratch/verify.out")'"
# stderr is a file: no bar. Under a pty (script(1)) the hashing bar reaches 100% and is cleared
# before the summary line.
grep -q $'\r' "$scratch/verify.err" && fail "verify: progress bar drawn on a non-terminal stderr"
if command -v script >/dev/null; then
  script -qec "'$timef' verify '$release'" /dev/null >"$scratch/verify_tty.out" 2>&1 ||
    fail "verify_tty: exit $?"
  grep -qE 'verify +\[#+\] +100%' "$scratch/verify_tty.out" ||
    fail "verify_tty: no progress bar on a terminal"
  grep -qE $'\r\033\\[Kok: [0-9]+ files' "$scratch/verify_tty.out" ||
    fail "verify_tty: the bar is not cleared before the summary"
fi
# derive and edit (writes) draw the same bar on a terminal and none on a pipe.
if command -v script >/dev/null; then
  script -qec "'$timef' derive '$scratch/tty-registry/timef/hello-world/1.0.0' --as tests/tty-child@1.0.0 --alias hw --with-tasks" \
    /dev/null >"$scratch/derive_tty.out" 2>&1 || fail "derive_tty: exit $?"
  grep -qE 'checksums +\[#+\] +100%' "$scratch/derive_tty.out" || fail "derive_tty: no progress bar"
  script -qec "'$timef' edit '$scratch/tty-registry/timef/hello-world/1.0.0' --version 1.2.0 --remove-records 3" \
    /dev/null >"$scratch/edit_tty.out" 2>&1 || fail "edit_tty: exit $?"
  grep -qE 'checksums +\[#+\] +100%' "$scratch/edit_tty.out" || fail "edit_tty: no progress bar"
  "$timef" edit "$scratch/tty-registry/timef/hello-world/1.0.0" --version 1.3.0 \
    >/dev/null 2>"$scratch/edit_pipe.err" || fail "edit_pipe: exit $?"
  grep -q $'\r' "$scratch/edit_pipe.err" && fail "edit: progress bar drawn on a non-terminal stderr"
fi
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
expect_error_lines records_bad_ids
expect_in records_bad_ids "$scratch/records_bad_ids.err" "--ids: expected an ID (a whole number >= 1), got 'one'"
# A negative limit is a usage error with a plain message (CLI11 printed a 300-digit bound).
run records_negative_limit 2 records "$release" --limit -1
expect_error_lines records_negative_limit
expect_in records_negative_limit "$scratch/records_negative_limit.err" \
  "timef: error: --limit: expected a whole number >= 0, got '-1'"
[ "$(wc -c <"$scratch/records_negative_limit.err")" -lt 120 ] || fail "records_negative_limit: long message"
run tasks_bad_limit 2 tasks "$release" --limit 1.5
expect_in tasks_bad_limit "$scratch/tasks_bad_limit.err" "--limit: expected a whole number >= 0, got '1.5'"
run records_signals 0 records "$release" --signals
grep -qE '^ +1 +2023-11-14T22:13:20Z +4 +4 +14 +1,2,3,4$' "$scratch/records_signals.out" ||
  fail "records_signals: record 1 does not list signals 1,2,3,4"
expect_in records_signals "$scratch/records_signals.out" "signal_ids"
run records_json 0 records "$release" --ids 1,3 --signals --format json
expect_lines records_json "$scratch/records_json.out" 2
expect_in records_json "$scratch/records_json.out" \
  '{"id":1,"start":"2023-11-14T22:13:20Z","sources":4,"signals":4,"annotations":14,"signal_ids":[1,2,3,4]}'
run records_sorted 0 records "$release" --ids 2 --signals
grep -qE ' 5,6,7,8,9,10,11$' "$scratch/records_sorted.out" || fail "records_sorted: signal IDs not sorted"
expect_in records_json "$scratch/records_json.out" '{"id":3,"start":null,"sources":1,"signals":2,"annotations":3,"signal_ids":[12,13]}'
run records_bad_format 2 records "$release" --format yaml
expect_error_lines records_bad_format

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
# An unknown name lists the allowed ones (from the enumeration's one name table).
expect_in tasks_bad_type "$scratch/tasks_bad_type.err" \
  "--type: regression not in {classification,answer,scalar_prediction,temporal_localization,forecasting,ts_editing,ts_generation,ts_correspondence}"
run tasks_bad_split 2 tasks "$release" --split holdout
expect_in tasks_bad_split "$scratch/tasks_bad_split.err" "--split: holdout not in {train,validation,test}"
run tasks_json 0 tasks "$release" --type classification --format json
expect_lines tasks_json "$scratch/tasks_json.out" 1
expect_in tasks_json "$scratch/tasks_json.out" '{"id":1,"type":"classification","split":"train","inputs":[1],"prompt_bytes":'
run tasks_json_no_split 0 tasks "$release" --format json
expect_in tasks_json_no_split "$scratch/tasks_json_no_split.out" '"split":null,"inputs":[3],"prompt_bytes":0'
run tasks_table 0 tasks "$release" --table
expect_lines tasks_table "$scratch/tasks_table.out" 10
expect_in tasks_table "$scratch/tasks_table.out" '{"task_id":1,"type":"classification","split":"train"'
expect_in tasks_table "$scratch/tasks_table.out" '"input_record_ids":[1]'
run tasks_table_type 0 tasks "$release" --table --type ts_generation
expect_lines tasks_table_type "$scratch/tasks_table_type.out" 1
expect_in tasks_table_type "$scratch/tasks_table_type.out" '"type":"ts_generation"'

# ---- signals ----
run signals 0 signals "$release"
expect_lines signals "$scratch/signals.out" 15
grep -qE '^ +id +record +source +name +spec_type +dtype +n_values +axis$' "$scratch/signals.out" ||
  fail "signals: header"
grep -qE '^ +2 +1 +device/ecg/leads +lead_II +ecg +float32 +40000 +regular 4000 us$' \
  "$scratch/signals.out" || fail "signals: lead II row"
grep -qE '^ +5 +2 +wrist/optical +heart_rate +heart_rate +float64 +40 +irregular, 40 offsets$' \
  "$scratch/signals.out" || fail "signals: heart rate row"
grep -qE ' ordinal$' "$scratch/signals.out" || fail "signals: no ordinal axis"
awk 'NR > 1 && $2 == 2 { print $1 }' "$scratch/signals.out" | sort -c -n 2>/dev/null ||
  fail "signals: record 2's signals not in ID order"
run signals_record 0 signals "$release" --record 1
expect_lines signals_record "$scratch/signals_record.out" 5
[ "$(awk 'NR > 1 { print $1 }' "$scratch/signals_record.out" | tr '\n' ' ')" = "1 2 3 4 " ] ||
  fail "signals_record: not signals 1-4 in ID order"
run signals_json 0 signals "$release" --record 1 --format json
expect_lines signals_json "$scratch/signals_json.out" 4
expect_in signals_json "$scratch/signals_json.out" \
  '{"id":2,"record":1,"source":"device/ecg/leads","name":"lead_II","spec_type":"ecg","dtype":"float32","n_values":40000,"axis":"regular 4000 us"}'
run signals_unknown 1 signals "$release" --record 99
expect_error_lines signals_unknown
expect_in signals_unknown "$scratch/signals_unknown.err" "99"
[ -s "$scratch/signals_unknown.out" ] && fail "signals_unknown: stdout should be empty"
run signals_bad_record 2 signals "$release" --record 0
expect_in signals_bad_record "$scratch/signals_bad_record.err" "--record: expected an ID (a whole number >= 1), got '0'"
run signals_dataset_dir 1 signals "$registry/timef/hello-world"
expect_in signals_dataset_dir "$scratch/signals_dataset_dir.err" "its versions: 1.0.0"

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
# One rule for --steps: the window is clamped to the signal's 40,000 steps; a window wholly past
# the end prints the header only, with exit 0 (it was exit 2 quoting an end never typed).
run cat_past_end 0 cat "$release" --signal 2 --steps 50000:
expect_lines cat_past_end "$scratch/cat_past_end.out" 1
[ -s "$scratch/cat_past_end.err" ] && fail "cat_past_end: stderr should be empty"
run cat_past_end_both 0 cat "$release" --signal 2 --steps 40000:40010
expect_lines cat_past_end_both "$scratch/cat_past_end_both.out" 1
run cat_empty 0 cat "$release" --signal 2 --steps 7:7
expect_lines cat_empty "$scratch/cat_empty.out" 1
# Only a reversed or malformed window is a usage error; the message quotes what was typed.
run cat_reversed 2 cat "$release" --signal 2 --steps 10:5
expect_error_lines cat_reversed
expect_in cat_reversed "$scratch/cat_reversed.err" "timef: error: --steps: the start 10 is after the end 5"
run cat_reversed_past_end 2 cat "$release" --signal 2 --steps 60000:50000
expect_in cat_reversed_past_end "$scratch/cat_reversed_past_end.err" "the start 60000 is after the end 50000"
run cat_negative 2 cat "$release" --signal 2 --steps=-1:
expect_error_lines cat_negative
expect_in cat_negative "$scratch/cat_negative.err" "whole numbers >= 0, got '-1:'"
run cat_bad_window 2 cat "$release" --signal 2 --steps 1-2
expect_error_lines cat_bad_window
run cat_bad_signal 2 cat "$release" --signal x
expect_in cat_bad_signal "$scratch/cat_bad_signal.err" "--signal: expected an ID (a whole number >= 1), got 'x'"
run cat_unknown 1 cat "$release" --signal 9999
expect_in cat_unknown "$scratch/cat_unknown.err" "9999"
expect_error_lines cat_unknown

# ---- hello-zarr (docs/format.md §8): info, verify and cat on the Zarr backend ----
zarr=$registry/timef/hello-zarr/1.0.0
expect_in demo "$scratch/demo.err" "wrote timef/hello-zarr@1.0.0"
[ -f "$zarr/time_series.zarr/zarr.json" ] || fail "demo: no Zarr store in $zarr"
run zarr_info 0 info "$zarr"
for text in "values       zarr backend" "arrays (13)" "time_series.zarr/spectrogram " \
    "time_series.zarr/_validity/heart_rate" "spectrogram/c/0/0/0"; do
  expect_in zarr_info "$scratch/zarr_info.out" "$text"
done
expect_in info "$scratch/info.out" "values       parquet backend"
run zarr_verify 0 verify "$zarr"
run zarr_cat 0 cat "$zarr" --signal 14 --steps 63:70
[ "$(head -1 "$scratch/zarr_cat.out")" = "step,offset_us,value[2x8]" ] ||
  fail "zarr_cat: header $(head -1 "$scratch/zarr_cat.out")"
[ "$(wc -l <"$scratch/zarr_cat.out")" = 2 ] || fail "zarr_cat: expected the header and step 63"
grep -qE '^63,15750000,"\[\[[^]]+\],\[[^]]+\]\]"$' "$scratch/zarr_cat.out" ||
  fail "zarr_cat: step 63 is not two lists: $(tail -1 "$scratch/zarr_cat.out")"
run zarr_cat_null 0 cat "$zarr" --signal 5 --steps 3:4 --format json
expect_in zarr_cat_null "$scratch/zarr_cat_null.out" '"value":null'
run zarr_edit 0 edit "$zarr" --version 1.0.1 --values-backend zarr --remove-records 3
run zarr_edit_bad 2 edit "$zarr" --version 1.0.2 --values-backend hdf5
expect_error_lines zarr_edit_bad

finish "dataset CLI"
