#!/usr/bin/env bash
# Benchmark: one edge binary over one generated tree, as ../shared/bench
# judges it. Starts the edge with its request log off, measures start-up
# (exec to the first 200 of /api/v1) and resident memory, then runs
# ../shared/bench/peer_bench.sh (page, catalogue, search and compare beside
# nginx and Datasette, in one run) and ../shared/bench/mix_bench.py (2,000
# distinct queries beside nginx), and stops the edge. Markdown on stdout.
#
#   bash bench/edge.sh EDGE_BINARY TREE [PORT]
#   e.g. bash bench/edge.sh target/release/autoprecios-edge output
#
# Needs ../shared/bench/setup.sh once. Run it on a quiet machine, release
# build. Environment: MIX_QUERIES (2000), MIX_SECONDS (10), PEER_SECONDS
# (10), EDGE_ARGS (extra edge flags, e.g. "--cache-mib 0").
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SHARED_BENCH=$(cd "$HERE/../../shared/bench" && pwd)
edge=$1
tree=$2
port=${3:-18123}
base="http://127.0.0.1:$port"

start=$(date +%s%N)
# shellcheck disable=SC2086 # EDGE_ARGS is a list of flags
RUST_LOG=warn "$edge" --root "$tree" --listen "127.0.0.1:$port" ${EDGE_ARGS:-} &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
until curl -sf -o /dev/null "$base/api/v1"; do
    kill -0 "$pid" 2>/dev/null || { echo "edge.sh: the edge exited" >&2; exit 1; }
    sleep 0.01
done
end=$(date +%s%N)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
versions=$(curl -sf "$base/api/v1/catalogue" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["vehicleCount"])')

echo "## $(basename "$edge") over $tree ($versions versions)"
echo
echo "start-up (exec to first answer): $(echo "scale=3; ($end - $start) / 1000000000" | bc) s;" \
    "resident memory after loading: $((rss / 1024)) MiB (peak $((peak / 1024)) MiB)"
echo
EDGE_PID=$pid "$SHARED_BENCH/peer_bench.sh" "$base" "${PEER_SECONDS:-10}"
echo
"$SHARED_BENCH/.venv/bin/python" "$SHARED_BENCH/mix_bench.py" "$base" "${MIX_SECONDS:-10}" "${MIX_QUERIES:-2000}"
echo
echo "resident memory after the runs: $(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 )) MiB"
