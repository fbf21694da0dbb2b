#!/usr/bin/env python3
"""The verdict of bench/soak.sh, from the files it wrote in its work
directory: wrk.txt (wrk's summary and the SOAK line of bench/soak.lua),
probe.txt (bench/soak_probe.py) and events.txt (when each regeneration
started and ended and when its tree was first served).

    python3 bench/soak_report.py WORK THREADS CONNECTIONS REGENERATIONS SETTLE

Prints the requests, statuses, latency, the server's memory before the
first reload, at the peak and after each reload, and the probe's latency
while a tree loads; exits 1 on a failed check. Standard library only.
"""

import datetime
import json
import math
import re
import pathlib
import statistics
import sys

# Seconds of load before memory counts as the first tree's level.
WARMUP = 10
# Seconds after a reload before memory counts as its level: the allocator
# gives a dropped tree's pages back over 10 s.
DECAY = 15
# Fewest probes during loads that make a p99 worth judging.
PROBES = 100
# Without the loader's log (an edge older than its `loaded_ms`), the seconds
# before a new tree is first served that count as its load: the loader
# finds the new manifest within 2 s and loads a 30,000-version tree in about
# 1 s. (`generate` swaps the tree in before it exits: it then removes the
# older trees, so its end says nothing of the load.)
LOAD_WINDOW = 3
# The limits of the issue: the edge after its reloads, and at the peak.
AFTER_LIMIT, PEAK_LIMIT = 1.2, 2.0


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def p99(values):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] if ordered else float("nan")


def loads_logged(log):
    """When each load ran, from the loader's "previous tree dropped" lines:
    (start, end) in Unix seconds."""
    loads = []
    for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
        if "previous tree dropped" not in line:
            continue
        fields = dict(re.findall(r"(\w+)=(\d+)", line))
        logged = datetime.datetime.fromisoformat(line.split()[0]).timestamp()
        end = logged - (int(fields["waited_ms"]) + int(fields["dropped_ms"])) / 1000
        loads.append((end - int(fields["loaded_ms"]) / 1000, end))
    return loads


