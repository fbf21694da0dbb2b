#!/usr/bin/env bash
# Soak test of autoprecios-edge: mixed load on loopback for SECONDS (wrk with
# bench/soak.lua over the mix bench/soak_requests.py reads from the server:
# precomputed pages, filtered searches, compares, conditional requests, MCP
# calls) while `autoprecios generate` rewrites the served tree twice (the edge
# reloads on the manifest change). Passes with zero 5xx (and nothing but 200
# and 304), zero socket errors, every reload seen, and resident memory
# (VmRSS, sampled every second) within 10% of its level after the warm-up:
# the first 10 s and the first reload, which by design makes room for a
# second tree (the new one loads while the old one still serves).
#
#   bash bench/soak.sh [SECONDS]        60 by default; needs wrk (apt-get install wrk)
#   SOAK_REGENERATIONS=5 bash bench/soak.sh 180     more reloads, evenly spaced
#
# The regenerations use other base URLs, so every response (and ETag) changes
# and the reloads are visible from outside; the data, and so every ID, stays.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-60}
regenerations=${SOAK_REGENERATIONS:-2}
warmup=10
# A free port unless told otherwise: a fixed one may be taken by a parallel run.
port=${SOAK_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
threads=${SOAK_THREADS:-2}
connections=${SOAK_CONNECTIONS:-32}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
work="$CARGO_TARGET_DIR/soak"
base="http://127.0.0.1:$port"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cargo build --quiet --bin autoprecios --bin autoprecios-edge
bin="$CARGO_TARGET_DIR/debug"

generate() { # generate N BASE_URL: rewrite the served tree
  "$bin/autoprecios" generate --data data --out "$work/output" --base-url "$2" \
    >"$work/generate-$1.log" 2>&1
}

generate 0 "$base"
"$bin/autoprecios-edge" --root "$work/output" --listen "127.0.0.1:$port" >"$work/edge.log" 2>&1 &
edge=$!
trap 'kill "$edge" 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do
  curl -fsS -o /dev/null "$base/api/v1" 2>/dev/null && break
  kill -0 "$edge" 2>/dev/null || { cat "$work/edge.log" >&2; exit 1; }
  sleep 0.2
done

kill -0 "$edge" 2>/dev/null || { cat "$work/edge.log" >&2; exit 1; }
python3 bench/soak_requests.py "$base" >"$work/requests.lua"

# One line a second: elapsed seconds, VmRSS (KiB), the live tree's base URL.
(
  start=$(date +%s)
  while kill -0 "$edge" 2>/dev/null; do
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$edge/status" 2>/dev/null || echo 0)
    live=$(curl -fsS --max-time 1 "$base/api/v1" 2>/dev/null | python3 -c \
      'import json,sys; print(json.load(sys.stdin)["openapiUrl"].rsplit("/",1)[0])' 2>/dev/null || echo "?")
    echo "$(( $(date +%s) - start )) $rss $live"
    sleep 1
  done
) >"$work/samples.txt" &

# The regenerations, evenly spaced through the run.
(
  for n in $(seq 1 "$regenerations"); do
    sleep $((duration / (regenerations + 1)))
    generate "$n" "https://soak-$n.example"
  done
) &
regen=$!

SOAK_REQUESTS="$work/requests.lua" wrk -t"$threads" -c"$connections" -d"${duration}s" \
  --timeout 5s --latency -s bench/soak.lua "$base" | tee "$work/wrk.txt"
wait "$regen"
sleep 1

python3 - "$work" "$warmup" "$duration" "$threads" "$connections" "$regenerations" <<'EOF'
import json, pathlib, statistics, sys
work, warmup, duration = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
threads, connections, regenerations = sys.argv[4], sys.argv[5], int(sys.argv[6])
line = next(l for l in (work / "wrk.txt").read_text().splitlines() if l.startswith("SOAK "))
run = json.loads(line[5:])
samples = [l.split() for l in (work / "samples.txt").read_text().splitlines() if l.strip()]
during = [(int(t), int(r), live) for t, r, live in samples if int(t) <= duration]
trees, first_reload = [], None
for t, _, live in during:
    if live != "?" and (not trees or trees[-1] != live):
        trees.append(live)
        if len(trees) == 2:
            first_reload = t
# Warm-up: the first seconds, and the first reload, which by design adds
# room for a second tree (the new one loads while the old one serves).
start = max(warmup, (first_reload or 0) + 3)
before = [r for t, r, _ in during if warmup <= t < (first_reload or duration)]
after = [r for t, r, _ in during if t >= start]
baseline = statistics.median(after[:5])
peak, low, last = max(after), min(after), after[-1]
statuses = {int(k): v for k, v in run["statuses"].items()}
errors = run["connect"] + run["read"] + run["write"] + run["timeout"]
server_errors = sum(v for k, v in statuses.items() if k >= 500)
other = sum(v for k, v in statuses.items() if k not in (200, 304))
mib = lambda kib: f"{kib / 1024:.1f} MiB"
print(f"requests {run['requests']} in {run['duration_us'] / 1e6:.1f} s "
      f"({run['requests'] / (run['duration_us'] / 1e6):.0f}/s, {threads} threads, {connections} connections)")
print(f"statuses {dict(sorted(statuses.items()))}; 5xx {server_errors}; other than 200/304 {other}")
print(f"socket errors {errors} (connect {run['connect']}, read {run['read']}, write {run['write']}, timeout {run['timeout']})")
print(f"latency p50 {run['p50_ms']:.2f} ms, p99 {run['p99_ms']:.2f} ms, max {run['max_ms']:.2f} ms")
if before:
    print(f"VmRSS before the first reload: {mib(statistics.median(before))}")
print(f"VmRSS from {start} s (warm-up and first reload): baseline {mib(baseline)}, min {mib(low)}, "
      f"max {mib(peak)}, end {mib(last)} ({(peak / baseline - 1) * 100:+.1f}% at peak)")
print(f"trees served in turn: {' -> '.join(trees)}")
failed = []
if server_errors: failed.append("5xx answers")
if other: failed.append("answers other than 200/304")
if errors: failed.append("socket errors")
if peak > baseline * 1.10: failed.append("memory grew over 10%")
if len(trees) < regenerations + 1: failed.append("not every reload seen")
print("PASS" if not failed else "FAIL: " + ", ".join(failed))
sys.exit(1 if failed else 0)
EOF
