#!/usr/bin/env python3
"""bench/details.py EDGE_URL [DURATION_S]

A version's detail (`/api/v1/vehicles/{id}`) is the edge's answer, not a
file of the tree: this measures what that costs the edge against the files
it replaced. wrk cycles through every published version's detail URL on
the edge (so a catalogue larger than the response cache answers most of
them from the index, not from the cache) and, in the same run, rounds
interleaved, through the same URLs on nginx serving each detail's bytes as
a file at its URL (what the CDN served before).

Reports requests/s and p50/p99 latency per round, and the medians' ratio;
fails when any round had an error or a non-2xx answer.
Loopback only. Needs wrk and nginx (../shared/bench/setup.sh); reuses the
shared harness's wrk runner (../shared/bench/mix_bench.py). Stops what it
starts. Environment: WRK_CONNS (32), BENCH_ROUNDS (2), DETAILS_MAX (all).
"""
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "bench"))
from mix_bench import get, lua_script, run_wrk  # noqa: E402

import nginx_files  # noqa: E402


def detail_paths(base):
    """Every published version's detail path, paging through the list."""
    paths, offset = [], 0
    while True:
        data = json.loads(get(base, f"/api/v1/vehicles?limit=100&offset={offset}")[1])["data"]
        paths += ["/api/v1/vehicles/" + urllib.parse.quote(v["id"], safe="") for v in data["vehicles"]]
        if data["pagination"]["nextOffset"] is None:
            return paths
        offset = data["pagination"]["nextOffset"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base = sys.argv[1].rstrip("/")
    duration = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    rounds = int(os.environ.get("BENCH_ROUNDS", "2"))
    tmp = tempfile.mkdtemp(prefix="details-bench.")
    started = []
    try:
        paths = detail_paths(base)
        if os.environ.get("DETAILS_MAX"):
            paths = paths[: int(os.environ["DETAILS_MAX"])]
        www = os.path.join(tmp, "www")
        t0 = time.time()
        for path in paths:
            status, body = get(base, path)
            if status != 200:
                sys.exit(f"details: {path} answered {status}")
            # nginx decodes the URI before mapping it to a file.
            file = os.path.join(www, urllib.parse.unquote(path).lstrip("/"))
            os.makedirs(os.path.dirname(file), exist_ok=True)
            with open(file, "wb") as out:
                out.write(body)
        fetch_s = time.time() - t0
        script = os.path.join(tmp, "details.lua")
        lua_script(paths, script)
        nginx_base, nginx, _ = nginx_files.serve(tmp, www, 1000, (paths[0], get(base, paths[0])[1]))
        started.append(nginx)
        run_wrk(base + "/", 2, script)  # warm-up
        rows = []
        for r in range(rounds):
            rows.append(("edge", r + 1, run_wrk(base + "/", duration, script)))
            rows.append(("nginx files", r + 1, run_wrk(nginx_base + "/", duration, script)))
        print(f"# details bench {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
        print(f"- {len(paths):,} distinct detail URLs, each answered 200 once before load ({fetch_s:.1f} s, one at a time)\n")
        nginx_files.report_rounds(rows, "details")
        med = lambda name, k: statistics.median(d[k] for n, _, d in rows if n == name)
        print(f"\nmedians: edge {med('edge', 'rps'):,.0f} req/s, p99 {med('edge', 'p99_us')/1000:.2f} ms; "
              f"nginx {med('nginx files', 'rps'):,.0f} req/s, p99 {med('nginx files', 'p99_us')/1000:.2f} ms; "
              f"ratio edge/nginx {med('edge', 'rps') / med('nginx files', 'rps'):.3f}")
    finally:
        nginx_files.stop(started, tmp)


if __name__ == "__main__":
    main()
