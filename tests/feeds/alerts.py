"""Alerts at a price, read as a feed reader reads them and recomputed from
the published quotes alone.

For the versions of ROOT/datos/versiones.parquet, the dealer price at each
quote check of the 180 days before catalogueObservedAt (to snapshotAt) is
recomputed from ROOT/datos/snapshot/ (quote_checks, quotes) with DuckDB and
plain Python fractions: the lowest quote in dollars (a peso quote at the
check's rate), half a cent away from zero, and the lowest in pesos (a
dollar quote at that rate), half a peso away from zero. For a version whose
series crosses a bound at least three times (the bound: the median of its
dollar prices), and for a peso-quoted version at a peso bound, the feed the
edge at BASE answers (`/versiones/<page>/feed.xml?hastaUsd=` or `?hasta=`)
is parsed with xml.etree as an Atom document and must hold exactly the
expected entries, newest first: "llegó a tu precio" at a check at or under
the bound after one over it, "volvió a subir" at one over it after one at
or under it, "ya está a tu precio" when every check is at or under it. Its
IDs name the check's time, so asking again gives the same bytes. A search
feed with a bound holds the entries of the versions it follows, and two
bounds are refused with 400.

Usage: python3 tests/feeds/alerts.py ROOT BASE
"""

import json
import statistics
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import duckdb

ATOM = "{http://www.w3.org/2005/Atom}"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as reply:
        return reply.status, reply.headers.get("content-type"), reply.read()


def rounded(value, places):
    """A Fraction rounded half away from zero (prices are positive)."""
    quantum = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(quantum, rounding=ROUND_HALF_UP))


def parse_time(text):
    """An RFC 3339 text, or a timestamp as DuckDB reads one, in UTC."""
    if isinstance(text, datetime):
        return text if text.tzinfo else text.replace(tzinfo=timezone.utc)
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def series(root):
    """Each published version's (time, usd, ars) points, oldest first."""
    meta = json.loads(open(f"{root}/datos/snapshot/snapshot.json").read())
    t, s = parse_time(meta["catalogueObservedAt"]), parse_time(meta["snapshotAt"])
    since = t - timedelta(days=180)
    published = {
        row[0]
        for row in duckdb.sql(f"select id from '{root}/datos/versiones.parquet'").fetchall()
    }
    rows = duckdb.sql(
        f"""select q.versionId, q.checkedAt, c.arsPerUsd, q.price, q.currency
            from '{root}/datos/snapshot/quotes/*.parquet' q
            join '{root}/datos/snapshot/quote_checks/*.parquet' c
              on c.versionId = q.versionId and c.observedAt = q.checkedAt"""
    ).fetchall()
    checks = {}
    for version, at, rate, price, currency in rows:
        when = parse_time(at)
        if version not in published or not (since < when <= s):
            continue
        checks.setdefault((version, when), (rate, []))[1].append((price, currency))
    points = {}
    for (version, when), (rate, quotes) in sorted(checks.items()):
        rate = Fraction(str(rate)) if rate is not None else None
        usd, ars = [], []
        for price, currency in quotes:
            price = Fraction(str(price))
            if currency == "USD":
                usd.append(price)
                if rate is not None:
                    ars.append(price * rate)
            else:
                ars.append(price)
                if rate is not None:
                    usd.append(price / rate)
        point = (
            when,
            rounded(min(usd), 2) if usd else None,
            rounded(min(ars), 0) if ars else None,
        )
        points.setdefault(version, []).append(point)
    return points


def expected(points, slot, bound):
    """The alerts of a series at a bound, newest first: (time, kind, price)."""
    priced = [(x[0], x[slot]) for x in points if x[slot] is not None]
    under = [price <= bound for _, price in priced]
    found = [
        (priced[i][0], "llegó a tu precio" if under[i] else "volvió a subir", priced[i][1])
        for i in range(1, len(priced))
        if under[i] != under[i - 1]
    ]
    if not found and priced and under[0]:
        found = [(priced[0][0], "ya está a tu precio", priced[0][1])]
    return sorted(found, key=lambda entry: entry[0], reverse=True)[:50]


