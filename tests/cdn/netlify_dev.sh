#!/usr/bin/env bash
# The CDN rules for real: netlify-cli's `netlify dev`, offline, serves the
# public directory of a 3,000-version tree (its generated _redirects and
# _headers, nothing else) in front of the real edge, and
# tests/cdn/netlify_dev.py checks files, proxied queries, compare with
# encoded commas, the JSON 404 and the headers of each.
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
# A catalogue of 3,000 versions: the routing must not grow with it.
RUST_LOG=warn cargo run --quiet --bin autoprecios -- sample --versions 3000 --out "$work/data"
RUST_LOG=warn cargo run --quiet --bin autoprecios -- generate --data "$work/data" --out "$work/output" \
  --base-url "http://localhost:$cdn_port" --edge-origin "http://127.0.0.1:$edge_port"
RUST_LOG=warn "$edge_bin" --root "$work/output" --listen "127.0.0.1:$edge_port" >"$work/edge.log" 2>&1 &
pids+=($!)
cd "$work"
# --offline: no account, no network; edge functions off (none are used).
# No netlify.toml: the tree carries its own rules.
"$netlify_bin" dev --offline --dir output/public --port "$cdn_port" --internal-disable-edge-functions \
  >"$work/netlify.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "http://localhost:$cdn_port/api/v1" 2>/dev/null && break
  sleep 0.2
done
node "$root/tests/cdn/headers_check.mjs" "$(dirname "$netlify_bin")/.." output
rules=$(grep -cv '^#' output/public/_redirects)
echo "_redirects: $rules rules at $(wc -l <output/_edge/records.jsonl) versions"
python3 "$root/tests/cdn/netlify_dev.py" "http://localhost:$cdn_port" "http://127.0.0.1:$edge_port" "$work/output/public" \
  || { tail -n 30 "$work/netlify.log" >&2; exit 1; }
