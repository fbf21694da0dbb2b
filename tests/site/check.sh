#!/usr/bin/env bash
# Validates every HTML page of a generated tree with the Nu HTML Checker
# (vnu.jar from the npm package vnu-jar, errors only; needs Java 11+).
# Installs the checker once into ${XDG_CACHE_HOME:-$HOME/.cache}/autoprecios/npm,
# writes a small synthetic snapshot, generates the tree into a temporary
# directory and checks it, with four search and compare pages as the edge
# fills them in (and pages carrying comparison picks). Exits non-zero on any
# error.
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

# The pages the edge fills in for a query: results, a comparison and two
# refusals, fetched from the real server over the same tree.
cargo build --quiet --bin autoprecios-edge
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$CARGO_TARGET_DIR/debug/autoprecios-edge" --root "$work/output" --listen "127.0.0.1:$port" >"$work/edge.log" 2>&1 &
edge=$!
trap 'kill "$edge" 2>/dev/null || true; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 150); do
  curl -fsS -o /dev/null "$base/api/v1" 2>/dev/null && break
  sleep 0.2
done
ids="$(curl -fsS "$base/api/v1/vehicles?limit=3" | python3 -c 'import json, sys, urllib.parse; print(",".join(urllib.parse.quote(v["id"], safe="") for v in json.load(sys.stdin)["data"]["vehicles"]))')"
mkdir -p "$work/composed"
curl -sS -o "$work/composed/search.html" "$base/buscar?sort=price_asc&limit=5&offset=5"
curl -sS -o "$work/composed/search-refused.html" "$base/buscar?minPriceUsd=3&maxPriceUsd=1&color=red"
curl -sS -o "$work/composed/compare.html" "$base/comparar?ids=$ids"
curl -sS -o "$work/composed/compare-unknown.html" "$base/comparar?ids=nope,nada"
curl -sS -o "$work/composed/compare-partly.html" "$base/comparar?ids=nope,$ids"
curl -sS -o "$work/composed/deal-list.html" "$base/buscar?kind=price_drops&window=3d&maxPriceArs=90000000"
# Comparison picks carried by a static page and by a search.
curl -sS -o "$work/composed/home-picked.html" "$base/?comparar=$ids"
curl -sS -o "$work/composed/search-picked.html" "$base/buscar?q=a&comparar=$ids"
# A search's feed, with the pages' feeds checked below as XML.
curl -sS -o "$work/composed/search-feed.xml" "$base/buscar/feed.xml?q=a&sort=price_desc"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$work/composed/search-feed.xml" || { echo "site check: the search feed is not XML" >&2; exit 1; }
grep -q 'class="compare-go"' "$work/composed/home-picked.html" || { echo "site check: no compare bar with picks" >&2; exit 1; }
grep -q 'compare-table' "$work/composed/compare-partly.html" || { echo "site check: a partly known comparison shows no table" >&2; exit 1; }
grep -q '<li><article' "$work/composed/search.html" || { echo "site check: no search results" >&2; exit 1; }
grep -q 'compare-table' "$work/composed/compare.html" || { echo "site check: no comparison" >&2; exit 1; }

# output is a link to the published tree: check the tree itself.
tree="$(readlink -f "$work/output")"
pages="$(find "$tree" "$work/composed" -name '*.html' | wc -l)"
java -jar "$jar" --errors-only --skip-non-html "$tree" "$work/composed"
echo "site check: $pages HTML pages ($(ls "$work/composed" | wc -l) filled in by the edge), no errors"
