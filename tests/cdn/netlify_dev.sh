#!/usr/bin/env bash
# The CDN rules for real: netlify-cli's `netlify dev`, offline, serves a
# generated tree with this repository's netlify.toml in front of the real
# edge, and tests/cdn/netlify_dev.py checks files, proxied queries, compare
# with encoded commas, the JSON 404 and the headers of each.
#   tests/cdn/netlify_dev.sh EDGE_BINARY NETLIFY_BINARY
set -euo pipefail
edge_bin=$1
netlify_bin=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
edge_port=$(free_port)
cdn_port=$(free_port)
pids=()
stop() {
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$work" 2>/dev/null || true
}
trap stop EXIT

cd "$root"
RUST_LOG=warn cargo run --quiet --bin autoprecios -- generate --out "$work/output" \
  --base-url "http://localhost:$cdn_port" --edge-origin "http://127.0.0.1:$edge_port"
RUST_LOG=warn "$edge_bin" --root "$work/output" --listen "127.0.0.1:$edge_port" >"$work/edge.log" 2>&1 &
pids+=($!)
cp netlify.toml "$work/"
cd "$work"
# --offline: no account, no network; edge functions off (none are used).
"$netlify_bin" dev --offline --dir output --port "$cdn_port" --internal-disable-edge-functions \
  >"$work/netlify.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "http://localhost:$cdn_port/api/v1" 2>/dev/null && break
  sleep 0.2
done
python3 "$root/tests/cdn/netlify_dev.py" "http://localhost:$cdn_port" "http://127.0.0.1:$edge_port" "$work/output" \
  || { tail -n 30 "$work/netlify.log" >&2; exit 1; }
