#!/usr/bin/env bash
# Benchmark: the whole `autoprecios generate` (load, signals, every API file,
# the edge data, the website) on the synthetic snapshots of bench/signals.sh
# (3,000 and 30,000 versions x 365 days), release build. Prints wall, user
# and system time, peak resident memory (GNU time), the tree's size and file
# count, and the step log's split.
# Usage: bash bench/generate.sh            (sizes: 3000 30000)
#        SIZES="3000" bash bench/generate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
cargo build --release --quiet --bin autoprecios
bin="$CARGO_TARGET_DIR/release/autoprecios"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/autoprecios-bench}"
mkdir -p "$work"

printf '| versions | wall | user / sys | peak RSS | files | tree size | slowest steps |\n|---|---|---|---|---|---|---|\n'
for size in ${SIZES:-3000 30000}; do
  dir="$work/s$size"
  out="$work/out$size"
  [ -f "$dir/snapshot.json" ] || "$bin" sample --versions "$size" --days 365 --out "$dir" >/dev/null 2>&1
  rm -rf "$out" "$out.trees"
  log="$work/generate-$size.log"
  /usr/bin/time -f "TIME %e %U %S %M" "$bin" generate --data "$dir" --out "$out" >/dev/null 2>"$log"
  python3 - "$log" "$size" "$(find "$out/" -type f | wc -l)" "$(du -sh "$out/" | cut -f1)" <<'PY'
import re, sys
text, size, files, disk = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
wall, user, system, rss = next(l for l in text.splitlines() if l.startswith("TIME ")).split()[1:]
plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
steps = [(int(ms), name.strip()) for name, ms in re.findall(r"INFO (.+?) elapsed_ms=(\d+)", plain)]
slowest = ", ".join(f"{name} {ms / 1000:.1f} s" for ms, name in sorted(steps, reverse=True)[:3])
print(f"| {size} | {float(wall):.2f} s | {float(user):.2f} / {float(system):.2f} s | {int(rss) / 1024:.0f} MiB "
      f"| {int(files):,} | {disk} | {slowest} |")
PY
done
