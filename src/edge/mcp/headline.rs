//! Edge stage, MCP headlines: the first text item of every tool result, one
//! line that a model reads before the JSON: what was answered (each
//! operation says it of its own typed answer, `api::ops`), or why it was
//! refused, how fresh the snapshot is (its time and its age at the moment
//! of the answer), and, for a synthetic snapshot, that the prices are
//! invented. Hosts rarely show `_meta` to the model; they always show text.

use crate::api::ApiError;
use crate::catalogue::CatalogueMeta;
use crate::time::{Time, format_time};

/// The headline of a result that answered `what` (the operation's own
/// line: [`Reply::headline`](crate::api::ops::Reply::headline), or
/// [`refused`]), answered at `now`.
pub fn headline(what: &str, meta: &CatalogueMeta, now: Time) -> String {
    let mut line = format!("{what} {}", freshness(meta.snapshot_at, now));
    if meta.synthetic {
        line.push_str(" Synthetic data: the prices are invented; never present them as real.");
    }
    line
}

/// `get_vehicle refused: invalid parameters (window: must be one of 1d, 3d, 7d).`
pub fn refused(tool: &str, error: &ApiError) -> String {
    let body = error.body().error;
    let details: Vec<String> = body
        .details
        .iter()
        .flatten()
        .map(|detail| format!("{}: {}", detail.path, detail.problem.english()))
        .collect();
    match details.is_empty() {
        true => format!("{tool} refused: {}.", body.message),
        false => format!("{tool} refused: {} ({}).", body.message, details.join("; ")),
    }
}

/// `Snapshot of 2026-11-21T23:40:00Z (65 hours old).`
fn freshness(snapshot_at: Time, now: Time) -> String {
    let minutes = (now - snapshot_at).num_minutes().max(0);
    let age = match minutes {
        0..60 => format!("{minutes} minutes"),
        60..4320 => format!("{} hours", minutes / 60),
        _ => format!("{} days", minutes / 1440),
    };
    format!("Snapshot of {} ({age} old).", format_time(snapshot_at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error::{ErrorDetail, Missing};
    use crate::api::problem::Problem;
    use crate::time::parse_time;

    fn meta(synthetic: bool) -> CatalogueMeta {
        CatalogueMeta {
            snapshot_at: parse_time("2026-11-21T23:40:00Z").expect("time"),
            catalogue_observed_at: parse_time("2026-11-21T23:00:00Z").expect("time"),
            source: "https://listing.example".into(),
            site_name: "Listing".into(),
            synthetic,
            current_rate: None,
            rate_source: None,
        }
    }

    fn at(text: &str) -> Time {
        parse_time(text).expect("time")
    }

    #[test]
    fn a_headline_says_how_fresh_and_whether_invented() {
        let what = "find_deals: 7 price drops within 3d; this page lists 6 to 7.";
        assert_eq!(
            headline(what, &meta(true), at("2026-11-24T16:41:00Z")),
            "find_deals: 7 price drops within 3d; this page lists 6 to 7. Snapshot of \
             2026-11-21T23:40:00Z (65 hours old). Synthetic data: the prices are invented; \
             never present them as real."
        );
        assert_eq!(
            headline("x.", &meta(false), at("2026-11-22T00:10:00Z")),
            "x. Snapshot of 2026-11-21T23:40:00Z (30 minutes old)."
        );
        assert!(
            headline("x.", &meta(false), at("2026-11-25T23:40:00Z")).ends_with("(4 days old).")
        );
    }

    #[test]
    fn a_refusal_says_the_server_message() {
        let error = ApiError::InvalidParameters(vec![ErrorDetail::new("month", Problem::Month)]);
        let line = refused("get_market_report", &error);
        assert!(
            line.starts_with("get_market_report refused: invalid parameters (month: "),
            "{line}"
        );
        assert!(line.ends_with(")."), "{line}");
        let missing = ApiError::NotFound(Missing::Version("x".into()));
        assert_eq!(
            refused("get_vehicle", &missing),
            format!("get_vehicle refused: {missing}.")
        );
    }
}
