#!/usr/bin/env python3
"""Load test of the MCP endpoint: N concurrent clients, each on its own
keep-alive HTTP/1.1 connection, POST M JSON-RPC `tools/call` requests each
to a running `autoprecios-edge` and time every round trip. Standard library
only (asyncio streams), so the client costs little next to the server: both
share the machine.

    python3 bench/mcp_load.py http://127.0.0.1:8080 --clients 8 --requests 250

Prints one Markdown table row per tool: requests, clients, p50, p90, p99,
max (ms) and throughput, then the same for the equivalent HTTP GET (the
same operation without MCP) as a baseline. Every answer must be a 200 (with
a non-error tool result), or the run fails. Loopback only: the URL must be
on this machine.
"""

import argparse
import asyncio
import json
import sys
import time
import urllib.parse
import urllib.request


def tool_calls(base):
    """Per tool, the (arguments, equivalent HTTP path) pairs to cycle
    through, taken from the server."""
    with urllib.request.urlopen(base + "/api/v1/vehicles?limit=100", timeout=30) as response:
        vehicles = json.loads(response.read())["data"]["vehicles"]
    words = sorted({v["model"].split()[0] for v in vehicles})
    enc = lambda text: urllib.parse.quote(text, safe="")
    searches = [({"q": w}, f"/api/v1/vehicles?q={enc(w)}") for w in words]
    searches += [({"maxPriceUsd": 40000, "sort": "discount_desc"},
                  "/api/v1/vehicles?maxPriceUsd=40000&sort=discount_desc"),
                 ({"type": "SUV", "minAirbags": 6}, "/api/v1/vehicles?type=SUV&minAirbags=6")]
    return {
        "search_vehicles": searches,
        "get_vehicle": [({"id": v["id"]}, f"/api/v1/vehicles/{enc(v['id'])}") for v in vehicles],
    }


def request_bytes(host, tool, call, number):
    arguments, path = call
    if tool is None:
        return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    body = json.dumps({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}).encode()
    head = (f"POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:  # chunked
        body = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
    return status, body


async def client(host, port, tool, calls, count, offset, latencies):
    """One connection; `tool` None sends the HTTP GET of each call instead."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for n in range(count):
            call = calls[(offset + n) % len(calls)]
            started = time.perf_counter()
            writer.write(request_bytes(host, tool, call, n))
            await writer.drain()
            status, body = await read_response(reader)
            latencies.append((time.perf_counter() - started) * 1000)
            failed = status != 200
            if tool is not None and not failed:
                failed = json.loads(body).get("result", {}).get("isError") is not False
            if failed:
                raise RuntimeError(f"{tool} {call}: HTTP {status}: {body[:300]!r}")
    finally:
        writer.close()


async def run_tool(host, port, tool, calls, clients, requests, label):
    latencies = []
    started = time.perf_counter()
    await asyncio.gather(*(client(host, port, tool, calls, requests, i * 7, latencies)
                           for i in range(clients)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    return (f"| {label} | {len(latencies)} | {clients} | {pick(0.50):.2f} | {pick(0.90):.2f} | "
            f"{pick(0.99):.2f} | {latencies[-1]:.2f} | {len(latencies) / elapsed:.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="server base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--clients", type=int, default=8, help="concurrent connections")
    parser.add_argument("--requests", type=int, default=250, help="requests per connection")
    parser.add_argument("--warmup", type=int, default=50, help="untimed requests per tool first")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        print("refusing a non-loopback target", file=sys.stderr)
        return 2
    host, port = url.hostname, url.port or 80
    calls = tool_calls(args.base.rstrip("/"))
    print("| request | requests | clients | p50 ms | p90 ms | p99 ms | max ms | req/s |")
    print("|---|---|---|---|---|---|---|---|")
    for tool, tool_calls_ in calls.items():
        for mcp, label in [(tool, f"MCP `{tool}`"), (None, f"HTTP GET (same as `{tool}`)")]:
            asyncio.run(run_tool(host, port, mcp, tool_calls_, 1, args.warmup, label))
            print(asyncio.run(run_tool(host, port, mcp, tool_calls_, args.clients, args.requests, label)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
