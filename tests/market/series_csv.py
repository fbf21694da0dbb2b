"""The series a spreadsheet set to Argentina imports, read as it reads them.

Against a running edge: GET /api/v1/series as JSON and as CSV with
`decimal=,` and `sep=;` (what IMPORTDATA with the Argentine locale reads),
the CSV parsed by Python's csv module with `;` as the delimiter and `,` as
the decimal mark, must give the JSON's dates and numbers, empty cells for
nulls; the same with the defaults (`,` and `.`).

Usage: python3 tests/market/series_csv.py BASE_URL
"""

import csv
import io
import json
import sys
import urllib.request

IDS = "indice.ars,indice.usd:percent_change,dolar,indice.ars:percent_change_a_year_ago"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as reply:
        return reply.headers.get("Content-Type"), reply.read().decode("utf-8")


def main(base):
    kind, body = fetch(f"{base}/api/v1/series?ids={IDS}")
    assert kind == "application/json", kind
    rows = json.loads(body)["data"]
    assert rows, "no rows"
    for query, delimiter, decimal in [("&format=csv&decimal=,&sep=;", ";", ","), ("&format=csv", ",", ".")]:
        kind, text = fetch(f"{base}/api/v1/series?ids={IDS}{query}&header=ids")
        assert kind == "text/csv; charset=utf-8", kind
        table = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        assert table[0] == ["indice_tiempo"] + IDS.split(","), table[0]
        read = [[line[0]] + [float(cell.replace(decimal, ".")) if cell else None for cell in line[1:]]
                for line in table[1:]]
        assert read == rows, (query, read[:2], rows[:2])
        print(f"series CSV ({delimiter!r} and {decimal!r} decimal): {len(read)} rows, the JSON's numbers")


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
