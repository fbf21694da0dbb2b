//! The HTTP policy's parts: gzip accepted unless refused, `If-None-Match`
//! by the weak comparison, and a panicking handler answered with a JSON 500
//! that is not cached.

use super::*;
use crate::edge::http::{JSON, panic_response};
use axum::Router;
use axum::routing::get;
use tower::ServiceExt;

#[test]
fn gzip_is_accepted_unless_refused() {
    let accepts = |value: &'static str| {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(value));
        accepts_gzip(&headers)
    };
    assert!(accepts("gzip"));
    assert!(accepts("br, gzip;q=0.5"));
    assert!(accepts("GZIP"));
    assert!(accepts("*"));
    assert!(accepts("x-gzip"));
    assert!(!accepts("gzip;q=0"));
    assert!(!accepts("gzip; q=0.0, br"));
    assert!(!accepts("identity"));
    assert!(!accepts("br, deflate"));
    assert!(!accepts_gzip(&HeaderMap::new()));
}

#[test]
fn if_none_match_uses_the_weak_comparison() {
    let mut headers = HeaderMap::new();
    headers.insert(header::ETAG, HeaderValue::from_static("\"abc\""));
    let matches =
        |condition: &'static str| not_modified(&HeaderValue::from_static(condition), &headers);
    assert!(matches("\"abc\""));
    assert!(matches("W/\"abc\""));
    assert!(matches("\"x\", W/\"abc\""));
    assert!(matches("*"));
    assert!(!matches("\"abcd\""));
    assert!(!matches("abc"));
    assert!(!matches(""));
    assert!(
        !not_modified(&HeaderValue::from_static("*"), &HeaderMap::new()),
        "nothing to match"
    );
}

async fn boom() -> StatusCode {
    panic!("boom")
}

#[tokio::test]
async fn a_panicking_handler_is_a_json_500_that_is_not_cached() {
    let app: Router = Router::new()
        .route("/boom", get(boom))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            panic_response,
        ))
        .layer(axum::middleware::from_fn(policy));
    let request = axum::http::Request::builder()
        .uri("/boom")
        .body(Body::empty())
        .expect("request");
    let response = app.oneshot(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(response.headers()[header::CACHE_CONTROL], CACHE_ERROR);
    assert_eq!(response.headers()[header::CONTENT_TYPE], JSON);
}