def entries(xml):
    feed = ET.fromstring(xml)
    assert feed.tag == f"{ATOM}feed", feed.tag
    return [
        (
            entry.findtext(f"{ATOM}id"),
            entry.findtext(f"{ATOM}title"),
            parse_time(entry.findtext(f"{ATOM}updated")),
        )
        for entry in feed.findall(f"{ATOM}entry")
    ]


def check_feed(base, version, slot, bound, points, problems):
    name = "hastaUsd" if slot == 1 else "hasta"
    record = json.loads(fetch(f"{base}/api/v1/vehicles/{urllib.parse.quote(version, safe='')}")[2])
    page = record["data"]["vehicle"]["url"]
    spelt = f"{bound:g}" if bound != int(bound) else str(int(bound))
    url = f"{base}{urllib.parse.urlsplit(page).path}/feed.xml?{name}={spelt}"
    status, kind, body = fetch(url)
    if status != 200 or not kind.startswith("application/atom+xml"):
        problems.append(f"{url}: {status} {kind}")
        return 0
    got = entries(body)
    want = expected(points, slot, bound)
    if len(got) != len(want):
        problems.append(f"{url}: {len(got)} entries, expected {len(want)}")
    for (entry_id, title, updated), (when, kind_text, _) in zip(got, want):
        if updated != when or kind_text not in title:
            problems.append(f"{url}: entry {entry_id} {title!r} at {updated}, expected {kind_text!r} at {when}")
        stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        if not entry_id.startswith(f"{page}#{name}-{spelt}-") or (
            kind_text != "ya está a tu precio" and not entry_id.endswith(stamp)
        ):
            problems.append(f"{url}: entry id {entry_id} does not name the bound and {stamp}")
    if fetch(url)[2] != body:
        problems.append(f"{url}: asked again, other bytes")
    return len(got)


def main(root, base):
    problems = []
    points = series(root)
    crossing = None
    for version in sorted(points):
        usd = [p[1] for p in points[version] if p[1] is not None]
        if len(usd) < 6:
            continue
        bound = rounded(Fraction(str(statistics.median(usd))), 0)
        if len(expected(points[version], 1, bound)) >= 3:
            crossing = (version, bound)
            break
    if crossing is None:
        sys.exit("alerts: no version of the tree crosses its median three times")
    version, bound = crossing
    shown = check_feed(base, version, 1, bound, points[version], problems)
    print(f"ok  alerts: {version} at US$ {bound:g}: {shown} entries as recomputed")
    # A peso bound on a version whose dealer prices are in pesos.
    for version in sorted(points):
        ars = [p[2] for p in points[version] if p[2] is not None]
        if len(ars) >= 6 and len(expected(points[version], 2, statistics.median(ars))) >= 2:
            bound = rounded(Fraction(str(statistics.median(ars))), 0)
            shown = check_feed(base, version, 2, bound, points[version], problems)
            print(f"ok  alerts: {version} at $ {int(bound)}: {shown} entries as recomputed")
            break
    # A search's feed at a bound: the alerts of the versions it follows.
    status, _, body = fetch(f"{base}/buscar/feed.xml?q=a&hastaUsd=1000000")
    searched = entries(body)
    if status != 200 or not searched or not all("ya está a tu precio" in t for _, t, _ in searched):
        problems.append(f"search feed at US$ 1.000.000: {status}, {len(searched)} entries")
    try:
        fetch(f"{base}/buscar/feed.xml?hasta=1&hastaUsd=1")
        problems.append("two bounds were not refused")
    except urllib.error.HTTPError as error:
        if error.code != 400:
            problems.append(f"two bounds: {error.code}, expected 400")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"ok  alerts: a search's feed at a bound, {len(searched)} standing entries")


if __name__ == "__main__":
    main(*sys.argv[1:3])
