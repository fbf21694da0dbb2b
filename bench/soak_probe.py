#!/usr/bin/env python3
"""The sampler of bench/soak.sh: asks the server for /api/v1 fifty times a
second on a connection of its own, and reads the server's resident memory
once a second, until the server exits (or the probe is stopped).

    python3 bench/soak_probe.py http://127.0.0.1:18790 PID > probe.txt

One line per probe: the time (Unix seconds), the answer's latency in ms,
its status (0 for a socket error), the live tree's base URL (from the
answer's openapiUrl; "?" without one) and, once a second, VmRSS and VmHWM
(the peak of VmRSS so far, which a short peak between two readings still
raises) in KiB (else "- -"). The latencies show whether loading a new tree slows the
answers the old one gives meanwhile; the base URL, when the new tree is
served. Standard library only.
"""

import http.client
import json
import sys
import time
import urllib.parse

PERIOD = 0.02


def memory_kib(pid):
    """VmRSS and VmHWM, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


def ask(connection, path):
    """One GET on the kept connection: (latency ms, status, live base URL)."""
    started = time.perf_counter()
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        status = response.status
    except (OSError, http.client.HTTPException):
        connection.close()  # reconnects on the next request
        return (time.perf_counter() - started) * 1000, 0, "?"
    latency = (time.perf_counter() - started) * 1000
    try:
        live = json.loads(body)["openapiUrl"].rsplit("/", 1)[0]
    except (ValueError, KeyError, TypeError, AttributeError):
        live = "?"
    return latency, status, live


def main():
    base, pid = sys.argv[1], int(sys.argv[2])
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    next_rss = 0.0
    tick = time.monotonic()
    while True:
        now = time.time()
        latency, status, live = ask(connection, "/api/v1")
        memory = "- -"
        if time.monotonic() >= next_rss:
            kib = memory_kib(pid)
            if kib is None:
                return
            memory, next_rss = f"{kib[0]} {kib[1]}", time.monotonic() + 1
        print(f"{now:.3f} {latency:.2f} {status} {live} {memory}", flush=True)
        tick += PERIOD
        time.sleep(max(0.0, tick - time.monotonic()))


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
