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
            // Kept by its URL, and made again from its skeleton (an answer
            // kept whole lasts).
            let Some(again) = site.answers().by_url(site.index(), &url) else {
                continue;
            };
            if again.lasting() {
                continue;
            }
            assert_eq!(reply.status, StatusCode::OK, "seed {seed}: {url}");
            assert!(again.bytes == reply.body, "seed {seed}: {url}: the bytes");
            assert_eq!(again.etag, reply.header("etag"), "seed {seed}: {url}");
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

/// A walk through many list answers does not push out of the cache an
/// answer that cannot be made again from the index (a comparison): a list
/// answer is kept as its skeleton alone.
#[tokio::test]
async fn a_walk_through_lists_leaves_the_cache_to_other_answers() {
    let catalogue = (1..)
        .map(|seed| random::catalogue(&mut Rng::new(seed)))
        .find(|catalogue| catalogue.vehicles.len() >= 20)
        .expect("a catalogue of 20 versions");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    publish(&catalogue, &out);
    // About 700 KiB for whole answers, 256 KiB for the shelf.
    let state = AppState::load_with(&out, 1024 * 1024).expect("load");
    let ids = [&catalogue.vehicles[0].id, &catalogue.vehicles[1].id];
    let compare = format!("/api/v1/compare?ids={},{}", ids[0], ids[1]);
    let first = send_to(state.clone(), Method::GET, &compare, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    // 400 distinct pages of up to 20 or more Summaries: several MB whole.
    for sort in ["price_asc", "price_desc", "name", "discount_desc"] {
        for limit in 1..=100 {
            let url = format!("/api/v1/vehicles?sort={sort}&limit={limit}");
            let reply = send_to(state.clone(), Method::GET, &url, &[]).await;
            assert_eq!(reply.status, StatusCode::OK, "{url}");
        }
    }
    let site = state.site();
    let kept = site
        .answers()
        .by_url(site.index(), &compare)
        .expect("the comparison is still kept");
    assert!(kept.lasting(), "kept whole");
    assert!(kept.bytes == first.body);
}
