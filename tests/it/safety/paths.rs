//! Traversal attempts beyond those of `edge/files.rs`: through the vehicle
//! route, overlong UTF-8 and other decoders' spellings of `..`, symlinks
//! inside the tree, and raw request targets that no HTTP client library
//! would send, on a real socket. None may reveal a byte from outside the tree.

use std::fs;

use autoprecios::edge::{AppState, ConnectionLimits};
use axum::http::{Method, StatusCode};

use super::Server;
use crate::harness::{copy_tree, fixture};
use crate::harness::{get, send_to, state};

/// Text planted beside the tree: no answer may contain it.
const SECRET: &str = "SECRET-OUTSIDE-THE-TREE-7f3a";

fn assert_refused(status: StatusCode, body: &[u8], what: &str) {
    assert!(
        matches!(status, StatusCode::NOT_FOUND | StatusCode::BAD_REQUEST),
        "{what}: {status}"
    );
    let text = String::from_utf8_lossy(body);
    for leaked in [SECRET, "\"files\":", "[package]", "root:x:0:0"] {
        assert!(!text.contains(leaked), "{what}: leaked {leaked:?}");
    }
}

#[tokio::test]
async fn the_vehicle_route_never_reads_files() {
    for uri in [
        "/api/v1/vehicles/..%2F..%2Fmanifest.json",
        "/api/v1/vehicles/..%2F..%2F..%2FCargo.toml",
        "/api/v1/vehicles/%2e%2e",
        "/api/v1/vehicles/..",
        "/api/v1/vehicles/%2e%2e%2f_edge%2fcatalogue.msgpack",
        "/api/v1/vehicles/..%5c..%5cmanifest.json",
        "/api/v1/vehicles/%00",
        "/api/v1/vehicles/%c0%ae%c0%ae%2fmanifest.json",
    ] {
        let reply = get(uri).await;
        assert_refused(reply.status, &reply.body, uri);
        if reply.status == StatusCode::NOT_FOUND {
            assert_eq!(reply.json()["error"]["code"], "not_found", "{uri}");
        }
    }
}

#[tokio::test]
async fn other_spellings_of_dot_dot_are_refused() {
    for uri in [
        "/%c0%ae%c0%ae/%c0%ae%c0%ae/Cargo.toml",
        "/%e0%80%ae%e0%80%ae/Cargo.toml",
        "/%c0%af..%c0%afCargo.toml",
        "/%u002e%u002e/Cargo.toml",
        "/..;/Cargo.toml",
        "/.%2e/Cargo.toml",
        "/%2e./Cargo.toml",
        "/%2E%2e%2F%2e%2E%2FCargo.toml",
        "/developers/..",
        "/developers/.",
        "/developers/%2e",
        "/developers/index.html/..",
        "/%2e%2e%5c%2e%2e%5cCargo.toml",
        "/developers%2f..%2f..%2fCargo.toml",
        "/developers/%0a../Cargo.toml",
        "/.git/config",
        "/output.previous/manifest.json",
    ] {
        for method in [Method::GET, Method::HEAD] {
            let reply = send_to(state(), method.clone(), uri, &[]).await;
            assert_refused(reply.status, &reply.body, &format!("{method} {uri}"));
        }
    }
}

/// A copy of the fixture tree with a secret beside it and symlinks inside it
/// that point at the secret, at its directory and at `/etc`.
fn tree_with_symlinks() -> (tempfile::TempDir, AppState) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("output");
    copy_tree(&fixture().out, &root);
    fs::write(dir.path().join("secret.txt"), SECRET).expect("secret");
    fs::create_dir_all(dir.path().join("private")).expect("mkdir");
    fs::write(dir.path().join("private/index.html"), SECRET).expect("secret page");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(dir.path().join("secret.txt"), root.join("public/leak.txt")).expect("symlink");
        symlink(dir.path().join("private"), root.join("public/private")).expect("symlink");
        symlink("/etc", root.join("public/etc")).expect("symlink");
        symlink(
            dir.path().join("secret.txt"),
            root.join("public/developers/leak.html"),
        )
        .expect("symlink");
    }
    let state = AppState::load(&root).expect("load the copy");
    (dir, state)
}

#[tokio::test]
async fn symlinks_out_of_the_tree_are_not_followed() {
    let (_dir, state) = tree_with_symlinks();
    for uri in [
        "/leak.txt",
        "/private",
        "/private/",
        "/private/index.html",
        "/etc/passwd",
        "/etc/hostname",
        "/developers/leak",
        "/developers/leak.html",
    ] {
        let reply = send_to(state.clone(), Method::GET, uri, &[]).await;
        assert_refused(reply.status, &reply.body, uri);
    }
    let fine = send_to(state, Method::GET, "/developers", &[]).await;
    assert_eq!(
        fine.status,
        StatusCode::OK,
        "the rest of the copy is served"
    );
}

#[test]
fn raw_request_targets_on_a_socket_stay_in_the_tree() {
    let (_dir, state) = tree_with_symlinks();
    let server = Server::start(state, ConnectionLimits::default());
    for target in [
        "/../secret.txt",
        "/../../../../etc/passwd",
        "/..\\secret.txt",
        "/%2e%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/%252e%252e/secret.txt",
        "/developers/../../secret.txt",
        "/./../secret.txt",
        "//../secret.txt",
        "/api/v1/../../secret.txt",
        "/leak.txt",
        "../secret.txt",
        "http://127.0.0.1/../secret.txt",
        "/secret.txt%00.html",
    ] {
        let request =
            format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let answer = server.raw(request.as_bytes());
        let status_line = answer.lines().next().unwrap_or_default();
        assert!(
            status_line.contains(" 404 ") || status_line.contains(" 400 "),
            "{target}: {status_line:?}"
        );
        assert!(!answer.contains(SECRET), "{target}: the secret leaked");
        assert!(
            !answer.contains("root:x:0:0"),
            "{target}: /etc/passwd leaked"
        );
    }
}
