#!/usr/bin/env bash
# Validates every HTML page of a generated tree with the Nu HTML Checker
# (vnu.jar from the npm package vnu-jar, errors only; needs Java 11+).
# Installs the checker once into ${XDG_CACHE_HOME:-$HOME/.cache}/autoprecios/npm,
# writes a small synthetic snapshot, generates the tree into a temporary
# directory and checks it. Exits non-zero on any error.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/autoprecios/npm"
version="26.9.27"
jar="$cache/node_modules/vnu-jar/build/dist/vnu.jar"

command -v java >/dev/null || { echo "site check: java is required" >&2; exit 1; }
if [ ! -f "$jar" ] || ! grep -q "\"version\": \"$version\"" "$cache/node_modules/vnu-jar/package.json"; then
  mkdir -p "$cache"
  # --ignore-scripts: the package's postinstall would fetch a Java runtime;
  # the machine's own java runs the jar.
  npm install --prefix "$cache" --no-audit --no-fund --ignore-scripts "vnu-jar@$version" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
cd "$root"
export RUST_LOG="${RUST_LOG:-warn}"
cargo run --quiet --bin autoprecios -- sample --versions 60 --days 220 --format csv --out "$work/data" >/dev/null
cargo run --quiet --bin autoprecios -- generate --data "$work/data" --out "$work/output" \
  --base-url https://autoprecios.example >/dev/null

pages="$(find "$work/output" -name '*.html' | wc -l)"
java -jar "$jar" --errors-only --skip-non-html "$work/output"
echo "site check: $pages HTML pages, no errors"
