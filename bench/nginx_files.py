"""nginx serving a directory of files beside the edge, for the edge's own
benches (details.py, mix_floor.py): the shared harness's settings
(../shared/bench/mix_bench.py), with an open-file cache of the size asked;
and what both benches do with their rounds and their scratch afterwards.
"""
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "bench"))
from mix_bench import free_port, get  # noqa: E402


def serve(tmp, www, open_files, probe, locations=""):
    """Starts nginx over `www` (its files made readable, its config and
    temporary files under `tmp`), keeping up to `open_files` files open
    (fewer when the process's descriptor limit would not leave room for the
    connections), with `locations` added to its server block. Returns its
    base URL, its process and how many files it keeps open, once it answers
    `probe`, a (path, bytes) pair, with those bytes."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    descriptors = hard if hard != resource.RLIM_INFINITY else 1 << 20
    open_files = min(open_files, descriptors - 2048)
    os.makedirs(os.path.join(tmp, "nginx", "tmp"), exist_ok=True)
    for root, _, files in os.walk(tmp):
        os.chmod(root, 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    port = free_port()
    conf = os.path.join(tmp, "nginx", "nginx.conf")
    with open(conf, "w") as out:
        out.write(f"""daemon off; worker_processes auto; worker_rlimit_nofile {descriptors}; pid {tmp}/nginx/nginx.pid;
error_log {tmp}/nginx/error.log warn; events {{ worker_connections 1024; }}
http {{ access_log off; default_type application/json; sendfile on; tcp_nopush on; tcp_nodelay on;
 keepalive_requests 1000000; open_file_cache max={open_files} inactive=600s;
 client_body_temp_path {tmp}/nginx/tmp/b; proxy_temp_path {tmp}/nginx/tmp/p; fastcgi_temp_path {tmp}/nginx/tmp/f;
 uwsgi_temp_path {tmp}/nginx/tmp/u; scgi_temp_path {tmp}/nginx/tmp/s;
 server {{ listen 127.0.0.1:{port}; root {www}; add_header Cache-Control "public, max-age=300"; {locations} }} }}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-e", f"{tmp}/nginx/error.log", "-p", f"{tmp}/nginx/", "-c", conf],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    path, expected = probe
    for _ in range(100):
        try:
            if get(base, path)[1] == expected:
                return base, process, open_files
        except Exception:
            time.sleep(0.1)
    process.terminate()
    sys.exit(f"nginx did not serve {path}")


def report_rounds(rows, bench):
    """Prints `rows`, (server, round, wrk figures) triples, as a table, and
    ends the run when any round had an error or a non-2xx/3xx answer:
    such a round's figures do not count."""
    print("| server | round | req/s | p50 ms | p99 ms | non-2xx/3xx |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r, d in rows:
        print(f"| {name} | {r} | {d['rps']:,.0f} | {d['p50_us']/1000:.2f} | {d['p99_us']/1000:.2f} | {d['status']:.0f} |")
    failed = [(name, r) for name, r, d in rows
              if d["status"] or d["connect"] + d["read"] + d["write"] + d["timeout"]]
    if failed:
        sys.exit(f"{bench}: errors or non-2xx answers in {failed}: the figures do not count")


def stop(started, tmp):
    """Stops the processes `started` and removes the scratch directory `tmp`."""
    for process in started:
        process.terminate()
        process.wait()
    shutil.rmtree(tmp, ignore_errors=True)
