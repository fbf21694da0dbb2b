//! Edge stage, API routes: the seven operations of the spec, each parsing the
//! raw query string with `api::params` into a [`Question`] that the loaded
//! tree's answers (`edge::answers`) answer from memory, through the same
//! `api::endpoints` function, serializer and ETag as the static files.

use axum::Router;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use axum::routing::get;

use crate::api::ApiError;
use crate::api::params::{
    parse_compare, parse_deals, parse_model, parse_none, parse_search, parse_vehicle,
};
use crate::edge::answers::Question;
use crate::edge::http::{answer_response, respond_answer};
use crate::edge::state::AppState;

/// Path prefix of a vehicle's detail.
const VEHICLE_PREFIX: &str = "/api/v1/vehicles/";

/// The API routes. Only GET and HEAD reach them (the policy answers the rest).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1", get(api_info))
        .route("/api/v1/catalogue", get(catalogue))
        .route("/api/v1/vehicles", get(vehicles))
        .route("/api/v1/vehicles/{id}", get(vehicle))
        .route("/api/v1/deals", get(deals))
        .route("/api/v1/models/prices", get(model_prices))
        .route("/api/v1/compare", get(compare))
}

/// The raw (still percent-encoded) query string; the parsers decode it.
fn query(uri: &Uri) -> &str {
    uri.query().unwrap_or("")
}

/// Answers a request from the loaded tree's answers: a URL the manifest
/// lists exactly (a precomputed list) before any parsing, else the parsed
/// question.
fn answer(
    state: &AppState,
    uri: &Uri,
    question: impl FnOnce() -> Result<Question, ApiError>,
) -> Response {
    let site = state.site();
    let answers = site.answers();
    if let Some(answer) = uri
        .path_and_query()
        .and_then(|url| answers.listed(url.as_str()))
    {
        return answer_response(answer);
    }
    respond_answer(question().and_then(|question| answers.answer(site.index(), &question)))
}

async fn api_info(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_none(query(&uri)).map(|()| Question::ApiInfo)
    })
}

async fn catalogue(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_none(query(&uri)).map(|()| Question::Catalogue)
    })
}

async fn vehicles(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_search(query(&uri)).map(Question::Search)
    })
}

async fn deals(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_deals(query(&uri)).map(Question::Deals)
    })
}

async fn model_prices(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_model(query(&uri)).map(Question::Model)
    })
}

async fn compare(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        parse_compare(query(&uri)).map(Question::Compare)
    })
}

/// The ID is the raw path segment, percent-decoded by the parser rather
/// than by the router, so that every byte of an ID (`/` as `%2F`, `+`, `%`)
/// survives exactly once-decoded.
async fn vehicle(State(state): State<AppState>, uri: Uri) -> Response {
    answer(&state, &uri, || {
        let raw = uri.path().strip_prefix(VEHICLE_PREFIX).unwrap_or_default();
        parse_vehicle(raw, query(&uri)).map(Question::Vehicle)
    })
}
