//! Edge stage, a connection: the fast lane first, then hyper.
//!
//! Every connection starts in the fast lane. A request for an API answer
//! (what the shortcut answers, [`App::answer_for`]: a GET or HEAD of a URL
//! whose answer the tree holds or computes, plain to the policy) is read
//! with `httparse`, hyper's own parser, and answered with the response the
//! policy made for that answer and form the first time ([`Answer::wire`],
//! encoded as hyper encodes it, `wire`): one write of the head, a fresh
//! `Date` line and the body. The first request the lane does not answer
//! (an error, a file, a page, MCP), or cannot read, hands
//! the connection on to hyper and the router, with every byte read so far,
//! for the rest of its life; hyper then answers it as it always did (a 400,
//! a 431, a body read, an upgrade).
//!
//! Why: for an answer that is already bytes, hyper's per-response work
//! (building and hashing the header map, encoding a dozen headers, its
//! dispatcher) was most of the cost, and nginx serving the same bytes from
//! a file was the faster (BENCHMARKS.md, "The edge against nginx and
//! Datasette"). The lane does none of it per request, and sends the bytes
//! hyper would: a test compares the two on the socket for every API URL
//! and form.
//!
//! A body of 16 KiB or more goes out from a file in memory with
//! `sendfile`, as nginx sends its files, rather than copied from the
//! process for each request (`outlet`, [`crate::edge::answer::BodyFile`]).
//!
//! What the lane reads: HTTP/1.1, GET or HEAD, no body (no
//! `Content-Length` or `Transfer-Encoding`), no `Expect` or `Upgrade`, no
//! `Connection` but `keep-alive` (which HTTP/1.1 means anyway), no byte
//! range. It keeps the connection's limits: the head's deadline (a
//! dripping or idle client is closed without an answer, as hyper does)
//! and its size (a longer head goes on to hyper, which answers 431).

mod handed_on;
mod outlet;
mod rewound;
pub mod wire;

use std::io;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::Method;
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper_util::rt::TokioTimer;
use tokio::io::AsyncReadExt;
use tokio::sync::watch;
use tokio::time::Instant;
use tracing::debug;

use crate::edge::answer::Wire;
use crate::edge::answers::Answer;
use crate::edge::policy::Asked;
use crate::edge::request_log::LogLine;
use crate::edge::shortcut::App;
pub use outlet::Outlet;
use rewound::Rewound;

/// The limits of every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Time a client has to send a request's line and headers, counted from
    /// when the server starts waiting for them, so it also closes keep-alive
    /// connections left idle (in the fast lane, up to an eighth longer: its
    /// timer is moved only when it would pass too soon).
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

/// Most header fields the lane reads in one head; a head with more goes on
/// to hyper (which takes up to 100).
pub const MAX_FIELDS: usize = 32;

/// Room made for each read of a head.
const READ_ROOM: usize = 4096;

/// Fields that change how a request is read or the connection kept: a
/// request with any of them goes on to hyper (but `Connection: keep-alive`).
const FRAMING: [HeaderName; 5] = [
    header::CONTENT_LENGTH,
    header::TRANSFER_ENCODING,
    header::CONNECTION,
    header::EXPECT,
    header::UPGRADE,
];

/// Fields the policy answers by ([`Asked::from_parts`]).
const POLICY: [HeaderName; 4] = [
    header::ACCEPT_ENCODING,
    header::IF_NONE_MATCH,
    header::RANGE,
    header::IF_RANGE,
];

/// What every connection shares: the application, the limits, and hyper's
/// settings for the connections handed on.
#[derive(Debug)]
pub struct Shared {
    app: App,
    limits: ConnectionLimits,
    http1: http1::Builder,
}

impl Shared {
    /// Connections to `app` within `limits`.
    pub fn new(app: App, limits: ConnectionLimits) -> Shared {
        let mut http1 = http1::Builder::new();
        http1
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read_timeout)
            .max_header_size(limits.max_header_bytes);
        Shared { app, limits, http1 }
    }
}

/// Serves the connection `stream` until it closes. When `stop` turns true
/// (or its sender goes), the connection closes once its request in flight
/// is answered.
pub async fn serve<S>(stream: S, shared: Arc<Shared>, mut stop: watch::Receiver<bool>)
where
    S: Outlet,
{
    let mut lane = Lane {
        stream,
        read: Vec::new(),
        shared: &shared,
    };
    match lane.run(&mut stop).await {
        Ok(Ended::Closed) => {}
        Ok(Ended::HandedOn) => {
            let Lane { stream, read, .. } = lane;
            handed_on::serve(Rewound::new(Bytes::from(read), stream), &shared, stop).await;
        }
        // A reset or a broken pipe: the client's doing.
        Err(err) => debug!(%err, "connection ended with an error"),
    }
}

/// How the lane ended.
enum Ended {
    /// The connection is to close: the client closed it, or its head's
    /// deadline passed, or the server is stopping.
    Closed,
    /// hyper is to go on with it, from the bytes read.
    HandedOn,
}

/// A connection in the fast lane: its stream and the bytes read from it
/// and not yet answered.
struct Lane<'a, S> {
    stream: S,
    read: Vec<u8>,
    shared: &'a Shared,
}

