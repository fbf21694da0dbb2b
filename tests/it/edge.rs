//! The edge server through `app(state).oneshot(...)`, no socket: parity with
//! every precomputed API file, the HTTP contract (statuses, bodies, headers,
//! limits), orderings and paging, filters against a brute-force reading of
//! the edge data, static files and path traversal, reloads.

mod composed;
mod files;
mod filters;
mod headers;
mod ordering;
mod protocol;
mod reload;

use std::fs;

use autoprecios::api::json::etag;
use axum::http::StatusCode;

use crate::harness::{fixture, get};

#[tokio::test]
async fn every_precomputed_api_file_has_the_same_bytes_and_etag_live() {
    let fixture = fixture();
    let mut checked = Vec::new();
    for entry in fixture
        .manifest
        .files
        .iter()
        // The CDN's 404 body is a file, not an API resource (edge::files).
        .filter(|entry| entry.url.starts_with("/api/") && entry.url != "/api/404.json")
    {
        let file = fs::read(fixture.out.join(&entry.file)).expect("file");
        let reply = get(&entry.url).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", entry.url);
        assert!(
            reply.body == file,
            "{}: the live bytes differ from {}",
            entry.url,
            entry.file
        );
        assert_eq!(reply.header("etag"), entry.etag, "{}", entry.url);
        assert_eq!(reply.header("etag"), etag(&file), "{}", entry.url);
        assert_eq!(
            reply.header("content-type"),
            entry.content_type,
            "{}",
            entry.url
        );
        checked.push(entry.url.as_str());
    }
    // The API's files are the operations table's (API info and the
    // catalogue): a detail is not a file (`render::api`).
    let mut files: Vec<&str> = autoprecios::api::ops::http_operations()
        .filter_map(|(_, http)| http.file())
        .map(|(path, _)| path)
        .collect();
    checked.sort_unstable();
    files.sort_unstable();
    assert_eq!(checked, files);
}

#[tokio::test]
async fn every_detail_is_its_typed_answer_serialized() {
    // The edge puts a record into its envelope as the records file holds
    // it, without serde (`api::ops::vehicle`): the bytes must be the typed
    // answer's, for every version, read from the file as the edge reads it.
    let site = crate::harness::state().site();
    let index = site.index();
    let vehicles = crate::harness::edge_vehicles();
    assert!(vehicles.len() > 20, "{} versions", vehicles.len());
    for vehicle in vehicles {
        let id = vehicle["id"].as_str().expect("an ID");
        let typed = autoprecios::api::ops::vehicle::get_vehicle(index, id).expect("published");
        let reply = get(&format!("/api/v1/vehicles/{id}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{id}");
        assert!(
            reply.body == autoprecios::api::json::to_json_bytes(&typed),
            "{id}: the detail differs from its typed answer"
        );
        assert_eq!(reply.header("etag"), etag(&reply.body), "{id}");
    }
}
