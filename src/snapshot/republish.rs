//! Snapshot stage, republishing the history (`/datos/snapshot/quotes/` and
//! `quote_checks/`, and the downloads' `controles`, a month a file) from a
//! snapshot loaded for the signals, whose old checks are kept in brief
//! ([`EarlierCheck`]). The loader spills each of
//! their quotes into a scratch directory as it reads the table, one file a
//! month of its check (`Spill`), and once the table is read the checks
//! themselves but each version's first and last (`spill_earlier_checks`).
//! A month's frame is the snapshot's own rows of that month with the
//! month's spilled ones, sorted as every writer of the table sorts them.
//! Memory holds a month of spilled rows at a time, whatever the length of
//! the history; the table is read once. A month's parts can also be kept
//! from the previous tree without being built at all, by the digest of what
//! they are built from (`sources.rs`).

use std::ops::Range;
use std::path::Path;

use anyhow::{Context, Result};
use chrono::DateTime;
use serde::{Deserialize, Serialize};

mod month_checks;
mod months;
mod sources;
mod spill;

pub use months::HistoryMonths;
pub(super) use spill::Spill;

use months::{CHECKS_DIR, Row, check_position, for_each_row, month_file, month_of, read_all};

use super::model::{EarlierCheck, Snapshot, SourceQuote, Version};
use super::write::{
    CheckRow, check_rows_frame, quote_rows, quote_rows_frame, sorted_checks, sorted_versions,
};
use crate::frame::Frame;
use crate::time::Time;

/// An [`EarlierCheck`] as spilled and read back, without its cheapest
/// quotes: it is spilled once its quotes are read, and those are in the
/// quote spill of its month.
#[derive(Serialize, Deserialize)]
struct SpilledCheck {
    version_id: String,
    observed_at_ns: i64,
    ars_per_usd: Option<f64>,
    in_stock: bool,
    quote_count: u32,
}

/// Moves the earlier checks of every version but its first and last (what
/// the signals and the months of the history read) into `dir/checks/`, a
/// month a file, once their quotes are read: the downloads read them back a
/// month at a time, so a long history is not held through the run.
pub(super) fn spill_earlier_checks(versions: &mut [Version], dir: &Path) -> Result<()> {
    let mut spill = Spill::create(&dir.join(CHECKS_DIR))?;
    for version in versions {
        let last = version.earlier.len().saturating_sub(1);
        if last < 2 {
            continue;
        }
        for check in version.earlier.drain(1..last) {
            let row = SpilledCheck {
                version_id: version.id.clone(),
                observed_at_ns: check
                    .observed_at
                    .timestamp_nanos_opt()
                    .context("invariant: a check time is within the nanosecond range")?,
                ars_per_usd: check.ars_per_usd,
                in_stock: check.in_stock,
                quote_count: check.quote_count,
            };
            spill.write_row(check.observed_at, &row)?;
        }
        version.earlier.shrink_to_fit();
    }
    spill.finish()
}

impl<'a> HistoryMonths<'a> {
    /// The months of `snapshot`: an error if its loader left quotes out
    /// without spilling them (nothing could republish them).
    pub fn of(snapshot: &'a Snapshot) -> Result<Self> {
        let in_brief = snapshot
            .versions
            .iter()
            .any(|version| !version.earlier.is_empty());
        anyhow::ensure!(
            !in_brief || snapshot.spilled_in.is_some(),
            "invariant: a snapshot that kept checks in brief spilled their quotes, to republish the quotes table"
        );
        Ok(HistoryMonths {
            snapshot,
            month_digests: months::MonthDigests::default(),
        })
    }

    /// The earlier checks of the month `period` that the loader spilled,
    /// each with its version, in no order, with their cheapest quotes found
    /// in the month's quote spill (which has every quote of every earlier
    /// check).
    pub fn spilled_checks(&self, period: &Range<Time>) -> Result<Vec<(&'a Version, EarlierCheck)>> {
        let Some(dir) = &self.snapshot.spilled_in else {
            return Ok(Vec::new());
        };
        let mut checks = self.spilled_in_brief(dir, period)?;
        // The checks come in version and time order, as they were spilled,
        // and so do a check's quotes, mostly: each is looked for at the
        // check of the quote before it, and at the next, before a search.
        let mut hint = 0;
        let quotes = dir.join(month_file(month_of(period.start)));
        for_each_row(&quotes, |row: Row| {
            let at = row.checked_at();
            let Some(k) = check_position(&checks, hint, (&row.version_id, at)) else {
                return Ok(());
            };
            hint = k;
            let cheapest = checks[k].1.cheapest.get_or_insert_default();
            cheapest.offer(&row.quote_id, row.price());
            Ok(())
        })?;
        Ok(checks)
    }

