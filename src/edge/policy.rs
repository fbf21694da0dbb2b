//! Edge stage, the policy every site request passes: the query length
//! limit, methods, CORS preflight, then, on the way out, the gzip form,
//! byte ranges, conditional requests, HEAD and the caching and security
//! headers.
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

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use crate::api::error::ApiError;
use crate::api::query::MAX_QUERY_CHARS;
use crate::edge::answers::Answer;
use crate::edge::http::{ALLOWED_METHODS, REQUEST_TIMEOUT, error_response, server_error_response};
use crate::edge::ranges;
use crate::headers::{
    ASSETS_PREFIX, CACHE_ERROR, CACHE_IMMUTABLE, CACHE_SUCCESS, SECURITY_HEADERS,
};

/// How long a browser may reuse a preflight answer, in seconds.
const PREFLIGHT_MAX_AGE: &str = "86400";

/// The policy of every site request (API and static files), in the spec's
/// order: the 4096-character query limit before anything is parsed, then
/// preflight, then methods; afterwards conditional requests, HEAD and the
/// shared headers. Handlers only ever see GET and HEAD.
pub async fn policy(request: Request, next: Next) -> Response {
    let asked = Asked::of(&request);
    let response = match asked.refused() {
        Some(refused) => refused,
        None => match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
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
        },
    };
    asked.finish(response).await
}

/// What the policy reads of a request before it is answered, to finish
/// its answer afterwards.
#[derive(Debug)]
pub struct Asked {
    method: Method,
    query_chars: usize,
    if_none_match: Option<HeaderValue>,
    gzip: bool,
    immutable: bool,
    /// A byte range's two headers, kept only when a range is asked.
    ranged: HeaderMap,
}

/// What a plain request's response depends on besides its answer
/// ([`Asked::form`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// A HEAD: no body.
    pub head: bool,
    /// The client accepts gzip.
    pub gzip: bool,
    /// `If-None-Match` matches: a 304.
    pub not_modified: bool,
    /// A hashed asset: cached for good.
    pub immutable: bool,
}

impl Form {
    /// The form's number, below `answer::WIRE_FORMS`, by which an answer
    /// keeps its response in this form.
    pub fn number(self) -> usize {
        usize::from(self.head)
            | usize::from(self.gzip) << 1
            | usize::from(self.not_modified) << 2
            | usize::from(self.immutable) << 3
    }
}

impl Asked {
    /// Reads `request`'s method, query length and the headers the policy
    /// answers by.
    pub fn of<B>(request: &axum::http::Request<B>) -> Asked {
        let uri = request.uri();
        Asked::from_parts(
            request.method().clone(),
            uri.path(),
            uri.query(),
            request.headers(),
        )
    }

    /// [`Asked::of`] a request read some other way than into a `Request`
    /// (the connections' fast lane): its method, path, query and headers.
    pub fn from_parts(
        method: Method,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Asked {
        let mut ranged = HeaderMap::new();
        if let Some(range) = headers.get(header::RANGE) {
            ranged.insert(header::RANGE, range.clone());
            if let Some(condition) = headers.get(header::IF_RANGE) {
                ranged.insert(header::IF_RANGE, condition.clone());
            }
        }
        Asked {
            method,
            query_chars: query.map_or(0, |query| query.chars().count()),
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
            gzip: accepts_gzip(headers),
            immutable: path.starts_with(ASSETS_PREFIX),
            ranged,
        }
    }

    /// The form in which a request that [`Asked::is_plain`] gets `answer`:
    /// everything its response depends on besides the answer, so that one
    /// response made for a form serves every request of that form.
    pub fn form(&self, answer: &Answer) -> Form {
        Form {
            head: self.method == Method::HEAD,
            gzip: self.gzip,
            // `conclude` compares with the ETag sent, the gzip form's weak
            // one included; the comparison is weak, so the answer's own
            // tag gives the same outcome.
            not_modified: self
                .if_none_match
                .as_ref()
                .is_some_and(|condition| etag_matches(condition, &answer.etag)),
            immutable: self.immutable,
        }
    }

    /// Whether a handler may answer it at once, with its answer finished
    /// by [`Asked::finish_now`]: a GET or HEAD within the query limit that
    /// asks for no byte range.
    pub fn is_plain(&self) -> bool {
        self.refused().is_none() && self.ranged.is_empty()
    }

    /// The policy's own answer, before any handler: 414, a preflight, 405.
    fn refused(&self) -> Option<Response> {
        if self.query_chars > MAX_QUERY_CHARS {
            Some(error_response(&ApiError::UriTooLong))
        } else if self.method == Method::OPTIONS {
            Some(preflight_response())
        } else if self.method != Method::GET && self.method != Method::HEAD {
            Some(error_response(&ApiError::MethodNotAllowed))
        } else {
            None
        }
    }

    /// Finishes a handler's `response`: its gzip form, a part of it when a
    /// range is asked (the body read whole only then), then
    /// [`Asked::conclude`].
    async fn finish(self, mut response: Response) -> Response {
        if self.offer(&mut response) && self.ranged.contains_key(header::RANGE) {
            let (parts, body) = response.into_parts();
            // The edge's bodies are in memory: reading one does not fail.
            response = match axum::body::to_bytes(body, usize::MAX).await {
                Ok(sent) => {
                    let mut whole = Response::from_parts(parts, Body::from(sent.clone()));
                    ranges::apply(&mut whole, sent, &self.ranged);
                    whole
                }
                Err(_) => server_error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal_error",
                    "the answer could not be read to send a part of it",
                ),
            };
        }
        self.conclude(response)
    }

    /// Finishes the answer to a request that [`Asked::is_plain`], at once:
    /// as the policy's middleware does, with no byte range to cut.
    pub fn finish_now(self, mut response: Response) -> Response {
        debug_assert!(self.is_plain(), "a range or a refusal needs `finish`");
        self.offer(&mut response);
        self.conclude(response)
    }

    /// A 200's gzip form, and `Accept-Ranges` on any with a validator:
    /// whether a part of it may be sent.
    fn offer(&self, response: &mut Response) -> bool {
        if response.status() != StatusCode::OK {
            return false;
        }
        compress(response, self.gzip);
        let rangeable = response.headers().contains_key(header::ETAG);
        if rangeable {
            response
                .headers_mut()
                .insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        }
        rangeable
    }

    /// A 304 when `If-None-Match` matches, the shared headers, the
    /// immutable caching of hashed assets, no body for HEAD.
    fn conclude(self, mut response: Response) -> Response {
        if let Some(if_none_match) = &self.if_none_match
            && response.status() == StatusCode::OK
            && not_modified(if_none_match, response.headers())
        {
            response = not_modified_response(response);
        }
        add_shared_headers(response.status(), response.headers_mut());
        if self.immutable && response.status().is_success() {
            // Hashed names: a new file gets a new name (`crate::headers`).
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static(CACHE_IMMUTABLE),
            );
        }
        if self.method == Method::HEAD {
            // Same headers as GET (Content-Length included), no body.
            *response.body_mut() = Body::empty();
        }
        response
    }
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
    headers
        .get(header::ETAG)
        .is_some_and(|current| etag_matches(if_none_match, current))
}

/// Whether `If-None-Match` matches the ETag `current` ([`not_modified`]).
fn etag_matches(if_none_match: &HeaderValue, current: &HeaderValue) -> bool {
    let (Ok(condition), Ok(current)) = (if_none_match.to_str(), current.to_str()) else {
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

#[cfg(test)]
mod tests;
