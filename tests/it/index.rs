//! The index against brute force: on random catalogues (seeded, with ties,
//! accents, unknown facts and every kind of deal), random valid queries of
//! every list operation answered by the edge (index, fixed answers, cache)
//! give the same members, order, totals and bytes as a plain evaluation of
//! the spec's rules written here, over the catalogue's vehicles; and after
//! a reload to another random catalogue, the same queries answer from it.
//! A mismatch fails with its seed and query.

pub mod oracle;
mod random;
mod shelf;

use std::path::Path;

use autoprecios::api::Index;
use autoprecios::api::facts::{Entry, Facts, IndexFile};
use autoprecios::api::index::{INDEX_FILE_PATH, PRICES_FILE_PATH, RECORDS_FILE_PATH};
use autoprecios::catalogue::Catalogue;
use autoprecios::edge::AppState;
use autoprecios::output::TreeWriter;
use axum::http::{Method, StatusCode};

use crate::harness::{BASE, send_to};
use random::Rng;

/// Catalogues per run, and queries per catalogue.
const CATALOGUES: u64 = 24;
const QUERIES: usize = 60;

/// Publishes `catalogue` as a tree the edge loads (its edge data only).
fn publish(catalogue: &Catalogue, out: &Path) {
    publish_edited(catalogue, out, |_| {});
}

/// Publishes `catalogue` as [`publish`] does, its edge data file as `edit`
/// leaves it.
fn publish_edited(
    catalogue: &Catalogue,
    out: &Path,
    edit: impl FnOnce(&mut IndexFile<Vec<Entry<&Facts, &str>>>),
) {
    let index = Index::from_catalogue(catalogue, BASE);
    let writer = TreeWriter::create(out, None, false).expect("staging");
    let mut file = index.to_file();
    edit(&mut file);
    writer
        .write_msgpack(
            INDEX_FILE_PATH,
            INDEX_FILE_PATH.trim_start_matches('/'),
            &file,
        )
        .expect("edge data");
    for (url, lines) in [
        (RECORDS_FILE_PATH, index.records_file()),
        (PRICES_FILE_PATH, index.prices_file()),
    ] {
        let lines = lines.expect("lines in memory");
        writer
            .write(url, &url[1..], "application/jsonl", lines.as_bytes())
            .expect(url);
    }
    writer
        .commit(autoprecios::output::DEFAULT_KEEP)
        .expect("publish");
}

/// Asks every query and compares with the oracle's answer.
async fn check(state: &AppState, catalogue: &Catalogue, queries: &[String], seed: u64) {
    for url in queries {
        let expected = oracle::answer(catalogue, url);
        let reply = send_to(state.clone(), Method::GET, url, &[]).await;
        let body = String::from_utf8_lossy(&reply.body);
        match expected {
            Ok(bytes) => {
                assert_eq!(reply.status, StatusCode::OK, "seed {seed}: {url}: {body}");
                if reply.body != bytes {
                    let at = reply
                        .body
                        .iter()
                        .zip(&bytes)
                        .take_while(|(a, b)| a == b)
                        .count();
                    let around = |text: &[u8]| {
                        String::from_utf8_lossy(&text[at.saturating_sub(120)..])
                            .chars()
                            .take(240)
                            .collect::<String>()
                    };
                    panic!(
                        "seed {seed}: {url}: the bytes differ from byte {at}:\n  edge:   …{}\n  oracle: …{}",
                        around(&reply.body),
                        around(&bytes)
                    );
                }
            }
            Err(status) => assert_eq!(reply.status, status, "seed {seed}: {url}: {body}"),
        }
    }
}

#[tokio::test]
async fn index_answers_equal_brute_force_also_after_a_reload() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let mut previous: Option<(AppState, Catalogue)> = None;
    for seed in 1..=CATALOGUES {
        let mut rng = Rng::new(seed);
        let catalogue = random::catalogue(&mut rng);
        let queries: Vec<String> = (0..QUERIES)
            .map(|_| random::query(&mut rng, &catalogue))
            .collect();
        publish(&catalogue, &out);
        let state = match previous.take() {
            // The same state, reloaded: its answers and cache are the new tree's.
            Some((state, old)) => {
                assert_ne!(old, catalogue, "seed {seed}: a new catalogue");
                state.reload().expect("reload");
                state
            }
            None => AppState::load(&out).expect("load"),
        };
        check(&state, &catalogue, &queries, seed).await;
        // Twice: the second time from the fixed answers and the cache.
        check(&state, &catalogue, &queries, seed).await;
        previous = Some((state, catalogue));
    }
}

/// A Summary in the edge data that is not JSON (checked beside the
/// indexing of the facts) fails the load, naming its version, as an
/// unsorted file does; the tree is not served.
#[test]
fn edge_data_that_does_not_hold_fails_the_load_naming_what() {
    let catalogue = random::catalogue(&mut Rng::new(7));
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let last = catalogue.vehicles.len() - 1;
    publish_edited(&catalogue, &out, |file| {
        file.vehicles[last].summary = "{\"id\":";
    });
    let err = format!("{:#}", AppState::load(&out).expect_err("a broken Summary"));
    let id = &catalogue.vehicles[last].id;
    assert!(
        err.contains(&format!("the Summary of {id:?} is not JSON")),
        "{err}"
    );
    publish_edited(&catalogue, &out, |file| file.vehicles.swap(0, 1));
    let err = format!("{:#}", AppState::load(&out).expect_err("unsorted"));
    assert!(err.contains("vehicles are not sorted by ID"), "{err}");
}

