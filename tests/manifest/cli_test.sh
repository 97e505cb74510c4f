#!/usr/bin/env bash
# Usage: cli_test.sh TIMEF_BINARY SOURCE_DIR SCRATCH_DIR
# Checks `timef manifest validate|show`: exit codes 0/1/2, "valid" on stdout, one stderr line per
# problem naming the JSON pointer.
set -u
timef=$1
src=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

good=$src/examples/manifest/hello.json
bad_shape=$src/tests/manifest/data/bad-shape.json
bad_rules=$src/tests/manifest/data/bad-rules.json

run valid_good 0 manifest validate "$good"
[ "$(cat "$scratch/valid_good.out")" = "valid" ] || fail "valid_good: stdout is not 'valid'"
[ -s "$scratch/valid_good.err" ] && fail "valid_good: unexpected stderr"

# A release directory stands for its manifest.json.
mkdir -p "$scratch/release" && cp "$good" "$scratch/release/manifest.json"
run valid_dir 0 manifest validate "$scratch/release"

for example in "$src"/examples/manifest/*.json; do
  run "example_$(basename "$example" .json)" 0 manifest validate "$example"
done

run invalid_shape 1 manifest validate "$bad_shape"
[ -s "$scratch/invalid_shape.out" ] && fail "invalid_shape: stdout should be empty"
[ "$(wc -l <"$scratch/invalid_shape.err")" -eq 4 ] || fail "invalid_shape: expected 4 problem lines"
expect_in invalid_shape "$scratch/invalid_shape.err" "$bad_shape: /colour: unknown key"
expect_in invalid_shape "$scratch/invalid_shape.err" "$bad_shape: /metadata/license: unknown license 'WTFPL'"
expect_in invalid_shape "$scratch/invalid_shape.err" "$bad_shape: /counts: expected an object, got null"
expect_in invalid_shape "$scratch/invalid_shape.err" "$bad_shape: /files/time_series/0/size: expected an integer, got boolean"

run invalid_rules 1 manifest validate "$bad_rules"
[ "$(wc -l <"$scratch/invalid_rules.err")" -eq 2 ] || fail "invalid_rules: expected 2 problem lines"
expect_in invalid_rules "$scratch/invalid_rules.err" "$bad_rules: /metadata/license_url: required when license is 'other'"
expect_in invalid_rules "$scratch/invalid_rules.err" "$bad_rules: /files/time_series/0/path: path has a '..' segment"

run missing 1 manifest validate "$scratch/no-such.json"
expect_in missing "$scratch/missing.err" "no-such.json"

run usage_no_path 2 manifest validate
run usage_extra_arg 2 manifest validate "$good" extra
run usage_unknown_command 2 manifest frobnicate "$good"
run usage_no_subcommand 2 manifest

run show_good 0 manifest show "$good"
for text in "examples/hello@1.0.0" "Hello ECG" "CC0-1.0" "open" "2 records" \
    "classification: 2" "ecg" "millivolt" "heart_rate" "control.duckdb" "274,432 B (268.0 KiB)" \
    "time_series/part-00000000.parquet"; do
  expect_in show_good "$scratch/show_good.out" "$text"
done
run show_child 0 manifest show "$src/examples/manifest/child-with-parent.json"
expect_in show_child "$scratch/show_child.out" "ptbxl = physionet/ptb-xl@1.0.3"
expect_in show_child "$scratch/show_child.out" "payload source physionet/ptb-xl@1.0.3 (3 files"
run show_bad 1 manifest show "$bad_shape"
expect_in show_bad "$scratch/show_bad.err" "/colour"

finish "manifest CLI"
