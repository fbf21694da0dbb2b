"""The data downloads as analysts' tools read them: every Parquet file of
/datos/ through pyarrow and duckdb, every gzipped CSV through Python's gzip
module and duckdb, checked against datapackage.json.

Each Parquet column must have the type its Table Schema type promises
(string -> plain `string`, never `string_view`; datetime -> `timestamp[ms,
tz=UTC]`; date -> `date32`; integer -> int64; number -> double; boolean ->
bool), a string column must filter in pyarrow, and duckdb must see the same
types (VARCHAR, TIMESTAMP WITH TIME ZONE, DATE, BIGINT, DOUBLE, BOOLEAN) and
as many rows in the CSV as in the Parquet file, reading the CSV's
concatenated gzip members as one file.

Usage: python3 tests/datos/readers.py TREE   (the CDN directory, output/public)
"""

import gzip
import json
import pathlib
import sys

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ARROW = {
    "string": pa.string(),
    "datetime": pa.timestamp("ms", tz="UTC"),
    "date": pa.date32(),
    "integer": pa.int64(),
    "number": pa.float64(),
    "boolean": pa.bool_(),
}
DUCKDB = {
    "string": "VARCHAR",
    "datetime": "TIMESTAMP WITH TIME ZONE",
    "date": "DATE",
    "integer": "BIGINT",
    "number": "DOUBLE",
    "boolean": "BOOLEAN",
}


def main(tree: pathlib.Path) -> None:
    datos = tree / "datos"
    package = json.loads((datos / "datapackage.json").read_text())
    con = duckdb.connect()
    checked = 0
    for resource in package["resources"]:
        if resource["format"] != "parquet":
            continue
        path = datos / resource["path"]
        fields = [(f["name"], f["type"]) for f in resource["schema"]["fields"]]
        table = pq.read_table(path)
        expected = pa.schema([(name, ARROW[kind]) for name, kind in fields])
        assert table.schema.remove_metadata() == expected, (
            f"{path}: pyarrow reads {table.schema}, expected {expected}"
        )
        for name, kind in fields:
            if kind == "string" and table.num_rows:
                value = table.column(name).drop_null()
                if len(value):
                    first = value[0].as_py()
                    hits = table.filter(pc.equal(table.column(name), first)).num_rows
                    assert hits >= 1, f"{path}: filtering {name} found nothing"
        described = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
        types = [(row[0], row[1]) for row in described]
        assert types == [(name, DUCKDB[kind]) for name, kind in fields], (
            f"{path}: duckdb reads {types}"
        )
        csv = datos / resource["path"].replace(".parquet", ".csv.gz")
        with gzip.open(csv, "rt", encoding="utf-8") as text:
            lines = sum(1 for _ in text) - 1
        (duck_rows,) = con.execute(
            f"SELECT count(*) FROM read_csv('{csv}', header = true, all_varchar = true)"
        ).fetchone()
        assert lines == duck_rows == table.num_rows, (
            f"{csv}: {lines} lines (gzip), {duck_rows} rows (duckdb), "
            f"{table.num_rows} in the Parquet file"
        )
        checked += 1
    assert checked >= 9, f"only {checked} Parquet files checked"
    print(f"{checked} Parquet files and their CSV twins read back with pyarrow "
          f"{pa.__version__} and duckdb {duckdb.__version__}")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
