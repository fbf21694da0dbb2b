#!/usr/bin/env bash
# The MCP Inspector CLI (the reference client of the MCP project) against a
# running edge: it lists the nine tools with their input and output
# schemas (portable: `--strict` finds nothing), calls one, a model named by
# a number, and three calls the server refuses (an unknown ID, a bad enum, a
# type slip), whose message the Inspector must print (it validates any
# structuredContent against the output schema, so an error must carry
# none), and reads both resources.
#   tests/mcp/inspector.sh MCP_INSPECTOR_BINARY http://127.0.0.1:PORT/mcp
set -euo pipefail
inspector=$1
url=$2
run() { "$inspector" --cli "$url" --transport http "$@"; }

run --method tools/list | python3 -c '
import json, sys
tools = json.load(sys.stdin)["tools"]
names = [t["name"] for t in tools]
assert len(names) == 9, names
for t in tools:
    assert t["inputSchema"]["type"] == "object", t["name"]
    assert t["outputSchema"]["type"] == "object", t["name"]
    assert t["annotations"]["readOnlyHint"] is True, t["name"]
print("inspector: tools/list gives", ", ".join(names))'

# Portable schemas: --strict reports nothing (it printed 103 warnings for
# nullable `type` arrays once).
strict=$(run --method tools/list --strict 2>&1 >/dev/null) || { echo "inspector: --strict failed: $strict" >&2; exit 1; }
if [ -n "$strict" ]; then
  echo "inspector: tools/list has portability problems:" >&2
  echo "$strict" | head -20 >&2
  exit 1
fi
echo "inspector: tools/list --strict finds no portability problem"

run --method tools/call --tool-name search_vehicles --tool-arg q=toyota | python3 -c '
import json, sys
result = json.load(sys.stdin)
assert not result.get("isError"), result
assert result["structuredContent"]["schemaVersion"] == 1
assert json.loads(result["content"][1]["text"]) == result["structuredContent"]
headline = result["content"][0]["text"]
assert headline.startswith("search_vehicles: ") and " Snapshot of " in headline, headline
print("inspector: search_vehicles answers", result["structuredContent"]["data"]["pagination"]["total"], "versions:", headline)'

# The Inspector sends 208 as a JSON number: a model's name all the same.
run --method tools/call --tool-name get_model_prices --tool-arg make=Peugeot --tool-arg model=208 | python3 -c '
import json, sys
result = json.load(sys.stdin)
assert not result.get("isError"), result
print("inspector: model 208 answers:", result["content"][0]["text"])'

# Every other tool, as the Inspector sends its arguments (JSON values parsed).
answers() { # answers TOOL ARGS...: not an error, the headline first, JSON second
  local tool=$1
  shift
  run --method tools/call --tool-name "$tool" "$@" | TOOL=$tool python3 -c '
import json, os, sys
result = json.load(sys.stdin)
tool = os.environ["TOOL"]
assert not result.get("isError"), result
headline, body = result["content"][0]["text"], json.loads(result["content"][1]["text"])
assert headline.startswith(tool + ": ") and " Snapshot of " in headline, headline
assert body == result["structuredContent"], tool
print("inspector:", headline[:110])'
}
answers find_deals --tool-arg kind=price_drops --tool-arg window=7d
answers find_deals --tool-arg brief=true
answers get_catalogue
answers compare_vehicles --tool-arg 'ids=["toyota-hilux-28-tdi-srv-4x4-at","ford-ranger-30-v6-td-limited-plus-4x4-at"]'
answers get_vehicle --tool-arg id=renault-kangoo-16-express-confort-mt
answers search --tool-arg query=cronos
answers fetch --tool-arg id=fiat-cronos-13-drive-mt
# The market report: its first line is the headline a journalist pastes.
run --method tools/call --tool-name get_market_report --tool-arg month=2026-10 | python3 -c '
import json, sys
result = json.load(sys.stdin)
assert not result.get("isError"), result
headline = result["content"][0]["text"]
expected = "get_market_report: " + result["structuredContent"]["data"]["headline"]["text"]
assert headline.startswith(expected) and expected.startswith("get_market_report: En octubre de 2026 "), headline
print("inspector:", headline)'

