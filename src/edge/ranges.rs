//! Edge stage, byte ranges: an answer with an ETag (a file of the tree, an
//! API answer) is sent in part when asked with `Range`, as RFC 9110
//! says, so readers over HTTP (DuckDB's `httpfs`, pyarrow, polars) fetch a
//! Parquet file's footer and the columns they read rather than the file.
//!
//! - One range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) is a `206` with its
//!   `Content-Range`; several ranges get the whole answer (`200`), as the
//!   RFC allows, rather than a multipart body no reader here asks for.
//! - A range that starts past the end is a `416` with `Content-Range:
//!   bytes */{length}`; a malformed or abusive header is ignored (`200`).
//! - `If-Range` with the answer's ETag (compared strongly) keeps the range;
//!   anything else, a date included, gets the whole answer.
//! - Ranges apply to the bytes sent: on a gzip-encoded answer, to the gzip
//!   form (whose ETag is weak, so `If-Range` never matches it).
//!
//! Every answer with an ETag says `Accept-Ranges: bytes`. The range
//! header is parsed by `http-range-header`, the parser tower-http's file
//! service uses.

use axum::body::{Body, Bytes};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Response, StatusCode};
use http_range_header::{RangeUnsatisfiableError, parse_range_header};

/// What a request's `Range` and `If-Range` ask of an answer of `length`
/// bytes whose ETag is `etag`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// The whole answer.
    Whole,
    /// The bytes `start..=end`.
    Part {
        /// The first byte.
        start: u64,
        /// The last byte.
        end: u64,
    },
    /// Nothing it holds: a `416`.
    Unsatisfiable,
}

/// What `headers` ask of an answer of `length` bytes with `etag`.
pub fn asked(headers: &HeaderMap, length: u64, etag: Option<&HeaderValue>) -> Asked {
    let Some(range) = headers.get(header::RANGE).and_then(|v| v.to_str().ok()) else {
        return Asked::Whole;
    };
    if let Some(condition) = headers.get(header::IF_RANGE) {
        // Only a strong ETag equal to the answer's keeps the range.
        let strong = |tag: &HeaderValue| tag.as_bytes().first() == Some(&b'"');
        if !(strong(condition) && etag.is_some_and(|etag| strong(etag) && etag == condition)) {
            return Asked::Whole;
        }
    }
    let ranges = parse_range_header(range).and_then(|parsed| parsed.validate(length));
    match ranges.as_deref() {
        Ok([one]) => Asked::Part {
            start: *one.start(),
            end: *one.end(),
        },
        Err(RangeUnsatisfiableError::Unsatisfiable) => Asked::Unsatisfiable,
        // Several ranges, none (an empty answer), or a header the parser
        // refuses: the whole answer.
        _ => Asked::Whole,
    }
}

