//! Edge stage, the shortcut: a GET or HEAD of an API answer is answered
//! before routing, through the same policy ([`Asked`]) as every other
//! request, so its response is the router's to the byte. The answer is one
//! the loaded tree holds (a fixed answer, computed at load, or one an
//! earlier request kept by its URL, [`Answers::by_url`]) or, for a URL of
//! an API operation ([`op_at`]), the one its handler would give, computed
//! now and kept ([`Answers::answer`]).
//!
//! Why: the router's layers (the request log, the overload bound, the
//! panic guard, the policy's middleware) each clone a boxed service and
//! box a future per request; for an answer that is already bytes that
//! was most of its cost, and nginx serving the same bytes from a file
//! was the faster; for a computed one (a vehicle's detail, a comparison)
//! it was a large part of its time, and it was what kept the connections'
//! fast lane from answering it (BENCHMARKS.md, "The edge against nginx
//! and Datasette"). What the shortcut leaves out is not needed there: an
//! answer is finished within the call, so it holds no slot of the
//! overload bound (a computed one would hold one only while it computes,
//! on a worker thread no other request could use meanwhile); the
//! handler's time limit could not interrupt it either. A panic while
//! computing leaves the answer to the router, which computes it again
//! under its guard: a JSON 500.
//!
//! Everything else goes to the router: another method, a byte range (the
//! policy reads the body to cut it), a refusal (a query over the limit),
//! an error (its body and headers are the router's to make), a URL of no
//! API operation. The request log writes the same line for both
//! ([`LogLine`]).
//!
//! [`Answers::by_url`]: crate::edge::answers::Answers::by_url
//! [`Answers::answer`]: crate::edge::answers::Answers::answer

use std::convert::Infallible;
use std::future::{Ready, ready};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::Router;
use axum::extract::Request;
use axum::http::Method;
use axum::http::uri::PathAndQuery;
use axum::response::Response;
use axum::routing::future::RouteFuture;
use tower::Service;

use crate::api::ops::{Question, op_at};
use crate::edge::answers::Answer;
use crate::edge::http::answer_response;
use crate::edge::policy::Asked;
use crate::edge::request_log::LogLine;
use crate::edge::state::AppState;

/// The whole HTTP application: the shortcut, then the router.
#[derive(Debug, Clone)]
pub struct App {
    state: AppState,
    router: Router,
}

impl App {
    /// The application over `state` whose other requests `router` answers.
    pub fn new(state: AppState, router: Router) -> App {
        App { state, router }
    }

    /// The answer held for `request`, finished by the policy; `None` when
    /// the router must answer it.
    pub fn held<B>(&self, request: &axum::http::Request<B>) -> Option<Response> {
        held(&self.state, request)
    }

    /// The answer to exactly `url`, a path and query as sent: a fixed
    /// answer, one kept by its URL, or one computed now; `None` for an
    /// error or a URL of no API operation.
    pub fn answer_for(&self, url: &str) -> Option<Answer> {
        answer_for(&self.state, url)
    }

    /// The router, for a request the shortcut does not answer.
    pub fn router(&self) -> &Router {
        &self.router
    }
}

/// [`App::held`].
fn held<B>(state: &AppState, request: &axum::http::Request<B>) -> Option<Response> {
    let method = request.method();
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let asked = Asked::of(request);
    if !asked.is_plain() {
        return None;
    }
    let answer = answer_for(state, request.uri().path_and_query()?.as_str())?;
    let line = LogLine::start(request);
    let response = asked.finish_now(answer_response(answer));
    if let Some(line) = line {
        line.finish(&response);
    }
    Some(response)
}

/// [`App::answer_for`].
fn answer_for(state: &AppState, url: &str) -> Option<Answer> {
    let site = state.site();
    let answers = site.answers();
    if let Some(answer) = answers
        .listed(url)
        .or_else(|| answers.by_url(site.index(), url))
    {
        return Some(answer);
    }
    // An API operation's URL (a page or a file is not: it goes on without
    // parsing), as the router would see it: hyper's reading of the request
    // target (one it would refuse, or one with a fragment, is the router's).
    let op = op_at(url.split(['?', '#']).next().unwrap_or(url))?;
    let parsed = PathAndQuery::try_from(url).ok()?;
    if parsed.as_str() != url {
        return None;
    }
    let (path, query) = (parsed.path(), parsed.query().unwrap_or(""));
    let question = Question::of_request(op, path, query).ok()?;
    let computed = catch_unwind(AssertUnwindSafe(|| {
        answers.answer(site.index(), &question, Some(url))
    }));
    computed.ok()?.ok()
}

impl Service<Request> for App {
    type Response = Response;
    type Error = Infallible;
    type Future = Answering;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Service::<Request>::poll_ready(&mut self.router, cx)
    }

    fn call(&mut self, request: Request) -> Answering {
        match held(&self.state, &request) {
            Some(response) => Answering::Held(ready(Ok(response))),
            None => Answering::Routed(self.router.call(request)),
        }
    }
}

/// The response future of [`App`]: a held answer, ready at once, or the
/// router's.
pub enum Answering {
    /// Answered by the shortcut.
    Held(Ready<Result<Response, Infallible>>),
    /// Answered by the router.
    Routed(RouteFuture<Infallible>),
}

impl Future for Answering {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Answering::Held(held) => Pin::new(held).poll(cx),
            Answering::Routed(routed) => Pin::new(routed).poll(cx),
        }
    }
}