/// What the bytes read hold.
#[expect(
    clippy::large_enum_variant,
    reason = "on the stack for one request; boxing would allocate for each"
)]
enum Next {
    /// A request the lane answers, `length` bytes long, with its response
    /// and its request log line.
    Held {
        length: usize,
        wire: Wire,
        line: Option<LogLine>,
    },
    /// The start of a head.
    Partial,
    /// A request for hyper, or bytes it should refuse.
    NotHeld,
}

impl<S: Outlet> Lane<'_, S> {
    /// Answers requests until one is not the lane's or the connection is
    /// to close.
    async fn run(&mut self, stop: &mut watch::Receiver<bool>) -> io::Result<Ended> {
        let limits = self.shared.limits;
        let timeout = limits.header_read_timeout;
        // The head's deadline is moved only when it would pass too soon:
        // each head gets its timeout and at most an eighth more, and a busy
        // connection does not move a timer for every request.
        let slack = timeout / 8;
        let mut armed = Instant::now() + timeout + slack;
        let mut deadline = pin!(tokio::time::sleep_until(armed));
        loop {
            let due = Instant::now() + timeout;
            if due > armed {
                armed = due + slack;
                deadline.as_mut().reset(armed);
            }
            let (wire, line) = loop {
                match next(&self.read, &self.shared.app) {
                    Next::Held { length, wire, line } => {
                        self.read.drain(..length);
                        break (wire, line);
                    }
                    Next::NotHeld => return Ok(Ended::HandedOn),
                    Next::Partial if self.read.len() > limits.max_header_bytes => {
                        return Ok(Ended::HandedOn);
                    }
                    Next::Partial => {}
                }
                self.read.reserve(READ_ROOM);
                tokio::select! {
                    biased;
                    read = self.stream.read_buf(&mut self.read) => {
                        if read? == 0 {
                            return Ok(Ended::Closed);
                        }
                    }
                    () = deadline.as_mut() => return Ok(Ended::Closed),
                    _ = stop.changed() => return Ok(Ended::Closed),
                }
            };
            self.send(&wire).await?;
            if let Some(line) = line {
                line.finish_as(wire.status, wire.length.as_ref());
            }
            // The version alone, without the value's lock: the stop is the
            // only change it ever sees.
            if stop.has_changed().unwrap_or(true) {
                return Ok(Ended::Closed);
            }
        }
    }

    /// Writes `wire`'s head, today's `Date` and its body.
    async fn send(&mut self, wire: &Wire) -> io::Result<()> {
        let date = wire::date_line();
        self.stream
            .send([&wire.head, &date], &wire.body, wire.file.as_deref())
            .await
    }
}

/// Whether the fast lane answers the request at the start of `read` itself
/// (`Some(true)`) or hands it on to hyper (`Some(false)`); `None` while the
/// head is not all there.
pub fn answers_itself(app: &App, read: &[u8]) -> Option<bool> {
    match next(read, app) {
        Next::Held { .. } => Some(true),
        Next::NotHeld => Some(false),
        Next::Partial => None,
    }
}

/// What the bytes `read` start with, for `app`.
fn next(read: &[u8], app: &App) -> Next {
    let mut fields = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut request = httparse::Request::new(&mut fields);
    match request.parse(read) {
        Ok(httparse::Status::Complete(length)) => match held(&request, app) {
            Some((wire, line)) => Next::Held { length, wire, line },
            None => Next::NotHeld,
        },
        Ok(httparse::Status::Partial) => Next::Partial,
        Err(_) => Next::NotHeld,
    }
}

/// The response to `request` when the lane answers it, with its log line.
fn held(request: &httparse::Request, app: &App) -> Option<(Wire, Option<LogLine>)> {
    if request.version != Some(1) {
        return None;
    }
    let method = match request.method? {
        "GET" => Method::GET,
        "HEAD" => Method::HEAD,
        _ => return None,
    };
    let mut asked_by = HeaderMap::new();
    for field in request.headers.iter() {
        let named = |name: &HeaderName| field.name.eq_ignore_ascii_case(name.as_str());
        if FRAMING.iter().any(named) {
            let keep_alive =
                named(&header::CONNECTION) && field.value.eq_ignore_ascii_case(b"keep-alive");
            if !keep_alive {
                return None;
            }
        } else if let Some(name) = POLICY.iter().find(|name| named(name)) {
            asked_by.append(name.clone(), HeaderValue::from_bytes(field.value).ok()?);
        }
    }
    let target = request.path?;
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    let asked = Asked::from_parts(method.clone(), path, query, &asked_by);
    if !asked.is_plain() {
        return None;
    }
    let answer = app.answer_for(target)?;
    let line = LogLine::begin(&method, path, query);
    Some((wire_of(&answer, asked)?, line))
}

/// `answer`'s response to `asked`, encoded the first time its form is
/// asked for.
fn wire_of(answer: &Answer, asked: Asked) -> Option<Wire> {
    let form = asked.form(answer);
    answer.wire(form.number(), || wire::encode(answer, asked))
}
