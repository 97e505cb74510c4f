#!/usr/bin/env bash
# Usage: examples_test.sh WRITE_ECG READ SCRATCH_DIR [DERIVE [WRITE_PIECES [OPEN_VERSION]]]
# Runs examples/cpp/write_ecg.cc into a fresh registry and examples/cpp/read.cc on its release, and
# checks what they print: the release path, the counts, the records, a window and a task.
# Also used by tests/install/consumer_test.sh on the programs built against an installed tree.
set -u
write_ecg=$1
read=$2
scratch=$3
derive=${4:-}
write_pieces=${5:-}
open_version=${6:-}
rm -rf "$scratch" && mkdir -p "$scratch"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

release=$scratch/registry/examples/ecg-12lead/1.0.0
"$write_ecg" "$scratch/registry" >"$scratch/write.out" 2>"$scratch/write.err" ||
  fail "write_ecg exited $?: $(cat "$scratch/write.err")"
[ "$(cat "$scratch/write.out")" = "$release" ] || fail "write_ecg printed '$(cat "$scratch/write.out")'"
[ -f "$release/manifest.json" ] || fail "no manifest.json in $release"
"$write_ecg" "$scratch/registry" >/dev/null 2>"$scratch/write_again.err" &&
  fail "write_ecg wrote a committed version again"
grep -q "committed version" "$scratch/write_again.err" || fail "second write: $(cat "$scratch/write_again.err")"
"$write_ecg" >/dev/null 2>&1
[ $? -eq 2 ] || fail "write_ecg without a registry: expected exit 2"

"$read" "$release" >"$scratch/read.out" 2>"$scratch/read.err" ||
  fail "read exited $?: $(cat "$scratch/read.err")"
for text in "examples/ecg-12lead@1.0.0: 3 records, 36 signals" \
    "record 1: I(5000) II(5000) III(5000) aVR(5000)" "V6(5000)" "record 3:" \
    "signal 1 steps 100-104 (millivolt):" 'task 1: classification, prompt "Which rhythm' \
    "    text: normal" "task table: 6 rows; columns: task_id type split" \
    "36 signals loaded in batches of 12 on 2 threads: 180000 values" \
    "the same into one buffer of 60000 floats: 180000 values"; do
  grep -qF -- "$text" "$scratch/read.out" || fail "read: '$text' not in its output"
done
[ "$(grep -c '^record ' "$scratch/read.out")" -eq 3 ] || fail "read: expected 3 record lines"
"$read" "$scratch/registry" >/dev/null 2>"$scratch/read_bad.err"
[ $? -eq 1 ] || fail "read of a registry root: expected exit 1"

# The same release served by nginx (docs/remote.md) on 127.0.0.1 and a free port: read prints the
# same through its URL.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$scratch/nginx/tmp"
{
  echo "daemon off; master_process off; worker_processes 1;"
  echo "pid $scratch/nginx/nginx.pid; error_log $scratch/nginx/error.log;"
  echo "events { worker_connections 64; }"
  echo "http { access_log off;"
  for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $scratch/nginx/tmp;"; done
  echo "  server { listen 127.0.0.1:$port; root $scratch/registry; } }"
} >"$scratch/nginx/nginx.conf"
/usr/sbin/nginx -p "$scratch/nginx/" -e "$scratch/nginx/error.log" -c "$scratch/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 1 500); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.02
done
TIMEF_CACHE_DIR="$scratch/cache" "$read" "http://127.0.0.1:$port/examples/ecg-12lead/1.0.0" \
  >"$scratch/read_url.out" 2>"$scratch/read_url.err" ||
  fail "read of the URL exited $?: $(cat "$scratch/read_url.err")"
cmp -s "$scratch/read.out" "$scratch/read_url.out" ||
  fail "read of the URL printed another output: $(diff "$scratch/read.out" "$scratch/read_url.out" | head)"
kill "$nginx_pid"
wait "$nginx_pid" 2>/dev/null

# examples/cpp/derive.cc: a child of the example release in the same registry.
if [ -n "$derive" ]; then
  "$derive" "$scratch/registry" >"$scratch/derive.out" 2>"$scratch/derive.err" ||
    fail "derive exited $?: $(cat "$scratch/derive.err")"
  for text in "$scratch/registry/examples/ecg-subset/1.0.0" \
      "examples/ecg-subset@1.0.0: 2 records" "1 payload source" \
      "parent signal 1 is child signal 1 'I': 5000 values" "verified, parent files included"; do
    grep -qF -- "$text" "$scratch/derive.out" || fail "derive: '$text' not in its output"
  done
  [ -z "$(find "$scratch/registry/examples/ecg-subset/1.0.0/time_series" -type f 2>/dev/null)" ] ||
    fail "derive: the child holds values files of its own"
fi

# examples/cpp/open_version.cc: the derived child by ref through a client, its payload source
# found in the registry, then loaded whole (2 records of 12 leads of 5000 values).
if [ -n "$open_version" ] && [ -n "$derive" ]; then
  "$open_version" "$scratch/registry" examples/ecg-subset >"$scratch/open_version.out" \
    2>"$scratch/open_version.err" || fail "open_version exited $?: $(cat "$scratch/open_version.err")"
  for text in "version examples/ecg-subset@1.0.0" "payload source examples/ecg-12lead@1.0.0" \
      "2 records, 24 signals" "loaded 2 records, 120000 values"; do
    grep -qxF -- "$text" "$scratch/open_version.out" || fail "open_version: '$text' not in its output"
  done
  "$open_version" "$scratch/registry" examples/ecg-subset@9.0.0 >/dev/null 2>"$scratch/open_version_bad.err"
  [ $? -eq 1 ] || fail "open_version of an absent version: expected exit 1"
  grep -qF "no registry holds it" "$scratch/open_version_bad.err" ||
    fail "open_version of an absent version: $(cat "$scratch/open_version_bad.err")"
fi

# examples/cpp/write_pieces.cc: a signal written from a piece loader, its last samples read back.
if [ -n "$write_pieces" ]; then
  "$write_pieces" "$scratch/registry" >"$scratch/pieces.out" 2>"$scratch/pieces.err" ||
    fail "write_pieces exited $?: $(cat "$scratch/pieces.err")"
  grep -qxF -- "$scratch/registry/examples/long-recording/1.0.0" "$scratch/pieces.out" ||
    fail "write_pieces printed '$(cat "$scratch/pieces.out")'"
  grep -qE '^last samples: (-?[0-9]+) (-?[0-9]+) (-?[0-9]+) \(expected \1 \2 \3\)$' \
    "$scratch/pieces.out" || fail "write_pieces: the samples read back differ: $(cat "$scratch/pieces.out")"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "examples: all checks passed"
