# Shared helpers of the CLI shell tests; source it after setting $timef (the binary) and $scratch
# (an empty directory). Every check counts failures instead of stopping, so one run reports all.
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_EXIT ARGS...: leaves stdout/stderr in $scratch/NAME.{out,err}
run() {
  local name=$1 expected=$2
  shift 2
  "$timef" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
  local code=$?
  if [ "$code" -ne "$expected" ]; then
    fail "$name: exit $code, expected $expected (timef $*)"
    sed 's/^/  | /' "$scratch/$name.err" >&2
  fi
}

expect_in() {  # expect_in NAME FILE TEXT
  grep -qF -- "$3" "$2" || fail "$1: '$3' not in $(basename "$2")"
}

expect_not_in() {  # expect_not_in NAME FILE TEXT
  grep -qF -- "$3" "$2" && fail "$1: '$3' unexpectedly in $(basename "$2")"
}

expect_lines() {  # expect_lines NAME FILE COUNT
  local n
  n=$(wc -l <"$2")
  [ "$n" -eq "$3" ] || fail "$1: $n lines in $(basename "$2"), expected $3"
}

expect_error_lines() {  # expect_error_lines NAME: every stderr line of NAME is a timef error line
  [ -s "$scratch/$1.err" ] || fail "$1: no message on stderr"
  grep -qv '^timef: error: ' "$scratch/$1.err" && fail "$1: a stderr line lacks 'timef: error: '"
}

# finish LABEL: exit 1 when any check failed, else print that all passed.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "$1: all checks passed"
}
