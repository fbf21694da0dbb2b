//! Edge stage, MCP transport: the HTTP side of `/mcp` in front of rmcp's
//! stateless Streamable HTTP service. In order, before any work: the Origin
//! rule (403), the method (POST; OPTIONS for CORS preflights; anything else
//! 405), an unsupported `MCP-Protocol-Version` (400), the 32 KiB body limit
//! (413, on the declared length and again while reading), then one JSON-RPC
//! message (parse error -32700, malformed message -32600, HTTP 400), or, for
//! the revisions that had them (2024-11-05, 2025-03-26), a batch of them,
//! each answered as if sent alone.
//! Every refusal, ours or rmcp's plain-text ones, is a JSON-RPC error object
//! with `Content-Type: application/json`, which MCP clients surface as is.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use rmcp::ErrorData;
use rmcp::model::{ClientJsonRpcMessage, ProtocolVersion};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use serde_json::{Value, json};

use crate::api::ApiError;
use crate::api::json::to_json_bytes;
use crate::edge::http::{CACHE_ERROR, JSON, REQUEST_TIMEOUT};
use crate::edge::mcp::origin;
use crate::edge::mcp::server::{McpServer, SUPPORTED_VERSIONS};
use crate::edge::state::AppState;

/// Largest request body, in bytes (spec: 32 KiB).
pub const MAX_BODY_BYTES: usize = 32 * 1024;
/// Methods `/mcp` answers.
const ALLOWED_METHODS: &str = "POST, OPTIONS";
/// Request headers a browser page may send (unless it asks for others).
const ALLOWED_HEADERS: &str = "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name";

/// JSON-RPC: the body is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC: not a valid request object (or a batch).
const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC: the server's own failure.
const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC implementation-defined server error: refusals of the transport.
const SERVER_ERROR: i32 = -32000;

/// Everything a `/mcp` request needs: the site, the extra allowed origins
/// and rmcp's service.
#[derive(Clone)]
pub struct Endpoint {
    state: AppState,
    allowed_origins: Arc<[String]>,
    service: StreamableHttpService<McpServer, NeverSessionManager>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("allowed_origins", &self.allowed_origins)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// The endpoint over `state`, allowing the site's own origin and
    /// `allowed_origins` (canonical forms).
    pub fn new(state: AppState, allowed_origins: Vec<String>) -> Self {
        let factory_state = state.clone();
        let config = rmcp::transport::StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_max_request_body_bytes(MAX_BODY_BYTES)
            // Checked here instead: the own origin follows reloads, and
            // rmcp's list is fixed at start.
            .disable_allowed_origins()
            // The Host check guards servers on a private machine against DNS
            // rebinding. This one is public, read-only and credential-free,
            // and runs behind a CDN whose Host we cannot know; the Origin
            // check covers browsers.
            .disable_allowed_hosts();
        let service = StreamableHttpService::new(
            move || Ok(McpServer::new(factory_state.clone())),
            Arc::new(NeverSessionManager::default()),
            config,
        );
        Endpoint {
            state,
            allowed_origins: allowed_origins.into(),
            service,
        }
    }
}

/// The `/mcp` handler, for every method.
pub async fn handle(State(endpoint): State<Endpoint>, request: Request) -> Response {
    let origin = request.headers().get(header::ORIGIN).cloned();
    if let Some(origin) = &origin {
        let site = endpoint.state.site();
        let base = site.index().links().base();
        let host = request
            .headers()
            .get(header::HOST)
            .map(HeaderValue::as_bytes);
        if !origin::is_allowed(origin.as_bytes(), base, &endpoint.allowed_origins, host) {
            let response = refusal(
                StatusCode::FORBIDDEN,
                "forbidden: this Origin may not use the MCP endpoint",
                None,
            );
            return finish(response, None);
        }
    }
    let response = match *request.method() {
        Method::POST => post(&endpoint, request).await,
        Method::OPTIONS => preflight(request.headers()),
        _ => {
            let mut response = refusal(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: send JSON-RPC messages with POST",
                Some(&ApiError::MethodNotAllowed),
            );
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static(ALLOWED_METHODS));
            response
        }
    };
    finish(response, origin)
}

