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
async fn every_detail_and_comparison_is_its_typed_answer_serialized() {
    // The edge puts records into their envelope as the records file holds
    // them, without serde (`api::ops::vehicle`, `api::ops::compare`): the
    // bytes must be the typed answer's, for every version and for
    // comparisons of 2 to 4 of them, read from the file as the edge reads it.
    let site = crate::harness::state().site();
    let index = site.index();
    let ids: Vec<&str> = crate::harness::edge_vehicles()
        .iter()
        .map(|vehicle| vehicle["id"].as_str().expect("an ID"))
        .collect();
    assert!(ids.len() > 20, "{} versions", ids.len());
    let same = |reply: &crate::harness::Reply, typed: Vec<u8>, what: &str| {
        assert_eq!(reply.status, StatusCode::OK, "{what}");
        assert!(
            reply.body == typed,
            "{what}: the answer differs from its typed answer"
        );
        assert_eq!(reply.header("etag"), etag(&reply.body), "{what}");
    };
    for id in &ids {
        let typed = autoprecios::api::ops::vehicle::get_vehicle(index, id).expect("published");
        let reply = get(&format!("/api/v1/vehicles/{id}")).await;
        same(&reply, autoprecios::api::json::to_json_bytes(&typed), id);
    }
    for (start, count) in (0..ids.len()).zip([2, 3, 4].into_iter().cycle()) {
        let compared: Vec<&str> = ids
            .iter()
            .cycle()
            .skip(start)
            .take(count)
            .copied()
            .collect();
        let query = autoprecios::api::query::CompareQuery {
            ids: compared.iter().map(|id| (*id).to_owned()).collect(),
            commas_separate: true,
        };
        let typed =
            autoprecios::api::ops::compare::compare_vehicles(index, &query).expect("published");
        let list = compared.join(",");
        let reply = get(&format!("/api/v1/compare?ids={list}")).await;
        same(&reply, autoprecios::api::json::to_json_bytes(&typed), &list);
    }
}
