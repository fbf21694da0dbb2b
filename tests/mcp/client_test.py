#!/usr/bin/env python3
"""Real-client test of the MCP endpoint: the official Python SDK (`mcp` 2.3.0)
against a running `autoprecios-edge`.

    python3 tests/mcp/client_test.py http://127.0.0.1:8080

Runs the same checks twice: once with the client's default negotiation (it
probes `server/discover`, the stateless 2026-07-28 revision) and once with
the `initialize` handshake (mode="legacy"). Each pass initializes, lists
exactly the nine tools, calls each with valid arguments and compares
`structuredContent` (and the JSON text item) with the JSON of the same query
fetched over HTTP from the same server, checks the one-line headline before
it (what was answered, the snapshot's time and age, and that the prices are
invented), calls tools with bad arguments and expects `isError` with the
server's message in the headline and the error body as text (never as
`structuredContent`, which the output schema would refuse), and lists and
reads both Markdown resources, and lists, gets and completes the prompts.
On the revisions the SDK no longer speaks, raw requests check the tools and
the prompts list. Prints one
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
from mcp.types import PromptReference

TOOLS = {
    "find_deals",
    "get_model_prices",
    "search_vehicles",
    "get_vehicle",
    "compare_vehicles",
    "get_catalogue",
    "get_market_report",
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
    months = http_json(base, "/api/v1/reports")["data"]["reports"]
    final = next(m["month"] for m in months if m["status"] == "final")
    return [
        # Without a month: the latest final one.
        ("get_market_report", {}, f"/api/v1/reports/{final}"),
        ("get_market_report", {"month": months[0]["month"]}, f"/api/v1/reports/{months[0]['month']}"),
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
        # A model named by a number, as clients send it: its decimal text.
        ("get_model_prices", {"make": "Peugeot", "model": 208}, "/api/v1/models/prices?make=Peugeot&model=208"),
        ("search_vehicles", {"maxPriceArs": 60000000, "sort": "price_ars_desc"},
         "/api/v1/vehicles?maxPriceArs=60000000&sort=price_ars_desc"),
    ]


def headline_ok(result, tool, refused):
    """The first text item: one line naming the tool, the snapshot and its
    age, and (the bundled snapshot is synthetic) that the prices are invented."""
    if len(result.content) != 2:
        return False
    line = result.content[0].text
    lead = f"{tool} refused: " if refused else f"{tool}: "
    return (line.startswith(lead) and "\n" not in line and " Snapshot of " in line
            and " old)." in line and "the prices are invented" in line)


# (tool, arguments, expected error code, expected detail paths or None)
BAD_CASES = [
    ("search_vehicles", {"limit": "5"}, "invalid_parameters", ["limit"]),
    ("search_vehicles", {"opportunitiesOnly": "true"}, "invalid_parameters", ["opportunitiesOnly"]),
    ("search_vehicles", {"type": "suv"}, "invalid_parameters", ["type"]),
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
    ("get_market_report", {"month": "2026-13"}, "invalid_parameters", ["month"]),
    ("get_market_report", {"month": "1999-01"}, "not_found", None),
    ("get_market_report", {"month": 202610}, "invalid_parameters", ["month"]),
    ("search", {"query": True}, "invalid_parameters", ["query"]),
    ("fetch", {"id": "no-such-version"}, "not_found", None),
]


async def check_tools(client, base, checks, mode):
    tools = (await client.list_tools()).tools
    names = [tool.name for tool in tools]
    checks.check(sorted(names) == sorted(TOOLS) and len(names) == 9,
                 f"[{mode}] tools/list gives exactly the nine tools", names)
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
        text = result.content[-1].text if result.content else ""
        checks.check(not result.is_error and result.structured_content == expected
                     and json.loads(text) == expected and headline_ok(result, name, False), what,
                     json.dumps(result.structured_content)[:300])

    for name, arguments, code, paths in BAD_CASES:
        result = await client.call_tool(name, arguments)
        body = json.loads(result.content[-1].text) if result.content else {}
        error = body.get("error", {})
        got_paths = [detail["path"] for detail in error.get("details", [])]
        said = all(part in result.content[0].text
                   for part in [error.get("message", "?")] + [d["message"] for d in error.get("details", [])])
        ok = (result.is_error and result.structured_content is None and error.get("code") == code
              and (paths is None or got_paths == paths) and headline_ok(result, name, True) and said)
        checks.check(ok, f"[{mode}] {name} {json.dumps(arguments)[:60]} is an error result ({code}) "
                     "that says the server's message", [c.text[:200] for c in result.content])


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


async def check_prompts(client, base, checks, mode):
    """Both prompts, a prompt's request, and completions recomputed from the
    catalogue the HTTP API serves."""
    prompts = (await client.list_prompts()).prompts
    checks.check([p.name for p in prompts] == ["precio_de_un_modelo", "informe_del_mes"]
                 and all(p.description for p in prompts),
                 f"[{mode}] prompts/list gives both prompts", [p.name for p in prompts])
    vehicle = http_json(base, "/api/v1/vehicles?limit=1")["data"]["vehicles"][0]
    make, model = vehicle["make"], vehicle["model"]
    got = await client.get_prompt("precio_de_un_modelo", {"make": make, "model": model})
    text = got.messages[0].content.text
    checks.check(got.messages[0].role == "user" and f"{make} {model}" in text and "get_model_prices" in text,
                 f"[{mode}] prompts/get precio_de_un_modelo asks get_model_prices for {make} {model}", text[:200])
    ref = PromptReference(type="ref/prompt", name="precio_de_un_modelo")
    typed = make[:2].lower()
    completed = (await client.complete(ref, {"name": "make", "value": typed})).completion.values
    makes = {v["make"] for v in http_json(base, "/api/v1/vehicles?limit=100")["data"]["vehicles"]}
    checks.check(make in completed and all(m.lower().startswith(typed) for m in completed if m.isascii()),
                 f"[{mode}] completion/complete suggests {completed} for make {typed!r}", sorted(makes)[:10])
    models = (await client.complete(ref, {"name": "model", "value": ""}, {"make": make})).completion.values
    checks.check(model in models, f"[{mode}] completion/complete suggests the models of {make}", models)


def post_rpc(base, message, version=None, extra=None):
    """One raw POST to /mcp (the SDK always speaks its newest revisions)."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if version:
        headers["MCP-Protocol-Version"] = version
    headers.update(extra or {})
    request = urllib.request.Request(f"{base}/mcp", data=json.dumps(message).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read() or b"null")


