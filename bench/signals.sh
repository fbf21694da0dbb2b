#!/usr/bin/env bash
# Benchmark: load + signals (`autoprecios check`) on synthetic snapshots of
# 3,000 and 30,000 versions x 365 days, with the release build. Prints wall
# time per step (from the step log) and peak resident memory (GNU time).
# Usage: bash bench/signals.sh            (sizes: 3000 30000)
#        SIZES="3000" bash bench/signals.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
cargo build --release --quiet --bin autoprecios
bin="$CARGO_TARGET_DIR/release/autoprecios"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/autoprecios-bench}"
mkdir -p "$work"

printf '| versions | days | snapshot size | load | signals | total wall | peak RSS |\n|---|---|---|---|---|---|---|\n'
for size in ${SIZES:-3000 30000}; do
  dir="$work/s$size"
  [ -f "$dir/snapshot.json" ] || "$bin" sample --versions "$size" --days 365 --out "$dir" >/dev/null 2>&1
  log="$work/check-$size.log"
  /usr/bin/time -v "$bin" check "$dir" >"$log.out" 2>"$log"
  step() { grep "$1" "$log" | sed -E 's/.*elapsed_ms[^0-9]*([0-9]+).*/\1 ms/'; }
  wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$log" | awk '{printf "%.0f MiB", $NF/1024}')
  disk=$(du -sh "$dir" | cut -f1)
  printf '| %s | 365 | %s | %s | %s | %s | %s |\n' "$size" "$disk" "$(step 'load snapshot')" "$(step 'compute signals')" "$wall" "$rss"
done
