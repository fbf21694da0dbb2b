#!/usr/bin/env bash
# Benchmark: load + signals (`autoprecios check`) on synthetic snapshots of
# 3,000 and 30,000 versions x 365 days, with the release build. Each size runs
# RUNS times (5 by default); the table gives the median wall, user and system
# time and peak resident memory (GNU time), and the step log's split of the
# median run.
# Usage: bash bench/signals.sh            (sizes: 3000 30000)
#        SIZES="3000" RUNS=3 bash bench/signals.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
cargo build --release --quiet --bin autoprecios
bin="$CARGO_TARGET_DIR/release/autoprecios"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/autoprecios-bench}"
runs=${RUNS:-5}
mkdir -p "$work"

printf '| versions | days | snapshot size | runs | wall (median) | user / sys | peak RSS | load / signals (median run) |\n|---|---|---|---|---|---|---|---|\n'
for size in ${SIZES:-3000 30000}; do
  dir="$work/s$size"
  [ -f "$dir/snapshot.json" ] || "$bin" sample --versions "$size" --days 365 --out "$dir" >/dev/null 2>&1
  for run in $(seq 1 "$runs"); do
    /usr/bin/time -f "TIME %e %U %S %M" "$bin" check "$dir" >/dev/null 2>"$work/check-$size-$run.log"
  done
  python3 - "$work" "$size" "$runs" "$(du -sh "$dir" | cut -f1)" <<'PY'
import pathlib, re, statistics, sys
work, size, runs, disk = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = []
for run in range(1, runs + 1):
    text = (work / f"check-{size}-{run}.log").read_text()
    wall, user, system, rss = next(l for l in text.splitlines() if l.startswith("TIME ")).split()[1:]
    step = lambda name: int(re.search(name + r".*?elapsed_ms\D*(\d+)", text).group(1))
    rows.append((float(wall), float(user), float(system), int(rss), step("load snapshot"), step("compute signals")))
median = lambda i: statistics.median(r[i] for r in rows)
middle = sorted(rows)[len(rows) // 2]
print(f"| {size} | 365 | {disk} | {runs} | {median(0):.2f} s | {median(1):.2f} / {median(2):.2f} s "
      f"| {median(3) / 1024:.0f} MiB | {middle[4]} / {middle[5]} ms |")
PY
done
