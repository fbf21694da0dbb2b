//! The MCP endpoint `/mcp` through `app(state).oneshot(...)`, no socket: the
//! transport rules (body limit, Origin, methods, malformed JSON-RPC) and both
//! protocol eras here; the tools against the HTTP API's own answers and the
//! resources against the tree's Markdown files in `tools`.

mod prompts;
mod tools;

use autoprecios::api::links::percent_encode;
use autoprecios::edge::App;
use autoprecios::edge::mcp::{MAX_BODY_BYTES, McpOptions};
use autoprecios::edge::{AppOptions, AppState, app, app_with};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::harness::BASE;
use crate::harness::{Reply, copy_tree, edge_vehicles, fixture, get, get_json, send_app, state};

/// Headers every well-behaved Streamable HTTP client sends with a POST
/// (HTTP/1.1 requires `Host`; rmcp answers 400 without it), as a client of
/// the 2025-11-25 revision sends them after `initialize`.
const CLIENT_HEADERS: [(&str, &str); 4] = [
    ("host", "127.0.0.1:8080"),
    ("content-type", "application/json"),
    ("accept", "application/json, text/event-stream"),
    ("mcp-protocol-version", "2025-11-25"),
];

/// The same without a protocol version header: an early (2024-11-05 or
/// 2025-03-26) client.
const EARLY_HEADERS: [(&str, &str); 3] = [
    ("host", "127.0.0.1:8080"),
    ("content-type", "application/json"),
    ("accept", "application/json, text/event-stream"),
];

async fn send_with(app: App, method: Method, body: Vec<u8>, headers: &[(&str, &str)]) -> Reply {
    send_app(app, method, "/mcp", body, headers).await
}

/// POSTs raw bytes with the client headers, `extra` ones replacing those
/// of the same name.
pub async fn post_raw(body: Vec<u8>, extra: &[(&str, &str)]) -> Reply {
    let headers: Vec<(&str, &str)> = CLIENT_HEADERS
        .iter()
        .filter(|(name, _)| !extra.iter().any(|(other, _)| other == name))
        .chain(extra)
        .copied()
        .collect();
    send_with(app(state()), Method::POST, body, &headers).await
}

/// POSTs a message as a client of an early revision (or one that has not
/// initialized yet) sends it: without `MCP-Protocol-Version`.
pub async fn post_early(message: Value) -> Reply {
    send_with(
        app(state()),
        Method::POST,
        message.to_string().into_bytes(),
        &EARLY_HEADERS,
    )
    .await
}

/// POSTs one JSON-RPC message.
pub async fn post(message: Value) -> Reply {
    post_raw(message.to_string().into_bytes(), &[]).await
}

