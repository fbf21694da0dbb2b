#!/usr/bin/env bash
# Waits until the edge at EDGE_URL serves the tree at TREE: its /healthz
# names the SHA-256 of that tree's manifest.json. Step 1 of an update (see
# docs/deploy.md): publish the tree on the edge host, wait with this, then
# deploy the CDN.
#   deploy/await-edge.sh EDGE_URL TREE [TIMEOUT_SECONDS]
#   deploy/await-edge.sh https://edge.autoprecios.example /srv/autoprecios/output 120
# Exits 0 once the edge names the tree, 1 at the timeout (default 120 s),
# saying which tree the edge serves instead. Needs curl and sha256sum.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
edge=${1%/}
tree=$2
timeout=${3:-120}
want=$(sha256sum "$tree/manifest.json" | cut -d' ' -f1)
deadline=$((SECONDS + timeout))
seen=none
while :; do
  # No --fail: a stale snapshot answers 503 and still names its tree.
  body=$(curl -sS --max-time 5 "$edge/healthz" 2>/dev/null || true)
  seen=$(printf '%s' "$body" | grep -o '"tree":"[0-9a-f]*"' | cut -d'"' -f4 || true)
  if [ "$seen" = "$want" ]; then
    echo "the edge at $edge serves tree $want"
    exit 0
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "after ${timeout} s the edge at $edge serves tree ${seen:-none (no answer)}, not $want" >&2
    exit 1
  fi
  sleep 1
done
