#!/usr/bin/env python3
"""bench/mix_floor.py EDGE_URL [DURATION_S] [N_QUERIES]

The floor under `mix_bench.py`: what nginx itself does with the mix's bytes.
`mix_bench.py` compares the edge answering 5,000 distinct queries with nginx
sending one file, the default page, again and again (the same bytes, hot in
the CPU's caches). Here nginx also sends the mix's own answers: the same
queries (`mix_bench.build_queries`, its seed), each answer fetched once from
the edge and written as a file, requested in the same order. That is what a
server that had every answer ready on disk would do, so `edge mix / nginx mix
files` says how far the edge is from sending bytes it already has, and
`nginx mix files / nginx one page` how much of the harness's gap is the mix
itself (about 150 MB of distinct bytes against one 28 KB file).

nginx gets the harness's settings (`mix_bench.py`), with its open-file cache
large enough to keep every file open (with the harness's 16 it would open
and close a file for most requests), as far as the descriptor limit allows.
A run with any error or non-2xx answer fails rather than report figures. Rounds alternate edge mix, nginx mix
files, nginx one page; medians and ratios at the end. Loopback only. Needs
wrk and nginx (../shared/bench/setup.sh). Stops what it starts.
Environment: WRK_CONNS (32), BENCH_ROUNDS (2).
"""
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "bench"))
from mix_bench import REPORT_LUA, build_queries, get, lua_script, run_wrk  # noqa: E402

import nginx_files  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base = sys.argv[1].rstrip("/")
    duration = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    rounds = int(os.environ.get("BENCH_ROUNDS", "2"))
    tmp = tempfile.mkdtemp(prefix="mix-floor.")
    started = []
    try:
        paths = build_queries(base, n, random.Random(20261124))
        www = os.path.join(tmp, "www")
        os.makedirs(os.path.join(www, "m"))
        sizes = []
        for number, path in enumerate(paths):
            status, body = get(base, path)
            if status != 200:
                sys.exit(f"mix_floor: {path} answered {status}")
            with open(os.path.join(www, "m", str(number)), "wb") as out:
                out.write(body)
            sizes.append(len(body))
        page = get(base, "/api/v1/vehicles")[1]
        with open(os.path.join(www, "page.json"), "wb") as out:
            out.write(page)
        mix_lua = os.path.join(tmp, "mix.lua")
        lua_script(paths, mix_lua)
        files_lua = os.path.join(tmp, "files.lua")
        lua_script([f"/m/{number}" for number in range(len(paths))], files_lua)
        one_lua = os.path.join(tmp, "one.lua")
        shutil.copy(REPORT_LUA, one_lua)
        nginx_base, nginx, kept_open = nginx_files.serve(
            tmp, www, len(paths) + 16, ("/m/0", get(base, paths[0])[1]),
            locations="location = /api/v1/vehicles { try_files /page.json =404; }")
        started.append(nginx)
        # Warm-up: every answer asked once of each, the files opened.
        run_wrk(base + "/", 2, mix_lua)
        run_wrk(nginx_base + "/", 2, files_lua)
        cases = [("edge mix", base + "/", mix_lua), ("nginx mix files", nginx_base + "/", files_lua),
                 ("nginx one page", nginx_base + "/api/v1/vehicles", one_lua)]
        rows = []
        for r in range(rounds):
            for name, url, script in cases:
                rows.append((name, r + 1, run_wrk(url, duration, script)))
        print(f"# mix floor {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
        print(f"- {len(paths):,} distinct queries (mix_bench.py's), answers {sum(sizes):,} B in all "
              f"({statistics.mean(sizes):,.0f} B on average); the default page {len(page):,} B; "
              f"nginx keeps up to {kept_open:,} files open\n")
        nginx_files.report_rounds(rows, "mix_floor")
        med = {name: statistics.median(d["rps"] for n_, _, d in rows if n_ == name) for name, _, _ in cases}
        edge, files, one = med["edge mix"], med["nginx mix files"], med["nginx one page"]
        print(f"\nmedians: edge mix {edge:,.0f}, nginx mix files {files:,.0f}, nginx one page {one:,.0f} req/s")
        print(f"RESULT edge_over_files={edge / files:.3f} files_over_one={files / one:.3f} edge_over_one={edge / one:.3f}")
    finally:
        nginx_files.stop(started, tmp)


if __name__ == "__main__":
    main()
