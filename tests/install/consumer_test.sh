#!/usr/bin/env bash
# Usage: consumer_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR CMAKE CXX
# Installs BUILD_DIR into a temporary (non-default) prefix, then, as an outside project would:
#  1. find_package(timef COMPONENTS static): builds examples/cpp/write_ecg.cc against timef::timef
#     and read.cc against timef::timef_static, and runs them (tests/examples/examples_test.sh);
#  2. moves the prefix elsewhere and builds both with `pkg-config --cflags --libs timef`, and runs
#     them: the pkg-config file and the libraries must not depend on where they were installed;
#  3. runs the Python examples against the package installed in the moved prefix's dist-packages.
set -u
build=$1
src=$2
scratch=$3
cmake=$4
cxx=$5
rm -rf "$scratch" && mkdir -p "$scratch"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "install consumer: all checks passed"
  exit 0
}

prefix=$scratch/stage/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  { fail "cmake --install: $(tail -n 5 "$scratch/install.log")"; finish; }
pc=$(find "$prefix" -name timef.pc | head -n 1)
[ -n "$pc" ] || { fail "no timef.pc installed"; finish; }
[ -f "$prefix/include/timef/reader.h" ] || fail "public headers not installed"
# Nothing may name the build prefix, the default prefix or the build tree.
for file in "$pc" "$(dirname "$pc")/../cmake/timef/"*.cmake; do
  grep -qE "/usr/local|$build|$prefix" "$file" && fail "$(basename "$file") names an absolute path"
done

# ---- 1. CMake ----
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if "$cmake" -S "$src/tests/install/consumer" -B "$scratch/cmake-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
    >"$scratch/cmake-configure.log" 2>&1 &&
  "$cmake" --build "$scratch/cmake-build" -j 2 >"$scratch/cmake-build.log" 2>&1; then
  bash "$src/tests/examples/examples_test.sh" "$scratch/cmake-build/write_ecg" \
    "$scratch/cmake-build/read_static" "$scratch/cmake-run" || fail "examples built with CMake"
  # The static program does not load libtimef.so.
  ldd "$scratch/cmake-build/read_static" | grep -q "libtimef" && fail "read_static loads libtimef.so"
else
  fail "CMake consumer: $(tail -n 20 "$scratch/cmake-configure.log" "$scratch/cmake-build.log")"
fi

# ---- 2. pkg-config, from a prefix moved after installation ----
moved=$scratch/moved/elsewhere
mkdir -p "$(dirname "$moved")" && mv "$prefix" "$moved"
pc_dir=$(dirname "${pc/#$prefix/$moved}")
flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs timef) || fail "pkg-config --cflags --libs timef"
for example in write_ecg read; do
  # shellcheck disable=SC2086  # the flags are a list of words
  "$cxx" -O1 "$src/examples/cpp/$example.cc" $flags -o "$scratch/${example}_pc" \
    >"$scratch/pc-$example.log" 2>&1 || fail "pkg-config build of $example: $(tail -n 20 "$scratch/pc-$example.log")"
done
if [ -x "$scratch/write_ecg_pc" ] && [ -x "$scratch/read_pc" ]; then
  bash "$src/tests/examples/examples_test.sh" "$scratch/write_ecg_pc" "$scratch/read_pc" \
    "$scratch/pc-run" || fail "examples built with pkg-config"
fi

# ---- 3. the Python package, from the moved prefix (built unless this is a sanitizer build) ----
if [ -d "$build/python/timef" ]; then
  module=$(find "$moved" -name '_timef*.so' | head -n 1)
  if [ -z "$module" ]; then
    fail "the Python module was not installed"
  else
    site=$(dirname "$(dirname "$module")")
    case "$site" in */dist-packages) ;; *) fail "Python package not in a dist-packages: $site" ;; esac
    release=$(PYTHONPATH=$site /usr/bin/python3 "$src/examples/python/write_ecg.py" "$scratch/py-root") ||
      fail "installed Python package: write_ecg.py"
    PYTHONPATH=$site /usr/bin/python3 "$src/examples/python/read_ecg.py" "$release" >"$scratch/py-read.log" 2>&1 ||
      fail "installed Python package: read_ecg.py: $(tail -n 5 "$scratch/py-read.log")"
  fi
fi
finish
