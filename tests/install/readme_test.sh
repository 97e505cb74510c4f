#!/usr/bin/env bash
# Usage: readme_test.sh README.md SCRATCH_DIR CXX PC_DIR [FLAGS]
# (PC_DIR: the build tree, holding its timef.pc; FLAGS: the sanitizer flags of a sanitizer build,
# which the program must be built with too.)
# Extracts the C++ program of README.md's "Quick start" (the first ```cpp block after the
# "### C++" heading of that section), builds it as the README says (`pkg-config --cflags --libs
# timef`), with the build tree's timef.pc, runs it in an empty directory and checks what it prints.
set -u
readme=$1
scratch=$2
cxx=$3
pc_dir=$4
read -r -a extra_flags <<<"${5:-}"
rm -rf "$scratch" && mkdir -p "$scratch"

awk '
  /^## / { in_section = ($0 == "## Quick start") }
  in_section && /^### C\+\+/ { in_cpp = 1 }
  in_cpp && !in_code && /^```cpp$/ { in_code = 1; next }
  in_code && /^```$/ { exit }
  in_code { print }
' "$readme" >"$scratch/first.cc"
[ -s "$scratch/first.cc" ] || { echo "FAIL: no C++ quick start in $readme" >&2; exit 1; }
lines=$(wc -l <"$scratch/first.cc")
[ "$lines" -le 45 ] || { echo "FAIL: the quick start has $lines lines" >&2; exit 1; }

flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs timef) ||
  { echo "FAIL: pkg-config --cflags --libs timef with $pc_dir/timef.pc" >&2; exit 1; }
# shellcheck disable=SC2086  # the flags are a list of words
"$cxx" -Wall -Wextra "${extra_flags[@]}" "$scratch/first.cc" $flags -o "$scratch/first" \
  >"$scratch/build.log" 2>&1 ||
  { echo "FAIL: the quick start does not build:" >&2; cat "$scratch/build.log" >&2; exit 1; }
(cd "$scratch" && ./first) >"$scratch/run.out" 2>&1 ||
  { echo "FAIL: the quick start exited $?:" >&2; cat "$scratch/run.out" >&2; exit 1; }
for text in "me/first-ecg@1.0.0" "lead_II" "task 1: normal"; do
  grep -qF -- "$text" "$scratch/run.out" ||
    { echo "FAIL: '$text' not in the quick start's output:" >&2; cat "$scratch/run.out" >&2; exit 1; }
done
[ -f "$scratch/registry/me/first-ecg/1.0.0/manifest.json" ] ||
  { echo "FAIL: the quick start wrote no release" >&2; exit 1; }
echo "README quick start: builds, runs and prints what it says"
