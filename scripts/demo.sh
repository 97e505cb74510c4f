#!/usr/bin/env bash
# `make demo`: runs the main job on the freshly built tree. Until the writer lands (issue 5) that is
# the CLI's version check and validating the sample manifest shipped in examples/.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
timef="$build/bin/timef"

echo "== timef --version"
"$timef" --version
echo "== timef manifest validate examples/manifest/hello.json"
"$timef" manifest validate "$root/examples/manifest/hello.json"
echo "== timef manifest show examples/manifest/hello.json"
"$timef" manifest show "$root/examples/manifest/hello.json"
