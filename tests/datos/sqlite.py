"""/datos/autoprecios.sqlite as its readers meet it: Python's sqlite3 and
Datasette (pinned), checked against the other downloads of the same tree.

- versiones, semanas and cotizaciones hold the rows of versiones.parquet,
  semanas.parquet and, for cotizaciones, the quotes of snapshot/quotes whose
  check is each version's observedAt (times as RFC 3339 text, booleans 0/1);
- the five informe_* tables hold every month's /informes/AAAA-MM/*.csv;
- the views are recomputed here: the cheapest version of each model, and
  the opportunities by discount;
- the full-text index finds a make without its accents or case;
- _metadata describes every column of every table, and datapackage.json
  and SHA256SUMS list the file with its bytes;
- Datasette serves the file and answers three queries through its JSON
  API: a full-text search, a view, and SQL.

Usage: python3 tests/datos/sqlite.py TREE DATASETTE
  (TREE: the CDN directory, output/public; DATASETTE: its executable, from a
  venv of its own)
"""

import csv
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
import hashlib
import json
import pathlib
import socket
import sqlite3
import subprocess
import sys
import time
import unicodedata
import urllib.parse
import urllib.request

import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

tree = pathlib.Path(sys.argv[1])
datasette = sys.argv[2]
datos = tree / "datos"
path = datos / "autoprecios.sqlite"
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
db.row_factory = None
problems = []


def rows(sql, *args):
    return db.execute(sql, args).fetchall()


def sqlite_value(value):
    """A Parquet cell as the database stores it."""
    if isinstance(value, bool):
        return int(value)
    if hasattr(value, "isoformat") and hasattr(value, "hour"):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def parquet_rows(table):
    return [tuple(sqlite_value(v) for v in row.values()) for row in table.to_pylist()]


def same(name, expected, got):
    if expected != got:
        first = next((k for k, (a, b) in enumerate(zip(expected, got)) if a != b), None)
        detail = f"row {first}: {expected[first]} != {got[first]}" if first is not None else ""
        problems.append(f"{name}: {len(got)} rows, expected {len(expected)} {detail}")
    else:
        print(f"ok  {name}: {len(got)} rows as the other downloads have them")


# The tables that are downloads of their own.
for name in ["versiones", "semanas"]:
    table = pq.read_table(datos / f"{name}.parquet")
    columns = ", ".join(f'"{c}"' for c in table.column_names)
    same(name, parquet_rows(table), rows(f'SELECT {columns} FROM "{name}"'))

# The current quotes: each version's quotes at its observedAt, recomputed
# from the snapshot's quotes, cheapest in dollars first (ties by quote ID).
versiones = pq.read_table(datos / "versiones.parquet").to_pylist()
observed = {v["id"]: v["observedAt"] for v in versiones}


def month_files(table):
    return ds.dataset(sorted((datos / "snapshot" / table).glob("*.parquet"))).to_table().to_pylist()


rates = {(c["versionId"], c["observedAt"]): c["arsPerUsd"] for c in month_files("quote_checks")}


def usd(q):
    """The quote in dollars, exactly (None: pesos at a check without a rate)."""
    price = Fraction(str(q["price"]))
    if q["currency"] == "USD":
        return price
    rate = rates.get((q["versionId"], q["checkedAt"]))
    return price / Fraction(str(rate)) if rate else None


def cents(value):
    if value is None:
        return None
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


current = [
    q for q in month_files("quotes")
    if q["versionId"] in observed and q["checkedAt"] == observed[q["versionId"]]
]
current.sort(key=lambda q: (q["versionId"], usd(q) is None, usd(q) or 0, q["quoteId"].encode()))
expected = []
for q in current:
    rank = 1 if not expected or expected[-1][0] != q["versionId"] else expected[-1][2] + 1
    expected.append((q["versionId"], sqlite_value(q["checkedAt"]), rank, q["quoteId"],
                     q["price"], q["currency"], cents(usd(q))))
got = rows('SELECT "versionId", "observedAt", "rank", "quoteId", "price", "currency", "priceUsd" '
           'FROM "cotizaciones" ORDER BY "versionId", "rank"')
same("cotizaciones", expected, got)
quote_count = sum(v["quoteCount"] for v in versiones)
if quote_count != len(got):
    problems.append(f"cotizaciones: {len(got)} rows, versiones counts {quote_count} quotes")


# The report's tables, every month.
def number(cell):
    if cell == "":
        return None
    if cell in ("true", "false"):
        return int(cell == "true")
    try:
        return int(cell) if cell.lstrip("-").isdigit() else float(cell)
    except ValueError:
        return cell


