//! Edge stage, the request log: one line per request (method, path, query
//! shortened, status, bytes sent, latency), written when the log's level
//! is on (`RUST_LOG=info`, the default) and costing nothing when it is off.

use std::time::Instant;

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use tracing::info;

/// Longest query text written to the request log.
const LOGGED_QUERY_CHARS: usize = 256;

/// Middleware: logs every request the router answers.
pub async fn log_request(request: Request, next: Next) -> Response {
    let Some(line) = LogLine::start(&request) else {
        // The request log is off (RUST_LOG=warn): copy nothing.
        return next.run(request).await;
    };
    let response = next.run(request).await;
    line.finish(&response);
    response
}

/// A request's line, begun when it arrives.
#[derive(Debug)]
pub struct LogLine {
    started: Instant,
    method: Method,
    path: String,
    query: String,
}

impl LogLine {
    /// The line of `request`; `None` when the request log is off.
    pub fn start<B>(request: &axum::http::Request<B>) -> Option<LogLine> {
        let uri = request.uri();
        LogLine::begin(request.method(), uri.path(), uri.query())
    }

    /// The line of a request read some other way than into a `Request`
    /// (the connections' fast lane); `None` when the request log is off.
    pub fn begin(method: &Method, path: &str, query: Option<&str>) -> Option<LogLine> {
        if !tracing::enabled!(tracing::Level::INFO) {
            return None;
        }
        Some(LogLine {
            started: Instant::now(),
            method: method.clone(),
            path: path.to_owned(),
            query: query
                .unwrap_or("")
                .chars()
                .take(LOGGED_QUERY_CHARS)
                .collect(),
        })
    }

    /// Writes the line with the outcome, `response`.
    pub fn finish(self, response: &Response) {
        self.finish_as(
            response.status(),
            response.headers().get(header::CONTENT_LENGTH),
        );
    }

    /// Writes the line with the outcome: its `status` and its
    /// `Content-Length`, the body's length as sent (a range's part, a gzip
    /// form): what a reader reading by ranges saves shows here.
    pub fn finish_as(self, status: StatusCode, length: Option<&HeaderValue>) {
        let latency_ms = self.started.elapsed().as_secs_f64() * 1000.0;
        let bytes = length.and_then(|length| length.to_str().ok()).unwrap_or("");
        let LogLine {
            method,
            path,
            query,
            ..
        } = self;
        info!(%method, path, query, status = status.as_u16(), bytes, latency_ms = format!("{latency_ms:.2}"), "request");
    }
}