/// `response` (a `200` carrying `sent`, its body as sent) answered as
/// `headers` (the request's `Range` and `If-Range`) ask: whole, in part,
/// or refused.
pub fn apply(response: &mut Response<Body>, sent: Bytes, headers: &HeaderMap) {
    let length = sent.len() as u64;
    let asked = asked(headers, length, response.headers().get(header::ETAG));
    let out = response.headers_mut();
    out.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    match asked {
        Asked::Whole => {}
        Asked::Part { start, end } => {
            let content_range = format!("bytes {start}-{end}/{length}");
            out.insert(
                header::CONTENT_RANGE,
                HeaderValue::from_str(&content_range)
                    .expect("invariant: digits are a header value"),
            );
            out.insert(header::CONTENT_LENGTH, HeaderValue::from(end - start + 1));
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            *response.body_mut() = Body::from(sent.slice(start as usize..=end as usize));
        }
        Asked::Unsatisfiable => {
            let content_range = format!("bytes */{length}");
            out.insert(
                header::CONTENT_RANGE,
                HeaderValue::from_str(&content_range)
                    .expect("invariant: digits are a header value"),
            );
            out.insert(header::CONTENT_LENGTH, HeaderValue::from(0));
            out.remove(header::CONTENT_TYPE);
            out.remove(header::CONTENT_ENCODING);
            *response.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
            *response.body_mut() = Body::empty();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ETAG: &str = "\"abc\"";

    fn ask(range: &str, if_range: Option<&str>) -> Asked {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::RANGE,
            HeaderValue::from_str(range).expect("a header"),
        );
        if let Some(condition) = if_range {
            headers.insert(
                header::IF_RANGE,
                HeaderValue::from_str(condition).expect("a header"),
            );
        }
        asked(&headers, 100, Some(&HeaderValue::from_static(ETAG)))
    }

    fn part(start: u64, end: u64) -> Asked {
        Asked::Part { start, end }
    }

    #[test]
    fn a_range_is_read_at_every_boundary() {
        assert_eq!(ask("bytes=0-0", None), part(0, 0), "the first byte");
        assert_eq!(ask("bytes=99-99", None), part(99, 99), "the last byte");
        assert_eq!(ask("bytes=0-99", None), part(0, 99), "all of it");
        assert_eq!(
            ask("bytes=90-200", None),
            part(90, 99),
            "an end past the end"
        );
        assert_eq!(ask("bytes=10-", None), part(10, 99), "from a byte on");
        assert_eq!(ask("bytes=-8", None), part(92, 99), "a suffix");
        assert_eq!(
            ask("bytes=-500", None),
            part(0, 99),
            "a suffix longer than it"
        );
        assert_eq!(
            ask("bytes=100-", None),
            Asked::Unsatisfiable,
            "a start past the end"
        );
        assert_eq!(ask("bytes=100-150", None), Asked::Unsatisfiable);
        assert_eq!(ask("bytes=0-1,5-9", None), Asked::Whole, "several ranges");
        assert_eq!(ask("bytes=9-1", None), Asked::Whole, "reversed: ignored");
        assert_eq!(ask("items=0-1", None), Asked::Whole, "another unit");
        assert_eq!(ask("bytes=abc", None), Asked::Whole, "malformed");
    }

    #[test]
    fn if_range_keeps_the_range_only_for_the_same_strong_etag() {
        assert_eq!(ask("bytes=0-9", Some(ETAG)), part(0, 9));
        assert_eq!(ask("bytes=0-9", Some("\"other\"")), Asked::Whole);
        assert_eq!(ask("bytes=0-9", Some("W/\"abc\"")), Asked::Whole);
        assert_eq!(
            ask("bytes=0-9", Some("Sat, 28 Nov 2026 10:00:00 GMT")),
            Asked::Whole
        );
        let mut headers = HeaderMap::new();
        headers.insert(header::RANGE, HeaderValue::from_static("bytes=0-9"));
        headers.insert(header::IF_RANGE, HeaderValue::from_static("W/\"abc\""));
        let weak = HeaderValue::from_static("W/\"abc\"");
        assert_eq!(
            asked(&headers, 100, Some(&weak)),
            Asked::Whole,
            "a weak ETag"
        );
    }

    #[test]
    fn a_response_is_cut_to_its_range() {
        let sent = Bytes::from_static(b"0123456789");
        let mut headers = HeaderMap::new();
        headers.insert(header::RANGE, HeaderValue::from_static("bytes=-3"));
        let mut response = Response::new(Body::from(sent.clone()));
        apply(&mut response, sent.clone(), &headers);
        assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
        assert_eq!(response.headers()[header::CONTENT_RANGE], "bytes 7-9/10");
        assert_eq!(response.headers()[header::CONTENT_LENGTH], "3");
        assert_eq!(response.headers()[header::ACCEPT_RANGES], "bytes");
        headers.insert(header::RANGE, HeaderValue::from_static("bytes=10-"));
        let mut refused = Response::new(Body::from(sent.clone()));
        apply(&mut refused, sent, &headers);
        assert_eq!(refused.status(), StatusCode::RANGE_NOT_SATISFIABLE);
        assert_eq!(refused.headers()[header::CONTENT_RANGE], "bytes */10");
    }
}
