//! Publishing: `generate` publishes a tree in one atomic step (a versioned
//! directory and a symbolic link replaced by a rename), so killing it at any
//! moment leaves a complete tree served; the edge serves the tree it loaded
//! until it reloads; old trees are pruned.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use autoprecios::edge::AppState;
use autoprecios::manifest::Manifest;
use axum::http::{Method, StatusCode};

use crate::harness::{Case, fixture};
use crate::harness::{manifest_tag, send_to};

/// Runs the real binary: `autoprecios generate` into `out` for `base`.
fn generate_command(out: &Path, base: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_autoprecios"));
    command
        .arg("generate")
        .arg("--data")
        .arg(&fixture().data)
        .arg("--out")
        .arg(out)
        .arg("--base-url")
        .arg(base)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    command
}

/// The manifest of the tree at `out`, after checking that every file it
/// lists is there with the bytes its ETag names.
fn complete_tree(out: &Path) -> Manifest {
    let bytes = fs::read(out.join("manifest.json")).expect("a manifest");
    let manifest: Manifest = serde_json::from_slice(&bytes).expect("manifest JSON");
    for entry in &manifest.files {
        let file = fs::read(out.join(&entry.file))
            .unwrap_or_else(|err| panic!("{} is listed but unreadable: {err}", entry.file));
        assert_eq!(
            manifest_tag(&entry.file, &file),
            entry.etag,
            "{}",
            entry.file
        );
    }
    manifest
}

#[tokio::test]
async fn killing_generate_at_any_moment_leaves_a_complete_tree_served() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("output");
    // The second of two runs times a warm one.
    let mut full = std::time::Duration::ZERO;
    for _ in 0..2 {
        let started = Instant::now();
        let status = generate_command(&out, "https://one.example")
            .status()
            .expect("run generate");
        assert!(status.success());
        full = started.elapsed();
    }
    assert!(
        fs::symlink_metadata(&out)
            .expect("output")
            .file_type()
            .is_symlink(),
        "output is a link to a versioned tree"
    );
    complete_tree(&out);
    let mut served = "https://one.example".to_owned();
    // Moments spread over a whole run and a little past it (seeded, so a
    // failure names the moment).
    let mut seed: u64 = 0x5EED;
    for round in 0..16 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let fraction = (seed >> 33) as f64 / (1u64 << 31) as f64;
        let moment = full.mul_f64(1.1 * fraction);
        let base = format!("https://t{round}.example");
        let mut child = generate_command(&out, &base).spawn().expect("spawn");
        std::thread::sleep(moment);
        let _ = child.kill();
        child.wait().expect("wait");
        let what = format!("round {round}, killed after {moment:?} (a full run: {full:?})");
        complete_tree(&out);
        let state = AppState::load(&out).unwrap_or_else(|err| panic!("{what}: {err:#}"));
        let reply = send_to(state, Method::GET, "/api/v1", &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{what}");
        // The tree is the one served before, or the new one whole.
        let documentation = reply.json()["documentationUrl"]
            .as_str()
            .expect("documentationUrl")
            .to_owned();
        let now = documentation.trim_end_matches("/developers").to_owned();
        assert!(now == served || now == base, "{what}: a tree for {now}");
        served = now;
    }
    // A kill can leave a tree that was never linked; the next complete run
    // keeps only the current tree and the two published before it.
    let status = generate_command(&out, "https://last.example")
        .status()
        .expect("run generate");
    assert!(status.success());
    complete_tree(&out);
    let trees = fs::read_dir(dir.path().join("output.trees"))
        .expect("trees")
        .count();
    assert!(trees <= 3, "{trees} trees kept");
}