    /// The spilled earlier checks of the month `period` in version and time
    /// order, as spilled in `dir`, without their cheapest quotes.
    fn spilled_in_brief(
        &self,
        dir: &Path,
        period: &Range<Time>,
    ) -> Result<Vec<(&'a Version, EarlierCheck)>> {
        let path = dir
            .join(CHECKS_DIR)
            .join(month_file(month_of(period.start)));
        read_all(&path, |row: SpilledCheck| {
            let check = EarlierCheck {
                observed_at: DateTime::from_timestamp_nanos(row.observed_at_ns),
                ars_per_usd: row.ars_per_usd,
                in_stock: row.in_stock,
                quote_count: row.quote_count,
                cheapest: None,
            };
            Ok((self.version(&path, &row.version_id)?, check))
        })
    }

    /// The `quote_checks` frame of the month `period`.
    pub fn check_frame(&self, period: Range<Time>) -> Result<Frame> {
        let spilled = match &self.snapshot.spilled_in {
            Some(dir) => self.spilled_in_brief(dir, &period)?,
            None => Vec::new(),
        };
        let mut rows = sorted_checks(&sorted_versions(self.snapshot), &period);
        rows.extend(spilled.iter().map(|(version, check)| CheckRow {
            version_id: &version.id,
            observed_at: check.observed_at,
            ars_per_usd: check.ars_per_usd,
            in_stock: check.in_stock,
        }));
        rows.sort_by(|a, b| (a.version_id, a.observed_at).cmp(&(b.version_id, b.observed_at)));
        Ok(check_rows_frame(&rows))
    }

    /// The snapshot's version `id`, which a spill file at `path` names.
    fn version(&self, path: &Path, id: &str) -> Result<&'a Version> {
        let versions = &self.snapshot.versions;
        versions
            .binary_search_by(|version| version.id.as_str().cmp(id))
            .map(|index| &versions[index])
            .map_err(|_| {
                anyhow::anyhow!(
                    "invariant: {} names a version of the snapshot, not {id:?}",
                    path.display()
                )
            })
    }

    /// The `quotes` frame of the checks whose time is in `period`, a
    /// calendar month (UTC).
    pub fn quote_frame(&self, period: Range<Time>) -> Result<Frame> {
        let spilled = match &self.snapshot.spilled_in {
            Some(dir) => self.read_month(&dir.join(month_file(month_of(period.start))))?,
            None => Vec::new(),
        };
        let mut rows = quote_rows(self.snapshot, &period);
        rows.extend(spilled.iter().map(|(id, at, quote)| (*id, *at, quote)));
        rows.sort_by(|a, b| (a.0, a.1, a.2.id.as_str()).cmp(&(b.0, b.1, b.2.id.as_str())));
        Ok(quote_rows_frame(&rows))
    }

    /// Every quote of a month's spill file (none when the month spilled
    /// none), each converted as it is decoded and naming its version by the
    /// snapshot's own ID: a month of a long history is half a million
    /// quotes, and two months are written at a time.
    fn read_month(&self, path: &Path) -> Result<Vec<(&'a str, Time, SourceQuote)>> {
        // Rows come a version at a time, as the table was read.
        let mut last: Option<&'a Version> = None;
        read_all(path, |row: Row| {
            let (at, price) = (row.checked_at(), row.price());
            let version = match last {
                Some(version) if version.id == row.version_id => version,
                _ => self.version(path, &row.version_id)?,
            };
            last = Some(version);
            let quote = SourceQuote {
                id: row.quote_id,
                price,
                fees_included: row.fees_included,
                color: row.color,
                stock: row.stock,
                location: row.location,
                seller_id: row.seller_id,
            };
            Ok((version.id.as_str(), at, quote))
        })
    }
}

#[cfg(test)]
mod tests;
