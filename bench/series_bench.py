#!/usr/bin/env python3
"""series_bench.py BASE_URL [DURATION_S] [N_QUERIES]

Load on the edge's GET /api/v1/series with the largest requests it takes:
N distinct queries of 20 series ids each (indices of all versions, of body
types and makes, the dollar, versions' prices; random modes, collapses,
aggregations, dates and formats), cycled by wrk so no response cache answers
two requests in a row with the same bytes. Every query is fetched once first
and must answer 200. Reports requests/s and p50/p99 per round and their
medians (BENCHMARKS.md, "The market report"). Reuses the wrk driver of
../shared/bench/mix_bench.py (wrk must be installed).
Environment: WRK_CONNS (32), BENCH_ROUNDS (3).
"""
import json, os, random, statistics, sys, tempfile, time, urllib.error, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "bench"))
from mix_bench import get, lua_script, run_wrk  # noqa: E402


def series_ids(base):
    """Every series id a query may name, from the reports and the catalogue."""
    months = json.loads(get(base, "/api/v1/reports")[1])["data"]["reports"]
    report = json.loads(get(base, f"/api/v1/reports/{months[-1]['month']}")[1])["data"]
    ids = ["indice.ars", "indice.usd", "dolar"]
    for row in json.loads(get(base, f"/api/v1/reports/{months[0]['month']}")[1])["data"]["index"]:
        kind, value, cur = row["group"]["kind"], row["group"]["value"], row["currency"].lower()
        if kind != "all":
            slug = value.lower().replace(" ", "-")
            ids.append(f"indice.{'tipo' if kind == 'type' else 'marca'}.{slug}.{cur}")
    versions = json.loads(get(base, "/api/v1/vehicles?limit=100")[1])["data"]["vehicles"]
    versions += [item for item in report["cheapest"]]
    for v in versions:
        ids += [f"version.{v['id']}.ars", f"version.{v['id']}.usd"]
    return sorted(set(ids))


def build_queries(ids, n, rng):
    modes = ["", ":change", ":percent_change", ":percent_change_a_year_ago", ":change_a_year_ago"]
    out = set()
    while len(out) < n:
        chosen = [i + rng.choice(modes) for i in rng.sample(ids, 20)]
        q = [("ids", ",".join(chosen))]
        if rng.random() < 0.3:
            q.append(("collapse", rng.choice(["quarter", "semester", "year"])))
            q.append(("collapse_aggregation", rng.choice(["avg", "end_of_period", "min", "max"])))
        if rng.random() < 0.3: q.append(("start_date", rng.choice(["2025", "2026-01", "2026-06"])))
        if rng.random() < 0.3:
            q += [("format", "csv"), ("decimal", ","), ("sep", ";")]
        if rng.random() < 0.2: q.append(("sort", "desc"))
        out.add("/api/v1/series?" + urllib.parse.urlencode(q, quote_via=urllib.parse.quote, safe=",:;"))
    return sorted(out)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr); sys.exit(2)
    base = sys.argv[1].rstrip("/")
    duration = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    rng = random.Random(20261129)
    paths = build_queries(series_ids(base), n, rng)
    bad = []
    for p in paths:
        try:
            status = get(base, p)[0]
        except urllib.error.HTTPError as e:
            status = e.code
        if status != 200:
            bad.append((status, p))
    if bad:
        print(f"series_bench: {len(bad)} of {len(paths)} queries did not answer 200, e.g. {bad[:2]}", file=sys.stderr)
        sys.exit(1)
    with tempfile.TemporaryDirectory(prefix="series-bench.") as tmp:
        script = os.path.join(tmp, "series.lua")
        lua_script(paths, script)
        run_wrk(base + "/", 2, script)  # warm-up
        rows = [run_wrk(base + "/", duration, script) for _ in range(rounds)]
    print(f"# series_bench {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print(f"- {len(paths)} distinct queries of 20 series ids each, each answered 200 once before load\n")
    print("| round | req/s | p50 ms | p99 ms | non-2xx/3xx |")
    print("|---:|---:|---:|---:|---:|")
    for r, d in enumerate(rows, 1):
        print(f"| {r} | {d['rps']:,.0f} | {d['p50_us']/1000:.2f} | {d['p99_us']/1000:.2f} | {d['status']:.0f} |")
    med = lambda k: statistics.median(d[k] for d in rows)
    print(f"\nRESULT series_rps={med('rps'):.0f} series_p50_ms={med('p50_us')/1000:.2f} series_p99_ms={med('p99_us')/1000:.2f}")


if __name__ == "__main__":
    main()
