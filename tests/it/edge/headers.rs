//! Caching and CORS: the headers of successes and errors, conditional
//! requests (304), HEAD and the preflight; the shortcut's answers the
//! router's to the byte.

use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::harness::{computed_urls, fixture, get, get_json, send, state};
use autoprecios::edge::{AppState, app};

#[tokio::test]
async fn successes_carry_etag_caching_cors_and_content_type() {
    for uri in [
        "/api/v1",
        "/api/v1/catalogue",
        "/api/v1/vehicles?limit=3&sort=name",
        "/api/v1/deals?kind=price_drops",
    ] {
        let reply = get(uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        assert_eq!(reply.header("content-type"), "application/json");
        assert_eq!(reply.header("cache-control"), "public, max-age=300");
        assert_eq!(reply.header("access-control-allow-origin"), "*");
        assert_eq!(reply.header("x-content-type-options"), "nosniff");
        assert_eq!(reply.header("content-length"), reply.body.len().to_string());
        let tag = reply.header("etag");
        assert!(
            tag.len() == 66 && tag.starts_with('"') && tag.ends_with('"'),
            "strong ETag: {tag}"
        );
        assert_eq!(tag, autoprecios::api::json::etag(&reply.body));
    }
    let info = get_json("/api/v1").await;
    assert!(
        info.get("schemaVersion").is_none() && info["endpoints"].is_array(),
        "the entry point is not enveloped"
    );
    assert_eq!(get_json("/api/v1/catalogue").await["schemaVersion"], 1);
}

#[tokio::test]
async fn if_none_match_gives_304_for_matching_tags() {
    let uri = "/api/v1/vehicles?sort=price_desc&limit=5";
    let reply = get(uri).await;
    let tag = reply.header("etag").to_owned();
    let weak = format!("W/{tag}");
    let listed = format!("\"nope\", {tag} ,W/\"other\"");
    for condition in [tag.as_str(), weak.as_str(), listed.as_str(), "*"] {
        for method in [Method::GET, Method::HEAD] {
            let reply = send(method.clone(), uri, &[("if-none-match", condition)]).await;
            assert_eq!(
                reply.status,
                StatusCode::NOT_MODIFIED,
                "{method} If-None-Match: {condition}"
            );
            assert!(reply.body.is_empty());
            assert_eq!(reply.header("etag"), tag);
            assert_eq!(reply.header("cache-control"), "public, max-age=300");
            assert_eq!(reply.header("access-control-allow-origin"), "*");
        }
    }
    for condition in ["\"nope\"", "W/\"nope\", \"other\"", ""] {
        let reply = send(Method::GET, uri, &[("if-none-match", condition)]).await;
        assert_eq!(reply.status, StatusCode::OK, "If-None-Match: {condition}");
        assert!(reply.body == get(uri).await.body);
    }
    let error = send(
        Method::GET,
        "/api/v1/vehicles?limit=0",
        &[("if-none-match", "*")],
    )
    .await;
    assert_eq!(
        error.status,
        StatusCode::BAD_REQUEST,
        "errors are never 304"
    );
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    for uri in [
        "/api/v1/deals?kind=opportunities",
        "/api/v1/nothing",
        "/developers",
        "/api/v1/vehicles?limit=0",
    ] {
        let full = get(uri).await;
        let head = send(Method::HEAD, uri, &[]).await;
        assert_eq!(head.status, full.status, "{uri}");
        assert!(head.body.is_empty(), "{uri}");
        for name in [
            "etag",
            "content-type",
            "content-length",
            "cache-control",
            "access-control-allow-origin",
        ] {
            assert_eq!(head.header(name), full.header(name), "{uri}: {name}");
        }
    }
}

#[tokio::test]
async fn options_is_a_cors_preflight() {
    for uri in ["/api/v1/vehicles?limit=5", "/api/v1/vehicles/x", "/"] {
        let reply = send(
            Method::OPTIONS,
            uri,
            &[
                ("origin", "https://example.org"),
                ("access-control-request-method", "GET"),
            ],
        )
        .await;
        assert_eq!(reply.status, StatusCode::NO_CONTENT, "{uri}");
        assert!(reply.body.is_empty());
        assert_eq!(reply.header("access-control-allow-origin"), "*");
        assert_eq!(
            reply.header("access-control-allow-methods"),
            "GET, HEAD, OPTIONS"
        );
        let allowed = reply
            .header("access-control-allow-headers")
            .to_ascii_lowercase();
        assert!(
            allowed.contains("if-none-match") && allowed.contains("content-type"),
            "{allowed}"
        );
        assert!(
            reply
                .header("access-control-max-age")
                .parse::<u32>()
                .is_ok_and(|age| age > 0)
        );
    }
}

#[tokio::test]
async fn healthz_names_the_loaded_tree_and_is_never_cached() {
    let reply = get("/healthz").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("cache-control"), "no-store");
    assert_eq!(reply.header("content-type"), "application/json");
    let health = reply.json();
    let catalogue = get_json("/api/v1/catalogue").await;
    assert_eq!(health["status"], "ok");
    assert_eq!(health["versions"], catalogue["data"]["vehicleCount"]);
    assert_eq!(health["snapshotAt"], catalogue["snapshotAt"]);
    assert_eq!(
        health["catalogueObservedAt"],
        catalogue["catalogueObservedAt"]
    );
    let manifest =
        std::fs::read(crate::harness::fixture().out.join("manifest.json")).expect("manifest");
    let sha256 = autoprecios::api::json::etag(&manifest);
    assert_eq!(health["tree"], sha256.trim_matches('"'));
    assert_eq!(health["synthetic"], true);
    let head = send(Method::HEAD, "/healthz", &[]).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.body.is_empty());
}