/// The `result` of a JSON-RPC request answered with 200.
pub async fn rpc(method: &str, params: Value) -> Value {
    let reply = post(json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert_eq!(reply.header("content-type"), "application/json");
    let body = reply.json();
    assert_eq!(body["id"], 7);
    assert!(body.get("error").is_none(), "{body}");
    body["result"].clone()
}

pub async fn call_tool(name: &str, arguments: Value) -> Value {
    rpc("tools/call", json!({"name": name, "arguments": arguments})).await
}

/// The JSON-RPC `error` of a refused message, checking the HTTP status.
pub fn rpc_error(reply: &Reply, status: StatusCode) -> Value {
    assert_eq!(
        reply.status,
        status,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert_eq!(reply.header("content-type"), "application/json");
    let body = reply.json();
    assert_eq!(body["jsonrpc"], "2.0");
    body["error"].clone()
}

fn ping() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
}

/// `message` padded with trailing spaces to exactly `size` bytes.
fn padded(message: &Value, size: usize) -> Vec<u8> {
    let mut bytes = message.to_string().into_bytes();
    bytes.resize(size, b' ');
    bytes
}

#[tokio::test]
async fn bodies_over_32_kib_are_413_and_32_kib_is_served() {
    let exact = padded(&ping(), MAX_BODY_BYTES);
    let reply = post_raw(exact, &[]).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "exactly 32 KiB is not too large"
    );
    for declared in [true, false] {
        let over = padded(&ping(), MAX_BODY_BYTES + 1);
        let length = over.len().to_string();
        let headers: &[(&str, &str)] = if declared {
            &[("content-length", &length)]
        } else {
            &[]
        };
        let reply = post_raw(over, headers).await;
        let error = rpc_error(&reply, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(error["data"]["error"]["code"], "payload_too_large");
        assert_eq!(reply.header("cache-control"), "no-store");
    }
}

#[tokio::test]
async fn the_origin_rule_allows_none_the_own_and_configured_ones() {
    let with_origin = |origin: &'static str| [("origin", origin)];
    assert_eq!(post(ping()).await.status, StatusCode::OK, "no Origin");
    let own = post_raw(ping().to_string().into_bytes(), &with_origin(BASE)).await;
    assert_eq!(own.status, StatusCode::OK, "the site's own origin");
    assert_eq!(own.header("access-control-allow-origin"), BASE);
    for foreign in ["https://evil.example", "http://autoprecios.example", "null"] {
        let reply = post_raw(ping().to_string().into_bytes(), &with_origin(foreign)).await;
        rpc_error(&reply, StatusCode::FORBIDDEN);
        assert_eq!(reply.header("access-control-allow-origin"), "", "{foreign}");
    }
    let options = AppOptions {
        mcp: McpOptions {
            allowed_origins: vec!["http://localhost:5173".to_owned()],
        },
        ..AppOptions::default()
    };
    let headers: Vec<(&str, &str)> = CLIENT_HEADERS
        .iter()
        .copied()
        .chain([("origin", "http://localhost:5173")])
        .collect();
    let body = ping().to_string().into_bytes();
    let configured = send_with(app_with(state(), &options), Method::POST, body, &headers).await;
    assert_eq!(configured.status, StatusCode::OK, "a configured origin");
    let preflight = send_with(
        app_with(state(), &options),
        Method::OPTIONS,
        Vec::new(),
        &[
            ("origin", "http://localhost:5173"),
            ("access-control-request-method", "POST"),
        ],
    )
    .await;
    assert_eq!(preflight.status, StatusCode::NO_CONTENT);
    assert_eq!(
        preflight.header("access-control-allow-methods"),
        "POST, OPTIONS"
    );
}

#[tokio::test]
async fn get_and_other_methods_are_405() {
    for method in [Method::GET, Method::DELETE, Method::PUT, Method::HEAD] {
        let reply = send_with(app(state()), method.clone(), Vec::new(), &[]).await;
        assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert_eq!(reply.header("allow"), "POST, OPTIONS", "{method}");
    }
    let error = rpc_error(&get("/mcp").await, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(error["data"]["error"]["code"], "method_not_allowed");
}

#[tokio::test]
async fn malformed_messages_are_json_rpc_errors() {
    let bad_json = post_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1,".to_vec(), &[]).await;
    let error = rpc_error(&bad_json, StatusCode::BAD_REQUEST);
    assert_eq!(error["code"], -32700);
    assert_eq!(bad_json.json()["id"], Value::Null);

    let version = post(json!({"jsonrpc": "1.0", "id": 3, "method": "ping"})).await;
    assert_eq!(rpc_error(&version, StatusCode::BAD_REQUEST)["code"], -32600);
    assert_eq!(version.json()["id"], 3, "the id is echoed when readable");

    for message in [
        json!([ping(), ping()]),
        json!("ping"),
        json!({"jsonrpc": "2.0", "id": 4}),
    ] {
        let reply = post(message.clone()).await;
        assert_eq!(
            rpc_error(&reply, StatusCode::BAD_REQUEST)["code"],
            -32600,
            "{message}"
        );
    }

    let unknown = post(json!({"jsonrpc": "2.0", "id": 5, "method": "no/such"})).await;
    assert_eq!(unknown.json()["error"]["code"], -32601, "unknown method");
    assert_eq!(unknown.json()["id"], 5);

    let reply = post(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": {"name": "no_such_tool", "arguments": {}}}))
    .await;
    assert_eq!(reply.json()["error"]["code"], -32602, "unknown tool");

    let send_accepting = |accept: Option<&'static str>| {
        let mut headers = vec![
            ("host", "127.0.0.1:8080"),
            ("content-type", "application/json"),
        ];
        headers.extend(accept.map(|accept| ("accept", accept)));
        let body = ping().to_string().into_bytes();
        async move { send_with(app(state()), Method::POST, body, &headers).await }
    };
    for accept in [None, Some("*/*"), Some("application/json")] {
        let reply = send_accepting(accept).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "a client taking JSON, Accept {accept:?}"
        );
    }
    rpc_error(
        &send_accepting(Some("text/html")).await,
        StatusCode::NOT_ACCEPTABLE,
    );
    let unsupported = send_with(
        app(state()),
        Method::POST,
        ping().to_string().into_bytes(),
        &[
            ("host", "127.0.0.1:8080"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2023-01-01"),
        ],
    )
    .await;
    rpc_error(&unsupported, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn early_revisions_take_batches_and_get_no_structured_results() {
    let id = edge_vehicles()[0]["id"].as_str().expect("id");
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_vehicle", "arguments": {"id": id}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "no/such"},
    ]);
    let reply = post_early(batch).await;
    assert_eq!(reply.status, StatusCode::OK);
    let answers = reply.json();
    let ids: Vec<&Value> = answers
        .as_array()
        .expect("an array")
        .iter()
        .map(|a| &a["id"])
        .collect();
    assert_eq!(
        ids,
        [1, 2, 3],
        "one answer per request, none for the notification"
    );
    let result = &answers[0]["result"];
    assert!(result.get("structuredContent").is_none(), "{result}");
    let expected = get_json(&format!("/api/v1/vehicles/{}", percent_encode(id))).await;
    let text: Value =
        serde_json::from_str(result["content"][1]["text"].as_str().expect("JSON text"))
            .expect("JSON");
    assert_eq!(text, expected, "the JSON text carries the answer");
    let tools = answers[1]["result"]["tools"].as_array().expect("tools");
    assert!(
        tools
            .iter()
            .all(|tool| tool.get("outputSchema").is_none() && tool.get("title").is_none())
    );
    assert_eq!(answers[2]["error"]["code"], -32601);
    // Notifications only: 202, as for one.
    let notes = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    let reply = post_early(notes).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
}

#[tokio::test]
async fn initialize_negotiates_without_a_session_and_notifications_get_202() {
    // `initialize` comes before a client knows the version to send.
    let post = post_early;
    let initialize = |version: &str| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}})
    };
    let reply = post(initialize("2025-06-18")).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("mcp-session-id"), "", "stateless: no session");
    let result = reply.json()["result"].clone();
    assert_eq!(
        result["protocolVersion"], "2025-06-18",
        "a supported version is echoed"
    );
    assert_eq!(result["serverInfo"]["name"], "autoprecios");
    assert!(
        result["capabilities"]["tools"].is_object()
            && result["capabilities"]["resources"].is_object()
    );
    for early in ["2024-11-05", "2025-03-26"] {
        let reply = post(initialize(early)).await.json();
        assert_eq!(reply["result"]["protocolVersion"], early, "echoed");
    }
    let unknown = post(initialize("2023-01-01")).await.json();
    assert_eq!(
        unknown["result"]["protocolVersion"], "2025-11-25",
        "the newest with a handshake"
    );

    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = post(notification).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty());
}

