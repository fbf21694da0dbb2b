"""Schemathesis hooks for autoprecios, loaded through schemathesis.toml.

openapi.json never names a vehicle (it changes with the code, never with the
snapshot), so generated IDs are unknown ones. Schemathesis' resource pool
feeds get_vehicle with IDs from search results, but it cannot build the
comma-separated array compare_vehicles takes, and a fixed value from the
config is sent exploded (`ids=a&ids=b`, a 400). So this hook adds, in memory
only, `example` values of real IDs to both ID parameters: the examples phase
then requests real versions, and fuzzing starts from them.

The IDs come from AUTOPRECIOS_EXAMPLE_IDS, a JSON array that
tests/schemathesis.sh reads from the running edge; without it nothing changes.
"""

import json
import os

import schemathesis


def _set_example(raw_schema, path, name, value):
    for parameter in raw_schema["paths"][path]["get"].get("parameters", []):
        if parameter.get("name") == name:
            parameter["example"] = value


@schemathesis.hook
def before_load_schema(context, raw_schema):
    ids = json.loads(os.environ.get("AUTOPRECIOS_EXAMPLE_IDS", "[]"))
    if len(ids) < 2:
        return
    _set_example(raw_schema, "/api/v1/vehicles/{id}", "id", ids[0])
    _set_example(raw_schema, "/api/v1/compare", "ids", ids[:2])
    # The market's: a month the publication covers and two series it has.
    month = os.environ.get("AUTOPRECIOS_EXAMPLE_MONTH")
    if month:
        _set_example(raw_schema, "/api/v1/reports/{month}", "month", month)
    _set_example(raw_schema, "/api/v1/series", "ids", ["indice.ars", "dolar"])
