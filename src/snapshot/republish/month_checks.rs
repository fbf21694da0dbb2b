//! Snapshot stage, republishing the history: every quote check of a
//! calendar month (UTC) with all its quotes, from what the snapshot holds
//! and what its loader spilled, for the monthly market report, which reads
//! every quote of every month (dealers against the catalogue, coverage)
//! where the downloads read tables.

use std::ops::Range;

use anyhow::Result;

use super::months::{HistoryMonths, Row, check_position, for_each_row, month_file, month_of};
use crate::snapshot::model::{QuoteCheck, SourceQuote, Version};
use crate::time::Time;

impl<'a> HistoryMonths<'a> {
    /// Calls `each` with every quote check whose time is in `period` (a
    /// calendar month in UTC), its version and every one of its quotes
    /// (sorted by quote ID): first the checks held in brief or spilled, in
    /// version and time order, then those the snapshot holds whole, by
    /// version, each version's in time order (a version's held checks all
    /// come after its earlier ones). Memory holds the month's spilled checks
    /// only; the held ones are lent as they are.
    pub fn for_each_check(
        &self,
        period: &Range<Time>,
        mut each: impl FnMut(&'a Version, &QuoteCheck) -> Result<()>,
    ) -> Result<()> {
        let snapshot = self.snapshot;
        let mut earlier: Vec<(&'a Version, QuoteCheck)> = Vec::new();
        for version in &snapshot.versions {
            // The first and last earlier checks are held in brief; their
            // quotes, as every earlier check's, are in the month's spill.
            let brief = version
                .earlier
                .iter()
                .filter(|c| period.contains(&c.observed_at));
            earlier.extend(brief.map(|check| (version, without_quotes(check.as_check()))));
        }
        if let Some(dir) = &snapshot.spilled_in {
            let spilled = self.spilled_in_brief(dir, period)?;
            earlier.extend(
                spilled
                    .into_iter()
                    .map(|(version, check)| (version, without_quotes(check.as_check()))),
            );
            earlier.sort_by(|a, b| (&a.0.id, a.1.observed_at).cmp(&(&b.0.id, b.1.observed_at)));
            let mut hint = 0;
            for_each_row(&dir.join(month_file(month_of(period.start))), |row: Row| {
                let key = (row.version_id.as_str(), row.checked_at());
                let Some(k) = check_position(&earlier, hint, key) else {
                    anyhow::bail!(
                        "invariant: the spilled quote {} of {} at {} has its check",
                        row.quote_id,
                        row.version_id,
                        crate::time::format_time(key.1)
                    );
                };
                hint = k;
                let price = row.price();
                earlier[k].1.quotes.push(SourceQuote {
                    id: row.quote_id,
                    price,
                    fees_included: row.fees_included,
                    color: row.color,
                    stock: row.stock,
                    location: row.location,
                    seller_id: row.seller_id,
                });
                Ok(())
            })?;
        }
        for (version, check) in &mut earlier {
            check.quotes.sort_by(|a, b| a.id.cmp(&b.id));
            each(version, check)?;
        }
        for version in &snapshot.versions {
            let held = crate::time::in_period(&version.checks, |c| c.observed_at, period);
            for check in held {
                each(version, check)?;
            }
        }
        Ok(())
    }
}

/// A check held in brief, its quotes to be read from the spill.
fn without_quotes(mut check: QuoteCheck) -> QuoteCheck {
    check.quotes.clear();
    check
}
