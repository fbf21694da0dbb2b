//! Hostile catalogue data end to end: a sample snapshot whose published
//! versions get 160-character IDs full of URL and path syntax (`/`, `..`,
//! `%`, `?`, `#`, spaces, commas, `+`), non-ASCII text and case-only twins,
//! and trims with HTML, quotes, right-to-left text and emoji. The tree must
//! be complete, every ID must round-trip through the edge, and no page may
//! carry the raw markup.

use std::fs;
use std::sync::OnceLock;

use autoprecios::api::links::percent_encode;
use autoprecios::edge::AppState;
use autoprecios::sample::{SampleOptions, generate_sample};
use autoprecios::signals::is_published;
use autoprecios::snapshot::Snapshot;
use axum::http::{Method, StatusCode};
use serde_json::Value;

use crate::harness::Fixture;
use crate::harness::{Reply, manifest_tag, send_to};

/// Exactly the longest ID the spec allows.
const ID_CHARS: usize = 160;

/// Starts of the hostile IDs, each padded to [`ID_CHARS`] by [`pad`]. The
/// last two differ only in case.
const ID_STARTS: [&str; 9] = [
    "../../etc/passwd/..%2F..%2f",
    "a?b=c&d#frag ment %25 %zz %",
    "slash/inside/..\\back\\slash:colon;semi",
    "comma,separated,plus+sign,=equals",
    "Ñandú Citroën ÉÉÉ 日本語 🚗💨 العربية",
    "%2e%2e%2f%252e%00 nul-escape",
    "ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ",
    "CaseTwin-HILUX-SRV",
    "casetwin-hilux-srv",
];

/// Trims given to the hostile versions, in order.
const TRIMS: [&str; 7] = [
    "<script>alert(\"trim\")</script> 2.8 TDI",
    "\"><img src=x onerror=alert(1)> SRV",
    "' onmouseover='alert(2)' data-x=\"y\" & &amp; &lt;b&gt;",
    "\u{202e}TA 4x4\u{202c} مرحبا بالعالم ‏RTL‏",
    "🚗💨 Turbo 👨‍👩‍👧 👍🏽 </title><!-- -->",
    "{{ 7*7 }} {% raw %} ${7*7} </textarea></style>",
    "]]><![CDATA[ <svg onload=alert(3)>",
];

/// Pieces of the trims that only the raw markup contains: none may reach a
/// page or feed unescaped.
const RAW_MARKUP: [&str; 7] = [
    "<script>alert",
    "<img src=x",
    "<svg onload",
    // Single quotes may stay raw in JSON-LD; the double ones never do.
    "onmouseover='alert(2)' data-x=\"y\"",
    "</title><!--",
    "</textarea>",
    "]]><![CDATA[",
];

/// An ID from `start`, padded with a cycle of mixed characters to exactly
/// [`ID_CHARS`] characters (not bytes).
fn pad(start: &str) -> String {
    let filler = "-Xy.é~".chars().cycle();
    let mut id: String = start.chars().take(ID_CHARS).collect();
    let missing = ID_CHARS - id.chars().count();
    id.extend(filler.take(missing));
    id
}

/// The hostile IDs.
pub fn hostile_ids() -> Vec<String> {
    ID_STARTS.iter().map(|start| pad(start)).collect()
}

/// The hostile fixture: its tree and the (ID, trim) pairs.
pub struct Hostile {
    tree: Fixture,
    /// Every hostile version's ID and trim.
    pub versions: Vec<(String, String)>,
}

impl std::ops::Deref for Hostile {
    type Target = Fixture;

    /// The generated tree (`out`) and its manifest.
    fn deref(&self) -> &Fixture {
        &self.tree
    }
}

/// A sample snapshot whose first published versions get the hostile IDs and trims.
fn hostile_snapshot() -> (Snapshot, Vec<(String, String)>) {
    let mut snapshot = generate_sample(&SampleOptions {
        versions: 20,
        days: 120,
        ..SampleOptions::default()
    });
    let published: Vec<usize> = (0..snapshot.versions.len())
        .filter(|&i| {
            let meta = &snapshot.meta;
            is_published(
                &snapshot.versions[i],
                meta.catalogue_observed_at,
                meta.snapshot_at,
            )
        })
        .collect();
    let ids = hostile_ids();
    assert!(published.len() >= ids.len(), "enough published versions");
    let mut versions = Vec::new();
    for (n, (&i, id)) in published.iter().zip(ids).enumerate() {
        let trim = TRIMS[n % TRIMS.len()].to_owned();
        let version = &mut snapshot.versions[i];
        version.id = id.clone();
        version.identity.trim = trim.clone();
        version.identity.trim_display = Some(trim.clone());
        versions.push((id, trim));
    }
    snapshot.versions.sort_by(|a, b| a.id.cmp(&b.id));
    (snapshot, versions)
}

