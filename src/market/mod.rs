//! Market stage: the monthly market report (`/informes/`, `/api/v1/reports`):
//! reads every quote check of the snapshot a month at a time and computes,
//! per calendar month in Argentine time, the dealer-price index in pesos and
//! dollars (Jevons over matched versions, chained), the cheapest versions,
//! the rises and falls, dealers against the catalogue and the coverage.
//! Pure functions of the snapshot; the rules are the methodology's
//! ("Informe mensual y el índice") and DESIGN's "The market report".

mod build;
mod collect;
mod dealers;
mod headline;
mod index;
pub mod kept;
mod prices;
mod series;
#[cfg(test)]
mod tests;

pub use crate::month::ArMonth;
pub use build::{LIST_LEN, MonthReport, TABLES, report_path};
pub use headline::{day_and_time, one_decimal};
pub use index::MIN_MATCHED;
pub use index::round2;

use crate::api::links::Links;
use crate::api::series::SeriesTable;
use crate::signals::monitoring::{listed_counts, monitoring_times};
use crate::snapshot::Snapshot;
use crate::snapshot::republish::HistoryMonths;
use crate::steps::timed;

/// What [`compute_market`] gives.
pub struct Computed {
    /// Every month's report, oldest first (none without a quote check).
    pub reports: Vec<MonthReport>,
    /// The monthly series.
    pub series: SeriesTable,
    /// The record of the final months, for the next run.
    pub record: kept::Record,
    /// How many months were kept from `previous`.
    pub kept: usize,
}

/// Every month's report of `snapshot` and its monthly series, keeping the
/// final months of the `previous` tree's record where their keys are this
/// run's (`kept`).
pub fn compute_market(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    links: &Links,
    previous: Option<kept::Record>,
) -> anyhow::Result<Computed> {
    let months = months_of(snapshot);
    let keys = timed("market: key the final months", || {
        kept::keys(snapshot, history, &links.absolute("/"), &months)
    })?;
    let prefix = previous.map_or_else(build::Prefix::default, |record| {
        record.keep(snapshot, &months, &keys)
    });
    let finals = keys.len();
    let from = months
        .get(prefix.months())
        .map_or(snapshot.meta.snapshot_at, |m| m.start());
    let read = timed("market: read the months left", || {
        collect::read_history(snapshot, history, from, &prefix.carry)
    })?;
    let monitoring = monitoring_times(&listed_counts(snapshot));
    let kept = prefix.months();
    let market = build::Market::new(snapshot, links, months, read, prefix, monitoring);
    let (reports, series) = timed("market: the reports", || market.reports());
    let record = kept::Record::new(snapshot, &keys, &reports, market.finals(finals));
    Ok(Computed {
        reports,
        series,
        record,
        kept,
    })
}

/// Every month from the one of the snapshot's first quote check to the
/// one of its time; none without a check.
fn months_of(snapshot: &Snapshot) -> Vec<ArMonth> {
    let first = snapshot
        .versions
        .iter()
        .filter_map(|v| v.check_span())
        .map(|(first, _)| first)
        .min();
    let end = snapshot.meta.snapshot_at;
    first.map_or_else(Vec::new, |first| {
        ArMonth::span(ArMonth::of(first), ArMonth::of(end.max(first)))
    })
}
