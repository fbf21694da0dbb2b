//! The shelf (`edge::skeleton`): a list answer kept as its skeleton and
//! fleshed out again is the computed answer to the byte, with its ETag;
//! and a skeleton cuts out a Summary only where its bytes are exactly there.

use autoprecios::catalogue::Catalogue;
use autoprecios::edge::AppState;
use autoprecios::edge::skeleton::Skeleton;
use axum::http::{Method, StatusCode};

use super::Rng;
use super::random;
use super::{QUERIES, publish};
use crate::harness::send_to;

#[tokio::test]
async fn a_shelved_answer_is_the_computed_answer_to_the_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let mut shelved = 0;
    for seed in 1..=6 {
        let mut rng = Rng::new(seed);
        let catalogue = random::catalogue(&mut rng);
        publish(&catalogue, &out);
        let state = AppState::load(&out).expect("load");
        let site = state.site();
        for _ in 0..QUERIES {
            let url = random::query(&mut rng, &catalogue);
            let reply = send_to(state.clone(), Method::GET, &url, &[]).await;
            let Some(again) = site.answers().shelved(site.index(), &url) else {
                continue;
            };
            assert_eq!(reply.status, StatusCode::OK, "seed {seed}: {url}");
            assert!(again.bytes == reply.body, "seed {seed}: {url}: the bytes");
            assert_eq!(again.etag, reply.header("etag"), "seed {seed}: {url}");
            assert!(!again.lasting(), "seed {seed}: {url}: made for one request");
            shelved += 1;
        }
    }
    // Most random queries are pages of several versions.
    assert!(shelved > QUERIES, "only {shelved} answers were shelved");
}

/// Bytes that look like Summaries but are not cut: a known ID whose
/// Summary differs, an unknown ID, an ID that does not end; the real
/// Summaries around them are cut, and the bytes come back whole.
#[test]
fn a_skeleton_cuts_exactly_the_summaries_and_gives_the_bytes_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let catalogue: Catalogue = random::catalogue(&mut Rng::new(3));
    publish(&catalogue, &out);
    let state = AppState::load(&out).expect("load");
    let site = state.site();
    let index = site.index();
    let (first, second) = (index.summary_json(0), index.summary_json(1));
    let id = &catalogue.vehicles[0].id;
    let bytes = format!(
        "{{\"data\":[{first},{{\"id\":\"{id}\",\"other\":1}},{second},{{\"id\":\"no-such-version\"}},{first}],\"tail\":\"{{\\\"id\\\":\\\"{{\"id\":\"{id}"
    );
    let skeleton = Skeleton::of(bytes.as_bytes(), index).expect("mostly Summaries");
    assert_eq!(skeleton.summaries(), 3);
    assert_eq!(skeleton.flesh(index), bytes.as_bytes());
    assert!(skeleton.weight() * 2 < bytes.len());

    // A page with no Summary, or mostly other bytes, keeps no skeleton.
    assert!(Skeleton::of(b"{\"data\":[]}", index).is_none());
    let padded = format!("{first}{}", " ".repeat(first.len()));
    assert!(Skeleton::of(padded.as_bytes(), index).is_none());
}
