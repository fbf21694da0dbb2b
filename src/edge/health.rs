//! Edge stage, health: `GET /healthz` for the host's checks (a load
//! balancer's, systemd's, a container platform's): which tree is loaded,
//! its snapshot times, age and size. With a maximum age (`--max-age`), a
//! snapshot older than it answers 503 `stale`, so a platform's check (or a
//! monitor) sees a scraper that stopped even though the server is fine.
//! Beside the site's policy and not subject to shedding, so a busy server
//! still says it is alive; never cached.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::Response;
use serde::Serialize;

use crate::api::json::to_json_bytes;
use crate::edge::http::{CACHE_ERROR, bytes_response};
use crate::edge::state::AppState;
use crate::time::{Time, format_time};

/// Path of the endpoint.
pub const PATH: &str = "/healthz";

/// What `/healthz` answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Health<'a> {
    /// `ok`: the server answers and has a tree loaded; `stale`: its
    /// snapshot is older than the maximum age (the answer is then a 503).
    status: &'static str,
    /// The loaded tree: the hex SHA-256 of its manifest.
    tree: &'a str,
    /// `snapshotAt` of the loaded tree.
    snapshot_at: String,
    /// `catalogueObservedAt` of the loaded tree.
    catalogue_observed_at: String,
    /// Seconds since `snapshotAt` (0 for a snapshot stamped in the future).
    age_seconds: i64,
    /// The maximum age in seconds the server was started with, if any.
    max_age_seconds: Option<i64>,
    /// Published versions.
    versions: usize,
    /// Whether the data is synthetic.
    synthetic: bool,
}

/// `GET /healthz` (and HEAD), with the maximum age of a healthy snapshot.
pub async fn healthz(State(state): State<AppState>, max_age: Option<Duration>) -> Response {
    let site = state.site();
    let meta = site.index().meta();
    let age = age_seconds(meta.snapshot_at, chrono::Utc::now());
    let max_age_seconds = max_age.map(|age| i64::try_from(age.as_secs()).unwrap_or(i64::MAX));
    let stale = max_age_seconds.is_some_and(|max| age > max);
    let health = Health {
        status: if stale { "stale" } else { "ok" },
        tree: site.tree(),
        snapshot_at: format_time(meta.snapshot_at),
        catalogue_observed_at: format_time(meta.catalogue_observed_at),
        age_seconds: age,
        max_age_seconds,
        versions: site.index().len(),
        synthetic: meta.synthetic,
    };
    let status = if stale {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    let mut response = bytes_response(
        status,
        crate::edge::http::JSON,
        to_json_bytes(&health),
        false,
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_ERROR));
    response
}

/// Whole seconds from `snapshot_at` to `now`, never negative.
fn age_seconds(snapshot_at: Time, now: Time) -> i64 {
    (now - snapshot_at).num_seconds().max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    #[test]
    fn the_age_counts_from_the_snapshot_and_is_never_negative() {
        let at = parse_time("2026-11-21T23:40:00Z").expect("time");
        let later = parse_time("2026-11-22T01:40:01Z").expect("time");
        assert_eq!(age_seconds(at, later), 7201);
        assert_eq!(age_seconds(later, at), 0);
    }
}
