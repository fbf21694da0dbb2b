"""Independent recomputation of the monthly market reports from /datos alone.

Reads the published tables (datos/controles/*.parquet, datos/catalogo.parquet
and datos/snapshot/: quotes, quote_checks, catalogue_checks, versions,
snapshot.json) with pyarrow and plain Python, following the rules of
content/methodology.md ("Informe mensual y el índice"), and compares them
with the reports: informes/YYYY-MM/informe.json (the bytes GET
/api/v1/reports/{month} answers) and informes/informes.json:

- the months (first quote check's month to S's month) and their status;
- every index row (all versions, each type, each make; ARS and USD): n
  exactly; changePct, ytdPct, yoyPct and level within 0.011; the headline's
  three changes; the dollar of the month and its change;
- the 10 cheapest (ids and order exactly, priceArs within 0.01, changePct)
  and the cheapest of each type;
- the movers (ids in order, changePct) and the median change by make;
- dealers vs catalogue (quote counts exactly, shares and median gap within
  0.011; the 0.5 % threshold decided with fractions);
- coverage (counts exactly, inStockPct within 0.011);
- the DuckDB query of the methodology ("Rehacer el titular con DuckDB"), run
  in ROOT/datos for the latest final month, against the headline's
  changePctArs.

Usage: python3 tests/market/recompute.py ROOT   (ROOT: the tree's public/ dir)
Prints one line per month; exits 1 with one message per mismatch.
"""

import bisect
import json
import math
import os
import pathlib
import re
import statistics
import sys
from collections import defaultdict
from datetime import datetime, timezone
from fractions import Fraction

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

AR = 3 * 3600 * 1000  # Argentine time: UTC-03:00, no DST
TOL = 0.011
HALF = Fraction(1, 2)
METHODOLOGY = pathlib.Path(__file__).resolve().parents[2] / "content" / "methodology.md"


def rows(path):
    """A table (one file, or a folder of parts) as dicts; times as UTC milliseconds."""
    files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
    table = pa.concat_tables([pq.read_table(f) for f in files], promote_options="default")
    cols = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.timestamp("ms", "UTC")).cast(pa.int64())
        cols[name] = col.to_pylist()
    return [dict(zip(cols, values)) for values in zip(*cols.values())]


def ms(text):
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def utc(t):
    return "-" if t is None else datetime.fromtimestamp(t / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%MZ")


def month_of(t):
    return datetime.fromtimestamp((t - AR) / 1000, timezone.utc).strftime("%Y-%m")


def next_month(m):
    y, n = int(m[:4]), int(m[5:])
    return f"{y + n // 12:04d}-{n % 12 + 1:02d}"


def bounds(m):
    """[start, end) of month m in Argentine time, as UTC milliseconds."""
    start = lambda m: ms(f"{m}-01T00:00:00-03:00")
    return start(m), start(next_month(m))


def twmean(steps, start, end, s):
    """Time-weighted mean over [max(start, first step), min(end, S)) of a step
    function [(time, value or None)], each value in effect until the next step
    (the last until S); spans whose value is None count for nothing."""
    if not steps or steps[0][0] >= end:
        return None
    lo, hi = max(start, steps[0][0]), min(end, s)
    if hi <= lo:  # the only step is exactly at S
        return [v for t, v in steps if t <= hi][-1]
    num = den = 0.0
    for i, (t, v) in enumerate(steps):
        d = min(steps[i + 1][0] if i + 1 < len(steps) else s, hi) - max(t, lo)
        if d > 0 and v is not None:
            num, den = num + v * d, den + d
    return num / den if den else None


def pct(x):  # a relative as a percent change
    return None if x is None else (x - 1) * 100


def chain(links):
    return None if any(x is None for x in links) else math.prod(links)


def close(a, b, tol=TOL):
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= tol)


def report(root, month=None):
    """The data of a month's report, or of the list of reports (month None)."""
    path = root / "informes" / (f"{month}/informe.json" if month else "informes.json")
    return json.loads(path.read_text())["data"]