/// A POSTed message: checked, then answered by rmcp.
async fn post(endpoint: &Endpoint, request: Request) -> Response {
    if declared_length(request.headers()).is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return too_large();
    }
    if let Some(response) = unsupported_version(request.headers()) {
        return response;
    }
    let (mut parts, body) = request.into_parts();
    accept_json(&mut parts.headers);
    let bytes = match Limited::new(body, MAX_BODY_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.is::<LengthLimitError>() => return too_large(),
        Err(err) => {
            let message = format!("could not read the request body: {err}");
            return jsonrpc_error(
                StatusCode::BAD_REQUEST,
                None,
                INVALID_REQUEST,
                &message,
                None,
            );
        }
    };
    if bytes.first() == Some(&b'[') && takes_batches(&parts.headers) {
        return batch(endpoint, parts, &bytes).await;
    }
    answer_one(endpoint, parts, bytes).await
}

/// Whether the request's protocol revision has JSON-RPC batches: 2024-11-05
/// and 2025-03-26 (a request without `MCP-Protocol-Version` is one of
/// them); 2025-06-18 removed them.
fn takes_batches(headers: &HeaderMap) -> bool {
    matches!(
        headers
            .get("mcp-protocol-version")
            .map(|value| value.as_bytes()),
        None | Some(b"2024-11-05" | b"2025-03-26")
    )
}

/// A batch of an early revision: each message answered on its own, as one
/// request would be, the answers in one JSON array (notifications have
/// none; a batch of notifications only is a 202 with no body).
async fn batch(endpoint: &Endpoint, parts: axum::http::request::Parts, bytes: &Bytes) -> Response {
    let messages = match serde_json::from_slice::<Vec<Value>>(bytes) {
        Ok(messages) if !messages.is_empty() => messages,
        Ok(_) => {
            let message = "invalid request: an empty batch";
            return Malformed::new(None, INVALID_REQUEST, message).into_response();
        }
        Err(err) => {
            let message = format!("parse error: {err}");
            return Malformed::new(None, PARSE_ERROR, message).into_response();
        }
    };
    let mut answers = Vec::with_capacity(messages.len());
    for message in messages {
        let one = Bytes::from(to_json_bytes(&message));
        let response = answer_one(endpoint, parts.clone(), one).await;
        if response.status() == StatusCode::ACCEPTED {
            continue;
        }
        let body = match response.into_body().collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(_) => continue,
        };
        if let Ok(answer) = serde_json::from_slice::<Value>(&body) {
            answers.push(answer);
        }
    }
    if answers.is_empty() {
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::ACCEPTED;
        return response;
    }
    crate::edge::http::bytes_response(
        StatusCode::OK,
        JSON,
        to_json_bytes(&Value::Array(answers)),
        false,
    )
}

/// One JSON-RPC message: checked, then answered by rmcp.
async fn answer_one(
    endpoint: &Endpoint,
    parts: axum::http::request::Parts,
    bytes: Bytes,
) -> Response {
    let id = match check_message(&bytes) {
        Ok(id) => id,
        Err(malformed) => return malformed.into_response(),
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    match tokio::time::timeout(REQUEST_TIMEOUT, endpoint.service.handle(request)).await {
        Ok(response) => as_json_rpc(response.map(Body::new), id).await,
        Err(_) => {
            tracing::warn!(
                timeout_secs = REQUEST_TIMEOUT.as_secs(),
                "MCP request timed out"
            );
            let message = "the request took too long; retry";
            jsonrpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                id,
                SERVER_ERROR,
                message,
                None,
            )
        }
    }
}

