"""Analysts' readers over HTTP read a Parquet download by byte ranges from
the edge, not whole.

- pyarrow reads one column of datos/semanas.parquet through a file object
  whose reads are HTTP Range requests (as fsspec's HTTP filesystem does);
- DuckDB, with its httpfs extension loaded from the `duckdb-ext-httpfs`
  wheel (it cannot be downloaded here), runs an aggregate over one column
  of the same file by URL (run by DUCKDB_PYTHON, the interpreter that has
  both; skipped without it).

Both results equal the local file's. Then the edge's request log (LOG, one
JSON or text line per request with `bytes`) must show `206` answers for the
file, and fewer bytes sent to each reader than the file holds.

Usage: python3 tests/datos/ranges.py BASE ROOT LOG [DUCKDB_PYTHON]
"""

import io
import os
import re
import subprocess
import sys
import urllib.request

import pyarrow.parquet as pq

PATH = "/datos/semanas.parquet"
COLUMN = "versionId"


class HttpFile(io.RawIOBase):
    """A read-only file over HTTP: every read is one Range request."""

    def __init__(self, url):
        self.url = url
        self.position = 0
        head = urllib.request.Request(url, method="HEAD")
        with urllib.request.urlopen(head, timeout=30) as reply:
            assert reply.headers.get("Accept-Ranges") == "bytes", reply.headers
            self.size = int(reply.headers["Content-Length"])
        self.fetched = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.position

    def seek(self, offset, whence=io.SEEK_SET):
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = base + offset
        return self.position

    def readinto(self, buffer):
        if self.position >= self.size or len(buffer) == 0:
            return 0
        end = min(self.position + len(buffer), self.size) - 1
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={self.position}-{end}"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 206, reply.status
            data = reply.read()
        buffer[: len(data)] = data
        self.position += len(data)
        self.fetched += len(data)
        return len(data)


DUCKDB = """
import duckdb, os, sys
import duckdb_ext
extension = os.path.join(list(duckdb_ext.__path__)[0], "extensions")
found = [os.path.join(d, f) for d, _, fs in os.walk(extension) for f in fs if f == "httpfs.duckdb_extension"]
con = duckdb.connect()
con.execute(f"LOAD '{found[0]}'")
print(con.execute(f"select count(distinct {sys.argv[2]}) from read_parquet('{sys.argv[1]}')").fetchall()[0][0])
"""


def sent(log, start):
    """(status, bytes) of every logged GET of PATH after line `start`."""
    lines = open(log, encoding="utf-8", errors="replace").read().splitlines()[start:]
    found = []
    for line in lines:
        # A HEAD names the length it does not send.
        if PATH not in line or "request" not in line or "HEAD" in line:
            continue
        status = re.search(r'status["=:\s]+(\d+)', line)
        size = re.search(r'bytes["=:\s]+"?(\d+)', line)
        if status and size:
            found.append((int(status.group(1)), int(size.group(1))))
    return found


def log_length(log):
    return len(open(log, encoding="utf-8", errors="replace").read().splitlines())


def main(base, root, log, duckdb_python=None):
    problems = []
    local = pq.read_table(os.path.join(root, PATH[1:]), columns=[COLUMN])
    size = os.path.getsize(os.path.join(root, PATH[1:]))
    start = log_length(log)
    remote = HttpFile(base + PATH)
    table = pq.ParquetFile(io.BufferedReader(remote, buffer_size=1 << 14)).read(columns=[COLUMN])
    if table.column(COLUMN).to_pylist() != local.column(COLUMN).to_pylist():
        problems.append("pyarrow over HTTP read another column than the file holds")
    read = sent(log, start)
    partial = sum(b for s, b in read if s == 206)
    if not read or any(s != 206 for s, _ in read) or partial >= size:
        problems.append(f"pyarrow: {partial} bytes in {len(read)} answers for a file of {size}")
    print(f"ok  pyarrow over HTTP: one column of {PATH} in {len(read)} ranges, {partial} of {size} bytes")
    if duckdb_python:
        start = log_length(log)
        out = subprocess.run(
            [duckdb_python, "-c", DUCKDB, base + PATH, COLUMN],
            capture_output=True, text=True, timeout=120,
        )
        expected = len(set(local.column(COLUMN).to_pylist()))
        if out.returncode != 0 or out.stdout.strip() != str(expected):
            problems.append(f"duckdb httpfs: {out.stdout.strip()} {out.stderr.strip()[-300:]}, expected {expected}")
        read = sent(log, start)
        total = sum(b for _, b in read)
        if not any(s == 206 for s, _ in read) or total >= size:
            problems.append(f"duckdb httpfs: {read} for a file of {size}")
        print(f"ok  duckdb httpfs: count(distinct {COLUMN}) over HTTP in {len(read)} answers, {total} of {size} bytes")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:5])
