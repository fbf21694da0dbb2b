#!/usr/bin/env bash
# Soak test of autoprecios-edge: mixed load on loopback (wrk with
# bench/soak.lua over the mix bench/soak_requests.py reads from the server:
# precomputed pages, filtered searches, compares, conditional requests, MCP
# calls) while `autoprecios generate` rewrites the served tree
# SOAK_REGENERATIONS times, one after the other (the edge reloads on the
# manifest change). The run scales with the tree: each regeneration starts
# SETTLE seconds after the previous tree is served, however long `generate`
# takes, and the load ends SETTLE seconds after the last.
#
# Passes with zero 5xx (and nothing but 200 and 304), zero socket errors,
# every reload seen, resident memory (VmRSS, read every second) at the end
# within 1.2x of its level before the first reload and under 2x of it at the
# peak (the new tree loads while the old one still serves), and the answers
# given while a tree loads (bench/soak_probe.py asks /api/v1 fifty times a
# second) no slower at the 99th percentile than the whole soak's p99 (judged
# from 100 such answers up).
#
#   bash bench/soak.sh [SETTLE]        30 s by default; needs wrk (apt-get install wrk)
#   SOAK_REGENERATIONS=10 bash bench/soak.sh 30
#
# Environment: SOAK_REGENERATIONS (2); SOAK_DATA, the snapshot (`data`, the
# bundled one); SOAK_WORK, a scratch directory ($CARGO_TARGET_DIR/soak);
# SOAK_GENERATE_BIN and SOAK_EDGE_BIN, binaries to run instead of a dev build
# made here with cargo; SOAK_PORT (a free one); SOAK_THREADS (2) and
# SOAK_CONNECTIONS (32) for wrk; SOAK_MAX_SECONDS (14400), a cap on the load
# should a regeneration hang; RUST_LOG of the edge (warn, and info from its
# loader: when each load ran, which the report reads; no request log).
#
# The regenerations use other base URLs, so every response (and ETag) changes
# and the reloads are visible from outside; the data, and so every ID, stays.
set -euo pipefail
cd "$(dirname "$0")/.."

settle=${1:-30}
regenerations=${SOAK_REGENERATIONS:-2}
data=${SOAK_DATA:-data}
# A free port unless told otherwise: a fixed one may be taken by a parallel run.
port=${SOAK_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
threads=${SOAK_THREADS:-2}
connections=${SOAK_CONNECTIONS:-32}
max_seconds=${SOAK_MAX_SECONDS:-14400}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
work=${SOAK_WORK:-$CARGO_TARGET_DIR/soak}
base="http://127.0.0.1:$port"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
if [[ -z "${SOAK_GENERATE_BIN:-}" || -z "${SOAK_EDGE_BIN:-}" ]]; then
  cargo build --quiet --bin autoprecios --bin autoprecios-edge
fi
generate_bin=${SOAK_GENERATE_BIN:-$CARGO_TARGET_DIR/debug/autoprecios}
edge_bin=${SOAK_EDGE_BIN:-$CARGO_TARGET_DIR/debug/autoprecios-edge}

event() { # event WHAT N: one line of the run's timeline, in Unix seconds
  echo "$(date +%s.%N) $1 $2" >>"$work/events.txt"
}

generate() { # generate N BASE_URL: rewrite the served tree
  event generate "$1"
  "$generate_bin" generate --data "$data" --out "$work/output" --base-url "$2" \
    >"$work/generate-$1.log" 2>&1
  event generated "$1"
}

served() { # served BASE_URL: waits until the edge answers with that tree
  local waited=0
  until curl -fsS --max-time 2 "$base/api/v1" 2>/dev/null | grep -qF "\"$1/"; do
    kill -0 "$edge" 2>/dev/null || { cat "$work/edge.log" >&2; return 1; }
    (( waited++ < 3000 )) || { echo "the edge never served $1" >&2; return 1; }
    sleep 0.1
  done
}

generate 0 "$base"
RUST_LOG=${RUST_LOG:-warn,autoprecios::edge::loader=info} "$edge_bin" --root "$work/output" --listen "127.0.0.1:$port" \
  >"$work/edge.log" 2>&1 &
edge=$!
trap 'kill "$edge" 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true' EXIT
served "$base"
event served 0
python3 bench/soak_requests.py "$base" >"$work/requests.lua"
python3 bench/soak_probe.py "$base" "$edge" >"$work/probe.txt" &

SOAK_REQUESTS="$work/requests.lua" wrk -t"$threads" -c"$connections" -d"${max_seconds}s" \
  --timeout 5s --latency -s bench/soak.lua "$base" >"$work/wrk.txt" &
load=$!
event load 0
sleep "$settle"
for n in $(seq 1 "$regenerations"); do
  generate "$n" "https://soak-$n.example"
  served "https://soak-$n.example"
  event served "$n"
  echo "tree $n of $regenerations served" >&2
  sleep "$settle"
done
# wrk stops at SIGINT and still prints its summary.
kill -INT "$load"
wait "$load" || true
event end 0
cat "$work/wrk.txt"
python3 bench/soak_report.py "$work" "$threads" "$connections" "$regenerations" "$settle"