/// The `Content-Length` a client declared, if any.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
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
fn unsupported_version(headers: &HeaderMap) -> Option<Response> {
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
fn accept_json(headers: &mut HeaderMap) {
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

/// Why a message is refused before rmcp reads it.
struct Malformed {
    id: Option<Value>,
    code: i32,
    message: String,
}

impl Malformed {
    fn new(id: Option<Value>, code: i32, message: impl Into<String>) -> Self {
        Malformed {
            id,
            code,
            message: message.into(),
        }
    }

    fn into_response(self) -> Response {
        jsonrpc_error(
            StatusCode::BAD_REQUEST,
            self.id,
            self.code,
            &self.message,
            None,
        )
    }
}

/// One JSON-RPC message that rmcp can read, or why not. Returns the
/// request's `id` for errors met later.
fn check_message(bytes: &Bytes) -> Result<Option<Value>, Malformed> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|err| Malformed::new(None, PARSE_ERROR, format!("parse error: {err}")))?;
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned();
    match &value {
        Value::Array(_) => Err(Malformed::new(
            None,
            INVALID_REQUEST,
            "JSON-RPC batches ended with protocol revision 2025-06-18: send one message per \
             request",
        )),
        Value::Object(message) if message.get("jsonrpc") != Some(&json!("2.0")) => {
            let message = "invalid request: \"jsonrpc\" must be \"2.0\"";
            Err(Malformed::new(id, INVALID_REQUEST, message))
        }
        Value::Object(_) => match serde_json::from_value::<ClientJsonRpcMessage>(value) {
            Ok(_) => Ok(id),
            Err(err) => {
                let message = format!("invalid request: {err}");
                Err(Malformed::new(id, INVALID_REQUEST, message))
            }
        },
        _ => Err(Malformed::new(
            None,
            INVALID_REQUEST,
            "invalid request: a JSON-RPC message is a JSON object",
        )),
    }
}

/// rmcp's answer, with its plain-text refusals (406 without the required
/// `Accept`, 415 without a JSON `Content-Type`, ...) rewritten as JSON-RPC
/// errors under the same status.
async fn as_json_rpc(response: Response, id: Option<Value>) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with(JSON) || value.starts_with("text/event-stream"));
    if status.is_success() || is_json {
        return response;
    }
    let text = match response.into_body().collect().await {
        Ok(collected) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        Err(_) => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    let code = match status {
        StatusCode::BAD_REQUEST => INVALID_REQUEST,
        status if status.is_server_error() => INTERNAL_ERROR,
        _ => SERVER_ERROR,
    };
    if status.is_server_error() {
        tracing::error!(%status, text, "MCP transport failure");
    }
    jsonrpc_error(status, id, code, &text, None)
}

/// The answer to a CORS preflight (the Origin is already known to be allowed).
fn preflight(headers: &HeaderMap) -> Response {
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

fn too_large() -> Response {
    let message = format!("request body too large: the limit is {MAX_BODY_BYTES} bytes");
    refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        &message,
        Some(&ApiError::PayloadTooLarge),
    )
}

/// A transport refusal; `api` puts the API's error body in `error.data`.
fn refusal(status: StatusCode, message: &str, api: Option<&ApiError>) -> Response {
    let data = api.and_then(|err| serde_json::to_value(err.body()).ok());
    jsonrpc_error(status, None, SERVER_ERROR, message, data)
}

/// A JSON-RPC error response (`id` null when the request's is unknown).
fn jsonrpc_error(
    status: StatusCode,
    id: Option<Value>,
    code: i32,
    message: &str,
    data: Option<Value>,
) -> Response {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    let body = json!({ "jsonrpc": "2.0", "id": id.unwrap_or(Value::Null), "error": error });
    crate::edge::http::bytes_response(status, JSON, to_json_bytes(&body), false)
}

/// Headers of every `/mcp` answer: never cached (POST answers and errors),
/// no MIME sniffing, and CORS for an allowed browser origin.
fn finish(mut response: Response, origin: Option<HeaderValue>) -> Response {
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
