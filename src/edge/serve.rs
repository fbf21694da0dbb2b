//! Edge stage, connections: the HTTP/1.1 accept loop. `axum::serve` takes no
//! settings, and hyper enforces its header deadline only with a timer, which
//! axum does not give it: a client sending its headers a byte at a time, or
//! idling on a keep-alive connection, held a connection (and a task) forever,
//! and headers were capped only by hyper's ~400 KB read buffer; a client
//! that stalled in the middle of a `/mcp` body held its connection forever
//! too. Here every connection gets a deadline for each request's headers and
//! a cap on their size, every request (body included) a deadline of its own,
//! and shutdown stops accepting and lets in-flight requests finish.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::time::Duration;

use crate::edge::shortcut::App;
use axum::body::Body;
use axum::http::header::{self, HeaderValue};
use axum::http::{Request, StatusCode};
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::{Service, ServiceExt, service_fn};
use tracing::{debug, error, warn};

use crate::edge::http::{CACHE_ERROR, server_error_response};

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
    /// Time from the end of a request's headers to its answer, reading the
    /// body included; beyond it the client gets a JSON 408 and the
    /// connection closes. Longer than the handlers' own 20-second limit,
    /// which answers slow work with a 503 first.
    pub request_timeout: Duration,
    /// How long shutdown waits for in-flight requests.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionLimits {
    /// 10 s for headers (a browser sends them in one packet), 32 KiB of
    /// headers, 30 s per request and 35 s for in-flight requests at shutdown.
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: 32 * 1024,
            request_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(35),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then waits up to
/// the grace period for open connections to finish their requests.
pub async fn serve(
    listener: TcpListener,
    app: App,
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
        let service = with_deadline(app.clone(), limits.request_timeout);
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

/// `app` as a hyper service whose every request must be answered within
/// `deadline`, reading its body included. An answer the shortcut holds is
/// sent as it is (it is ready at once, and reads no body).
fn with_deadline(
    app: App,
    deadline: Duration,
) -> impl Service<Request<Incoming>, Response = Response, Error = Infallible, Future: Send> + Clone + Send
{
    service_fn(move |request: Request<Incoming>| {
        let answer = match app.held(&request) {
            Some(held) => Err(held),
            None => Ok(app.router().clone().oneshot(request.map(Body::new))),
        };
        async move {
            let answer = match answer {
                Err(held) => return Ok(held),
                Ok(answer) => answer,
            };
            match tokio::time::timeout(deadline, answer).await {
                Ok(answer) => answer,
                Err(_) => {
                    warn!(
                        timeout_secs = deadline.as_secs(),
                        "request not complete in time"
                    );
                    Ok(too_slow())
                }
            }
        }
    })
}

/// The answer to a request that took too long to arrive or to answer.
fn too_slow() -> Response {
    let mut response = server_error_response(
        StatusCode::REQUEST_TIMEOUT,
        "timeout",
        "the request took too long; retry",
    );
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_ERROR));
    response
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
