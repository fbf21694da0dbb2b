//! Loading and reloading: a missing or incompatible tree fails naming the
//! file; a new tree is swapped in; a broken one is refused and the old one
//! kept; symlinks cannot lead out of the tree.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use autoprecios::api::json::etag;
use autoprecios::edge::AppState;
use autoprecios::edge::loader::Loader;
use axum::http::{Method, StatusCode};
use serde_json::Value;

use crate::harness::send_to;
use crate::harness::{copy_tree, fixture, manifest_tag};

/// A private copy of the fixture tree.
fn tree_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    copy_tree(&fixture().out, &out);
    (dir, out)
}

/// Replaces the edge data with `data`, updates its manifest entry to match,
/// and gives the manifest a new modification time (`step` seconds on), as a
/// fresh `generate` run would.
fn publish(out: &Path, data: &[u8], step: u64) {
    fs::write(out.join("_edge/catalogue.msgpack"), data).expect("write edge data");
    let path = out.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&fs::read(&path).expect("manifest")).expect("json");
    for entry in manifest["files"].as_array_mut().expect("files") {
        if entry["url"] == "/_edge/catalogue.msgpack" {
            entry["etag"] = Value::from(manifest_tag("_edge/catalogue.msgpack", data));
        }
    }
    fs::write(&path, serde_json::to_vec(&manifest).expect("json")).expect("write manifest");
    let mtime = SystemTime::now() + Duration::from_secs(step);
    fs::File::options()
        .write(true)
        .open(&path)
        .expect("open")
        .set_modified(mtime)
        .expect("mtime");
}

/// The edge data with `edit` applied.
fn edited(original: &[u8], edit: impl Fn(&mut Value)) -> Vec<u8> {
    let mut data: Value = autoprecios::msgpack::from_read(original).expect("edge data");
    edit(&mut data);
    autoprecios::msgpack::to_vec(&data).expect("edge data")
}

async fn api_info(state: &AppState) -> Value {
    let reply = send_to(state.clone(), Method::GET, "/api/v1", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    reply.json()
}

#[tokio::test]
async fn a_new_tree_is_swapped_in_and_a_broken_one_refused() {
    let (_dir, out) = tree_copy();
    let state = AppState::load(&out).expect("load");
    let before = api_info(&state).await;
    let original = fs::read(out.join("_edge/catalogue.msgpack")).expect("edge data");
    assert!(
        !state.reload_if_changed().expect("unchanged"),
        "nothing to reload"
    );

    publish(&out, b"\xc1 not msgpack", 10);
    let err = state.reload_if_changed().expect_err("broken edge data");
    assert!(format!("{err:#}").contains("catalogue.msgpack"), "{err:#}");
    assert_eq!(api_info(&state).await, before, "the old tree still answers");
    assert!(
        !state.reload_if_changed().expect("reported once"),
        "a broken tree is not retried until it changes"
    );

    let moved = edited(&original, |data| {
        data["baseUrl"] = Value::from("https://moved.example")
    });
    publish(&out, &moved, 20);
    assert!(state.reload_if_changed().expect("valid tree"));
    let after = api_info(&state).await;
    assert!(
        after["documentationUrl"]
            .as_str()
            .is_some_and(|url| url.starts_with("https://moved.example/")),
        "{after}"
    );

    let future = edited(&original, |data| data["formatVersion"] = Value::from(99));
    publish(&out, &future, 30);
    let err = format!("{:#}", state.reload().expect_err("another format version"));
    assert!(
        err.contains("format version 99") && err.contains("catalogue.msgpack"),
        "{err}"
    );
    assert_eq!(api_info(&state).await, after);
}

/// What the server runs: the loader thread, asked at once (as on SIGHUP),
/// swaps in a new tree after refusing a broken one.
#[tokio::test]
async fn the_loader_thread_reloads_when_asked() {
    let (_dir, out) = tree_copy();
    let (state, loader) = Loader::start(out.clone(), 1 << 20).expect("start");
    let original = fs::read(out.join("_edge/catalogue.msgpack")).expect("edge data");
    let before = api_info(&state).await;

    publish(&out, b"\xc1 not msgpack", 10);
    let refused = loader.reload_and_wait().expect_err("a broken tree");
    assert!(
        format!("{refused:#}").contains("catalogue.msgpack"),
        "{refused:#}"
    );
    assert_eq!(api_info(&state).await, before, "the broken tree is refused");
    let moved = edited(&original, |data| {
        data["baseUrl"] = Value::from("https://moved.example")
    });
    publish(&out, &moved, 20);
    loader
        .reload_and_wait()
        .expect("the loader survives a broken tree and loads the next");
    let info = api_info(&state).await;
    assert!(
        info["documentationUrl"]
            .as_str()
            .is_some_and(|url| url.starts_with("https://moved.example/")),
        "{info}"
    );
    assert!(loader.reload_now(), "the loader still runs");
}

#[tokio::test]
async fn a_missing_or_mismatched_tree_fails_at_start_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = format!(
        "{:#}",
        AppState::load(&dir.path().join("nowhere")).expect_err("no tree")
    );
    assert!(err.contains("manifest.json"), "{err}");

    let (_copy, out) = tree_copy();
    fs::write(out.join("_edge/catalogue.msgpack"), b"{}").expect("write");
    let err = format!(
        "{:#}",
        AppState::load(&out).expect_err("edge data not the listed one")
    );
    assert!(
        err.contains("catalogue.msgpack") && err.contains("manifest"),
        "{err}"
    );

    fs::write(out.join("manifest.json"), b"[]").expect("write");
    let err = format!("{:#}", AppState::load(&out).expect_err("bad manifest"));
    assert!(err.contains("manifest.json"), "{err}");
}

