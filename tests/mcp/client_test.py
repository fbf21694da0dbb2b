#!/usr/bin/env python3
"""Real-client test of the MCP endpoint: the official Python SDK (`mcp` 2.3.0)
against a running `autoprecios-edge`.

    python3 tests/mcp/client_test.py http://127.0.0.1:8080

Runs the same checks twice: once with the client's default negotiation (it
probes `server/discover`, the stateless 2026-07-28 revision) and once with
the `initialize` handshake (mode="legacy"). Each pass initializes, lists
exactly the eight tools, calls each with valid arguments and compares
`structuredContent` (and the text item) with the JSON of the same query
fetched over HTTP from the same server, calls tools with bad arguments and
expects `isError`, and lists and reads both Markdown resources. Prints one
line per check and a closing "N passed, N failed"; exits non-zero on any
failure.
"""

import asyncio
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

from mcp import Client

TOOLS = {
    "find_deals",
    "get_model_prices",
    "search_vehicles",
    "get_vehicle",
    "compare_vehicles",
    "get_catalogue",
    "search",
    "fetch",
}


class Checks:
    """Counts and prints outcomes; a failed check does not stop the run."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {what}")
        else:
            self.failed += 1
            print(f"FAIL  {what} {detail}"[:2000])


def http_json(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read())


def http_text(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return response.read().decode("utf-8")


def enc(text):
    return urllib.parse.quote(text, safe="")


def valid_cases(base):
    """(tool, arguments, HTTP path of the same query), with makes, models
    and IDs taken from the server's own catalogue."""
    vehicles = http_json(base, "/api/v1/vehicles?limit=3")["data"]["vehicles"]
    first, second = vehicles[0], vehicles[1]
    make, model = first["make"], first["model"]
    word = model.split()[0]
    return [
        ("search_vehicles", {"q": word, "limit": 5, "sort": "price_desc"},
         f"/api/v1/vehicles?q={enc(word)}&limit=5&sort=price_desc"),
        ("search_vehicles", {"opportunitiesOnly": True, "minAirbags": 2, "maxPriceUsd": 80000.5},
         "/api/v1/vehicles?opportunitiesOnly=true&minAirbags=2&maxPriceUsd=80000.5"),
        ("find_deals", {"kind": "price_drops", "window": "7d", "limit": 10},
         "/api/v1/deals?kind=price_drops&window=7d&limit=10"),
        ("find_deals", {}, "/api/v1/deals"),
        ("get_model_prices", {"make": make, "model": model, "limit": 2},
         f"/api/v1/models/prices?make={enc(make)}&model={enc(model)}&limit=2"),
        ("get_vehicle", {"id": first["id"]}, f"/api/v1/vehicles/{enc(first['id'])}"),
        ("compare_vehicles", {"ids": [first["id"], second["id"]]},
         f"/api/v1/compare?ids={enc(first['id'])},{enc(second['id'])}"),
        ("get_catalogue", {}, "/api/v1/catalogue"),
    ]


# (tool, arguments, expected error code, expected detail paths or None)
BAD_CASES = [
    ("search_vehicles", {"limit": "5"}, "invalid_parameters", ["limit"]),
    ("search_vehicles", {"limit": 101}, "invalid_parameters", ["limit"]),
    ("search_vehicles", {"colour": "red"}, "invalid_parameters", ["colour"]),
    ("search_vehicles", {"q": "x" * 201}, "invalid_parameters", ["q"]),
    ("find_deals", {"minPriceUsd": 30000, "maxPriceUsd": 20000}, "invalid_parameters", ["maxPriceUsd"]),
    ("find_deals", {"window": "2d"}, "invalid_parameters", ["window"]),
    ("get_model_prices", {"make": "Nope", "model": "Nada"}, "not_found", None),
    ("get_model_prices", {"make": "Nope"}, "invalid_parameters", ["model"]),
    ("get_vehicle", {"id": "no-such-version"}, "not_found", None),
    ("get_vehicle", {"id": ""}, "invalid_parameters", ["id"]),
    ("compare_vehicles", {"ids": "a,b"}, "invalid_parameters", ["ids"]),
    ("compare_vehicles", {"ids": ["a"]}, "invalid_parameters", ["ids"]),
    ("get_catalogue", {"x": 1}, "invalid_parameters", ["x"]),
    ("search", {"query": 5}, "invalid_parameters", ["query"]),
    ("fetch", {"id": "no-such-version"}, "not_found", None),
]


