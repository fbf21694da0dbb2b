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
use axum::http::header::{self, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use serde_json::Value;

mod headers;
mod message;

use crate::api::ApiError;
use crate::api::json::to_json_bytes;
use crate::edge::http::{JSON, REQUEST_TIMEOUT};
use crate::edge::mcp::origin;
use crate::edge::mcp::server::McpServer;
use crate::edge::state::AppState;
use headers::{
    ALLOWED_METHODS, accept_json, declared_length, finish, preflight, takes_batches,
    unsupported_version,
};
use message::{
    INVALID_REQUEST, Malformed, PARSE_ERROR, SERVER_ERROR, as_json_rpc, check_message,
    jsonrpc_error, refusal,
};

/// Largest request body, in bytes (spec: 32 KiB).
pub const MAX_BODY_BYTES: usize = 32 * 1024;

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

fn too_large() -> Response {
    let message = format!("request body too large: the limit is {MAX_BODY_BYTES} bytes");
    refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        &message,
        Some(&ApiError::PayloadTooLarge),
    )
}
