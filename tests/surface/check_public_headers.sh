#!/usr/bin/env bash
# Compiles every installed public header alone as a translation unit with the strictest warnings,
# so a header that leans on what another header happened to include, or that warns in a user's
# -Werror build, fails here.
# Usage: check_public_headers.sh <c++ compiler> <include dir> <generated include dir> <scratch dir>
set -u
cxx=$1 include_dir=$2 generated_dir=$3 scratch=$4
mkdir -p "$scratch"
failed=0 count=0
while IFS= read -r header; do
  count=$((count + 1))
  name=${header#"$include_dir"/}
  name=${name#"$generated_dir"/}
  tu="$scratch/$(echo "$name" | tr '/.' '__').cc"
  printf '#include "%s"\n' "$name" > "$tu"
  if ! "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
      -I"$include_dir" -I"$generated_dir" "$tu"; then
    echo "FAIL: $name does not compile on its own" >&2
    failed=$((failed + 1))
  fi
done < <(find "$include_dir/timef" "$generated_dir/timef" -name '*.h' | sort)
if [ "$count" -eq 0 ]; then
  echo "FAIL: no public header found below $include_dir/timef" >&2
  exit 1
fi
echo "$count public headers, $failed failed"
[ "$failed" -eq 0 ]
