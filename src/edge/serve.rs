//! Edge stage, connections: the HTTP/1.1 accept loop. `axum::serve` takes no
//! settings, and hyper enforces its header deadline only with a timer, which
//! axum does not give it: a client sending its headers a byte at a time, or
//! idling on a keep-alive connection, held a connection (and a task) forever,
//! and headers were capped only by hyper's ~400 KB read buffer. Here every
//! connection gets a deadline for each request's headers and a cap on their
//! size; shutdown stops accepting and lets in-flight requests finish.

use std::future::Future;
use std::io;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;
use tracing::{debug, error, warn};

/// The limits of every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Time a client has to send a request's line and headers, counted from
    /// when the server starts waiting for them, so it also closes keep-alive
    /// connections left idle.
    pub header_read_timeout: Duration,
    /// Largest request line plus headers, in bytes; a larger head gets a 431.
    /// Far above the spec's 4096-character query limit, so that a long query
    /// still gets the spec's 414.
    pub max_header_bytes: usize,
    /// How long shutdown waits for in-flight requests.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionLimits {
    /// 10 s for headers (a browser sends them in one packet), 32 KiB of
    /// headers, 30 s for in-flight requests at shutdown (above the 20 s
    /// request timeout).
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: 32 * 1024,
            shutdown_grace: Duration::from_secs(30),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then waits up to
/// the grace period for open connections to finish their requests.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(limits.max_header_bytes);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) => {
                accept_failed(err).await;
                continue;
            }
        };
        let service = app
            .clone()
            .map_request(|request: Request<Incoming>| request.map(Body::new));
        let connection =
            builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                // Timeouts, oversized heads and resets: the client's doing.
                debug!(%err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
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