/// A tree written before the edge data was MessagePack is refused with
/// what to do, not with a decoding error.
#[tokio::test]
async fn a_tree_of_an_older_format_asks_to_be_regenerated() {
    let (_copy, out) = tree_copy();
    let path = out.join("manifest.json");
    let manifest = fs::read_to_string(&path)
        .expect("manifest")
        .replace("\"/_edge/catalogue.msgpack\"", "\"/_edge/catalogue.json\"");
    fs::write(&path, manifest).expect("write manifest");
    let err = format!("{:#}", AppState::load(&out).expect_err("an older tree"));
    assert!(
        err.contains("catalogue.json") && err.contains("regenerate the tree"),
        "{err}"
    );
}

/// A tree whose edge data is tagged as an earlier version tagged it (by
/// SHA-256, not XXH3-128) is refused with what to do, not as a damaged
/// file.
#[tokio::test]
async fn a_tree_tagging_its_edge_data_by_sha256_asks_to_be_regenerated() {
    let (_copy, out) = tree_copy();
    let data = fs::read(out.join("_edge/catalogue.msgpack")).expect("edge data");
    let path = out.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&fs::read(&path).expect("manifest")).expect("json");
    let entry = manifest["files"]
        .as_array_mut()
        .expect("files")
        .iter_mut()
        .find(|entry| entry["url"] == "/_edge/catalogue.msgpack")
        .expect("the edge data's entry");
    assert_eq!(
        entry["etag"],
        manifest_tag("_edge/catalogue.msgpack", &data)
    );
    entry["etag"] = Value::from(etag(&data));
    fs::write(&path, serde_json::to_vec(&manifest).expect("json")).expect("write manifest");
    let err = format!("{:#}", AppState::load(&out).expect_err("an older tree"));
    assert!(
        err.contains("catalogue.msgpack") && err.contains("regenerate the tree"),
        "{err}"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn symlinks_cannot_lead_out_of_the_tree() {
    let (dir, out) = tree_copy();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "secret").expect("write");
    std::os::unix::fs::symlink(&secret, out.join("public/leak.txt")).expect("symlink");
    std::os::unix::fs::symlink(dir.path(), out.join("public/outside")).expect("symlink");
    let state = AppState::load(&out).expect("load");
    for uri in ["/leak.txt", "/outside/secret.txt"] {
        let reply = send_to(state.clone(), Method::GET, uri, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("secret"),
            "{uri}"
        );
    }
}

