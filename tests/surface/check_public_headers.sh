#!/usr/bin/env bash
# Compiles every installed public header alone as a translation unit with the strictest warnings,
# so a header that leans on what another header happened to include, or that warns in a user's
# -Werror build, fails here. The headers compile in parallel (one per core): each is its own
# process, and the check is one of the longest tests of `make test`.
# Usage: check_public_headers.sh <c++ compiler> <include dir> <generated include dir> <scratch dir>
set -u
cxx=$1 include_dir=$2 generated_dir=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch"
find "$include_dir/timef" "$generated_dir/timef" -name '*.h' | sort >"$scratch/headers"
count=$(wc -l <"$scratch/headers")
if [ "$count" -eq 0 ]; then
  echo "FAIL: no public header found below $include_dir/timef" >&2
  exit 1
fi
# One header: writes its translation unit, compiles it, and leaves a .failed mark when it fails.
check_one() {
  local header=$1 name tu
  name=${header#"$include_dir"/}
  name=${name#"$generated_dir"/}
  tu="$scratch/$(echo "$name" | tr '/.' '__').cc"
  printf '#include "%s"\n' "$name" >"$tu"
  if ! "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
      -I"$include_dir" -I"$generated_dir" "$tu" 2>"$tu.log"; then
    cat "$tu.log" >&2
    echo "FAIL: $name does not compile on its own" >&2
    touch "$tu.failed"
  fi
}
export -f check_one
export cxx include_dir generated_dir scratch
xargs -d '\n' -P "$(nproc)" -n 1 bash -c 'check_one "$1"' _ <"$scratch/headers"
failed=$(find "$scratch" -name '*.failed' | wc -l)
echo "$count public headers, $failed failed"
[ "$failed" -eq 0 ]