/// `--keep N` keeps the N most recently published trees besides the new
/// one; publishing the same snapshot again keeps the tree to roll back to
/// (it used to delete it), and the tree the link pointed to is never
/// deleted, even with `--keep 0`.
#[test]
fn generate_keeps_the_trees_it_is_told_to_and_the_one_an_edge_may_serve() {
    let case = Case::new("publish", "keep").with_fixture_data();
    let out = case.out();
    let publish = |base: &str, keep: usize| -> String {
        case.generate(|options| {
            options.base_url = base.to_owned();
            options.keep = keep;
        })
        .expect("generate");
        let target = fs::read_link(&out).expect("a link");
        target
            .file_name()
            .expect("a tree")
            .to_string_lossy()
            .into_owned()
    };
    let trees = || -> std::collections::BTreeSet<String> {
        fs::read_dir(case.dir().join("output.trees"))
            .expect("trees")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    let a = publish("https://a.example", 1);
    let b = publish("https://b.example", 1);
    assert_eq!(trees(), [a.clone(), b.clone()].into());
    // The same snapshot again: b stays current and a stays to roll back to.
    assert_eq!(publish("https://b.example", 1), b);
    assert_eq!(trees(), [a.clone(), b.clone()].into());
    let c = publish("https://c.example", 1);
    assert_eq!(trees(), [b.clone(), c.clone()].into(), "a is the oldest");
    // Keep none: b goes, but c, which the link named until now, stays.
    let d = publish("https://d.example", 0);
    assert_eq!(trees(), [c, d].into());
}

#[tokio::test]
async fn the_edge_serves_the_tree_it_loaded_until_it_reloads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("output");
    let run = |base: &str| {
        let status = generate_command(&out, base).status().expect("generate");
        assert!(status.success());
    };
    run("https://before.example");
    let state = AppState::load(&out).expect("load");
    run("https://after.example");
    // Not requested before the new tree was published, so not cached: read
    // from the loaded tree's own directory.
    let page = |state: AppState| async move {
        let reply = send_to(state, Method::GET, "/metodologia", &[]).await;
        assert_eq!(reply.status, StatusCode::OK);
        String::from_utf8(reply.body).expect("UTF-8")
    };
    let before = page(state.clone()).await;
    assert!(before.contains("https://before.example"), "the loaded tree");
    assert!(!before.contains("https://after.example"));
    assert!(state.reload_if_changed().expect("the new tree loads"));
    let after = page(state).await;
    assert!(after.contains("https://after.example"), "the new tree");
}

/// What a publishing script relies on, through the real binary: `check
/// --max-age` fails on a stale snapshot and passes on a fresh enough one;
/// `generate` warns about a loopback edge origin behind a public site and
/// refuses it under `--strict`, before writing anything.
#[test]
fn stale_snapshots_and_loopback_edges_stop_a_publishing_script() {
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_autoprecios"))
            .args(args)
            .env("RUST_LOG", "warn")
            .output()
            .expect("run autoprecios");
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let data = fixture().data.to_str().expect("UTF-8 path").to_owned();
    let (ok, stderr) = run(&["check", &data, "--max-age", "1"]);
    assert!(
        !ok && stderr.contains("stale snapshot: snapshotAt 2026-11-21T23:40:00Z"),
        "{stderr}"
    );
    let (ok, stderr) = run(&["check", &data, "--max-age", "1000000"]);
    assert!(ok, "{stderr}");

    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("output");
    let out = out.to_str().expect("UTF-8 path");
    let public = [
        "generate",
        "--data",
        &data,
        "--out",
        out,
        "--base-url",
        "https://autoprecios.example",
    ];
    let (ok, stderr) = run(&[&public[..], &["--strict"]].concat());
    assert!(!ok && stderr.contains("refused under --strict"), "{stderr}");
    assert!(!dir.path().join("output").exists(), "nothing was published");
    let (ok, stderr) = run(&public);
    assert!(
        ok && stderr.contains("--edge-origin http://127.0.0.1:8080 is this machine"),
        "{stderr}"
    );
}

/// The same snapshot again keeps the published tree and takes the new run's
/// records (a first run records no month's sources; the next one does).
/// Over a tree changed since it was published (a page edited by hand), the
/// new tree, which has every file's published bytes, is published beside
/// it as `<id>-2` instead of being thrown away for the changed one; once
/// more, the same tree is `<id>-2` again.
#[test]
fn the_same_snapshot_over_a_changed_tree_publishes_the_new_tree() {
    let case = Case::new("publish", "changed").with_fixture_data();
    let out = case.out();
    let publish = || -> String {
        case.generate(|_| {}).expect("generate");
        let target = fs::read_link(&out).expect("a link");
        let name = target.file_name().expect("a tree");
        name.to_string_lossy().into_owned()
    };
    let id = publish();
    let record = || fs::read_to_string(out.join("datos-sources.json")).expect("the record");
    let first = record();
    assert_eq!(publish(), id);
    assert!(!first.contains("\"sources\""), "{first}");
    assert!(record().contains("\"sources\""), "the second run's record");
    let page = out.join("public/metodologia/index.html");
    let published = fs::read(&page).expect("the page");
    fs::write(&page, b"<p>edited</p>").expect("edit the live tree");
    let next = publish();
    assert_eq!(next, format!("{id}-2"));
    assert_eq!(fs::read(&page).expect("the page"), published);
    assert_eq!(
        publish(),
        next,
        "the same tree is kept, not published again"
    );
    let changed = case
        .dir()
        .join("output.trees")
        .join(&id)
        .join("public/metodologia/index.html");
    assert_eq!(
        fs::read(changed).expect("kept to roll back"),
        b"<p>edited</p>"
    );
}
