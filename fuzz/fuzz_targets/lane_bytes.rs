//! Fuzz target: the bytes a client sends on a connection, through the
//! edge's connection as it serves (the fast lane's reading with `httparse`,
//! its answers, the hand-on to hyper with the bytes read, the router) over
//! a real generated tree. Whatever the bytes: never a panic, and every
//! answer starts with an HTTP/1 status line.
//!
//! The tree comes from `AUTOPRECIOS_FUZZ_TREE` (fuzz/run.sh builds one).

#![no_main]

use std::sync::{Arc, OnceLock};

use autoprecios::edge::connection::{Shared, answers_itself, serve};
use autoprecios::edge::{App, ConnectionLimits};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

struct Harness {
    runtime: tokio::runtime::Runtime,
    app: App,
    shared: Arc<Shared>,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let (runtime, app) = autoprecios_fuzz::edge_over_tree();
        Harness {
            runtime,
            shared: Arc::new(Shared::new(app.clone(), ConnectionLimits::default())),
            app,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let harness = harness();
    let _ = answers_itself(&harness.app, data);
    let answer = harness.runtime.block_on(async {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (_stop, stopping) = watch::channel(false);
        let serving = tokio::spawn(serve(server, Arc::clone(&harness.shared), stopping));
        let (mut reading, mut writing) = tokio::io::split(client);
        let send = async {
            // The server may close first: what it read is what counts.
            let _ = writing.write_all(data).await;
            let _ = writing.shutdown().await;
        };
        let mut answer = Vec::new();
        let receive = reading.read_to_end(&mut answer);
        let (_, received) = tokio::join!(send, receive);
        received.expect("read the answer");
        serving.await.expect("the connection ends without a panic");
        answer
    });
    assert!(
        answer.is_empty() || answer.starts_with(b"HTTP/1."),
        "{:?}",
        String::from_utf8_lossy(&answer[..answer.len().min(80)])
    );
});