months = sorted(p.name for p in (tree / "informes").iterdir() if p.is_dir())
for stem in ["indice", "mas-baratos", "subas-y-bajas", "concesionarias-vs-catalogo", "cobertura"]:
    expected = []
    for month in months:
        with open(tree / "informes" / month / f"{stem}.csv", newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            lead = [] if "month" in header else [month]
            expected.extend(tuple(lead + [number(c) for c in row]) for row in reader)
    name = "informe_" + stem.replace("-", "_")
    got = [tuple(number(c) if isinstance(c, str) else c for c in row)
           for row in rows(f'SELECT * FROM "{name}"')]
    same(name, expected, got)

# The views, recomputed.
cheapest = {}
for v in sorted(versiones, key=lambda v: (v["currentPriceUsd"], v["id"])):
    cheapest.setdefault((v["make"], v["model"]), v)
expected = [(m, mo, v["id"], v["currentPriceUsd"]) for (m, mo), v in sorted(cheapest.items())]
same("mas_barato_por_modelo", expected,
     rows('SELECT "make", "model", "id", "currentPriceUsd" FROM "mas_barato_por_modelo"'))
opportunities = sorted((v for v in versiones if v["opportunity"]),
                       key=lambda v: (-v["discountPct"], v["id"]))
same("oportunidades", [(v["id"], v["discountPct"]) for v in opportunities],
     rows('SELECT "id", "discountPct" FROM "oportunidades"'))


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", text.lower())
                   if unicodedata.category(c) != "Mn")


# Full-text search without accents or case.
accented = next(v["make"] for v in versiones if fold(v["make"]) != v["make"].lower())
query = fold(accented)
expected = sorted(v["id"] for v in versiones
                  if any(query in fold(v[c]).split() for c in ("make", "model", "trim")))
got = sorted(r[0] for r in rows(
    'SELECT v."id" FROM "versiones_fts" f JOIN "versiones" v ON v.rowid = f.rowid '
    'WHERE "versiones_fts" MATCH ?', query))
same(f"versiones_fts MATCH {query!r} (make {accented})", [(i,) for i in expected], [(i,) for i in got])

# _metadata: every column of every table, with a description.
tables = [r[0] for r in rows("SELECT name FROM sqlite_master WHERE type = 'table' "
                             "AND name NOT LIKE 'versiones_fts%' AND name != '_metadata'")]
for table in tables:
    columns = [r[1] for r in rows(f'PRAGMA table_info("{table}")')]
    documented = {r[0] for r in rows('SELECT "columna" FROM "_metadata" WHERE "tabla" = ? '
                                     'AND "columna" != \'\' AND "descripcion" != \'\'', table)}
    if set(columns) != documented:
        problems.append(f"_metadata of {table}: {sorted(set(columns) ^ documented)}")
units = dict(((r[0], r[1]), r[2]) for r in rows('SELECT "tabla", "columna", "unidad" FROM "_metadata"'))
for (table, column), unit in [(("versiones", "currentPriceUsd"), "dólares (USD)"),
                              (("versiones", "observedAt"), "UTC"),
                              (("informe_indice", "changePct"), "porcentaje"),
                              (("informe_mas_baratos", "priceArs"), "pesos (ARS)")]:
    if units.get((table, column)) != unit:
        problems.append(f"_metadata: {table}.{column} has unit {units.get((table, column))!r}")
print(f"ok  _metadata describes the columns of {len(tables)} tables")

# The package lists it.
blob = path.read_bytes()
sha = hashlib.sha256(blob).hexdigest()
package = json.loads((datos / "datapackage.json").read_text())
resource = next((r for r in package["resources"] if r["path"] == "autoprecios.sqlite"), None)
if not resource or resource["bytes"] != len(blob) or resource["hash"] != f"sha256:{sha}":
    problems.append(f"datapackage.json: {resource}")
if f"{sha}  autoprecios.sqlite\n" not in (datos / "SHA256SUMS").read_text():
    problems.append("SHA256SUMS does not list autoprecios.sqlite with its sum")

# Datasette: three queries through its JSON API.
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen([datasette, "serve", str(path), "--port", str(port),
                          "--setting", "sql_time_limit_ms", "5000"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
base = f"http://127.0.0.1:{port}/autoprecios"


def ask(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


try:
    for _ in range(100):
        try:
            ask(f"http://127.0.0.1:{port}/-/versions.json")
            break
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.2)
    version = ask(f"http://127.0.0.1:{port}/-/versions.json")["datasette"]["version"]
    found = ask(f"{base}/versiones.json?_search={urllib.parse.quote(query)}&_shape=array&_size=max")
    if sorted(r["id"] for r in found) != expected:
        problems.append(f"datasette _search={query}: {len(found)} versions, expected {len(expected)}")
    view = ask(f"{base}/mas_barato_por_modelo.json?_shape=array&_size=max")
    if len(view) != len(cheapest):
        problems.append(f"datasette mas_barato_por_modelo: {len(view)} rows, expected {len(cheapest)}")
    sql = 'select count(*) as n from cotizaciones where "feesIncluded" = 1'
    counted = ask(f"{base}.json?sql={urllib.parse.quote(sql)}&_shape=array")[0]["n"]
    if counted != sum(1 for q in current if q["feesIncluded"]):
        problems.append(f"datasette SQL: {counted} quotes with fees included")
    print(f"ok  datasette {version}: _search={query} finds {len(found)}, the view {len(view)} models, "
          f"SQL counts {counted} quotes with fees included")
finally:
    server.terminate()
    _, err = server.communicate(timeout=10)
    if problems or server.returncode not in (0, -15):
        print(err.decode(errors="replace")[-2000:], file=sys.stderr)

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"ok  {path.name}: {len(blob)} bytes, every table and view checked")
