//! Edge stage, HTTP: building responses (JSON bytes with their ETag, the
//! spec's error bodies) and the policy every site request passes: the query
//! length limit, methods, CORS preflight, conditional requests, HEAD and the
//! caching and security headers.
//!
//! Why this policy is written here rather than assembled from tower-http
//! layers (checked against tower-http 0.6): its `CorsLayer` answers every
//! `OPTIONS` itself, before the spec's 4096-character limit is checked, with
//! a 200 and no `Allow`, and adds `Vary: origin, ...` to every response, which
//! would split the CDN's cache per origin for data that is the same for all;
//! its `TimeoutLayer` answers with an empty body where the spec wants its JSON
//! error; and it has no conditional-request layer for handler responses (only
//! `ServeDir`'s, by modification time). Each of the three is a few lines
//! here, in the spec's order. The panic guard is tower-http's
//! (`CatchPanicLayer`), and percent-decoding is the `percent-encoding` crate's.

use std::any::Any;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use crate::api::error::{ApiError, ErrorBody, ErrorObject};
use crate::api::json::{etag, to_json_bytes};
use crate::api::query::MAX_QUERY_CHARS;
use crate::edge::answers::Answer;
use crate::edge::ranges;

/// Content type of every API response.
pub use crate::headers::JSON;
/// Methods the site answers (the `Allow` header of 405s and preflights):
/// those of every API operation.
pub const ALLOWED_METHODS: &str = crate::api::operations::METHODS;
use crate::headers::{ASSETS_PREFIX, CACHE_IMMUTABLE};
pub use crate::headers::{CACHE_ERROR, CACHE_SUCCESS, SECURITY_HEADERS};
/// How long a browser may reuse a preflight answer, in seconds.
const PREFLIGHT_MAX_AGE: &str = "86400";
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

/// Sends a compressible answer's gzip form to a client that accepts gzip
/// (compressed once per answer, kept with it), under a weak ETag: the same
/// opaque tag, so `If-None-Match` with either form matches either (weak
/// comparison), while no cache takes the two encodings for the same bytes.
/// Every compressible answer varies by `Accept-Encoding`, whichever form a
/// client gets.
fn compress(response: &mut Response, accepts_gzip: bool) {
    let Some(answer) = response.extensions_mut().remove::<Answer>() else {
        return;
    };
    let headers = response.headers_mut();
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    let Some(gzip) = accepts_gzip.then(|| answer.gzipped()).flatten() else {
        return;
    };
    let weak = format!("W/{}", answer.etag.to_str().unwrap_or_default());
    if let Ok(weak) = HeaderValue::from_str(&weak) {
        headers.insert(header::ETAG, weak);
    }
    headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(gzip.len()));
    *response.body_mut() = Body::from(gzip);
}

/// Whether `Accept-Encoding` accepts gzip: `gzip` (or `x-gzip`, or `*`)
/// listed without `q=0`.
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("").to_ascii_lowercase();
            let refused = parts.any(|param| {
                param
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            matches!(name.as_str(), "gzip" | "x-gzip" | "*") && !refused
        })
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
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    tracing::error!(panic = message, "handler panicked");
    server_error_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal_error",
        "internal error",
    )
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

