//! Path and header safety of the edge as a real server: traversal attempts
//! that `edge/files.rs` does not cover (through the API route, overlong
//! UTF-8, symlinks, raw request targets on a socket), the security headers
//! of the tree's `_headers` on every response and pages that need no inline script,
//! and connections: slow or idle clients cut off, oversized heads refused,
//! the fast lane sending what hyper sends.

mod connections;
mod lane;
mod paths;

use std::fs;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

use autoprecios::edge::serve::serve;
use autoprecios::edge::{AppState, ConnectionLimits, app};
use axum::http::StatusCode;
use tokio::sync::oneshot;

use crate::harness::fixture;
use crate::harness::get;

/// A real edge server on a loopback port, on its own runtime; stopped on drop.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `state` with `limits` on an ephemeral port.
    pub fn start(state: AppState, limits: ConnectionLimits) -> Server {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let shutdown = async move {
                    let _ = stopped.await;
                };
                serve(listener, app(state), limits, shutdown).await;
            });
        });
        Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// A connection to the server, with a read timeout as a guard: a test
    /// whose server never answers or closes fails instead of hanging.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("read timeout");
        stream
    }

    /// Sends `request` as it is and reads the whole answer (the request
    /// should say `Connection: close`).
    pub fn raw(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).expect("write");
        let mut answer = Vec::new();
        // A reset after the answer is fine: what was read is what was sent.
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The header values the tree's `_headers` sets for `/*` (lowercased names).
fn cdn_page_headers() -> Vec<(String, String)> {
    let text = fs::read_to_string(fixture().public.join("_headers")).expect("_headers");
    let mut lines = text.lines().skip_while(|line| *line != "/*").skip(1);
    let mut headers = Vec::new();
    while let Some(line) = lines.next().filter(|line| line.starts_with("  ")) {
        let (name, value) = line.trim().split_once(": ").expect("a header line");
        headers.push((name.to_ascii_lowercase(), value.to_owned()));
    }
    headers
}

#[tokio::test]
async fn every_response_carries_the_security_headers_the_cdn_sends() {
    let expected = cdn_page_headers();
    let names: Vec<&str> = expected.iter().map(|(name, _)| name.as_str()).collect();
    for wanted in [
        "x-content-type-options",
        "referrer-policy",
        "content-security-policy",
    ] {
        assert!(names.contains(&wanted), "_headers sets {wanted}");
    }
    for uri in [
        "/developers",
        "/",
        "/no/such/page",
        "/api/v1",
        "/api/v1/vehicles?limit=0",
        "/openapi.json",
    ] {
        let reply = get(uri).await;
        for (name, value) in &expected {
            assert_eq!(reply.header(name), value, "{uri}: {name}");
        }
    }
}

#[test]
fn the_content_security_policy_runs_no_inline_script() {
    let policy = cdn_page_headers()
        .into_iter()
        .find(|(name, _)| name == "content-security-policy")
        .map(|(_, value)| value)
        .expect("a policy");
    let scripts = policy
        .split(';')
        .map(str::trim)
        .find(|directive| directive.starts_with("script-src"))
        .expect("a script-src directive");
    assert!(!scripts.contains("'unsafe-inline'") && !scripts.contains("'unsafe-eval'"));
}

/// Every `<script ...>` opening tag of `html`.
fn script_tags(html: &str) -> Vec<&str> {
    html.match_indices("<script")
        .map(|(at, _)| &html[at..at + html[at..].find('>').unwrap_or(0)])
        .collect()
}

#[tokio::test]
async fn pages_work_under_that_policy() {
    let fixture = fixture();
    let mut pages = 0;
    for entry in &fixture.manifest.files {
        if !entry.content_type.starts_with("text/html") {
            continue;
        }
        let html = fs::read_to_string(fixture.out.join(&entry.file)).expect("page");
        for tag in script_tags(&html) {
            let data = tag.contains("type=\"application/json\"")
                || tag.contains("type=\"application/ld+json\"");
            assert!(
                data || tag.contains(" src="),
                "{}: inline script {tag}",
                entry.url
            );
        }
        let lower = html.to_ascii_lowercase();
        assert!(!lower.contains("javascript:"), "{}", entry.url);
        for handler in [
            " onclick=",
            " onload=",
            " onerror=",
            " onsubmit=",
            " onchange=",
        ] {
            assert!(!lower.contains(handler), "{}: {handler}", entry.url);
        }
        let reply = get(&entry.url).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", entry.url);
        pages += 1;
    }
    assert!(pages >= 2, "the docs pages at least");
}
