//! The edge server without a socket: the state over the fixture tree,
//! requests through `app(state).oneshot(...)` collected into a [`Reply`],
//! and the fixture's edge data read back independently as plain JSON.

use std::fs;
use std::sync::OnceLock;

use autoprecios::edge::App;
use autoprecios::edge::{AppState, app};
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use super::fixture;

/// The edge state over the shared fixture tree, loaded once.
pub fn state() -> AppState {
    static STATE: OnceLock<AppState> = OnceLock::new();
    STATE
        .get_or_init(|| AppState::load(&fixture().out).expect("load the fixture tree"))
        .clone()
}

/// A response, collected.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's value ("" when absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |value| value.to_str().expect("ASCII header"))
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The `path` of every detail of a 400.
    pub fn error_paths(&self) -> Vec<String> {
        assert_eq!(
            self.status,
            StatusCode::BAD_REQUEST,
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        let body = self.json();
        assert_eq!(body["error"]["code"], "invalid_parameters");
        body["error"]["details"]
            .as_array()
            .expect("details")
            .iter()
            .map(|detail| {
                assert!(
                    detail["message"].as_str().is_some_and(|m| !m.is_empty()),
                    "{detail}"
                );
                detail["path"].as_str().expect("path").to_owned()
            })
            .collect()
    }
}

/// Sends one request to a fresh app over `state`.
pub async fn send_to(
    state: AppState,
    method: Method,
    uri: &str,
    headers: &[(&str, &str)],
) -> Reply {
    send_app(app(state), method, uri, Vec::new(), headers).await
}

/// Sends one request with `body` to `app` and collects the response.
pub async fn send_app(
    app: App,
    method: Method,
    uri: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> Reply {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body)).expect("request");
    let response = app.oneshot(request).await.expect("infallible");
    let (parts, body) = response.into_parts();
    let body = body.collect().await.expect("body").to_bytes().to_vec();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

/// Sends one request to the fixture's app.
pub async fn send(method: Method, uri: &str, headers: &[(&str, &str)]) -> Reply {
    send_to(state(), method, uri, headers).await
}

/// `GET uri` on the fixture's app.
pub async fn get(uri: &str) -> Reply {
    send(Method::GET, uri, &[]).await
}

/// `GET uri`, expecting a 200 with JSON.
pub async fn get_json(uri: &str) -> Value {
    let reply = get(uri).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "{uri}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

/// The edge's answer to `url` as an insta snapshot reads best (see
/// [`crate::harness::pin`]): for answers the edge computes, not files.
pub async fn pinned_live(url: &str) -> String {
    let reply = get(url).await;
    assert_eq!(reply.status, axum::http::StatusCode::OK, "{url}");
    crate::harness::pin(std::str::from_utf8(&reply.body).expect("UTF-8"))
}

/// The edge data of the fixture tree as plain JSON: the test's independent
/// view of every vehicle: its published record (the API's Vehicle, from the
/// records file, in the same order), plus the
/// two facts the record does not show: `drivetrain` and `newOpportunity`
/// (window to whether the version newly qualifies within it).
pub fn edge_vehicles() -> &'static [Value] {
    static VEHICLES: OnceLock<Vec<Value>> = OnceLock::new();
    VEHICLES.get_or_init(|| {
        let data = crate::harness::edge_data(&fixture().out.join("_edge/catalogue.msgpack"));
        let records =
            fs::read_to_string(fixture().out.join("_edge/records.jsonl")).expect("records");
        let entries = data["vehicles"].as_array().expect("vehicles");
        assert_eq!(records.lines().count(), entries.len(), "a record a version");
        entries
            .iter()
            .zip(records.lines())
            .map(|(entry, record)| {
                let mut vehicle: Value = serde_json::from_str(record).expect("record JSON");
                let facts = &entry["facts"];
                vehicle["drivetrain"] = facts["drivetrain"].clone();
                for (slot, window) in ["1d", "3d", "7d"].into_iter().enumerate() {
                    vehicle["newOpportunity"][window] =
                        facts["windows"][slot]["newOpportunity"].clone();
                }
                vehicle
            })
            .collect()
    })
}

/// The IDs of a list response's vehicles.
pub fn ids(body: &Value) -> Vec<String> {
    body["data"]["vehicles"]
        .as_array()
        .expect("vehicles")
        .iter()
        .map(|v| v["id"].as_str().expect("id").to_owned())
        .collect()
}

/// API URLs the edge computes on demand over the fixture (details, a
/// comparison, queries of every list, a month's report, a series), and
/// API URLs it refuses (an unknown ID, a bad parameter, a path with one
/// segment too many): what the shortcut, the router and the fast lane
/// must answer alike.
pub fn computed_urls() -> Vec<String> {
    let vehicles = edge_vehicles();
    let id = |at: usize| vehicles[at % vehicles.len()]["id"].as_str().expect("id");
    let (make, model) = (
        vehicles[0]["make"].as_str().expect("make"),
        vehicles[0]["model"].as_str().expect("model"),
    );
    let month = state()
        .site()
        .index()
        .market()
        .reports
        .keys()
        .next()
        .cloned()
        .expect("a month's report");
    let mut urls: Vec<String> = (0..3)
        .map(|at| format!("/api/v1/vehicles/{}", id(at * 7)))
        .collect();
    urls.extend([
        format!("/api/v1/compare?ids={},{}", id(1), id(2)),
        format!(
            "/api/v1/compare?ids={},{},{},{}",
            id(3),
            id(4),
            id(5),
            id(6)
        ),
        "/api/v1/vehicles?sort=name&limit=7&offset=3".to_owned(),
        "/api/v1/vehicles?limit=100".to_owned(),
        format!(
            "/api/v1/vehicles?make={}&sort=price_desc",
            make.replace(' ', "%20")
        ),
        "/api/v1/deals?kind=price_drops&window=1d&sort=recent".to_owned(),
        format!(
            "/api/v1/models/prices?make={}&model={}&limit=5",
            make.replace(' ', "%20"),
            model.replace(' ', "%20")
        ),
        "/api/v1/reports".to_owned(),
        format!("/api/v1/reports/{month}"),
        "/api/v1/series".to_owned(),
        // Refused: the router's, with its error body.
        "/api/v1/vehicles/no-such-version".to_owned(),
        format!("/api/v1/vehicles/{}/", id(0)),
        format!("/api/v1/vehicles/{}/x", id(0)),
        "/api/v1/vehicles?limit=0".to_owned(),
        format!("/api/v1/compare?ids={}", id(0)),
        "/api/v1/reports/2026-13".to_owned(),
        "/api/v1/models/prices".to_owned(),
    ]);
    urls
}
