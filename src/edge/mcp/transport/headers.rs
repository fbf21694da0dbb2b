//! Edge stage, MCP transport, what the headers say: the protocol revision
//! asked for (refused when unsupported, and whether it takes batches), the
//! declared length, the `Accept` rmcp checks, the CORS preflight's answer
//! and the headers of every answer.

use axum::body::Body;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::response::Response;
use rmcp::ErrorData;
use rmcp::model::ProtocolVersion;
use serde_json::Value;

use super::message::jsonrpc_error;
use crate::edge::http::CACHE_ERROR;
use crate::edge::mcp::server::SUPPORTED_VERSIONS;

/// Methods `/mcp` answers.
pub(super) const ALLOWED_METHODS: &str = "POST, OPTIONS";
/// Request headers a browser page may send (unless it asks for others).
const ALLOWED_HEADERS: &str = "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name";

/// Whether the request's protocol revision has JSON-RPC batches: 2024-11-05
/// and 2025-03-26 (a request without `MCP-Protocol-Version` is one of
/// them); 2025-06-18 removed them.
pub(super) fn takes_batches(headers: &HeaderMap) -> bool {
    matches!(
        headers
            .get("mcp-protocol-version")
            .map(|value| value.as_bytes()),
        None | Some(b"2024-11-05" | b"2025-03-26")
    )
}

/// The `Content-Length` a client declared, if any.
pub(super) fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// A 400 for an `MCP-Protocol-Version` this server does not speak (rmcp
/// itself only refuses versions it has never heard of).
pub(super) fn unsupported_version(headers: &HeaderMap) -> Option<Response> {
    let value = headers.get("mcp-protocol-version")?;
    let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
    if SUPPORTED_VERSIONS
        .iter()
        .any(|version| version.as_str() == text)
    {
        return None;
    }
    let requested: ProtocolVersion = serde_json::from_value(Value::String(text.clone()))
        .unwrap_or(ProtocolVersion::V_2025_03_26);
    let error = ErrorData::unsupported_protocol_version(requested, &SUPPORTED_VERSIONS);
    let message = format!("unsupported MCP-Protocol-Version {text:?}");
    let data = error.data;
    Some(jsonrpc_error(
        StatusCode::BAD_REQUEST,
        None,
        error.code.0,
        &message,
        data,
    ))
}

/// Lets a client that takes JSON through rmcp's `Accept` check (which wants
/// both `application/json` and `text/event-stream` listed): every answer
/// here is one JSON object, so `*/*`, `application/*` or no `Accept` at all
/// (plain `curl`) is served too. A client that takes no JSON still gets 406.
pub(super) fn accept_json(headers: &mut HeaderMap) {
    let takes_json = match headers.get(header::ACCEPT) {
        None => true,
        Some(accept) => String::from_utf8_lossy(accept.as_bytes())
            .split(',')
            .map(|range| {
                range
                    .split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase()
            })
            .any(|essence| {
                matches!(
                    essence.as_str(),
                    "*/*" | "application/*" | "application/json"
                )
            }),
    };
    if takes_json {
        headers.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
    }
}

/// The answer to a CORS preflight (the Origin is already known to be allowed).
pub(super) fn preflight(headers: &HeaderMap) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    // Mcp-Param-* headers carry tool argument names, so the list cannot be
    // fixed: a page may send what it asks for.
    let requested = headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
        .unwrap_or(HeaderValue::from_static(ALLOWED_HEADERS));
    let out = response.headers_mut();
    out.insert(header::ALLOW, HeaderValue::from_static(ALLOWED_METHODS));
    out.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(ALLOWED_METHODS),
    );
    out.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, requested);
    out.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    response
}

/// Headers of every `/mcp` answer: never cached (POST answers and errors),
/// no MIME sniffing, and CORS for an allowed browser origin.
pub(super) fn finish(mut response: Response, origin: Option<HeaderValue>) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_ERROR));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Some(origin) = origin {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
    response
}
