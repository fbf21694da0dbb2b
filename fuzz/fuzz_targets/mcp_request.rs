//! Fuzz target: MCP JSON-RPC request handling, end to end through the edge
//! as it serves (its shortcut, then the router; `POST /mcp`: the
//! transport's checks, rmcp's parsing, the tools' argument checks and
//! answers) over a real generated tree. Whatever the body, the answer is a
//! client error or a JSON-RPC answer in JSON: never a panic, never a 5xx.
//!
//! The first byte picks the shape: a raw body, or (most of the time) a
//! `tools/call` of one of the tools with the rest as its `arguments`, so
//! that mutations reach the argument checks instead of the JSON parser.
//! The tree comes from `AUTOPRECIOS_FUZZ_TREE` (fuzz/run.sh builds one).

#![no_main]

use std::sync::OnceLock;

use autoprecios::edge::App;
use autoprecios::edge::mcp::tools::tools;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

struct Harness {
    runtime: tokio::runtime::Runtime,
    app: App,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let (runtime, app) = autoprecios_fuzz::edge_over_tree();
        Harness { runtime, app }
    })
}

/// The request body for `data`.
fn body(data: &[u8]) -> Vec<u8> {
    let Some((&shape, rest)) = data.split_first() else {
        return Vec::new();
    };
    let tools = tools();
    if usize::from(shape) >= tools.len() * 8 {
        return rest.to_vec();
    }
    let name = &tools[usize::from(shape) % tools.len()].tool.name;
    let arguments = String::from_utf8_lossy(rest);
    format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}

fuzz_target!(|data: &[u8]| {
    let harness = harness();
    let request = Request::post("/mcp")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(Body::from(body(data)))
        .expect("request");
    harness.runtime.block_on(async {
        let response = harness
            .app
            .clone()
            .oneshot(request)
            .await
            .expect("infallible");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        assert!(
            !status.is_server_error(),
            "{status}: {}",
            String::from_utf8_lossy(&bytes)
        );
        if status != StatusCode::ACCEPTED && !bytes.is_empty() {
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|err| panic!("{status}: not JSON ({err}): {bytes:?}"));
        }
    });
});
