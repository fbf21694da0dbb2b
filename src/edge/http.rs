//! Edge stage, HTTP: building responses (an answer's bytes with their
//! ETag, the spec's error bodies, a panic's 500). What every site request
//! passes on its way in and out is the policy's (`edge::policy`).

use std::any::Any;
use std::time::Duration;

use axum::body::Body;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::Response;

use crate::api::error::{ApiError, ErrorBody, ErrorObject};
use crate::api::json::{etag, to_json_bytes};
use crate::edge::answers::Answer;

/// Content type of every API response.
pub use crate::headers::JSON;
/// Methods the site answers (the `Allow` header of 405s and preflights):
/// those of every API operation.
pub const ALLOWED_METHODS: &str = crate::api::operations::METHODS;
pub use crate::headers::{CACHE_ERROR, CACHE_SUCCESS, SECURITY_HEADERS};
/// Longest a request may take before the client gets a 503 to retry: under
/// the CDN proxy's own 26-second limit, so the client sees our JSON error.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// A 200 with an answer's bytes, content type and ETag as they are. The
/// answer rides along in the response's extensions, so the policy can send
/// its gzip form instead (`compress`).
pub fn answer_response(answer: Answer) -> Response {
    let length = answer.bytes.len();
    let mut response = Response::new(Body::from(answer.bytes.clone()));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, answer.content_type.clone());
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    headers.insert(header::ETAG, answer.etag.clone());
    if answer.compressible() {
        response.extensions_mut().insert(answer);
    }
    response
}

impl axum::response::IntoResponse for Answer {
    fn into_response(self) -> Response {
        answer_response(self)
    }
}

impl axum::response::IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error_response(&self)
    }
}

/// The spec's error response for `err` (405s also carry `Allow`).
pub fn error_response(err: &ApiError) -> Response {
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = bytes_response(status, JSON, to_json_bytes(&err.body()), false);
    if matches!(err, ApiError::MethodNotAllowed) {
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(ALLOWED_METHODS));
    }
    response
}

/// An error the API enum does not cover (the server's own failures), in the
/// spec's error body shape; the cause is logged by the caller, never sent.
pub fn server_error_response(status: StatusCode, code: &'static str, message: &str) -> Response {
    let body = ErrorBody {
        error: ErrorObject {
            code,
            message: message.to_owned(),
            details: None,
        },
    };
    bytes_response(status, JSON, to_json_bytes(&body), false)
}

/// Answer to a panicking handler: a JSON 500, the panic logged.
pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    tracing::error!(panic = panic_message(&*panic), "handler panicked");
    server_error_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal_error",
        "internal error",
    )
}

/// What a panic said, for the log.
pub fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic")
}

/// A response with `bytes`, its content type and length, and (for a
/// successful representation) its strong ETag.
pub fn bytes_response(
    status: StatusCode,
    content_type: &str,
    bytes: Vec<u8>,
    with_etag: bool,
) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CONTENT_LENGTH, bytes.len());
    if with_etag {
        builder = builder.header(header::ETAG, etag(&bytes));
    }
    builder.body(Body::from(bytes)).unwrap_or_else(|err| {
        // Only an invalid content type from a corrupt manifest can get here.
        tracing::error!(%err, content_type, "building a response");
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        response
    })
}
