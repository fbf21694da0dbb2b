//! Edge stage, API routes: a route per HTTP operation (`api::ops`), each
//! parsing the raw query string with `api::params` into a [`Question`] that
//! the loaded tree's answers (`edge::answers`) answer from memory, through
//! the same operation's function, serializer and ETag as the static files.

use axum::Router;
use axum::extract::State;
use axum::http::Uri;
use axum::routing::get;

use crate::api::ApiError;
use crate::api::ops::{Op, Question, operations};
use crate::edge::answers::Answer;
use crate::edge::state::AppState;

/// The API routes. Only GET and HEAD reach them (the policy answers the rest).
pub fn routes() -> Router<AppState> {
    operations().fold(Router::new(), |router, op| match op.spec().http {
        Some(http) => {
            let handler = move |State(state): State<AppState>, uri: Uri| async move {
                answer(&state, &uri, op)
            };
            router.route(http.path, get(handler))
        }
        None => router,
    })
}

/// Answers a request's parsed question from the loaded tree's answers,
/// and keeps the answer by the URL as asked, for the shortcut to find the
/// next time (`edge::shortcut`, which answers a URL held that way, or
/// spelt as `api::precomputed` spells it, before routing). Both the answer
/// and the error are responses (`edge::http`'s `IntoResponse`).
fn answer(state: &AppState, uri: &Uri, op: &'static dyn Op) -> Result<Answer, ApiError> {
    let site = state.site();
    let answers = site.answers();
    let url = uri.path_and_query().map(|url| url.as_str());
    let question = Question::of_request(op, uri.path(), uri.query().unwrap_or(""))?;
    answers.answer(site.index(), &question, url)
}
