#!/usr/bin/env bash
# Installs everything timef needs on Debian 12: Debian packages through apt-get and DuckDB's C
# library and header from the npm registry (pinned, checksummed). Idempotent: when everything is
# already present it prints nothing and touches no network.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
deps_dir="$root/third_party/duckdb"

DUCKDB_VERSION=1.4.4
DUCKDB_HEADER_PKG="duckdb@${DUCKDB_VERSION}"
DUCKDB_LIB_PKG="@duckdb/node-bindings-linux-x64@${DUCKDB_VERSION}-r.4"
DUCKDB_HEADER_TGZ_SHA256=5bb967dcbcd517670ba5f169f238fb9d6787e53752c60ebe24386169d76941ed
DUCKDB_LIB_TGZ_SHA256=732fac4dc6b8f198870b9c4bb6ddf13544466daca00ad28ba2f1d80de5d7aa4b
DUCKDB_HEADER_SHA256=cbe6a827284375c5a646b8f27dbd3a00808ce8738b5bbb49c190cb1e08540281
DUCKDB_LIB_SHA256=1ef33048e12235115ac0d277a0aaccbb560e33248144f488b5ac005cd9ba81b5

# Debian packages: build tools, libraries, test tools and the oracles the tests call.
packages=(
  build-essential cmake pkg-config git clang lld ccache
  libzstd-dev zstd libssl-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev libfmt-dev
  libsnappy-dev zlib1g-dev liblz4-dev libdeflate-dev libblosc-dev libisal-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libedf-dev
  libcurl4-openssl-dev libcpp-httplib-dev nginx-light chromium-headless-shell
  python3 python3-jsonschema python3-numpy python3-scipy
  python3-dev python3-pybind11 python3-pytest python3-torch python3-pandas
  python3-pip python3-setuptools python3-wheel python3-build python3-venv
  python3-distributed
  nodejs npm
)

log() { printf 'setup-deps: %s\n' "$*" >&2; }

missing=()
for p in "${packages[@]}"; do
  # nodejs may come from another repository with npm bundled; accept any working node + npm.
  if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
  if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# npm packages of the tests, pinned by their lockfiles (integrity hashes): the interop tests'
# independent Parquet readers/writers, and s3rver, the S3-compatible server of the S3 tests.
for node_dir in "$root/tests/interop/node" "$root/tests/remote/s3rver"; do
  if [ -f "$node_dir/package-lock.json" ]; then
    if [ ! -f "$node_dir/node_modules/.package-lock.json" ] ||
      ! cmp -s <(sha_of "$node_dir/package-lock.json") "$node_dir/node_modules/.timef-lock-sha256"; then
      log "installing npm packages (${node_dir#"$root"/})"
      (cd "$node_dir" && npm ci --silent --no-audit --no-fund >/dev/null)
      sha_of "$node_dir/package-lock.json" >"$node_dir/node_modules/.timef-lock-sha256"
    fi
  fi
done

duckdb_ok() {
  [ -f "$deps_dir/include/duckdb.h" ] && [ -f "$deps_dir/lib/libduckdb.so" ] &&
    [ "$(sha_of "$deps_dir/include/duckdb.h")" = "$DUCKDB_HEADER_SHA256" ] &&
    [ "$(sha_of "$deps_dir/lib/libduckdb.so")" = "$DUCKDB_LIB_SHA256" ]
}

# Checksumming 64 MB on every call is wasteful: a stamp records that the files were verified.
stamp="$deps_dir/.verified-$DUCKDB_VERSION"
if [ -f "$stamp" ] && [ "$deps_dir/lib/libduckdb.so" -ot "$stamp" ] && [ "$deps_dir/include/duckdb.h" -ot "$stamp" ]; then
  exit 0
fi
if duckdb_ok; then
  touch "$stamp"
  exit 0
fi

log "fetching DuckDB $DUCKDB_VERSION from the npm registry"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$DUCKDB_HEADER_PKG" "$DUCKDB_LIB_PKG" >/dev/null)
header_tgz="$work/duckdb-${DUCKDB_VERSION}.tgz"
lib_tgz="$work/duckdb-node-bindings-linux-x64-${DUCKDB_VERSION}-r.4.tgz"
check() {
  local file=$1 want=$2 got
  got=$(sha_of "$file")
  if [ "$got" != "$want" ]; then
    log "checksum mismatch for $(basename "$file"): expected $want, got $got"
    exit 1
  fi
}
check "$header_tgz" "$DUCKDB_HEADER_TGZ_SHA256"
check "$lib_tgz" "$DUCKDB_LIB_TGZ_SHA256"
tar xzf "$header_tgz" -C "$work" package/src/duckdb/src/include/duckdb.h
tar xzf "$lib_tgz" -C "$work" package/libduckdb.so
check "$work/package/src/duckdb/src/include/duckdb.h" "$DUCKDB_HEADER_SHA256"
check "$work/package/libduckdb.so" "$DUCKDB_LIB_SHA256"
rm -rf "$deps_dir.new"
mkdir -p "$deps_dir.new/include" "$deps_dir.new/lib"
cp "$work/package/src/duckdb/src/include/duckdb.h" "$deps_dir.new/include/"
cp "$work/package/libduckdb.so" "$deps_dir.new/lib/"
rm -rf "$deps_dir"
mv "$deps_dir.new" "$deps_dir"
touch "$stamp"
log "DuckDB $DUCKDB_VERSION ready in $deps_dir"