def by(items, key):
    out = defaultdict(list)
    for x in items:
        out[key(x)].append(x)
    return out


class Data:
    """The tables of ROOT/datos, indexed for the rules."""

    def __init__(self, root):
        datos, snap = root / "datos", root / "datos" / "snapshot"
        meta = json.loads((snap / "snapshot.json").read_text())
        self.snapshot_at, self.S, self.T = meta["snapshotAt"], ms(meta["snapshotAt"]), ms(meta["catalogueObservedAt"])
        self.versions = {v["id"]: v for v in rows(snap / "versions.parquet")}
        self.controles = sorted(rows(datos / "controles"), key=lambda r: (r["versionId"], r["observedAt"]))
        self.checks = sorted((c for c in rows(snap / "quote_checks") if c["observedAt"] <= self.S),
                             key=lambda c: (c["observedAt"], c["versionId"]))
        self.quotes = [q for q in rows(snap / "quotes") if q["checkedAt"] <= self.S]
        self.runs = sorted(rows(datos / "catalogo.parquet"), key=lambda r: (r["versionId"], r["firstSeen"]))
        self.cat_checks = sorted(c["observedAt"] for c in rows(snap / "catalogue_checks.parquet"))
        self.check = {(c["versionId"], c["observedAt"]): c for c in self.checks}
        self.checks_of = by(self.checks, lambda c: c["versionId"])
        self.quotes_of = by(self.quotes, lambda q: (q["versionId"], q["checkedAt"]))
        self.runs_of = by(self.runs, lambda r: r["versionId"])
        self.months = [month_of(self.checks[0]["observedAt"])]
        while self.months[-1] != month_of(self.S):
            self.months.append(next_month(self.months[-1]))
        # The dollar: the rated checks by (time, version), the last at an instant wins.
        self.rates = sorted({c["observedAt"]: c["arsPerUsd"] for c in self.checks if c["arsPerUsd"]}.items())
        self.dollar = {m: twmean(self.rates, *bounds(m), self.S) for m in self.months}
        self.cpi = {r["month"]: r["value"] for r in rows(snap / "cpi.parquet")} if (snap / "cpi.parquet").exists() else {}

    def monthly_prices(self):
        """cur -> month -> version -> its monthly price over last month's (matched versions only)."""
        price = {"ARS": defaultdict(dict), "USD": defaultdict(dict)}
        for vid, rs in by(self.controles, lambda r: r["versionId"]).items():
            points = [(r["observedAt"], r["lowestPrice"] if r["lowestCurrency"] == "ARS" else
                       None if r["arsPerUsd"] is None else r["lowestPrice"] * r["arsPerUsd"],
                       r["dealerPriceUsd"]) for r in rs]
            for m in {month_of(p[0]) for p in points}:
                for cur, k in (("ARS", 1), ("USD", 2)):
                    p = twmean([(p[0], p[k]) for p in points], *bounds(m), self.S)
                    if p is not None:
                        price[cur][m][vid] = p
        return {cur: {m: {v: p / ps[prev][v] for v, p in ps[m].items() if v in ps[prev]}
                      for prev, m in zip(self.months, self.months[1:])} for cur, ps in price.items()}

    def index(self, rel):
        """(month, kind, value, cur) -> n, changePct, ytdPct, yoyPct, level."""
        groups = {("all", None): set(self.versions)}
        for vid, v in self.versions.items():
            for kind in ("type", "make"):
                if v[kind] is not None:
                    groups.setdefault((kind, v[kind]), set()).add(vid)
        out = {}
        for cur in ("ARS", "USD"):
            for (kind, value), vids in groups.items():
                level, links = 100.0, []
                for i, m in enumerate(self.months):
                    rs = [rel[cur][m][v] for v in vids if v in rel[cur][m]] if i else []
                    g = math.exp(sum(map(math.log, rs)) / len(rs)) if len(rs) >= 5 else None
                    level = level if i == 0 else (None if level is None or g is None else level * g)
                    links.append(g)
                    dec = f"{int(m[:4]) - 1}-12"
                    ytd = chain(links[self.months.index(dec) + 1:]) if dec in self.months else None
                    yoy = chain(links[-12:]) if i >= 12 else None
                    out[m, kind, value, cur] = {"n": len(rs), "changePct": pct(g), "ytdPct": pct(ytd),
                                                "yoyPct": pct(yoy), "level": level}
        return out

    def cheapest(self, t):
        """[(priceArs, id)] of the versions published at catalogue check t, sorted."""
        out = []
        for vid, rs in self.runs_of.items():
            cs = [c for c in self.checks_of[vid] if c["observedAt"] <= t]
            if not any(r["firstSeen"] <= t <= r["lastSeen"] for r in rs) or not cs or not cs[-1]["inStock"]:
                continue
            qs, rate = self.quotes_of[vid, cs[-1]["observedAt"]], cs[-1]["arsPerUsd"]
            if rate is None:  # the newest rate of any check up to t
                k = bisect.bisect_right([r[0] for r in self.rates], t) - 1
                rate = self.rates[k][1] if k >= 0 else None
            if qs and (rate is not None or all(q["currency"] == "ARS" for q in qs)):
                out.append((min(q["price"] if q["currency"] == "ARS" else q["price"] * rate for q in qs), vid))
        return sorted(out)

    def gaps(self, start, end):
        """(kind, value) -> [gap in percent, as a Fraction] of the quotes checked in [start, end)."""
        gaps = defaultdict(list)
        for q in self.quotes:
            t, vid = q["checkedAt"], q["versionId"]
            runs = self.runs_of[vid]
            i = bisect.bisect_right([r["firstSeen"] for r in runs], t) - 1
            if not start <= t < end or i < 0:
                continue
            qp, cp = Fraction(repr(q["price"])), Fraction(repr(runs[i]["price"]))
            if q["currency"] != runs[i]["currency"]:
                rate = self.check[vid, t]["arsPerUsd"]
                if rate is None:
                    continue
                rate = Fraction(repr(rate))
                qp, cp = (qp / rate, cp) if q["currency"] == "ARS" else (qp, cp / rate)
            for key in (("all", None), ("make", self.versions[vid]["make"])):
                gaps[key].append((qp - cp) / cp * 100)
        return gaps


