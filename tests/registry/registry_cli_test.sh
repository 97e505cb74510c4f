#!/usr/bin/env bash
# Usage: registry_cli_test.sh TIMEF_BINARY SCRATCH_DIR
# `timef ls`, `timef gc` and release refs (org/name[@x.y.z] resolved in --root or $TIMEF_ROOT) on
# a registry holding the hello-world demo; exit codes 0 (ok), 1 (failure), 2 (usage).
set -u
timef=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"
unset TIMEF_ROOT

root=$scratch/registry
run demo 0 demo "$root"
release=$root/timef/hello-world/1.0.0

# ---- refs ----
run info_ref 0 info timef/hello-world --root "$root"
expect_in info_ref "$scratch/info_ref.out" "timef/hello-world@1.0.0"
run info_exact 0 info timef/hello-world@1.0.0 --root "$root"
TIMEF_ROOT=$root run info_env 0 info timef/hello-world
expect_in info_env "$scratch/info_env.out" "timef/hello-world@1.0.0"
run records_ref 0 records timef/hello-world --root "$root"
run verify_ref 0 verify timef/hello-world@1.0.0 --root "$root"
run info_no_root 1 info timef/hello-world
expect_in info_no_root "$scratch/info_no_root.err" "--root"
expect_error_lines info_no_root
run info_unknown_version 1 info timef/hello-world@9.9.9 --root "$root"
expect_in info_unknown_version "$scratch/info_unknown_version.err" "timef/hello-world@9.9.9"
run info_dir 0 info "$release"
# A release copied under a wrong version name: a registry open refuses it.
cp -r "$release" "$root/timef/hello-world/2.0.0"
run info_mismatch 1 info timef/hello-world@2.0.0 --root "$root"
expect_in info_mismatch "$scratch/info_mismatch.err" "dataset_version"
rm -rf "$root/timef/hello-world/2.0.0"

# ---- ls ----
mkdir -p "$root/timef/hello-world/1.1.0.tmp-0123456789abcdef0123456789abcdef"
run ls 0 ls "$root"
expect_in ls "$scratch/ls.out" "DATASET"
expect_in ls "$scratch/ls.out" "timef/hello-world"
expect_in ls "$scratch/ls.out" "latest"
expect_not_in ls "$scratch/ls.out" "tmp-"
expect_lines ls "$scratch/ls.out" 2
run ls_json 0 ls --root "$root" --format json
/usr/bin/python3 - "$scratch/ls_json.out" <<'PY' || fail "ls_json: bad JSON rows"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert len(rows) == 1, rows
r = rows[0]
assert r["dataset"] == "timef/hello-world" and r["version"] == "1.0.0", r
assert r["latest"] is True and r["records"] == 4 and r["own_bytes"] > 0, r
assert r["payload_sources"] == [], r
PY
run ls_missing 1 ls "$scratch/absent"
expect_error_lines ls_missing
run ls_no_root 1 ls
run ls_bad_format 2 ls "$root" --format xml

# ---- gc ----
stale=$root/timef/hello-world/1.1.0.tmp-0123456789abcdef0123456789abcdef
run gc_young 0 gc "$root"
[ -d "$stale" ] || fail "gc_young: removed a young staging directory"
touch -d '3 days ago' "$stale"
run gc_dry 0 gc "$root" --dry-run
expect_in gc_dry "$scratch/gc_dry.out" "would remove $stale"
[ -d "$stale" ] || fail "gc_dry: removed something"
run gc 0 gc "$root" --older-than 48h
expect_in gc "$scratch/gc.out" "removed $stale"
[ -d "$stale" ] && fail "gc: staging directory still there"
[ -f "$release/manifest.json" ] || fail "gc: touched a release"
run gc_bad_duration 2 gc "$root" --older-than 3weeks
expect_error_lines gc_bad_duration
run gc_missing 1 gc "$scratch/absent"

finish registry_cli