/// With a maximum age, a snapshot older than it is `stale` with a 503 (the
/// fixture's snapshot is from 2026-11-21, days before any run of the tests),
/// and one within it is ok; the age is reported either way.
#[tokio::test]
async fn healthz_reports_the_age_and_a_stale_snapshot_is_a_503() {
    use autoprecios::edge::{AppOptions, app_with};
    use std::time::Duration;
    let snapshot_at = chrono::DateTime::parse_from_rfc3339(
        get_json("/healthz").await["snapshotAt"]
            .as_str()
            .expect("a time"),
    )
    .expect("RFC 3339");
    let age = (chrono::Utc::now() - snapshot_at.to_utc()).num_seconds();
    for (max_age, status, word) in [
        (
            Some(Duration::from_secs(3600)),
            StatusCode::SERVICE_UNAVAILABLE,
            "stale",
        ),
        (
            Some(Duration::from_secs(
                u64::try_from(age).expect("a past snapshot") + 86_400,
            )),
            StatusCode::OK,
            "ok",
        ),
        (None, StatusCode::OK, "ok"),
    ] {
        let options = AppOptions {
            max_age,
            ..AppOptions::default()
        };
        let reply = crate::harness::send_app(
            app_with(crate::harness::state(), &options),
            Method::GET,
            "/healthz",
            Vec::new(),
            &[],
        )
        .await;
        assert_eq!(reply.status, status, "{max_age:?}");
        let health = reply.json();
        assert_eq!(health["status"], word);
        let reported = health["ageSeconds"].as_i64().expect("an age");
        assert!((reported - age).abs() < 60, "{reported} against {age}");
        assert_eq!(
            health["maxAgeSeconds"].as_u64(),
            max_age.map(|age| age.as_secs())
        );
        assert_eq!(reply.header("cache-control"), "no-store");
    }
}

