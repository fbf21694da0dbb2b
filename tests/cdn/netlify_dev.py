"""Checks a tree served by `netlify dev` in front of the edge (see
netlify_dev.sh): what the CDN answers from files, what it proxies to the
edge, and the headers of each. Prints one line a check; exits non-zero on
the first failure.

    python3 tests/cdn/netlify_dev.py CDN_URL EDGE_URL PUBLIC_DIR
"""

import http.client
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

CDN, EDGE, TREE = sys.argv[1].rstrip("/"), sys.argv[2].rstrip("/"), sys.argv[3]
checks = 0


def get(base, path):
    """(status, headers, body) of GET base+path, errors included."""
    try:
        with urllib.request.urlopen(base + path, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def check(condition, what):
    global checks
    if not condition:
        print(f"FAIL  {what}", file=sys.stderr)
        sys.exit(1)
    checks += 1
    print(f"ok    {what}")


def tree_file(name):
    with open(f"{TREE}/{name}", "rb") as file:
        return file.read()


# Files: the extension-less API URLs are the tree's files, with the API's
# CORS headers; pages are pages, with the security headers.
for path, name in [("/api/v1", "api/v1/index.json"), ("/api/v1/catalogue", "api/v1/catalogue.json")]:
    status, headers, body = get(CDN, path)
    check(status == 200 and body == tree_file(name), f"{path} is {name}")
    check(headers.get("Access-Control-Allow-Origin") == "*", f"{path}: CORS")
    check(headers.get("Access-Control-Expose-Headers") == "ETag", f"{path}: ETag readable by scripts")
    check(headers.get("Content-Type", "").startswith("application/json"), f"{path}: JSON")
# A version's detail is the edge's answer (no file: its snapshotAt would
# change every one of them at every catalogue check), with its headers.
detail_ids = [v["id"] for v in json.loads(get(EDGE, "/api/v1/vehicles?limit=100")[2])["data"]["vehicles"]]
detail = next(i for i in detail_ids if i == i.lower())
check(not os.path.exists(os.path.join(TREE, "api/v1/vehicles")), "no detail files in the tree")
status, headers, body = get(CDN, f"/api/v1/vehicles/{detail}")
check(status == 200 and body == get(EDGE, f"/api/v1/vehicles/{detail}")[2], "a detail is the edge's answer")
check(headers.get("Access-Control-Allow-Origin") == "*", "a detail: CORS")
check(headers.get("ETag", "").startswith('"'), "a detail: its ETag")
check("max-age=" in headers.get("Cache-Control", ""), "a detail: cacheable by the CDN")

# Downloads and feeds: served, readable from any origin. (netlify dev's
# static server sets its own Content-Type; headers_check.mjs checks the
# types _headers gives, with netlify-cli's parser.)
for path in [
    "/feeds/ofertas.xml",
    "/datos/versiones.parquet",
    "/datos/versiones.csv.gz",
    "/datos/SHA256SUMS",
    "/datos/datapackage.json",
    "/developers.md",
    "/dolar.json",
]:
    status, headers, _ = get(CDN, path)
    check(status == 200, f"{path}: served")
    check(headers.get("Access-Control-Allow-Origin") == "*", f"{path}: CORS")
page = json.loads(get(EDGE, f"/api/v1/vehicles/{detail}")[2])["data"]["vehicle"]["feedUrl"]
feed_path = urllib.parse.urlsplit(page).path
status, headers, _ = get(CDN, feed_path)
check(status == 200 and headers.get("Access-Control-Allow-Origin") == "*", f"{feed_path}: a feed, CORS")

# Preflight of an edge URL asking for If-None-Match: answered by the edge.
request = urllib.request.Request(
    CDN + "/api/v1/vehicles?limit=1",
    method="OPTIONS",
    headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET",
             "Access-Control-Request-Headers": "if-none-match"},
)
with urllib.request.urlopen(request, timeout=20) as response:
    allowed = response.headers.get("Access-Control-Allow-Headers", "").lower()
    check(response.status == 204 and "if-none-match" in allowed, "a preflight of a query allows If-None-Match")