/// The policy of every site request (API and static files), in the spec's
/// order: the 4096-character query limit before anything is parsed, then
/// preflight, then methods; afterwards conditional requests, HEAD and the
/// shared headers. Handlers only ever see GET and HEAD.
pub async fn policy(request: Request, next: Next) -> Response {
    let query_chars = request
        .uri()
        .query()
        .map_or(0, |query| query.chars().count());
    let method = request.method().clone();
    let if_none_match = request.headers().get(header::IF_NONE_MATCH).cloned();
    let gzip = accepts_gzip(request.headers());
    let immutable = request.uri().path().starts_with(ASSETS_PREFIX);
    // A byte range's two headers, kept only when a range is asked.
    let mut ranged = HeaderMap::new();
    if let Some(range) = request.headers().get(header::RANGE) {
        ranged.insert(header::RANGE, range.clone());
        if let Some(condition) = request.headers().get(header::IF_RANGE) {
            ranged.insert(header::IF_RANGE, condition.clone());
        }
    }
    let mut response = if query_chars > MAX_QUERY_CHARS {
        error_response(&ApiError::UriTooLong)
    } else if method == Method::OPTIONS {
        preflight_response()
    } else if method != Method::GET && method != Method::HEAD {
        error_response(&ApiError::MethodNotAllowed)
    } else {
        match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
            Ok(response) => response,
            Err(_) => {
                tracing::warn!(
                    timeout_secs = REQUEST_TIMEOUT.as_secs(),
                    "request timed out"
                );
                server_error_response(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "timeout",
                    "the request took too long; retry",
                )
            }
        }
    };
    if response.status() == StatusCode::OK {
        compress(&mut response, gzip);
    }
    // A part of what is sent, of any answer with a validator; the body is
    // read whole only when a range is asked.
    if response.status() == StatusCode::OK && response.headers().contains_key(header::ETAG) {
        response
            .headers_mut()
            .insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        if ranged.contains_key(header::RANGE) {
            let (parts, body) = response.into_parts();
            // The edge's bodies are in memory: reading one does not fail.
            response = match axum::body::to_bytes(body, usize::MAX).await {
                Ok(sent) => {
                    let mut whole = Response::from_parts(parts, Body::from(sent.clone()));
                    ranges::apply(&mut whole, sent, &ranged);
                    whole
                }
                Err(_) => server_error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal_error",
                    "the answer could not be read to send a part of it",
                ),
            };
        }
    }
    if let Some(if_none_match) = if_none_match
        && response.status() == StatusCode::OK
        && not_modified(&if_none_match, response.headers())
    {
        response = not_modified_response(response);
    }
    add_shared_headers(response.status(), response.headers_mut());
    if immutable && response.status().is_success() {
        // Hashed names: a new file gets a new name (`crate::headers`).
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_IMMUTABLE),
        );
    }
    if method == Method::HEAD {
        // Same headers as GET (Content-Length included), no body.
        *response.body_mut() = Body::empty();
    }
    response
}

/// The CORS preflight answer: any origin may GET, HEAD and revalidate.
fn preflight_response() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert(header::ALLOW, HeaderValue::from_static(ALLOWED_METHODS));
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(ALLOWED_METHODS),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("If-None-Match, Content-Type"),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(PREFLIGHT_MAX_AGE),
    );
    response
}

/// Whether `If-None-Match` matches the response's ETag: `*`, or any listed
/// tag under the weak comparison (`W/"x"` matches `"x"`), as RFC 9110 asks
/// for GET and HEAD.
pub fn not_modified(if_none_match: &HeaderValue, headers: &HeaderMap) -> bool {
    let (Ok(condition), Some(Ok(current))) = (
        if_none_match.to_str(),
        headers.get(header::ETAG).map(|v| v.to_str()),
    ) else {
        return false;
    };
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let current = opaque(current);
    condition
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || (!tag.is_empty() && opaque(tag) == current))
}

/// A 304 in place of a 200: no body, the validators and caching headers kept.
fn not_modified_response(response: Response) -> Response {
    let (mut parts, _) = response.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    for name in [header::CONTENT_TYPE, header::CONTENT_LENGTH] {
        parts.headers.remove(name);
    }
    Response::from_parts(parts, Body::empty())
}

/// Caching by outcome, CORS for any origin (the data is public and needs no
/// credentials), the ETag readable by browser scripts, the security headers.
fn add_shared_headers(status: StatusCode, headers: &mut HeaderMap) {
    let cache = if status.is_success() || status == StatusCode::NOT_MODIFIED {
        CACHE_SUCCESS
    } else {
        CACHE_ERROR
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag"),
    );
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            header::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
}

#[cfg(test)]
mod tests;
