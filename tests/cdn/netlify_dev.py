"""Checks a tree served by `netlify dev` in front of the edge (see
netlify_dev.sh): what the CDN answers from files, what it proxies to the
edge, and the headers of each. Prints one line a check; exits non-zero on
the first failure.

    python3 tests/cdn/netlify_dev.py CDN_URL EDGE_URL TREE
"""

import http.client
import json
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
status, headers, body = get(CDN, "/metodologia")
check(status == 200 and b"<html" in body, "/metodologia is a page")
check(headers.get("X-Frame-Options") == "DENY", "/metodologia: security headers")

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
