#!/usr/bin/env bash
# Schemathesis against the real edge server: starts EDGE on the generated tree
# ROOT, loads the openapi.json it serves and runs every check on every
# operation, bounded in examples and time. schemathesis.toml (repo root) holds
# the one accepted finding and tests/schemathesis_hooks.py the example IDs.
#
#   tests/schemathesis.sh EDGE_BINARY [ROOT]     (ROOT defaults to output)
#
# SCHEMATHESIS_SEED reproduces another run (the seed is printed at the end);
# SCHEMATHESIS_PORT fixes the server's port (a free one by default).
set -euo pipefail
cd "$(dirname "$0")/.."

edge=${1:?usage: tests/schemathesis.sh EDGE_BINARY [ROOT]}
root=${2:-output}
# A free port unless told otherwise: a fixed one may be taken by a parallel run.
port=${SCHEMATHESIS_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
seed=${SCHEMATHESIS_SEED:-20261121}
base="http://127.0.0.1:$port"

log=$(mktemp)
"$edge" --root "$root" --listen "127.0.0.1:$port" >"$log" 2>&1 &
edge_pid=$!
trap 'kill "$edge_pid" 2>/dev/null || true; rm -f "$log"' EXIT

for _ in $(seq 1 150); do
  if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
      "$base/api/v1" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$edge_pid" 2>/dev/null; then
    echo "the edge server exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.2
done

kill -0 "$edge_pid" 2>/dev/null || { echo "the edge server exited:" >&2; cat "$log" >&2; exit 1; }

# Two real IDs for the hooks' examples, read from the server under test.
AUTOPRECIOS_EXAMPLE_IDS=$(python3 - "$base" <<'EOF'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/api/v1/vehicles?sort=name&limit=2", timeout=5) as reply:
    print(json.dumps([v["id"] for v in json.load(reply)["data"]["vehicles"]]))
EOF
)
export AUTOPRECIOS_EXAMPLE_IDS
AUTOPRECIOS_EXAMPLE_MONTH=$(python3 - "$base" <<'EOF'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/api/v1/reports", timeout=5) as reply:
    print(json.load(reply)["data"]["reports"][0]["month"])
EOF
)
export AUTOPRECIOS_EXAMPLE_MONTH

# --url: the document's server is the tree's base URL, not this port.
# --max-time bounds the run even if the API slows down; with it, fuzzing and
# stateful testing repeat until it is spent, so it is the run's length too.
status=0
st run "$base/openapi.json" \
  --url "$base" \
  --checks all \
  --max-examples 50 \
  --max-time 90 \
  --seed "$seed" \
  --workers 2 \
  --generation-database none \
  --no-color || status=$?

if [ "$status" -ne 0 ]; then
  echo "schemathesis failed; the edge server's log:" >&2
  tail -n 50 "$log" >&2
fi
exit "$status"