#[tokio::test]
async fn the_stateless_revision_is_served_without_initialize() {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    });
    let discover =
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "server/discover"),
    ];
    let reply = post_raw(discover.to_string().into_bytes(), &headers).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    // The description is cached like the lists, and names the server as
    // its registry entry does, with the site's mark.
    let result = reply.json()["result"].clone();
    assert_eq!(result["ttlMs"], 300_000, "{result}");
    assert_eq!(result["cacheScope"], "public", "{result}");
    let entry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(crate::harness::fixture().public.join("server.json")).expect("server.json"),
    )
    .expect("JSON");
    let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(info["title"], entry["title"], "{result}");
    assert_eq!(info["version"], entry["version"], "{result}");
    let icon = info["icons"][0]["src"].as_str().expect("an icon");
    assert!(icon.contains("/assets/favicon."), "{icon}");
    assert_eq!(info["icons"][0]["mimeType"], "image/svg+xml");
    let versions = reply.json()["result"]["supportedVersions"].clone();
    assert_eq!(
        versions,
        json!([
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ])
    );

    let id = edge_vehicles()[0]["id"].as_str().expect("id");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "get_vehicle", "arguments": {"id": id}, "_meta": meta}});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "get_vehicle"),
    ];
    let reply = post_raw(call.to_string().into_bytes(), &headers).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let expected = get_json(&format!("/api/v1/vehicles/{}", percent_encode(id))).await;
    assert_eq!(reply.json()["result"]["structuredContent"], expected);
}

#[tokio::test]
async fn a_broken_invariant_is_an_internal_error_over_http_and_mcp_not_a_lost_answer() {
    // The records file changed under the loaded tree (a tree is never
    // rewritten in place): reading a record breaks an invariant. HTTP's
    // guard answers a JSON 500; MCP's must answer too, with the protocol's
    // internal error, not leave the client waiting.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    copy_tree(&fixture().out, &out);
    let state = AppState::load(&out).expect("load the copy");
    let records = std::fs::canonicalize(out.join("_edge/records.jsonl")).expect("records");
    std::fs::File::options()
        .write(true)
        .open(&records)
        .and_then(|file| file.set_len(0))
        .expect("truncate the records");
    let id = edge_vehicles()[0]["id"].as_str().expect("an ID");
    let reply = send_app(
        app(state.clone()),
        Method::GET,
        &format!("/api/v1/vehicles/{id}"),
        Vec::new(),
        &[],
    )
    .await;
    assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(reply.json()["error"]["code"], "internal_error");
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "get_vehicle", "arguments": {"id": id}}});
    let reply = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        send_with(
            app(state),
            Method::POST,
            call.to_string().into_bytes(),
            &CLIENT_HEADERS,
        ),
    )
    .await
    .expect("an answer, not a wait");
    let body = reply.json();
    assert_eq!(body["id"], 3, "{body}");
    assert_eq!(body["error"]["code"], -32603, "{body}");
    assert_eq!(body["error"]["message"], "internal error", "{body}");
}
