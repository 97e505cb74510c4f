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
# The demo writes hello-world 1.0.0 and 1.1.0 (an edit) and hello-child 1.0.0 (a derived child).
run info_ref 0 info timef/hello-world --root "$root"
expect_in info_ref "$scratch/info_ref.out" "timef/hello-world@1.1.0"
run info_exact 0 info timef/hello-world@1.0.0 --root "$root"
TIMEF_ROOT=$root run info_env 0 info timef/hello-child
expect_in info_env "$scratch/info_env.out" "timef/hello-child@1.0.0"
run verify_child 0 verify timef/hello-child --root "$root"
expect_in verify_child "$scratch/verify_child.out" "pinned in 1 payload sources"
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
expect_lines ls "$scratch/ls.out" 5  # header, hello-child, hello-world 1.0.0 and 1.1.0, hello-zarr
run ls_json 0 ls --root "$root" --format json
/usr/bin/python3 - "$scratch/ls_json.out" <<'PY' || fail "ls_json: bad JSON rows"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
got = [(r["dataset"], r["version"], r["latest"], r["payload_sources"]) for r in rows]
assert got == [("timef/hello-child", "1.0.0", True, ["timef/hello-world@1.0.0"]),
               ("timef/hello-world", "1.0.0", False, []),
               ("timef/hello-world", "1.1.0", True, ["timef/hello-world@1.0.0"]),
               ("timef/hello-zarr", "1.0.0", True, [])], got
assert all(r["records"] > 0 and r["own_bytes"] > 0 for r in rows), rows
PY
# One broken release (a copy under a version its manifest does not name): ls lists the others
# and names the broken one on stderr, exit 1 (issue 31 item 5).
cp -r "$release" "$root/timef/hello-world/3.0.0"
run ls_broken 1 ls "$root"
expect_lines ls_broken "$scratch/ls_broken.out" 5
expect_in ls_broken "$scratch/ls_broken.out" "timef/hello-zarr"
expect_not_in ls_broken "$scratch/ls_broken.out" "3.0.0"
expect_in ls_broken "$scratch/ls_broken.err" "timef/hello-world@3.0.0"
expect_in ls_broken "$scratch/ls_broken.err" "dataset_version"
expect_error_lines ls_broken
rm -rf "$root/timef/hello-world/3.0.0"

# Names from a release are printed escaped: a card name and tag holding an escape sequence and a
# newline never reach the terminal raw (issue 31 item 5).
hostile=$scratch/hostile-card
cp -r "$release" "$hostile"
/usr/bin/python3 - "$hostile/manifest.json" <<'PY' || fail "hostile card: cannot edit manifest"
import json, sys
m = json.load(open(sys.argv[1]))
m["metadata"]["name"] = "red\x1b[31mALERT\nsecond line"
m["metadata"]["tags"] = ["tag\x1b]0;title\x07"]
json.dump(m, open(sys.argv[1], "w"))
PY
for command in "manifest show" info; do
  name=escaped_${command// /_}
  # shellcheck disable=SC2086
  run "$name" 0 $command "$hostile"
  grep -q $'\x1b' "$scratch/$name.out" && fail "$name: a raw ESC byte on stdout"
  expect_in "$name" "$scratch/$name.out" 'red\x1b[31mALERT\x0asecond line'
done
expect_in escaped_manifest_show "$scratch/escaped_manifest_show.out" 'tag\x1b]0;title\x07'

run ls_missing 1 ls "$scratch/absent"
expect_error_lines ls_missing
run ls_no_root 1 ls
run ls_bad_format 2 ls "$root" --format xml

# ---- edit and derive ----
run edit 0 edit timef/hello-world@1.0.0 --version 2.0.0 --remove-records 3,4 --root "$root"
[ "$(cat "$scratch/edit.out")" = "$root/timef/hello-world/2.0.0" ] || fail "edit: stdout"
expect_in edit "$scratch/edit.err" "0 own values files"
run edit_records 0 records timef/hello-world@2.0.0 --root "$root" --format json
/usr/bin/python3 - "$scratch/edit_records.out" <<'PY' || fail "edit_records: IDs"
import json, sys
ids = sorted(json.loads(line)["id"] for line in open(sys.argv[1]))
assert ids == [1, 2], ids
PY
run edit_verify 0 verify "$root/timef/hello-world/2.0.0"
run edit_again 1 edit timef/hello-world@1.0.0 --version 2.0.0 --root "$root"
expect_in edit_again "$scratch/edit_again.err" "already holds a committed version"
run edit_unknown 1 edit timef/hello-world@1.0.0 --version 2.1.0 --remove-records 99 --root "$root"
expect_in edit_unknown "$scratch/edit_unknown.err" "99"
run edit_no_version 2 edit timef/hello-world@1.0.0 --root "$root"
run edit_bad_threads 2 edit timef/hello-world@1.0.0 --version 2.2.0 --threads 300 --root "$root"
expect_in edit_bad_threads "$scratch/edit_bad_threads.err" "--threads"
run edit_bad_version 1 edit timef/hello-world@1.0.0 --version 2.0 --root "$root"
run derive 0 derive timef/hello-world@1.0.0 --as test/derived@1.0.0 --alias hw --records 2,1 \
  --with-tasks --threads 2 --root "$root"
expect_in derive "$scratch/derive.err" "importing 2 records"
expect_in derive "$scratch/derive.err" "0 own values files"
run derive_verify 0 verify test/derived --root "$root"
run derive_info 0 info test/derived --root "$root"
expect_in derive_info "$scratch/derive_info.out" "2 records"
run derive_bad_alias 1 derive timef/hello-world@1.0.0 --as test/x@1.0.0 --alias Bad --root "$root"
run derive_no_as 2 derive timef/hello-world@1.0.0 --alias hw --root "$root"
# Moved out of its registry, the child needs --root to find hello-world.
mkdir -p "$scratch/elsewhere" && cp -r "$root/test/derived/1.0.0" "$scratch/elsewhere/child"
run moved_no_root 1 verify "$scratch/elsewhere/child"
expect_in moved_no_root "$scratch/moved_no_root.err" "sources_root"
run moved_root 0 verify "$scratch/elsewhere/child" --root "$root"

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