def check_month(d, m, i, rep, index, rel):
    """The mismatches of month m's report, and its summary line."""
    S, (start, end), errs = d.S, bounds(m), []

    def cmp(what, mine, theirs, tol=TOL):
        if not close(mine, theirs, tol):
            errs.append(f"{m} {what}: recomputed {mine!r}, JSON {theirs!r}")

    status = "final" if end <= S else "provisional"
    if rep["status"] != status:
        errs.append(f"{m} status: expected {status}, JSON {rep['status']}")
    got = {(r["group"]["kind"], r["group"]["value"], r["currency"]): r for r in rep["index"]}
    for key in set(got) | {k[1:] for k, v in index.items() if k[0] == m and v["n"] > 0}:
        mine, theirs = index.get((m, *key)), got.get(key)
        if mine is None or theirs is None:
            errs.append(f"{m} index {key}: {'missing in JSON' if theirs is None else 'a group no version has'}")
            continue
        if mine["n"] != theirs["n"]:
            errs.append(f"{m} index {key} n: recomputed {mine['n']}, JSON {theirs['n']}")
        for f in ("changePct", "ytdPct", "yoyPct", "level"):
            cmp(f"index {key} {f}", mine[f], theirs[f])
    ars, usd = index[m, "all", None, "ARS"], index[m, "all", None, "USD"]
    prev = d.dollar[d.months[i - 1]] if i else None
    dchange = pct(d.dollar[m] / prev) if prev and d.dollar[m] else None
    cmp("headline changePctArs", ars["changePct"], rep["headline"]["changePctArs"])
    cmp("headline changePctUsd", usd["changePct"], rep["headline"]["changePctUsd"])
    cmp("headline dollarChangePct", dchange, rep["headline"]["dollarChangePct"])
    # The optional consumer price index (datos/snapshot/cpi): its change
    # from the month before, null without both months.
    cpi = d.cpi.get(m), (d.cpi.get(d.months[i - 1]) if i else None)
    cchange = pct(cpi[0] / cpi[1]) if cpi[0] and cpi[1] else None
    cmp("headline cpiChangePct", cchange, rep["headline"]["cpiChangePct"])
    cmp("dollar arsPerUsd", d.dollar[m], rep["dollar"]["arsPerUsd"])
    cmp("dollar changePct", dchange, rep["dollar"]["changePct"])

    # The cheapest at the month's last catalogue check listing a version; T for the provisional month.
    t = d.T if status == "provisional" else next(
        (c for c in reversed([c for c in d.cat_checks if start <= c < end])
         if any(r["firstSeen"] <= c <= r["lastSeen"] for r in d.runs)), None)
    ranked = d.cheapest(t) if t is not None else []
    own = {v: pct(r) for v, r in rel["ARS"].get(m, {}).items()}
    price = {v: p for p, v in ranked}
    if [v for _, v in ranked[:10]] != [c["id"] for c in rep["cheapest"]]:
        errs.append(f"{m} cheapest at {utc(t)}: recomputed {[v for _, v in ranked[:10]]}, "
                    f"JSON {[c['id'] for c in rep['cheapest']]}")
    for c in rep["cheapest"]:
        cmp(f"cheapest {c['id']} priceArs", price.get(c["id"]), c["priceArs"], 0.01)
        cmp(f"cheapest {c['id']} changePct", own.get(c["id"]), c["changePct"])
    first = {}
    for _, v in ranked:
        first.setdefault(d.versions[v]["type"], v)
    first.pop(None, None)
    theirs = {k: c["id"] for k, c in rep["cheapestByType"].items()}
    if first != theirs:
        errs.append(f"{m} cheapestByType: recomputed {first}, JSON {theirs}")

    # Movers, and the median change by make.
    rises = [v for _, v in sorted((-c, v) for v, c in own.items() if c > 0)][:10]
    falls = [v for _, v in sorted((c, v) for v, c in own.items() if c < 0)][:10]
    for name, mine in (("rises", rises), ("falls", falls)):
        if mine != [x["id"] for x in rep["movers"][name]]:
            errs.append(f"{m} movers {name}: recomputed {mine}, JSON {[x['id'] for x in rep['movers'][name]]}")
        for x in rep["movers"][name]:
            cmp(f"movers {name} {x['id']} changePct", own.get(x["id"]), x["changePct"])
    makes = by(own, lambda v: d.versions[v]["make"])
    got = {r["make"]: r for r in rep["movers"]["byMake"]}
    for mk in set(got) | set(makes):
        n = len(makes.get(mk, []))
        if mk not in got or got[mk]["n"] != n:
            errs.append(f"{m} movers byMake {mk} n: recomputed {n}, JSON {got.get(mk, {}).get('n')}")
            continue
        cmp(f"movers byMake {mk} median", statistics.median([own[v] for v in makes[mk]]) if n >= 5 else None,
            got[mk]["medianChangePct"])

    # Dealers against the catalogue.
    gaps = d.gaps(start, end)
    got = {(r["group"]["kind"], r["group"]["value"]): r for r in rep["dealersVsCatalogue"]}
    for key in set(got) | set(gaps):
        gs, theirs = gaps.get(key, []), got.get(key, {})
        if len(gs) != theirs.get("quotes"):
            errs.append(f"{m} dealersVsCatalogue {key} quotes: recomputed {len(gs)}, JSON {theirs.get('quotes')}")
            continue
        share = (lambda k: 100 * k / len(gs)) if gs else (lambda k: None)
        cmp(f"dealers {key} belowPct", share(sum(g <= -HALF for g in gs)), theirs["belowPct"])
        cmp(f"dealers {key} atPct", share(sum(-HALF < g < HALF for g in gs)), theirs["atPct"])
        cmp(f"dealers {key} abovePct", share(sum(g >= HALF for g in gs)), theirs["abovePct"])
        gap = statistics.median([float(g) for g in gs]) if gs else None
        cmp(f"dealers {key} medianGapPct", gap, theirs["medianGapPct"])

    # Coverage.
    checks = [c for c in d.checks if start <= c["observedAt"] < end]
    quotes = [q for q in d.quotes if start <= q["checkedAt"] < end]
    cov = {"versions": len({c["versionId"] for c in checks}), "checks": len(checks), "quotes": len(quotes),
           "dealers": len({q["sellerId"] for q in quotes} - {None}),
           "locations": len({q["location"] for q in quotes} - {None})}
    for f, v in cov.items():
        if v != rep["coverage"][f]:
            errs.append(f"{m} coverage {f}: recomputed {v}, JSON {rep['coverage'][f]}")
    cmp("coverage inStockPct", 100 * sum(c["inStock"] for c in checks) / len(checks) if checks else None,
        rep["coverage"]["inStockPct"])

    fmt = lambda x: "null" if x is None else f"{x:+.2f}%"
    line = (f"{m} {status}: {ars['n']} matched, ARS {fmt(ars['changePct'])}, USD {fmt(usd['changePct'])}, "
            f"dollar {d.dollar[m] and round(d.dollar[m], 2)} ({fmt(dchange)}); {len(ranked)} published at "
            f"{utc(t)}; {cov['checks']} checks, {cov['quotes']} quotes: "
            + (f"{len(errs)} MISMATCHES" if errs else "OK"))
    return errs, line


