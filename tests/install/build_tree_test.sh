#!/usr/bin/env bash
# Usage: build_tree_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR CXX [FLAGS]
# (FLAGS: the sanitizer flags of a sanitizer build, which the program must be built with too.)
# The build tree is usable as docs/architecture.md says, without installing: build/timef.pc names
# the source tree's include/, the generated timef/version.h and the directory of libtimef.so, and a
# program that includes <timef/timef.h> (every public header, version.h too) builds with
# `pkg-config --cflags --libs timef` alone and runs against the build tree's library.
set -u
build=$1
src=$2
scratch=$3
cxx=$4
read -r -a extra_flags <<<"${5:-}"
rm -rf "$scratch" && mkdir -p "$scratch"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pc() { PKG_CONFIG_PATH=$build pkg-config "$@" timef; }

[ -f "$build/timef.pc" ] || { echo "FAIL: no $build/timef.pc" >&2; exit 1; }
includedir=$(pc --variable=includedir) || fail "pkg-config --variable=includedir"
libdir=$(pc --variable=libdir) || fail "pkg-config --variable=libdir"
[ "$(realpath "$includedir")" = "$(realpath "$src/include")" ] ||
  fail "includedir is $includedir, not the source tree's include/"
[ -f "$libdir/libtimef.so" ] || fail "libdir $libdir holds no libtimef.so"
cflags=$(pc --cflags) || fail "pkg-config --cflags"
for dir in $cflags; do
  case "$dir" in
    -I*) [ -d "${dir#-I}" ] || fail "--cflags names $dir, which is no directory" ;;
  esac
done
version=$(pc --modversion) || fail "pkg-config --modversion"

cat >"$scratch/umbrella.cc" <<'PROGRAM'
#include <timef/timef.h>

#include <iostream>

int main() {
  std::cout << timef::kVersion << " " << timef::ToString(timef::DType::kFloat32) << "\n";
  return 0;
}
PROGRAM
flags=$(pc --cflags --libs) || fail "pkg-config --cflags --libs timef"
# shellcheck disable=SC2086  # the flags are a list of words
if "$cxx" -Wall -Wextra "${extra_flags[@]}" "$scratch/umbrella.cc" $flags -o "$scratch/umbrella" \
    >"$scratch/build.log" 2>&1; then
  out=$("$scratch/umbrella" 2>&1) || fail "the program exited $?: $out"
  [ "$out" = "$version float32" ] || fail "the program printed '$out', expected '$version float32'"
  ldd "$scratch/umbrella" | grep -q "$(realpath "$libdir")/libtimef.so" ||
    fail "the program does not load $libdir/libtimef.so: $(ldd "$scratch/umbrella" | grep timef)"
else
  fail "<timef/timef.h> does not build with \`pkg-config --cflags --libs timef\`: $(tail -n 20 "$scratch/build.log")"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "build tree: timef.pc names the tree's headers and library; <timef/timef.h> builds with it"