status, headers, body = get(CDN, "/metodologia")
check(status == 200 and b"<html" in body, "/metodologia is a page")
check(headers.get("X-Frame-Options") == "DENY", "/metodologia: security headers")

# The site's query pages and a page carrying comparison picks: the edge's.
picks = ",".join(urllib.parse.quote(i, safe="") for i in detail_ids[:2])
for path, mark in [
    (f"/modelos?comparar={picks}", b'class="compare-go"'),
    (f"/buscar?q=a&comparar={picks}", b'class="compare-go"'),
    ("/buscar/feed.xml?q=a", b"<feed "),
    # A version's feed with a price bound: its alerts, the edge's.
    (f"{feed_path}?hasta=60.000.000", b"feed.xml?hasta=60000000</id>"),
    (f"{feed_path}?hastaUsd=45000", b"hastaUsd=45000"),
]:
    status, headers, body = get(CDN, path)
    check(status == 200 and mark in body and body == get(EDGE, path)[2], f"{path}: the edge's answer")
status, _, body = get(CDN, feed_path)
check(status == 200 and b"hasta" not in body, f"{feed_path} without a bound is its file")
status, _, body = get(CDN, "/modelos")
check(status == 200 and b'class="compare-go"' not in body, "/modelos without picks is its file")

# Queries: proxied to the edge, its bytes and headers passed through.
for path in ["/api/v1/vehicles?limit=2", "/api/v1/deals?kind=price_drops&window=7d", "/api/v1/vehicles"]:
    status, headers, body = get(CDN, path)
    _, edge_headers, edge_body = get(EDGE, path)
    check(status == 200 and body == edge_body, f"{path} is the edge's answer")
    check(headers.get("ETag") == edge_headers.get("ETag"), f"{path}: the edge's ETag")
    check(headers.get("Cache-Control") == "public, max-age=300", f"{path}: five minutes of caching")

# Compare with its commas encoded, as URLSearchParams and urlencode send it.
ids = [v["id"] for v in json.loads(get(EDGE, "/api/v1/vehicles?limit=3")[2])["data"]["vehicles"]]
query = urllib.parse.urlencode({"ids": ",".join(ids)})
check("%2C" in query, "the compare query has encoded commas")
status, _, body = get(CDN, f"/api/v1/compare?{query}")
compared = [v["id"] for v in json.loads(body)["data"]["vehicles"]] if status == 200 else []
check(compared == ids, "compare through the CDN with encoded commas")

# Unknown API URLs: the JSON 404, not cached for five minutes.
for path in ["/api/v2/anything", "/api/v1/nope"]:
    status, headers, body = get(CDN, path)
    check(status == 404 and json.loads(body)["error"]["code"] == "not_found", f"{path}: the JSON 404")
    check("max-age=300" not in (headers.get("Cache-Control") or ""), f"{path}: not cached as a success")
status, _, body = get(CDN, "/api/v1/vehicles/no-such-version")
check(status == 404 and json.loads(body)["error"]["code"] == "not_found", "an unknown ID: the edge's JSON 404")

# A version page's old address (capitals as ~XX) moves to its page id, on
# the CDN too: no file has that path, so the edge answers it.
cdn = urllib.parse.urlsplit(CDN)
connection = http.client.HTTPConnection(cdn.hostname, cdn.port, timeout=20)
connection.request("GET", "/versiones/~50eugeot-208-16-~41llure-~41~54")
moved = connection.getresponse()
moved.read()
new = "/versiones/peugeot-208-16-allure-at~u0.15.22.23"
check(moved.status == 301 and moved.getheader("Location") == new, "an old version address moves")
status, _, body = get(CDN, new)
check(status == 200 and b"<html" in body, "the moved version page is a file")
status, _, _ = get(CDN, "/versiones/no-such-version")
check(status == 404, "an unknown version page: 404")

print(f"{checks} passed, 0 failed")