/// The edge alone serves like a CDN: a text answer is gzip-compressed for a
/// client that accepts it (the same bytes once decompressed, a weak form
/// of the same ETag, `Vary: Accept-Encoding` on both forms), conditional
/// requests match either form, small and binary answers go as they are,
/// and hashed assets are cached as immutable.
#[tokio::test]
async fn answers_are_compressed_for_clients_that_accept_gzip() {
    use std::io::Read;
    for uri in [
        "/api/v1/catalogue",
        "/api/v1/vehicles?limit=5",
        "/",
        "/metodologia",
    ] {
        let plain = get(uri).await;
        let gzip = send(Method::GET, uri, &[("accept-encoding", "br, gzip")]).await;
        assert_eq!(gzip.status, StatusCode::OK, "{uri}");
        assert_eq!(gzip.header("content-encoding"), "gzip", "{uri}");
        assert_eq!(gzip.header("vary"), "accept-encoding", "{uri}");
        assert_eq!(plain.header("vary"), "accept-encoding", "{uri}");
        assert_eq!(plain.header("content-encoding"), "", "{uri}");
        let mut body = Vec::new();
        flate2::read::GzDecoder::new(&gzip.body[..])
            .read_to_end(&mut body)
            .expect("gunzip");
        assert!(body == plain.body, "{uri}: the same bytes");
        assert!(gzip.body.len() < plain.body.len(), "{uri}: smaller");
        assert_eq!(gzip.header("content-length"), gzip.body.len().to_string());
        assert_eq!(gzip.header("etag"), format!("W/{}", plain.header("etag")));
        for (tag, encoding) in [
            (plain.header("etag").to_owned(), "gzip"),
            (gzip.header("etag").to_owned(), "gzip"),
            (gzip.header("etag").to_owned(), "identity"),
        ] {
            let reply = send(
                Method::GET,
                uri,
                &[("if-none-match", &tag), ("accept-encoding", encoding)],
            )
            .await;
            assert_eq!(
                reply.status,
                StatusCode::NOT_MODIFIED,
                "{uri} {tag} {encoding}"
            );
        }
        let refused = send(Method::GET, uri, &[("accept-encoding", "gzip;q=0")]).await;
        assert!(refused.body == plain.body, "{uri}: q=0 refuses gzip");
    }
    // An error body is small, and a gzip download is compressed already.
    let error = send(Method::GET, "/api/v1/nope", &[("accept-encoding", "gzip")]).await;
    assert_eq!(error.header("content-encoding"), "");
    let download = send(
        Method::GET,
        "/datos/versiones.csv.gz",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(download.status, StatusCode::OK);
    assert_eq!(download.header("content-encoding"), "");
    let css = crate::harness::fixture()
        .manifest
        .files
        .iter()
        .find(|entry| entry.url.starts_with("/assets/site.") && entry.url.ends_with(".css"))
        .expect("the stylesheet")
        .url
        .clone();
    let asset = get(&css).await;
    assert_eq!(
        asset.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        get("/").await.header("cache-control"),
        "public, max-age=300"
    );
}

/// With a response cache too small to keep the answers, each question
/// asked again is computed again, and its ETag (remembered, not hashed
/// again) is still the quoted hex SHA-256 of the bytes sent.
#[tokio::test]
async fn a_question_computed_again_keeps_the_etag_of_its_bytes() {
    use sha2::{Digest, Sha256};
    let state =
        autoprecios::edge::state::AppState::load_with(&crate::harness::fixture().out, 64 * 1024)
            .expect("load the fixture tree");
    let uris: Vec<String> = (1..=20)
        .map(|limit| format!("/api/v1/vehicles?sort=name&limit={limit}"))
        .collect();
    let mut first = Vec::new();
    for round in 0..2 {
        for (at, uri) in uris.iter().enumerate() {
            let reply = crate::harness::send_to(state.clone(), Method::GET, uri, &[]).await;
            assert_eq!(reply.status, StatusCode::OK, "{uri}");
            let sha256: String = Sha256::digest(&reply.body)
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect();
            assert_eq!(
                reply.header("etag"),
                format!("\"{sha256}\""),
                "{uri}, round {round}"
            );
            if round == 0 {
                first.push(reply.body);
            } else {
                assert_eq!(reply.body, first[at], "{uri}: the same bytes again");
            }
        }
    }
}

/// A request as the shortcut and the router both see it.
fn request(method: &Method, uri: &str, headers: &[(&str, &str)]) -> axum::http::Request<Body> {
    let mut request = axum::http::Request::builder()
        .method(method.clone())
        .uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).expect("request")
}

/// Status, headers and body of `response` as hyper sends them: axum's
/// router gives a 304 a `Content-Length: 0` that hyper leaves out.
async fn parts(response: Response) -> (StatusCode, HeaderMap, Vec<u8>) {
    let (mut parts, body) = response.into_parts();
    if parts.status == StatusCode::NOT_MODIFIED {
        parts.headers.remove("content-length");
    }
    let body = body.collect().await.expect("body").to_bytes().to_vec();
    (parts.status, parts.headers, body)
}

#[tokio::test]
async fn the_shortcut_answers_every_api_url_as_the_router_does() {
    // Each over its own loaded tree, so the router computes what the
    // shortcut computes, rather than finding the shortcut's answer kept.
    let shortcut = app(state());
    let router = app(AppState::load(&fixture().out).expect("load the fixture tree"));
    let urls = autoprecios::api::precomputed::urls();
    let (mut answered, mut refused) = (0, 0);
    for url in urls.into_iter().chain(computed_urls()) {
        let routed = |method: &Method, headers: &[(&str, &str)]| {
            router
                .router()
                .clone()
                .oneshot(request(method, &url, headers))
        };
        let plain = parts(routed(&Method::GET, &[]).await.expect("infallible")).await;
        if plain.0 != StatusCode::OK {
            // An error is the router's to make, body and headers.
            for method in [Method::GET, Method::HEAD] {
                let held = shortcut.held(&request(&method, &url, &[]));
                assert!(held.is_none(), "{method} {url}: {:?} is not held", plain.0);
            }
            refused += 1;
            continue;
        }
        answered += 1;
        let tag = plain.1["etag"].to_str().expect("an ETag").to_owned();
        let weak = format!("W/{tag}");
        for (method, headers) in [
            (Method::GET, vec![]),
            (Method::GET, vec![("accept-encoding", "gzip")]),
            (Method::GET, vec![("accept-encoding", "gzip;q=0, br")]),
            (Method::HEAD, vec![("accept-encoding", "gzip")]),
            (Method::GET, vec![("if-none-match", tag.as_str())]),
            (
                Method::GET,
                vec![
                    ("if-none-match", weak.as_str()),
                    ("accept-encoding", "gzip"),
                ],
            ),
            (Method::HEAD, vec![("if-none-match", "\"other\"")]),
        ] {
            let held = shortcut
                .held(&request(&method, &url, &headers))
                .unwrap_or_else(|| panic!("{method} {url} {headers:?}: not held"));
            let routed = routed(&method, &headers).await.expect("infallible");
            assert_eq!(
                parts(held).await,
                parts(routed).await,
                "{method} {url} {headers:?}"
            );
        }
    }
    assert!(
        answered > 30 && refused >= 7,
        "{answered} answered, {refused} refused"
    );
}