/// The oracle reads each version's facts as the index is built from them
/// (`Facts::of`, through the filter rows): here every fact a filter reads is
/// checked against the vehicle plainly, so a fact derived wrong fails
/// although both sides read it.
#[test]
fn the_facts_filters_read_say_what_the_vehicles_say() {
    use autoprecios::api::facts::Facts;

    for seed in 1..=CATALOGUES {
        let catalogue = random::catalogue(&mut Rng::new(seed));
        for v in &catalogue.vehicles {
            let f = Facts::of(v);
            let aeb = v
                .specs
                .as_ref()
                .and_then(|s| s.values.get("aebLowSpeed"))
                .and_then(serde_json::Value::as_bool);
            assert_eq!(
                (
                    &f.identity.make,
                    &f.identity.model,
                    &f.identity.trim,
                    &f.identity.trim_display
                ),
                (
                    &v.identity.make,
                    &v.identity.model,
                    &v.identity.trim,
                    &v.identity.trim_display
                ),
                "seed {seed}: {}",
                v.id
            );
            assert_eq!(
                (
                    f.identity.body_type,
                    f.identity.fuel,
                    f.identity.transmission,
                    f.drivetrain
                ),
                (
                    v.identity.body_type,
                    v.identity.fuel,
                    v.identity.transmission,
                    v.drivetrain
                ),
                "seed {seed}: {}",
                v.id
            );
            assert_eq!(
                (f.identity.seats, f.identity.airbags, f.aeb, f.has_specs),
                (v.identity.seats, v.identity.airbags, aeb, v.specs.is_some()),
                "seed {seed}: {}",
                v.id
            );
            assert_eq!(
                (f.current_price_usd, f.price_ars, f.comparison),
                (v.current_price_usd, v.price_ars, v.comparison),
                "seed {seed}: {}",
                v.id
            );
        }
    }
}

/// Issue 12's fourth case by hand: a new opportunity whose window also
/// holds a price drop ranks by the drop the response shows
/// (`recentChanges[window].changedAt`), not by the qualification record the
/// response does not show.
#[test]
fn new_opportunities_rank_by_the_change_the_response_shows() {
    use autoprecios::api::ops::deals::find_deals;
    use autoprecios::api::query::{DealSort, DealsQuery};
    use autoprecios::api::types::DealKind;
    use autoprecios::catalogue::RecentChanges;
    use autoprecios::time::parse_time;
    use autoprecios::vocab::{ChangeKind, Window};

    let mut rng = Rng::new(7);
    let mut catalogue = random::catalogue(&mut rng);
    let at = |text: &str| parse_time(text).expect("time");
    let mut versions = Vec::new();
    for (id, shown, hidden) in [
        // A: newly an opportunity on the 18th, then a drop on the 20th.
        (
            "a",
            (ChangeKind::PriceDrop, "2026-11-20T12:00:00Z"),
            "2026-11-18T12:00:00Z",
        ),
        // B: newly an opportunity on the 19th, no drop.
        (
            "b",
            (ChangeKind::NewOpportunity, "2026-11-19T12:00:00Z"),
            "2026-11-19T12:00:00Z",
        ),
    ] {
        let mut vehicle = random::vehicle(&mut rng, 0);
        vehicle.id = id.to_owned();
        vehicle.comparison.opportunity = true;
        vehicle.comparison.sufficient_history = true;
        vehicle.comparison.discount_pct = Some(7.25);
        let mut record = random::change(&mut rng);
        record.kind = shown.0;
        (record.changed_at, record.qualified_since) = match shown.0 {
            ChangeKind::PriceDrop => (Some(at(shown.1)), None),
            ChangeKind::NewOpportunity => (None, Some(at(shown.1))),
        };
        let mut qualified = record.clone();
        qualified.kind = ChangeKind::NewOpportunity;
        (qualified.changed_at, qualified.qualified_since) = (None, Some(at(hidden)));
        vehicle.recent_changes = RecentChanges::default();
        vehicle.recent_changes.set(Window::D7, Some(record));
        vehicle.new_opportunities = RecentChanges::default();
        vehicle.new_opportunities.set(Window::D7, Some(qualified));
        versions.push(vehicle);
    }
    catalogue.vehicles = versions;
    let index = Index::from_catalogue(&catalogue, BASE);
    for sort in [DealSort::Recent, DealSort::Recommended] {
        let query = DealsQuery {
            kind: DealKind::NewOpportunities,
            window: Window::D7,
            sort,
            ..DealsQuery::default()
        };
        let deals = find_deals(&index, &query).expect("deals");
        let ids: Vec<&str> = deals
            .data
            .vehicles
            .iter()
            .map(|v| v.facts.id.as_str())
            .collect();
        assert_eq!(
            ids,
            ["a", "b"],
            "{sort:?}: the drop of the 20th shows first"
        );
    }
}
