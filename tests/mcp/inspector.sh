#!/usr/bin/env bash
# The MCP Inspector CLI (the reference client of the MCP project) against a
# running edge: it lists the eight tools with their input and output
# schemas, calls one, gets an error result for an unknown ID, and reads both
# resources.
#   tests/mcp/inspector.sh MCP_INSPECTOR_BINARY http://127.0.0.1:PORT/mcp
set -euo pipefail
inspector=$1
url=$2
run() { "$inspector" --cli "$url" --transport http "$@"; }

run --method tools/list | python3 -c '
import json, sys
tools = json.load(sys.stdin)["tools"]
names = [t["name"] for t in tools]
assert len(names) == 8, names
for t in tools:
    assert t["inputSchema"]["type"] == "object", t["name"]
    assert t["outputSchema"]["type"] == "object", t["name"]
    assert t["annotations"]["readOnlyHint"] is True, t["name"]
print("inspector: tools/list gives", ", ".join(names))'

run --method tools/call --tool-name search_vehicles --tool-arg q=toyota | python3 -c '
import json, sys
result = json.load(sys.stdin)
assert not result.get("isError"), result
assert result["structuredContent"]["schemaVersion"] == 1
assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
print("inspector: search_vehicles answers", result["structuredContent"]["data"]["pagination"]["total"], "versions")'

if run --method tools/call --tool-name get_vehicle --tool-arg id=no-such-version >/dev/null 2>&1; then
  echo "inspector: an unknown ID was not an error result" >&2
  exit 1
fi
echo "inspector: an unknown ID is an error result"

run --method resources/list | python3 -c '
import json, sys
resources = json.load(sys.stdin)["resources"]
assert len(resources) == 2 and all(r["mimeType"] == "text/markdown" for r in resources), resources
print("inspector: resources/list gives", ", ".join(r["uri"] for r in resources))'