#[tokio::test]
async fn the_shortcut_finds_the_operation_the_router_routes_to() {
    use autoprecios::api::ops::{http_operations, op_at};
    let router = http_operations().fold(axum::Router::new(), |router, (spec, http)| {
        router.route(
            http.path,
            axum::routing::get(move || async move { spec.name }),
        )
    });
    let id = computed_urls()[0].clone();
    for path in [
        "/api/v1",
        "/api/v1/",
        "/api/v1/catalogue",
        "/api/v1/catalogue/",
        "/api/v1/vehicles",
        id.as_str(),
        "/api/v1/vehicles/",
        "/api/v1/vehicles//",
        "/api/v1/vehicles/a/b",
        "/api/v1/vehicles/a%2Fb",
        "/api/v1/vehicles/%20",
        "/api/v1/vehiclesx",
        "/api/v1/reports",
        "/api/v1/reports/2026-11",
        "/api/v1/reports/x.json",
        "/api/v1/reports/2026-11/",
        "/api/v1/compare",
        "/api/v1/models/prices",
        "/api/v1/models",
        "/api/v1/series",
        "/API/v1/catalogue",
        "/",
        "/healthz",
    ] {
        let routed = router
            .clone()
            .oneshot(request(&Method::GET, path, &[]))
            .await
            .expect("infallible");
        let name = if routed.status() == StatusCode::OK {
            let body = routed.into_body().collect().await.expect("body");
            Some(String::from_utf8(body.to_bytes().to_vec()).expect("a name"))
        } else {
            None
        };
        assert_eq!(
            op_at(path).map(|op| op.spec().name.to_owned()),
            name,
            "{path}"
        );
    }
}

#[tokio::test]
async fn the_shortcut_leaves_to_the_router_what_it_does_not_hold() {
    let app = app(state());
    let held = |method: Method, uri: &str, headers: &[(&str, &str)]| {
        app.held(&request(&method, uri, headers)).is_some()
    };
    assert!(held(Method::GET, "/api/v1/catalogue", &[]));
    // A byte range, another method, a file: the router's. A spelling that is
    // not the precomputed one is computed (the same question, kept once).
    assert!(!held(
        Method::GET,
        "/api/v1/catalogue",
        &[("range", "bytes=0-9")]
    ));
    assert!(!held(Method::OPTIONS, "/api/v1/catalogue", &[]));
    assert!(!held(Method::POST, "/api/v1/catalogue", &[]));
    assert!(held(Method::GET, "/api/v1/catalogue?", &[]));
    assert!(!held(Method::GET, "/", &[]));
    // A computed answer is the shortcut's at once, and kept by the URL it
    // was asked by.
    let uri = "/api/v1/vehicles?sort=name&limit=7&offset=3";
    let first = parts(
        app.held(&request(&Method::GET, uri, &[]))
            .expect("computed"),
    )
    .await;
    assert_eq!(first.0, StatusCode::OK);
    let site = state().site();
    let kept = site.answers().by_url(site.index(), uri).expect("kept");
    assert_eq!(kept.bytes.as_ref(), first.2.as_slice());
    // An error is never held, nor kept, nor a refused query computed.
    let bad = "/api/v1/vehicles?limit=0";
    assert!(!held(Method::GET, bad, &[]));
    let _ = app.clone().oneshot(request(&Method::GET, bad, &[])).await;
    assert!(!held(Method::GET, bad, &[]));
    let long = format!("/api/v1/vehicles?q={}", "a".repeat(5000));
    assert!(!held(Method::GET, &long, &[]));
    assert!(site.answers().by_url(site.index(), &long).is_none());
}