def check_early_revisions(base, checks):
    """The revisions the SDK no longer speaks, as their clients do: 2024-11-05
    and 2025-03-26 (no version header after initialize, batches, no
    structured results) and 2025-06-18 (the header, structured results)."""
    vehicle = http_json(base, "/api/v1/vehicles?limit=1")["data"]["vehicles"][0]
    expected = http_json(base, f"/api/v1/vehicles/{enc(vehicle['id'])}")
    call = {"name": "get_vehicle", "arguments": {"id": vehicle["id"]}}
    for version in ["2024-11-05", "2025-03-26", "2025-06-18"]:
        _, init = post_rpc(base, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
        checks.check(init["result"]["protocolVersion"] == version, f"[{version}] initialize echoes it", init)
        early = version != "2025-06-18"
        header = None if early else version
        _, answer = post_rpc(base, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}, header)
        result = answer["result"]
        text = json.loads(result["content"][-1]["text"])
        structured = result.get("structuredContent")
        checks.check(text == expected and (structured is None if early else structured == expected),
                     f"[{version}] get_vehicle answers{' without' if early else ' with'} structuredContent",
                     json.dumps(result)[:300])
        _, listed = post_rpc(base, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, header)
        schemas = ["outputSchema" in tool for tool in listed["result"]["tools"]]
        checks.check(len(schemas) == len(TOOLS) and all(not s for s in schemas) if early else all(schemas),
                     f"[{version}] tools/list {'without' if early else 'with'} output schemas")
        _, prompts = post_rpc(base, {"jsonrpc": "2.0", "id": 4, "method": "prompts/list"}, header)
        checks.check(len(prompts.get("result", {}).get("prompts", [])) == 2,
                     f"[{version}] prompts/list gives both prompts", prompts)
    status, answers = post_rpc(base, [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ])
    checks.check(status == 200 and [a.get("id") for a in answers] == [1, 2],
                 "[2025-03-26] a batch gets one answer per request", answers)


def check_discover(base, checks):
    """server/discover as the stateless revision asks it: cached as the
    lists are (public, 300 s), with both icons of the site's mark."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}
    _, answer = post_rpc(base, {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                                "params": {"_meta": meta}},
                         "2026-07-28", {"Mcp-Method": "server/discover"})
    result = answer.get("result", {})
    info = result.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {})
    icons = [(i.get("mimeType"), i.get("sizes")) for i in info.get("icons", [])]
    checks.check(result.get("ttlMs") == 300000 and result.get("cacheScope") == "public"
                 and icons == [("image/svg+xml", ["any"]), ("image/png", ["512x512"])],
                 "[2026-07-28] server/discover is public for 300 s, with the SVG and PNG marks",
                 json.dumps(answer)[:300])


async def run(base, checks):
    check_early_revisions(base, checks)
    check_discover(base, checks)
    for mode in ["auto", "legacy"]:
        async with Client(f"{base}/mcp", mode=mode) as client:
            checks.check(client.server_info is not None and client.server_info.name == "autoprecios",
                         f"[{mode}] connected with protocol {client.protocol_version}")
            await check_tools(client, base, checks, mode)
            await check_connector(client, base, checks, mode)
            await check_resources(client, base, checks, mode)
            await check_prompts(client, base, checks, mode)


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
