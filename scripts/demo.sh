#!/usr/bin/env bash
# `make demo`: writes the hello-world release into BUILD/demo-registry (or reuses it when already
# committed), then inspects and verifies it with the CLI.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
timef="$build/bin/timef"
registry="$build/demo-registry"

echo "== timef --version"
"$timef" --version
echo "== timef manifest validate examples/manifest/hello.json"
"$timef" manifest validate "$root/examples/manifest/hello.json"
echo "== timef demo $registry"
release=$("$timef" demo "$registry")
echo "$release"
echo "== timef info $release"
"$timef" info "$release"
echo "== timef verify $release"
"$timef" verify "$release"
echo "== timef manifest validate $release"
"$timef" manifest validate "$release"
echo "== timef records $release"
"$timef" records "$release"
echo "== timef tasks $release"
"$timef" tasks "$release"
echo "== timef cat $release --signal 2 --steps 4998:5003 (lead II around the planted NaN)"
"$timef" cat "$release" --signal 2 --steps 4998:5003
echo "== timef ls $registry (the demo also writes the composed releases)"
"$timef" ls "$registry"
echo "== timef info timef/hello-child --root $registry (imports hello-world records, copies no values)"
"$timef" info timef/hello-child --root "$registry"
echo "== timef verify timef/hello-child --root $registry (own files, then the pinned hello-world files)"
"$timef" verify timef/hello-child --root "$registry"
