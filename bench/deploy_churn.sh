#!/usr/bin/env bash
# What a deploy uploads: two consecutive snapshots of one synthetic series
# (`sample --end`, one catalogue check apart), a tree generated from each,
# and bench/upload_diff.py's table of the files and bytes of the second
# tree's public/ that the CDN does not have yet.
#   bench/deploy_churn.sh [VERSIONS] [FIRST_END] [SECOND_END] [MAX_SHARE]
#   bench/deploy_churn.sh 540                               # 20:00 and 23:00 UTC checks of 2026-11-21
#   bench/deploy_churn.sh 540 2026-11-20T23:00:00Z 2026-11-21T11:00:00Z   # across a day (a new dollar rate)
# MAX_SHARE (a percentage of the tree's bytes) makes it exit 1 above it.
# Bytes, not time, are measured, so any build will do: AUTOPRECIOS names
# the binary (default: `cargo run --quiet --bin autoprecios --`, the test
# profile). Trees go to $CHURN_DIR (default: a temporary directory, removed).
set -euo pipefail
versions=${1:-540}
first=${2:-2026-11-21T20:00:00Z}
second=${3:-2026-11-21T23:00:00Z}
max_share=${4:-}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/autoprecios/target}"
read -r -a autoprecios <<<"${AUTOPRECIOS:-cargo run --quiet --manifest-path $root/Cargo.toml --bin autoprecios --}"
work=${CHURN_DIR:-$(mktemp -d)}
[ -n "${CHURN_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
export RUST_LOG=warn
for end in "$first" "$second"; do
  "${autoprecios[@]}" sample --versions "$versions" --end "$end" --out "$work/data-$end" >/dev/null
  "${autoprecios[@]}" generate --data "$work/data-$end" --out "$work/tree-$end" 2>/dev/null
done
echo "A deploy of the ${second} tree after the ${first} one, ${versions} versions:"
echo
python3 "$root/bench/upload_diff.py" "$work/tree-$first" "$work/tree-$second" ${max_share:+--max-share "$max_share"}