async def check_tools(client, base, checks, mode):
    tools = (await client.list_tools()).tools
    names = [tool.name for tool in tools]
    checks.check(sorted(names) == sorted(TOOLS) and len(names) == 8,
                 f"[{mode}] tools/list gives exactly the eight tools", names)
    for tool in tools:
        hints = tool.annotations
        checks.check(hints is not None and hints.read_only_hint is True and hints.open_world_hint is False,
                     f"[{mode}] {tool.name} is read-only and closed-world")
        checks.check(tool.input_schema.get("additionalProperties") is False,
                     f"[{mode}] {tool.name} rejects unknown arguments in its schema")

    for name, arguments, path in valid_cases(base):
        result = await client.call_tool(name, arguments)
        expected = http_json(base, path)
        what = f"[{mode}] {name} {json.dumps(arguments)[:80]} equals GET {path[:80]}"
        text = result.content[0].text if result.content else ""
        checks.check(not result.is_error and result.structured_content == expected
                     and json.loads(text) == expected, what,
                     json.dumps(result.structured_content)[:300])

    for name, arguments, code, paths in BAD_CASES:
        result = await client.call_tool(name, arguments)
        error = (result.structured_content or {}).get("error", {})
        got_paths = [detail["path"] for detail in error.get("details", [])]
        ok = result.is_error and error.get("code") == code and (paths is None or got_paths == paths)
        checks.check(ok, f"[{mode}] {name} {json.dumps(arguments)[:60]} is an error result ({code})",
                     json.dumps(result.structured_content)[:300])


async def check_connector(client, base, checks, mode):
    vehicles = http_json(base, "/api/v1/vehicles?limit=1")["data"]["vehicles"]
    make = vehicles[0]["make"]
    result = await client.call_tool("search", {"query": make})
    results = (result.structured_content or {}).get("results", [])
    expected = http_json(base, f"/api/v1/vehicles?q={enc(make)}")["data"]["vehicles"]
    checks.check(not result.is_error and [r["id"] for r in results] == [v["id"] for v in expected]
                 and all(set(r) == {"id", "title", "url"} and r["url"].startswith("http") for r in results),
                 f"[{mode}] search {make!r} gives id, title and absolute url per match",
                 json.dumps(results)[:300])
    if not results:
        return
    first = results[0]
    result = await client.call_tool("fetch", {"id": first["id"]})
    document = result.structured_content or {}
    detail = http_json(base, f"/api/v1/vehicles/{enc(first['id'])}")
    checks.check(not result.is_error and set(document) == {"id", "title", "text", "url", "metadata"}
                 and document["url"] == first["url"] and json.loads(document["text"]) == detail,
                 f"[{mode}] fetch {first['id']!r} gives the sourced record", json.dumps(document)[:300])


async def check_resources(client, base, checks, mode):
    resources = (await client.list_resources()).resources
    checks.check(len(resources) == 2 and all(r.mime_type == "text/markdown" for r in resources),
                 f"[{mode}] resources/list gives two Markdown documents", [str(r.uri) for r in resources])
    for resource, path in zip(resources, ["/developers.md", "/metodologia.md"]):
        contents = (await client.read_resource(resource.uri)).contents
        checks.check(len(contents) == 1 and contents[0].text == http_text(base, path)
                     and contents[0].mime_type == "text/markdown",
                     f"[{mode}] resources/read {resource.uri} is the published {path}")


async def run(base, checks):
    for mode in ["auto", "legacy"]:
        async with Client(f"{base}/mcp", mode=mode) as client:
            checks.check(client.server_info is not None and client.server_info.name == "autoprecios",
                         f"[{mode}] connected with protocol {client.protocol_version}")
            await check_tools(client, base, checks, mode)
            await check_connector(client, base, checks, mode)
            await check_resources(client, base, checks, mode)


def main():
    if len(sys.argv) != 2:
        print("usage: client_test.py BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    checks = Checks()
    try:
        asyncio.run(run(base, checks))
    except Exception as err:  # a crash is a failure, reported, never a pass
        checks.check(False, "the client ran to the end", repr(err))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed or not checks.passed else 0


if __name__ == "__main__":
    sys.exit(main())