/// A static page is read once per loaded tree: a file changed on disk
/// afterwards is not what the tree serves until the tree is reloaded.
#[tokio::test]
async fn static_pages_come_from_the_loaded_tree_until_a_reload() {
    let (_dir, out) = tree_copy();
    let state = AppState::load(&out).expect("load");
    let page = |state: AppState| async move {
        let reply = send_to(state, Method::GET, "/metodologia", &[]).await;
        assert_eq!(reply.status, StatusCode::OK);
        let tag = reply.header("etag").to_owned();
        (reply.body, tag)
    };
    let (original, tag) = page(state.clone()).await;
    assert_eq!(tag, etag(&original));
    fs::write(out.join("public/metodologia/index.html"), b"<p>changed</p>").expect("write");
    assert_eq!(page(state.clone()).await, (original.clone(), tag.clone()));
    state.reload().expect("reload");
    let (changed, changed_tag) = page(state).await;
    assert_eq!(changed, b"<p>changed</p>");
    assert_eq!(changed_tag, etag(b"<p>changed</p>"));
}

/// A followed search after a new snapshot: a version whose price falls
/// within the budget is a new entry, and its drop another one, while what
/// the old tree answered is not served again (a new ETag).
#[tokio::test]
async fn a_followed_search_shows_what_a_new_snapshot_changed() {
    let (_dir, out) = tree_copy();
    let state = AppState::load(&out).expect("load");
    let original = fs::read(out.join("_edge/catalogue.msgpack")).expect("edge data");
    let data: Value = autoprecios::msgpack::from_read(&original[..]).expect("edge data");
    let vehicles = data["vehicles"].as_array().expect("vehicles");
    let mut prices: Vec<f64> = vehicles
        .iter()
        .filter_map(|v| v["facts"]["priceArs"].as_f64())
        .collect();
    prices.sort_by(f64::total_cmp);
    let budget = prices[prices.len() / 2].round();
    let (at, vehicle) = vehicles
        .iter()
        .enumerate()
        .find(|(_, v)| {
            v["facts"]["priceArs"].as_f64().is_some_and(|p| p > budget)
                && v["facts"]["windows"][2]["priceDrop"] == false
        })
        .expect("a version over the budget");
    let id = vehicle["facts"]["id"].as_str().expect("id");
    let record = send_to(
        state.clone(),
        Method::GET,
        &format!(
            "/api/v1/vehicles/{}",
            autoprecios::api::links::percent_encode(id)
        ),
        &[],
    )
    .await
    .json();
    let page =
        autoprecios::html::escape_xml(record["data"]["vehicle"]["url"].as_str().expect("url"));
    let feed = |state: AppState| async move {
        let reply = send_to(
            state,
            Method::GET,
            &format!("/buscar/feed.xml?maxPriceArs={budget}"),
            &[],
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);
        let tag = reply.header("etag").to_owned();
        (String::from_utf8(reply.body).expect("UTF-8"), tag)
    };
    let (before, before_tag) = feed(state.clone()).await;
    assert!(!before.contains(&format!("<id>{page}</id>")));
    let when = data["meta"]["catalogueObservedAt"]
        .as_str()
        .expect("time")
        .to_owned();
    let cheaper = edited(&original, |data| {
        let facts = &mut data["vehicles"][at]["facts"];
        facts["priceArs"] = Value::from(budget - 1.0);
        facts["windows"][2]["priceDrop"] = Value::from(true);
        facts["windows"][2]["dropPct"] = Value::from(5.0);
        facts["windows"][2]["recency"] = Value::from(when.clone());
    });
    publish(&out, &cheaper, 10);
    assert!(state.reload_if_changed().expect("a new tree"));
    let (after, after_tag) = feed(state).await;
    assert_ne!(after_tag, before_tag);
    assert!(
        after.contains(&format!("<id>{page}</id>")),
        "newly matching"
    );
    assert!(
        after.contains(&format!("<id>{page}#baja-{when}</id>")),
        "its drop"
    );
    assert_eq!(
        after.matches("<entry>").count(),
        before.matches("<entry>").count() + 2
    );
}
