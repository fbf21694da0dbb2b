//! Edge stage, overload: a bound on requests in flight. A request that
//! finds every slot taken is answered at once with a 503, the spec's JSON
//! error body and `Retry-After`, instead of queueing behind work the server
//! cannot finish in time; the client (or the CDN) retries, as the spec asks
//! clients to do on a temporary 5xx.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::Semaphore;

use crate::edge::http::{CACHE_ERROR, server_error_response};

/// Default number of requests in flight: far above what two cores finish
/// at once (answers take well under a millisecond), so only a real backlog
/// is shed, never a busy moment.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 512;

/// Seconds a shed client is asked to wait.
pub const RETRY_AFTER_SECS: &str = "1";

/// The shared bound on requests in flight.
#[derive(Debug, Clone)]
pub struct InFlight(Arc<Semaphore>);

impl InFlight {
    /// At most `limit` requests at once (at least one).
    pub fn new(limit: usize) -> InFlight {
        InFlight(Arc::new(Semaphore::new(limit.max(1))))
    }
}

/// Middleware: runs the request while holding a slot, or sheds it.
pub async fn shed(State(in_flight): State<InFlight>, request: Request, next: Next) -> Response {
    match in_flight.0.clone().try_acquire_owned() {
        Ok(_slot) => next.run(request).await,
        Err(_) => overloaded_response(),
    }
}

/// The 503 of a shed request: the spec's error body, not cached, with the
/// time to wait before retrying.
pub fn overloaded_response() -> Response {
    tracing::debug!("shedding a request: every slot is in use");
    let mut response = server_error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        "overloaded",
        "the server is busy; retry in a moment",
    );
    let headers = response.headers_mut();
    headers.insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECS),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_ERROR));
    response
}