def check_query(root, d):
    """Run the methodology's DuckDB query for the latest final month."""
    finals = [m for m in d.months if bounds(m)[1] <= d.S]
    if not finals:
        print("DuckDB query: no final month, skipped")
        return []
    section = METHODOLOGY.read_text().split("### Rehacer el titular con DuckDB", 1)[1]
    sql, month = re.search(r"```sql\n(.*?)```", section, re.S).group(1), finals[-1]
    sql, a = re.subn(r"(SET VARIABLE mes\s*=\s*)'[^']*'", rf"\g<1>'{month}'", sql)
    sql, b = re.subn(r"(SET VARIABLE s\s*=\s*TIMESTAMPTZ\s*)'[^']*'", rf"\g<1>'{d.snapshot_at}'", sql)
    if (a, b) != (1, 1):
        return ["DuckDB query: expected one `SET VARIABLE mes` and one `SET VARIABLE s = TIMESTAMPTZ` line"]
    cwd = os.getcwd()
    os.chdir(root / "datos")
    try:
        (_, n, change), = duckdb.connect().execute(sql).fetchall()
    finally:
        os.chdir(cwd)
    want = report(root, month)["headline"]["changePctArs"]
    print(f"DuckDB query for {month}: {n} matched versions, {change}% (JSON changePctArs {want})")
    if (want is None and n < 5) or (n >= 5 and close(change, want)):
        return []
    return [f"{month} DuckDB query: {change} with {n} matched versions, JSON changePctArs {want}"]


def main(root):
    d = Data(root)
    rel = d.monthly_prices()
    index = d.index(rel)
    errors = []
    listing = report(root)["reports"]
    expected = [(m, "final" if bounds(m)[1] <= d.S else "provisional") for m in d.months]
    if sorted((r["month"], r["status"]) for r in listing) != expected:
        errors.append(f"list of reports: {[(r['month'], r['status']) for r in listing]}, expected {expected}")
    for i, m in enumerate(d.months):
        rep = report(root, m)
        errs, line = check_month(d, m, i, rep, index, rel)
        print(line)
        errors += errs
    errors += check_query(root, d)
    for e in errors:
        print("MISMATCH", e)
    print(f"{len(d.months)} months, {len(errors)} mismatches")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