/// The hostile tree, generated once per test run.
pub fn hostile() -> &'static Hostile {
    static HOSTILE: OnceLock<Hostile> = OnceLock::new();
    HOSTILE.get_or_init(|| {
        let (snapshot, versions) = hostile_snapshot();
        Hostile {
            tree: Fixture::generated(&snapshot),
            versions,
        }
    })
}

/// The edge state over the hostile tree.
fn state() -> AppState {
    static STATE: OnceLock<AppState> = OnceLock::new();
    STATE
        .get_or_init(|| AppState::load(&hostile().out).expect("load the hostile tree"))
        .clone()
}

async fn get(uri: &str) -> Reply {
    send_to(state(), Method::GET, uri, &[]).await
}

/// Every byte percent-encoded, letters and digits included.
fn encode_every_byte(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02x}")).collect()
}

#[test]
fn the_ids_are_as_hostile_as_intended() {
    let ids = hostile_ids();
    assert!(ids.iter().all(|id| id.chars().count() == ID_CHARS));
    assert_eq!(ids[7].to_lowercase(), ids[8].to_lowercase(), "case twins");
    assert_ne!(ids[7], ids[8]);
    let all = ids.concat();
    for needle in ["/", "..", "%", "?", "#", " ", "\\", ",", "+", "é", "🚗"] {
        assert!(all.contains(needle), "{needle}");
    }
}

#[test]
fn the_hostile_tree_is_complete_and_every_etag_matches() {
    let hostile = hostile();
    assert_eq!(hostile.versions.len(), ID_STARTS.len());
    for entry in &hostile.manifest.files {
        let bytes = fs::read(hostile.out.join(&entry.file))
            .unwrap_or_else(|err| panic!("{} ({}): {err}", entry.url, entry.file));
        assert_eq!(
            manifest_tag(&entry.file, &bytes),
            entry.etag,
            "{}",
            entry.url
        );
        for segment in entry.file.split('/') {
            assert!(
                segment.len() <= 255 && segment != ".." && segment != ".",
                "{}",
                entry.file
            );
        }
    }
    // A detail is a file exactly when a CDN path carries its ID as it is:
    // URL-safe bytes, and no other ID equal ignoring case.
    for (id, _) in &hostile.versions {
        let url = format!("/api/v1/vehicles/{}", percent_encode(id));
        let safe = id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            && hostile
                .versions
                .iter()
                .filter(|(other, _)| other.eq_ignore_ascii_case(id))
                .count()
                == 1;
        let listed = hostile.manifest.files.iter().any(|e| e.url == url);
        assert_eq!(listed, safe, "{id:?}");
    }
}

#[tokio::test]
async fn every_hostile_id_round_trips_through_the_edge() {
    let hostile = hostile();
    for (id, trim) in &hostile.versions {
        let encoded = percent_encode(id);
        for uri in [
            format!("/api/v1/vehicles/{encoded}"),
            format!("/api/v1/vehicles/{}", encode_every_byte(id)),
        ] {
            let reply = get(&uri).await;
            assert_eq!(reply.status, StatusCode::OK, "{id:?} as {uri}");
            let vehicle = &reply.json()["data"]["vehicle"];
            assert_eq!(vehicle["id"], id.as_str(), "{uri}");
            assert_eq!(vehicle["trim"], trim.as_str(), "{uri}");
        }
        let url = format!("/api/v1/vehicles/{encoded}");
        if let Some(entry) = hostile.manifest.files.iter().find(|e| e.url == url) {
            let file = fs::read(hostile.out.join(&entry.file)).expect("file");
            assert!(get(&url).await.body == file, "{id:?}: live and file differ");
        }
    }
}

#[tokio::test]
async fn case_twins_are_two_vehicles() {
    let ids = hostile_ids();
    let (upper, lower) = (&ids[7], &ids[8]);
    let a = get(&format!("/api/v1/vehicles/{}", percent_encode(upper))).await;
    let b = get(&format!("/api/v1/vehicles/{}", percent_encode(lower))).await;
    assert_eq!(a.json()["data"]["vehicle"]["id"], upper.as_str());
    assert_eq!(b.json()["data"]["vehicle"]["id"], lower.as_str());
    assert_ne!(a.header("etag"), b.header("etag"));
}

