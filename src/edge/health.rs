//! Edge stage, health: `GET /healthz` for the host's checks (a load
//! balancer's, systemd's, a container platform's): which tree is loaded,
//! its snapshot times and size. Beside the site's policy and not subject to
//! shedding, so a busy server still says it is alive; never cached.

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::Response;
use serde::Serialize;

use crate::api::json::to_json_bytes;
use crate::edge::http::{CACHE_ERROR, bytes_response};
use crate::edge::state::AppState;
use crate::time::format_time;

/// Path of the endpoint.
pub const PATH: &str = "/healthz";

/// What `/healthz` answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Health<'a> {
    /// Always `ok`: the server answers and has a tree loaded.
    status: &'static str,
    /// The loaded tree: the hex SHA-256 of its manifest.
    tree: &'a str,
    /// `snapshotAt` of the loaded tree.
    snapshot_at: String,
    /// `catalogueObservedAt` of the loaded tree.
    catalogue_observed_at: String,
    /// Published versions.
    versions: usize,
    /// Whether the data is synthetic.
    synthetic: bool,
}

/// `GET /healthz` (and HEAD).
pub async fn healthz(State(state): State<AppState>) -> Response {
    let site = state.site();
    let meta = site.index().meta();
    let health = Health {
        status: "ok",
        tree: site.tree(),
        snapshot_at: format_time(meta.snapshot_at),
        catalogue_observed_at: format_time(meta.catalogue_observed_at),
        versions: site.index().len(),
        synthetic: meta.synthetic,
    };
    let mut response = bytes_response(
        StatusCode::OK,
        crate::edge::http::JSON,
        to_json_bytes(&health),
        false,
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_ERROR));
    response
}
