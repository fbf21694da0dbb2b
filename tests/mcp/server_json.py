"""The MCP Registry entry a tree publishes (/server.json) against the
registry's published schema, version 2025-12-11, vendored byte for byte in
../shared/vendor/mcp-registry/ (draft-07), with format checks on.

- the tree's own entry is valid, and names the tree's /mcp as its one
  streamable-http remote, with the server's name, title and version as
  `initialize` says them (checked against a running edge when BASE is given);
- the same entry for a public https site, with its icon, is valid;
- the vendored valid examples are valid (the validator reads the schema);
- planted entries the registry refuses are refused: a name outside its
  pattern (no namespace, two slashes, a space), a description over 100
  characters, a missing version. (`latest` and version ranges pass the
  schema and are refused by `generate --strict`: api::identity's tests.)

Usage: python3 tests/mcp/server_json.py TREE_PUBLIC_DIR VENDOR_DIR [BASE]
"""

import copy
import json
import pathlib
import sys
import urllib.request

import jsonschema


def main(public, vendor, base=None):
    vendor = pathlib.Path(vendor)
    schema = json.loads((vendor / "server.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    problems = []

    def check(entry, valid, what):
        errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(entry)]
        if valid and errors:
            problems.append(f"{what}: refused: {errors}")
        if not valid and not errors:
            problems.append(f"{what}: accepted")

    entry = json.loads((pathlib.Path(public) / "server.json").read_text())
    check(entry, True, "the tree's server.json")
    remotes = entry.get("remotes", [])
    if len(remotes) != 1 or remotes[0]["type"] != "streamable-http" or not remotes[0]["url"].endswith("/mcp"):
        problems.append(f"remotes: {remotes}")
    if entry.get("$schema") != schema["$id"]:
        problems.append(f"$schema {entry.get('$schema')} is not {schema['$id']}")
    for example in sorted((vendor / "examples").glob("*.json")):
        check(json.loads(example.read_text()), True, example.name)

    public_entry = copy.deepcopy(entry)
    public_entry["websiteUrl"] = "https://precios.example.com"
    public_entry["remotes"] = [{"type": "streamable-http", "url": "https://precios.example.com/mcp"}]
    public_entry["icons"] = [{"src": "https://precios.example.com/assets/favicon.12345678.svg",
                              "mimeType": "image/svg+xml", "sizes": ["any"]}]
    check(public_entry, True, "a public https entry")
    for name in ["autoprecios", "io.github.a/b/c", "io.github.a b/c", "x"]:
        planted = copy.deepcopy(entry)
        planted["name"] = name
        check(planted, False, f"name {name!r}")
    planted = copy.deepcopy(entry)
    planted["description"] = "x" * 101
    check(planted, False, "a description of 101 characters")
    planted = copy.deepcopy(entry)
    del planted["version"]
    check(planted, False, "no version")

    if base:
        request = urllib.request.Request(
            f"{base}/mcp",
            data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "server-json-check", "version": "1"}}}).encode(),
            headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            body = reply.read().decode()
        payload = json.loads(body[body.index("{"):body.rindex("}") + 1])
        info = payload["result"]["serverInfo"]
        if (info.get("title"), info.get("version")) != (entry["title"], entry["version"]):
            problems.append(f"initialize says {info}, server.json {entry['title']} {entry['version']}")
        if not entry["name"].endswith("/" + info["name"]):
            problems.append(f"the registry name {entry['name']} does not end with {info['name']}")

    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"ok  server.json: {entry['name']} {entry['version']} valid against the registry schema; planted refusals refused")


if __name__ == "__main__":
    main(*sys.argv[1:4])
