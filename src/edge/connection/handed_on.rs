//! Edge stage, a connection handed on: hyper and the router serve the rest
//! of it, from the bytes the fast lane read, within the connection's limits
//! (`http1::Builder` in [`Shared`]) and each request's deadline.

use std::convert::Infallible;
use std::pin::pin;
use std::time::Duration;

use axum::body::Body;
use axum::http::header::{self, HeaderValue};
use axum::http::{Request, StatusCode};
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::watch;
use tower::{Service, ServiceExt, service_fn};
use tracing::{debug, warn};

use super::Shared;
use super::rewound::Rewound;
use crate::edge::http::{CACHE_ERROR, server_error_response};
use crate::edge::shortcut::App;

/// hyper serves the rest of the connection `stream`, through the router.
pub(super) async fn serve<S>(stream: Rewound<S>, shared: &Shared, mut stop: watch::Receiver<bool>)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = with_deadline(shared.app.clone(), shared.limits.request_timeout);
    let connection = shared
        .http1
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    let mut connection = pin!(connection);
    let stopping = *stop.borrow_and_update();
    let ended = if stopping {
        None
    } else {
        tokio::select! {
            ended = connection.as_mut() => Some(ended),
            _ = stop.changed() => None,
        }
    };
    let ended = match ended {
        Some(ended) => ended,
        None => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(err) = ended {
        // Timeouts, oversized heads and resets: the client's doing.
        debug!(%err, "connection ended with an error");
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