# Each refusal: exit code 5 (isError), and the server's own message printed.
refused() { # refused EXPECTED_TEXT ARGS...
  local expected=$1 out status=0
  shift
  out=$(run --method tools/call "$@" 2>&1) || status=$?
  if [ "$status" -ne 5 ]; then
    echo "inspector: $* exited $status, not 5 (an error result):" >&2
    echo "$out" >&2
    exit 1
  fi
  if ! grep -qF -- "$expected" <<<"$out"; then
    echo "inspector: $* did not print $expected:" >&2
    echo "$out" >&2
    exit 1
  fi
  if grep -q "must have required property\|must NOT have additional properties" <<<"$out"; then
    echo "inspector: $* failed output-schema validation:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "inspector: $* is refused with: $expected"
}
refused 'get_vehicle refused: no published version with id \"no-such-version\"' \
  --tool-name get_vehicle --tool-arg id=no-such-version
refused 'search_vehicles refused: invalid parameters (type: must be one of SUV, Pickup' \
  --tool-name search_vehicles --tool-arg type=suv
refused 'search_vehicles refused: invalid parameters (limit: must be a JSON integer, not' \
  --tool-name search_vehicles --tool-arg limit=abc
refused 'get_market_report refused: invalid parameters (month: must be a month written AAAA-MM' \
  --tool-name get_market_report --tool-arg month=2026-13

# The MCP App: the Inspector's probe finds the view of get_vehicle and fetch.
for tool in get_vehicle fetch; do
  run --method tools/call --tool-name "$tool" --app-info | python3 -c '
import json, sys
info = json.loads(sys.stdin.readline())
assert info["hasApp"] and info["resourceUri"] == "ui://autoprecios/vehicle.html", info
assert info["resourceMimeType"] == "text/html;profile=mcp-app", info
print("inspector:", info["toolName"], "offers the MCP App", info["resourceUri"])'
done

run --method resources/list | python3 -c '
import json, sys
resources = json.load(sys.stdin)["resources"]
assert len(resources) == 2 and all(r["mimeType"] == "text/markdown" for r in resources), resources
print("inspector: resources/list gives", ", ".join(r["uri"] for r in resources))'

# The prompts, as a host lists and fills them.
run --method prompts/list | python3 -c '
import json, sys
prompts = json.load(sys.stdin)["prompts"]
assert [p["name"] for p in prompts] == ["precio_de_un_modelo", "informe_del_mes"], prompts
assert prompts[0]["arguments"][0] == {"name": "make", "required": True,
    "description": prompts[0]["arguments"][0]["description"]}, prompts[0]
print("inspector: prompts/list gives", ", ".join(p["name"] for p in prompts))'
run --method prompts/get --prompt-name precio_de_un_modelo --prompt-args make=Peugeot model=208 | python3 -c '
import json, sys
message = json.load(sys.stdin)["messages"][0]
text = message["content"]["text"]
assert message["role"] == "user" and "Peugeot 208" in text and "get_model_prices" in text, message
print("inspector: prompts/get precio_de_un_modelo asks:", text[:80] + "...")'
# A prompt without a required argument is refused, with the server's message.
if out=$(run --method prompts/get --prompt-name precio_de_un_modelo --prompt-args make=Peugeot 2>&1); then
  echo "inspector: prompts/get without model was not refused: $out" >&2
  exit 1
fi
case "$out" in
  *"prompt precio_de_un_modelo needs the argument model"*) echo "inspector: prompts/get without model is refused with: prompt precio_de_un_modelo needs the argument model" ;;
  *) echo "inspector: prompts/get without model printed: $out" >&2; exit 1 ;;
esac

# The stateless revision: the Inspector reads server/discover and prints the
# server's identity from it, with both icons of the site's mark (it prints
# no cache hint for any method: the public 300 s hint of server/discover is
# asserted on the raw answer in tests/it/mcp.rs and tests/mcp/client_test.py).
run --protocol-era modern --method initialize | python3 -c '
import json, sys
result = json.load(sys.stdin)
assert result["protocolVersion"] == "2026-07-28", result["protocolVersion"]
info = result["serverInfo"]
types = [(i["mimeType"], i["sizes"]) for i in info["icons"]]
assert types == [("image/svg+xml", ["any"]), ("image/png", ["512x512"])], types
assert set(result["capabilities"]) == {"completions", "prompts", "resources", "tools"}, result["capabilities"]
print("inspector: server/discover (2026-07-28) names", info["title"], "with icons", ", ".join(i["src"] for i in info["icons"]))'
