#!/usr/bin/env bash
# Benchmark: how `check`, `generate` and the edge scale with the catalogue and
# with the length of history, each beside the copy floor measured in the same
# run. For every case (VERSIONSxDAYS) and every build given, it runs
#   - `autoprecios check` and `autoprecios generate` under GNU time (wall,
#     user, system, peak resident memory), with the generator's step log;
#   - `cp -r` of the finished tree, COPIES times (the copy floor: what
#     writing that many files and bytes costs on this file system at this
#     moment; the median, since one copy moved by half from case to case);
#   - `generate` again, over the tree of the series' previous catalogue
#     check (`sample --end`, three hours earlier), itself generated over the
#     one before (six hours earlier): a maintainer's routine run, which
#     keeps the previous tree's unchanged downloads, the closed months
#     without building them (`render::datos::reuse`; a first run records
#     nothing to keep them by, so the run after it builds them once more);
#     ROUTINES times over that same previous tree (the new tree removed and
#     the previous one put back between runs: no run writes into an
#     earlier tree), the median run reported, since two runs in a row
#     differ by about 0.3 s at 30,000 versions;
#   - `generate` of the same snapshot by a new release of the program over
#     that same previous tree (the build with another GNU build ID: the
#     identity `src/program.rs` reads, so every page is rendered again and
#     every closed month built again, as at a release's first run), once;
#   - the edge over the generated tree: time from exec until `/api/v1`
#     answers 200 (median of EDGE_STARTS starts) and its resident memory
#     after loading (and the load's peak).
# Every `generate` and every copy is timed with the `sync` of what it wrote:
# on a disk, a tree is written when it is on the disk, and a copy that only
# filled the page cache would be a floor no deploy meets (on tmpfs the sync
# costs nothing). Builds alternate within a case, so noise on the shared
# machine hits each alike. Markdown table on stdout, progress on stderr.
#
#   bash bench/scaling.sh BUILD_DIR [BUILD_DIR...]
#   e.g. bash bench/scaling.sh /tmp/scale-before "$CARGO_TARGET_DIR/release"
#
# A BUILD_DIR holds `autoprecios` and `autoprecios-edge` (release builds).
# Environment:
#   CASES        "3000x400 3000x800 3000x1600 30000x400" (versions x days)
#   SEED         99 (`sample --seed`; the snapshot is the same for every build)
#   EDGE_STARTS  5
#   COPIES       3 (copies of the tree; the median is the copy floor)
#   ROUTINES     3 (routine runs over the same previous tree; the median
#                by wall time is reported)
#   PORT         18310 (the edge listens on 127.0.0.1:PORT)
#   WORK         /tmp/scale-bench (snapshots are kept there between runs;
#                trees and copies are removed after each case)
set -euo pipefail
[ $# -ge 1 ] || { sed -n 2,25p "$0" >&2; exit 2; }
work=${WORK:-/tmp/scale-bench}
port=${PORT:-18310}
starts=${EDGE_STARTS:-5}
copy_runs=${COPIES:-3}
routines=${ROUTINES:-3}
mkdir -p "$work"
base="http://127.0.0.1:$port"
# The two catalogue checks before `sample`'s default horizon (2026-11-21T23:00Z).
PREVIOUS_CHECK=2026-11-21T20:00:00Z
OLDER_CHECK=2026-11-21T17:00:00Z

# Peak resident memory (KiB) and wall, user, system seconds of one command
# and the sync of what it wrote (the sync's time is in the wall alone).
timed() { /usr/bin/time -f "TIME %e %U %S %M" sh -c '"$@" && sync' timed "$@"; }

# A copy of the program BUILD/autoprecios with its GNU build ID inverted,
# at OUT: the same code, which the keeping rules take for a new release.
new_release() {
    python3 - "$1/autoprecios" "$2" <<'PY'
import re, sys
data = bytearray(open(sys.argv[1], "rb").read())
# The ELF note: namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0".
note = re.search(rb"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00", data)
if note is None:
    sys.exit("scaling.sh: the program has no GNU build ID")
start = note.end()
data[start:start + 20] = bytes(b ^ 0xFF for b in data[start:start + 20])
open(sys.argv[2], "wb").write(data)
PY
    chmod +x "$2"
}

edge_start() { # edge tree -> "seconds rss_kib peak_kib" for one start
    local edge=$1 tree=$2 start end pid rss peak
    start=$(date +%s%N)
    RUST_LOG=warn "$edge" --root "$tree" --listen "127.0.0.1:$port" >/dev/null 2>&1 &
    pid=$!
    until curl -sf -o /dev/null "$base/api/v1"; do
        kill -0 "$pid" 2>/dev/null || { echo "scaling.sh: the edge exited" >&2; return 1; }
        sleep 0.005
    done
    end=$(date +%s%N)
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo "$(( (end - start) / 1000000 )) $rss $peak"
}

echo "scaling.sh: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)" >&2
printf '| case | build | check: wall, peak RSS | generate: wall (user / sys), peak RSS | slowest steps | tree: files, size | cp -r (median of %s) | generate / cp -r | next check (median of %s): wall (user / sys), peak RSS, parts kept | next / cp -r | first run of a new release: wall (user / sys), peak RSS | release / cp -r | edge start (median of %s), RSS (peak) |\n' "$copy_runs" "$routines" "$starts"
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for case in ${CASES:-3000x400 3000x800 3000x1600 30000x400}; do
    versions=${case%x*}
    days=${case#*x}
    data="$work/data-$case"
    first_build=$1
    if [ ! -f "$data/snapshot.json" ]; then
        echo "sampling $case" >&2
        "$first_build/autoprecios" sample --versions "$versions" --days "$days" --seed "${SEED:-99}" --out "$data" >/dev/null 2>&1
    fi
    if [ ! -f "$data-prev/snapshot.json" ]; then
        "$first_build/autoprecios" sample --versions "$versions" --days "$days" --seed "${SEED:-99}" \
            --end "$PREVIOUS_CHECK" --out "$data-prev" >/dev/null 2>&1
    fi
    if [ ! -f "$data-older/snapshot.json" ]; then
        "$first_build/autoprecios" sample --versions "$versions" --days "$days" --seed "${SEED:-99}" \
            --end "$OLDER_CHECK" --out "$data-older" >/dev/null 2>&1
    fi
    for build in "$@"; do
        echo "$case: $build" >&2
        out="$work/out-$case"
        rm -rf "$out" "$out.trees" "$out.staging" "$work/copy"
        timed "$build/autoprecios" check "$data" >/dev/null 2>"$work/check.log"
        timed "$build/autoprecios" generate --data "$data" --out "$out" >/dev/null 2>"$work/generate.log"
        tree=$(readlink -f "$out")
        sync
        copies=()
        for _ in $(seq 1 "$copy_runs"); do
            copy_start=$(date +%s%N)
            cp -r "$tree" "$work/copy"
            sync
            copies+=($(( ($(date +%s%N) - copy_start) / 1000000 )))
            rm -rf "$work/copy"
        done
        copy_ms=$(printf '%s\n' "${copies[@]}" | sort -n | sed -n "$(( (copy_runs + 1) / 2 ))p")
        files=$(find "$tree" -type f | wc -l)
        size=$(du -sh "$tree" | cut -f1)
        edges=()
        for _ in $(seq 1 "$starts"); do
            edges+=("$(edge_start "$build/autoprecios-edge" "$out")")
        done
        rm -rf "$out" "$out.trees" "$out.staging"
        "$build/autoprecios" generate --data "$data-older" --out "$out" >/dev/null 2>&1
        "$build/autoprecios" generate --data "$data-prev" --out "$out" >/dev/null 2>&1
        previous=$(readlink "$out")
        routine_logs=()
        for run in $(seq 1 "$routines"); do
            sync
            RUST_LOG=info timed "$build/autoprecios" generate --data "$data" --out "$out" >/dev/null 2>"$work/next-$run.log"
            routine_logs+=("next-$run.log")
            # Back to the previous tree, for the next run to start where this one did.
            new_tree=$(readlink -f "$out")
            ln -sfn "$previous" "$out"
            rm -rf "$new_tree"
        done
        # The median run by wall time.
        median_log=$(for log in "${routine_logs[@]}"; do
            echo "$(grep '^TIME ' "$work/$log" | cut -d' ' -f2) $log"
        done | sort -n | sed -n "$(( (routines + 1) / 2 ))p" | cut -d' ' -f2)
        cp "$work/$median_log" "$work/next.log"
        # A new release's first run over the same previous tree.
        new_release "$build" "$work/autoprecios-release"
        sync
        RUST_LOG=info timed "$work/autoprecios-release" generate --data "$data" --out "$out" >/dev/null 2>"$work/release.log"
        new_tree=$(readlink -f "$out")
        ln -sfn "$previous" "$out"
        rm -rf "$new_tree" "$work/autoprecios-release"
        python3 - "$work" "$case" "$build" "$files" "$size" "$copy_ms" "${edges[@]}" <<'PY'
import pathlib, re, statistics, sys
work, case, build, files, size, copy_ms = sys.argv[1:7]
edges = [tuple(int(x) for x in e.split()) for e in sys.argv[7:]]
def figures(name):
    text = (pathlib.Path(work) / name).read_text()
    wall, user, system, rss = next(l for l in text.splitlines() if l.startswith("TIME ")).split()[1:]
    return text, float(wall), float(user), float(system), int(rss) / 1024
_, cwall, _, _, crss = figures("check.log")
text, gwall, guser, gsys, grss = figures("generate.log")
plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
steps = [(int(ms), name.strip()) for name, ms in re.findall(r"INFO (.+?) elapsed_ms=(\d+)", plain)]
slowest = ", ".join(f"{name} {ms / 1000:.1f} s" for ms, name in sorted(steps, reverse=True)[:3])
copy = int(copy_ms) / 1000
next_text, nwall, nuser, nsys, nrss = figures("next.log")
kept = re.search(r"kept=(\d+) (?:unbuilt=(\d+) )?parts=(\d+)", re.sub(r"\x1b\[[0-9;]*m", "", next_text))
kept = (f"{kept[1]} of {kept[3]}" + (f" ({kept[2]} unbuilt)" if kept[2] else "")) if kept else "none"
_, rwall, ruser, rsys, rrss = figures("release.log")
start = statistics.median(e[0] for e in edges) / 1000
rss = statistics.median(e[1] for e in edges) / 1024
peak = statistics.median(e[2] for e in edges) / 1024
print(f"| {case.replace('x', ' x ')} d | {build} | {cwall:.2f} s, {crss:.0f} MiB "
      f"| {gwall:.2f} s ({guser:.1f} / {gsys:.1f}), {grss:.0f} MiB | {slowest} "
      f"| {int(files):,}, {size} | {copy:.2f} s | {gwall / copy:.1f}x "
      f"| {nwall:.2f} s ({nuser:.1f} / {nsys:.1f}), {nrss:.0f} MiB, {kept} | {nwall / copy:.1f}x "
      f"| {rwall:.2f} s ({ruser:.1f} / {rsys:.1f}), {rrss:.0f} MiB | {rwall / copy:.1f}x "
      f"| {start:.2f} s, {rss:.0f} MiB ({peak:.0f}) |", flush=True)
PY
        rm -rf "$out" "$out.trees" "$out.staging"
    done
done
echo "scaling.sh: done, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
