#!/usr/bin/env bash
# Headless-browser check of the site: installs Debian's chromium (apt) and
# playwright-core (npm, into a cache dir; no browser download), serves the
# tree in output/ with the real edge binary and runs tests/browser/pages.mjs.
# Screenshots go to target/screenshots/.
# With a generator binary, it then follows a search across a new snapshot
# (tests/browser/follow.mjs): a second edge serves a tree of the bundled
# series as of the day before, a phone-sized browser reads a deal list's
# feed, the tree is regenerated from the bundled snapshot in place, and once
# the edge names it (deploy/await-edge.sh) the browser reads the feed again.
# Usage: bash tests/browser/run.sh EDGE_BINARY TREE_DIR [GENERATOR_BINARY]
set -euo pipefail
edge="$1" tree="$2" generator="${3:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/autoprecios/npm-browser"

if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || { echo "browser check: could not install chromium" >&2; exit 1; }
fi
if [ ! -d "$cache/node_modules/playwright-core" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund playwright-core@1 >&2
fi

# A free port: other checkouts may run this check at the same time.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
"$edge" --root "$tree" --listen "127.0.0.1:$port" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 150); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/api/v1" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.2
done
# ES modules resolve packages next to the script, so run a copy beside them.
cp "$root/tests/browser/pages.mjs" "$cache/pages.mjs"
node "$cache/pages.mjs" "http://127.0.0.1:$port" "$root/target/screenshots"

if [ -n "$generator" ]; then
  work="$(mktemp -d)"
  trap 'kill "$pid" "${follow_pid:-}" 2>/dev/null || true; rm -rf "$log" "$work"' EXIT
  export RUST_LOG=warn
  "$generator" sample --end 2026-11-20T23:00:00Z --out "$work/earlier" >/dev/null
  "$generator" generate --data "$work/earlier" --out "$work/output" --base-url http://127.0.0.1 2>/dev/null
  follow_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$edge" --root "$work/output" --listen "127.0.0.1:$follow_port" >"$work/edge.log" 2>&1 &
  follow_pid=$!
  bash "$root/deploy/await-edge.sh" "http://127.0.0.1:$follow_port" "$work/output" 30 >/dev/null
  cp "$root/tests/browser/follow.mjs" "$cache/follow.mjs"
  node "$cache/follow.mjs" "http://127.0.0.1:$follow_port" before "$work/follow.json"
  "$generator" generate --data "$root/data" --out "$work/output" --base-url http://127.0.0.1 2>/dev/null
  bash "$root/deploy/await-edge.sh" "http://127.0.0.1:$follow_port" "$work/output" 30 >/dev/null
  node "$cache/follow.mjs" "http://127.0.0.1:$follow_port" after "$work/follow.json"
fi