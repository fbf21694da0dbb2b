//! Edge stage, accepting connections: the HTTP/1.1 accept loop, each
//! connection then served by `edge::connection`. `axum::serve` takes no
//! settings, and hyper enforces its header deadline only with a timer, which
//! axum does not give it: a client sending its headers a byte at a time, or
//! idling on a keep-alive connection, held a connection (and a task) forever,
//! and headers were capped only by hyper's ~400 KB read buffer; a client
//! that stalled in the middle of a `/mcp` body held its connection forever
//! too. Here every connection gets a deadline for each request's headers and
//! a cap on their size, every request (body included) a deadline of its own,
//! and shutdown stops accepting, closes idle connections and lets in-flight
//! requests finish.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::{debug, error, warn};

use crate::edge::connection::{self, ConnectionLimits, Shared};
use crate::edge::shortcut::App;

/// Serves `app` on `listener` until `shutdown` resolves, then waits up to
/// the grace period for open connections to finish their requests. Each
/// connection starts in the fast lane (`edge::connection`).
pub async fn serve(
    listener: TcpListener,
    app: App,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let shared = Arc::new(Shared::new(app, limits));
    // Every connection holds a receiver until it ends: `closed` below is
    // the moment the last one did.
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => {
                // An answer goes out in one write; Nagle's algorithm would
                // hold its last segment until the client acknowledged the
                // ones before.
                if let Err(err) = stream.set_nodelay(true) {
                    debug!(%err, "setting TCP_NODELAY");
                }
                stream
            }
            Err(err) => {
                accept_failed(err).await;
                continue;
            }
        };
        tokio::spawn(connection::serve(
            stream,
            Arc::clone(&shared),
            stopping.clone(),
        ));
    }
    drop((listener, stopping));
    // No connection left to tell is no error.
    let _ = stop.send(true);
    if tokio::time::timeout(limits.shutdown_grace, stop.closed())
        .await
        .is_err()
    {
        warn!(
            grace_secs = limits.shutdown_grace.as_secs(),
            "connections still open after the grace period"
        );
    }
}

/// A failed accept: a connection reset before it was accepted costs nothing;
/// anything else (out of file descriptors) is logged and waited out rather
/// than retried in a busy loop.
async fn accept_failed(err: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        err.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    error!(%err, "accepting a connection; retrying in a second");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