#[tokio::test]
async fn compare_takes_hostile_ids() {
    let ids = hostile_ids();
    for pair in [[&ids[0], &ids[3]], [&ids[8], &ids[7]], [&ids[4], &ids[1]]] {
        let uri = format!(
            "/api/v1/compare?ids={},{}",
            percent_encode(pair[0]),
            percent_encode(pair[1])
        );
        let reply = get(&uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        let body = reply.json();
        let got: Vec<&str> = body["data"]["vehicles"]
            .as_array()
            .expect("vehicles")
            .iter()
            .map(|v| v["id"].as_str().expect("id"))
            .collect();
        assert_eq!(
            got,
            [pair[0].as_str(), pair[1].as_str()],
            "in the order asked"
        );
        // The same pair with every comma encoded, as URL builders send it:
        // an ID with commas is still one ID, the other comma separates.
        let encoded = format!(
            "/api/v1/compare?ids={}",
            percent_encode(&format!("{},{}", pair[0], pair[1]))
        );
        let again = get(&encoded).await;
        if !pair.iter().any(|id| id.contains(',')) {
            assert_eq!(again.body, reply.body, "{encoded}");
        }
        let share = body["data"]["url"].as_str().expect("url");
        assert!(
            share.ends_with(&format!(
                "?ids={},{}",
                percent_encode(pair[0]),
                percent_encode(pair[1])
            )),
            "{share}"
        );
    }
}

/// The first raw piece of markup in `text`, with what precedes it.
fn raw_markup_in(text: &str) -> Option<String> {
    RAW_MARKUP.iter().find_map(|raw| {
        let at = text.find(raw)?;
        let before: String = text[..at].chars().rev().take(120).collect();
        let before: String = before.chars().rev().collect();
        Some(format!("{raw:?} after {before:?}"))
    })
}

#[tokio::test]
async fn every_page_and_feed_is_served_and_free_of_raw_markup() {
    let hostile = hostile();
    let mut pages = 0;
    for entry in &hostile.manifest.files {
        let is_markup =
            entry.content_type.starts_with("text/html") || entry.content_type.contains("xml");
        if !is_markup {
            continue;
        }
        let text = fs::read_to_string(hostile.out.join(&entry.file)).expect("UTF-8 page");
        if let Some(found) = raw_markup_in(&text) {
            panic!("{} carries raw markup: {found}", entry.url);
        }
        let reply = get(&entry.url).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", entry.url);
        assert!(reply.body == text.as_bytes(), "{}", entry.url);
        pages += 1;
    }
    assert!(pages > 0, "no pages in the tree");
}

#[tokio::test]
async fn version_pages_show_the_trims_escaped() {
    let hostile = hostile();
    assert!(
        hostile
            .manifest
            .files
            .iter()
            .any(|e| e.url.starts_with("/versiones/")),
        "the hostile tree has version pages"
    );
    for (id, trim) in &hostile.versions {
        let detail = get(&format!("/api/v1/vehicles/{}", percent_encode(id))).await;
        let page_url = detail.json()["data"]["vehicle"]["url"]
            .as_str()
            .expect("url")
            .trim_start_matches(crate::harness::BASE)
            .to_owned();
        let page = get(&page_url).await;
        assert_eq!(page.status, StatusCode::OK, "{id:?}: {page_url}");
        let text = String::from_utf8(page.body).expect("UTF-8 page");
        let escaped = autoprecios::html::escape(trim);
        assert!(
            text.contains(&escaped),
            "{page_url}: trim not shown escaped"
        );
    }
}

/// The raw text of every hostile trim also survives in the JSON as itself.
#[tokio::test]
async fn trims_survive_unchanged_in_search_results() {
    let reply = get("/api/v1/vehicles?limit=100&sort=name").await;
    assert_eq!(reply.status, StatusCode::OK);
    let body: Value = reply.json();
    let trims: Vec<&str> = body["data"]["vehicles"]
        .as_array()
        .expect("vehicles")
        .iter()
        .filter_map(|v| v["trim"].as_str())
        .collect();
    for (_, trim) in &hostile().versions {
        assert!(trims.contains(&trim.as_str()), "{trim:?}");
    }
}

/// The pages the edge fills in (search results, comparisons of hostile
/// IDs through their shareable address) show every trim escaped and carry
/// no raw markup.
#[tokio::test]
async fn filled_in_search_and_compare_pages_escape_everything() {
    let hostile = hostile();
    let trims: Vec<&String> = hostile.versions.iter().map(|(_, trim)| trim).collect();
    let search = get("/buscar?limit=100&sort=name").await;
    assert_eq!(search.status, StatusCode::OK);
    let text = String::from_utf8(search.body).expect("UTF-8 page");
    if let Some(found) = raw_markup_in(&text) {
        panic!("/buscar carries raw markup: {found}");
    }
    for trim in &trims {
        assert!(text.contains(&autoprecios::html::escape(trim)), "{trim:?}");
    }
    let ids = hostile_ids();
    for pair in [[&ids[0], &ids[3]], [&ids[8], &ids[7]], [&ids[4], &ids[1]]] {
        let api = get(&format!(
            "/api/v1/compare?ids={},{}",
            percent_encode(pair[0]),
            percent_encode(pair[1])
        ))
        .await
        .json();
        let share = api["data"]["url"].as_str().expect("url");
        let path = share.trim_start_matches(crate::harness::BASE);
        let page = get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let text = String::from_utf8(page.body).expect("UTF-8 page");
        if let Some(found) = raw_markup_in(&text) {
            panic!("{path} carries raw markup: {found}");
        }
        assert_eq!(text.matches("<th scope=\"col\">").count(), 3, "{path}");
    }
}
