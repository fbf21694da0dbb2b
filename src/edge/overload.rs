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
/// at once (answers are quick: BENCHMARKS.md, "The edge against nginx and
/// Datasette"), so only a real backlog is shed, never a busy moment.
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::Router;
    use axum::body::Body;
    use axum::http::{HeaderMap, Request};
    use axum::routing::get;
    use http_body_util::BodyExt;
    use tokio::sync::Notify;
    use tower::ServiceExt;

    use super::*;

    /// A route that holds its slot until `release` is notified, after
    /// telling `entered`.
    fn held_app(in_flight: InFlight, entered: Arc<Notify>, release: Arc<Notify>) -> Router {
        Router::new()
            .route(
                "/held",
                get(move || async move {
                    entered.notify_one();
                    release.notified().await;
                    "done"
                }),
            )
            .route("/quick", get(|| async { "quick" }))
            .layer(axum::middleware::from_fn_with_state(in_flight, shed))
    }

    async fn get_status(app: &Router, uri: &str) -> (StatusCode, HeaderMap, Vec<u8>) {
        let request = Request::builder()
            .uri(uri)
            .body(Body::empty())
            .expect("request");
        let response = app.clone().oneshot(request).await.expect("infallible");
        let (parts, body) = response.into_parts();
        let body = body.collect().await.expect("body").to_bytes().to_vec();
        (parts.status, parts.headers, body)
    }

    #[tokio::test]
    async fn a_request_beyond_the_limit_is_shed_at_once_and_the_slot_comes_back() {
        let (entered, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
        let app = held_app(InFlight::new(2), entered.clone(), release.clone());
        // Two requests take both slots and wait.
        let first = tokio::spawn({
            let app = app.clone();
            async move { get_status(&app, "/held").await.0 }
        });
        entered.notified().await;
        let second = tokio::spawn({
            let app = app.clone();
            async move { get_status(&app, "/held").await.0 }
        });
        entered.notified().await;
        // The third is refused without waiting for them.
        let (status, headers, body) = get_status(&app, "/quick").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(headers[header::RETRY_AFTER], RETRY_AFTER_SECS);
        assert_eq!(headers[header::CACHE_CONTROL], CACHE_ERROR);
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON body");
        assert_eq!(body["error"]["code"], "overloaded");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
        // Once they finish, their slots serve the next requests.
        release.notify_waiters();
        assert_eq!(first.await.expect("task"), StatusCode::OK);
        assert_eq!(second.await.expect("task"), StatusCode::OK);
        assert_eq!(get_status(&app, "/quick").await.0, StatusCode::OK);
    }

    #[test]
    fn a_limit_of_zero_still_serves_one_request_at_a_time() {
        assert_eq!(InFlight::new(0).0.available_permits(), 1);
    }
}
