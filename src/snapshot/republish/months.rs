//! Snapshot stage, republishing the history: what its parts share: the
//! months of the spill files and where they are, a spilled quote row, the
//! history's months ([`HistoryMonths`], whose reading is written by
//! `republish.rs`, `month_checks.rs` and `sources.rs`), and reading a spill
//! file back.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use chrono::{DateTime, Datelike};
use compact_str::CompactString;
use serde::Deserialize;

use crate::snapshot::model::{EarlierCheck, Money, QuoteCheck, Snapshot, Version};
use crate::time::Time;
use crate::vocab::Currency;

/// One row of `quotes` as spilled ([`RowRef`]) and read back.
#[derive(Deserialize)]
pub(super) struct Row {
    pub(super) version_id: CompactString,
    pub(super) checked_at_ns: i64,
    pub(super) quote_id: CompactString,
    pub(super) amount: f64,
    pub(super) currency: Currency,
    pub(super) fees_included: Option<bool>,
    pub(super) color: Option<CompactString>,
    pub(super) stock: Option<i64>,
    pub(super) location: Option<CompactString>,
    pub(super) seller_id: Option<CompactString>,
}

impl Row {
    /// When its check was.
    pub(super) fn checked_at(&self) -> Time {
        DateTime::from_timestamp_nanos(self.checked_at_ns)
    }

    /// Its cash price.
    pub(super) fn price(&self) -> Money {
        Money {
            amount: self.amount,
            currency: self.currency,
        }
    }
}

/// A calendar month (UTC), year and month: the key of a spill file. A
/// number, not its file name, because every spilled row looks its file up
/// (formatting the name for each was a large share of the load's time).
pub(super) type Month = (i32, u32);

/// The month (UTC) of `at`.
pub(super) fn month_of(at: Time) -> Month {
    (at.year(), at.month())
}

/// The spill file of `month`: `YYYY-MM.msgpack`.
pub(super) fn month_file((year, month): Month) -> String {
    format!("{year:04}-{month:02}.msgpack")
}

/// Where [`spill_earlier_checks`] writes, inside the spill directory.
pub(super) const CHECKS_DIR: &str = "checks";

/// The rows of the history tables (`quote_checks`, `quotes` and the
/// downloads' `controles`) a month at a time, from the snapshot and what its
/// loader spilled, for the downloads.
pub struct HistoryMonths<'a> {
    pub(super) snapshot: &'a Snapshot,
    pub(super) month_digests: MonthDigests,
}

/// What every month's digest reads of the versions, fed in one pass over
/// them the first time any month's is asked for (the tables of several
/// months ask at once; the others wait for it): fed a month at a time, the
/// pass looked every version up again for each month, and that was most
/// of the digests' cost.
#[derive(Default)]
pub(super) struct MonthDigests(pub(super) OnceLock<BTreeMap<Month, [u8; 32]>>);

/// A check as [`check_position`] finds it: its time.
pub(super) trait CheckedAt {
    fn checked_at(&self) -> Time;
}

impl CheckedAt for EarlierCheck {
    fn checked_at(&self) -> Time {
        self.observed_at
    }
}

impl CheckedAt for QuoteCheck {
    fn checked_at(&self) -> Time {
        self.observed_at
    }
}

/// The position in `checks` (in version and time order) of the check of
/// version `id` at `at`, tried first at `hint` and the one after it.
pub(super) fn check_position<C: CheckedAt>(
    checks: &[(&Version, C)],
    hint: usize,
    (id, at): (&str, Time),
) -> Option<usize> {
    fn key<'v, C: CheckedAt>((version, check): &(&'v Version, C)) -> (&'v str, Time) {
        (version.id.as_str(), check.checked_at())
    }
    (hint..checks.len())
        .take(2)
        .find(|&k| key(&checks[k]) == (id, at))
        .or_else(|| checks.binary_search_by(|c| key(c).cmp(&(id, at))).ok())
}

/// Every row of a spill file, each converted as it is decoded; none when
/// the file does not exist (its month spilled nothing).
pub(super) fn read_all<R: serde::de::DeserializeOwned, T>(
    path: &Path,
    mut convert: impl FnMut(R) -> Result<T>,
) -> Result<Vec<T>> {
    let mut rows = Vec::new();
    for_each_row(path, |row| {
        rows.push(convert(row)?);
        Ok(())
    })?;
    Ok(rows)
}

/// Decodes each row of a spill file in turn; nothing when the file does not
/// exist (its month spilled nothing).
pub(super) fn for_each_row<R: serde::de::DeserializeOwned>(
    path: &Path,
    mut each: impl FnMut(R) -> Result<()>,
) -> Result<()> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
    };
    // A month's file is a few megabytes: decoding from memory reads each
    // field without a reader's bookkeeping.
    let mut decoder = rmp_serde::Deserializer::new(bytes.as_slice());
    while !decoder.get_ref().is_empty() {
        let row =
            R::deserialize(&mut decoder).with_context(|| format!("reading {}", path.display()))?;
        each(row)?;
    }
    Ok(())
}
