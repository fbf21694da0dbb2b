//! Edge stage, MCP transport, the JSON-RPC side: one message checked before
//! rmcp reads it, rmcp's plain-text refusals rewritten, and the JSON-RPC
//! error object that every refusal is, with its codes.

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::http::header;
use axum::response::Response;
use http_body_util::BodyExt;
use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

use crate::api::ApiError;
use crate::api::json::to_json_bytes;
use crate::edge::http::JSON;

/// JSON-RPC: the body is not JSON.
pub(super) const PARSE_ERROR: i32 = -32700;
/// JSON-RPC: not a valid request object (or a batch).
pub(super) const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC: the server's own failure.
const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC implementation-defined server error: refusals of the transport.
pub(super) const SERVER_ERROR: i32 = -32000;

/// Why a message is refused before rmcp reads it.
pub(super) struct Malformed {
    id: Option<Value>,
    code: i32,
    message: String,
}

impl Malformed {
    pub(super) fn new(id: Option<Value>, code: i32, message: impl Into<String>) -> Self {
        Malformed {
            id,
            code,
            message: message.into(),
        }
    }

    pub(super) fn into_response(self) -> Response {
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
pub(super) fn check_message(bytes: &Bytes) -> Result<Option<Value>, Malformed> {
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
pub(super) async fn as_json_rpc(response: Response, id: Option<Value>) -> Response {
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

/// A transport refusal; `api` puts the API's error body in `error.data`.
pub(super) fn refusal(status: StatusCode, message: &str, api: Option<&ApiError>) -> Response {
    let data = api.and_then(|err| serde_json::to_value(err.body()).ok());
    jsonrpc_error(status, None, SERVER_ERROR, message, data)
}

/// A JSON-RPC error response (`id` null when the request's is unknown).
pub(super) fn jsonrpc_error(
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
