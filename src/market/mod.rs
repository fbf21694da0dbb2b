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

/// Every month's report of `snapshot`, oldest first (none without a quote
/// check), and its monthly series.
pub fn compute_market(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    links: &Links,
) -> anyhow::Result<(Vec<MonthReport>, SeriesTable)> {
    let read = collect::read_history(snapshot, history)?;
    let monitoring = monitoring_times(&listed_counts(snapshot));
    Ok(build::Market::new(snapshot, links, read, monitoring).reports())
}