def main():
    work = pathlib.Path(sys.argv[1])
    threads, connections = sys.argv[2], sys.argv[3]
    regenerations, settle = int(sys.argv[4]), float(sys.argv[5])

    line = next(l for l in (work / "wrk.txt").read_text().splitlines() if l.startswith("SOAK "))
    run = json.loads(line[5:])
    events = {}
    for row in (work / "events.txt").read_text().split("\n"):
        if row.strip():
            t, what, n = row.split()
            events[(what, int(n))] = float(t)
    probes = []
    for row in (work / "probe.txt").read_text().split("\n"):
        parts = row.split()
        if len(parts) == 6:
            t, latency, status, live, rss, hwm = parts
            probes.append((float(t), float(latency), int(status), live,
                           None if rss == "-" else int(rss), None if hwm == "-" else int(hwm)))

    start, end = events[("load", 0)], events[("end", 0)]
    rss = [(t, r) for t, _, _, _, r, _ in probes if r is not None and start <= t <= end]
    # VmHWM: the peak, even one shorter than a second between two readings.
    peak = max(h for _, _, _, _, _, h in probes if h is not None)
    seen = [n for n in range(1, regenerations + 1) if ("served", n) in events]
    first = events.get(("generated", 1), end)
    before = statistics.median(r for t, r in rss if start + min(WARMUP, settle / 2) <= t < first)
    peak_t = next(t for t, _, _, _, _, h in probes if h == peak)
    # After reload n: from DECAY seconds after it (half the settle window
    # if that is shorter) to the next, once the old tree's pages are back.
    after = []
    for n in seen:
        served = events[("served", n)]
        until = events.get(("generate", n + 1), end)
        window = [r for t, r in rss if served + min(DECAY, settle / 2) <= t < until]
        if window:
            after.append(statistics.median(window))

    # The probe's answers, by what else the machine was doing. The loads:
    # from the loader's log, else the seconds before each swap.
    swaps, live = [], None
    for t, _, _, base, _, _ in probes:
        if base != "?":
            if live is not None and base != live:
                swaps.append(t)
            live = base
    loads = loads_logged(work / "edge.log")
    source = "as the loader logged them"
    if not loads:
        loads = [(swap - LOAD_WINDOW, swap) for swap in swaps]
        source = f"the {LOAD_WINDOW} s before each swap"
    def generating_at(t):
        return any(events[("generate", n)] <= t <= events[("generated", n)] for n in seen)
    loading, generating, quiet, failed_probes = [], [], [], 0
    for t, latency, status, _, _, _ in probes:
        if not start + WARMUP <= t <= end:
            continue
        if status != 200:
            failed_probes += 1
        if any(begin <= t <= finish for begin, finish in loads):
            loading.append(latency)
        elif generating_at(t):
            generating.append(latency)
        else:
            quiet.append(latency)

    statuses = {int(k): v for k, v in run["statuses"].items()}
    errors = run["connect"] + run["read"] + run["write"] + run["timeout"]
    server_errors = sum(v for k, v in statuses.items() if k >= 500)
    other = sum(v for k, v in statuses.items() if k not in (200, 304))
    seconds = run["duration_us"] / 1e6
    generate_s = [events[("generated", n)] - events[("generate", n)] for n in seen]
    print(f"requests {run['requests']} in {seconds:.1f} s ({run['requests'] / seconds:.0f}/s, "
          f"{threads} threads, {connections} connections)")
    print(f"statuses {dict(sorted(statuses.items()))}; 5xx {server_errors}; other than 200/304 {other}")
    print(f"socket errors {errors} (connect {run['connect']}, read {run['read']}, "
          f"write {run['write']}, timeout {run['timeout']})")
    print(f"latency p50 {run['p50_ms']:.2f} ms, p99 {run['p99_ms']:.2f} ms, max {run['max_ms']:.2f} ms")
    print(f"reloads seen {len(seen)} of {regenerations} ({len(swaps)} trees swapped in under the probe); "
          f"generate (median) {statistics.median(generate_s or [0]):.1f} s")
    print(f"VmRSS before the first reload (median): {mib(before)}")
    print(f"VmRSS peak (VmHWM): {mib(peak)}, reached by {peak_t - start:.0f} s ({peak / before:.2f}x)")
    if after:
        print(f"VmRSS after each reload (median from {min(DECAY, settle / 2):.0f} s after it to the next): "
              + ", ".join(mib(r) for r in after))
        print(f"VmRSS after {len(seen)} reloads: {mib(after[-1])} ({after[-1] / before:.2f}x)")
    if source.startswith("as the loader"):
        load_ms = statistics.median((finish - begin) * 1000 for begin, finish in loads)
        print(f"loads logged {len(loads)}, median {load_ms:.0f} ms")
    print(f"probe /api/v1 p99: during the loads ({source}) {p99(loading):.2f} ms ({len(loading)} probes), "
          f"while generate runs {p99(generating):.2f} ms ({len(generating)}), "
          f"otherwise {p99(quiet):.2f} ms ({len(quiet)}); failed probes {failed_probes}"
          + ("" if len(loading) >= PROBES else f" (under {PROBES} probes during the loads: not judged)"))

    failed = []
    if server_errors: failed.append("5xx answers")
    if other: failed.append("answers other than 200/304")
    if errors: failed.append("socket errors")
    if len(seen) < regenerations: failed.append("not every reload seen")
    if not after or after[-1] > before * AFTER_LIMIT: failed.append(f"memory after the reloads over {AFTER_LIMIT}x")
    if peak >= before * PEAK_LIMIT: failed.append(f"peak memory {PEAK_LIMIT}x or more")
    if len(loading) >= PROBES and p99(loading) > run["p99_ms"]:
        failed.append("answers slower while a tree loads")
    if failed_probes: failed.append("failed probes")
    print("PASS" if not failed else "FAIL: " + ", ".join(failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
