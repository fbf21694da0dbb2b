//! Snapshot stage, republishing `quotes` a month at a time (`/datos/snapshot/
//! quotes/`) when the loaded snapshot holds only the quotes the signals read
//! ([`Snapshot::quotes_from`]): the input table is read once, a row group at
//! a time, each row appended to its month's file in a scratch directory
//! (MessagePack records), and each month is then read back, sorted and
//! turned into the same frame the loaded quotes give. Memory holds one row
//! group and one month, whatever the length of the history; the input need
//! not be in time order (a scan per month would read the whole table as
//! many times as there are months).

use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter};
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use chrono::DateTime;
use serde::{Deserialize, Serialize};

use super::columns::filled;
use super::drafts::money_columns;
use super::model::{Money, Snapshot, SourceQuote};
use super::table::{Need, Table};
use super::write::{SnapshotTable, quote_rows_frame};
use crate::frame::Frame;
use crate::time::Time;
use crate::vocab::Currency;

/// The `quotes` table's rows of each month, ready to be written.
pub struct QuoteMonths<'a> {
    snapshot: &'a Snapshot,
    /// The months' files, when the snapshot left quotes out.
    spill: Option<Spill>,
}

/// The scratch directory and each month's file in it (absent: no rows).
struct Spill {
    dir: PathBuf,
    months: Vec<(Range<Time>, PathBuf)>,
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// One row of `quotes`, as spilled ([`RowRef`]) and read back.
#[derive(Deserialize)]
struct Row {
    version_id: String,
    checked_at_ns: i64,
    quote_id: String,
    amount: f64,
    currency: Currency,
    fees_included: Option<bool>,
    color: Option<String>,
    stock: Option<i64>,
    location: Option<String>,
    seller_id: Option<String>,
}

/// A row of `quotes` borrowed from the input's columns, for writing: the
/// same fields in the same order as [`Row`], without a copy of its texts.
#[derive(Serialize)]
struct RowRef<'a> {
    version_id: &'a str,
    checked_at_ns: i64,
    quote_id: &'a str,
    amount: f64,
    currency: Currency,
    fees_included: Option<bool>,
    color: Option<&'a str>,
    stock: Option<i64>,
    location: Option<&'a str>,
    seller_id: Option<&'a str>,
}

impl<'a> QuoteMonths<'a> {
    /// The rows of `months` (consecutive, ascending): from the loaded
    /// quotes when the snapshot holds them all, else spilled from the input
    /// into `scratch` (created, and removed when this is dropped).
    pub fn of(snapshot: &'a Snapshot, months: &[Range<Time>], scratch: &Path) -> Result<Self> {
        let spill = match &snapshot.quotes_from {
            Some(dir) if !short_months(snapshot, months).is_empty() => {
                Some(spill(dir, &short_months(snapshot, months), scratch)?)
            }
            _ => None,
        };
        Ok(QuoteMonths { snapshot, spill })
    }

    /// The `quotes` frame of the checks whose time is in `period` (one of
    /// the months given).
    pub fn frame(&self, period: Range<Time>) -> Result<Frame> {
        // A month without a compacted check is whole in the snapshot.
        let spilled = self.spill.as_ref().and_then(|spill| {
            spill
                .months
                .iter()
                .find(|(month, _)| *month == period)
                .map(|(_, path)| path)
        });
        let Some(path) = spilled else {
            return Ok(SnapshotTable::Quotes.frame_between(self.snapshot, period));
        };
        let mut rows = read_rows(path)?;
        rows.sort_by(|a, b| {
            (a.version_id.as_str(), a.checked_at_ns, a.quote_id.as_str()).cmp(&(
                b.version_id.as_str(),
                b.checked_at_ns,
                b.quote_id.as_str(),
            ))
        });
        let quotes: Vec<(&str, Time, SourceQuote)> = rows
            .iter()
            .map(|row| {
                let quote = SourceQuote {
                    id: row.quote_id.as_str().into(),
                    price: Money {
                        amount: row.amount,
                        currency: row.currency,
                    },
                    fees_included: row.fees_included,
                    color: row.color.as_deref().map(Into::into),
                    stock: row.stock,
                    location: row.location.as_deref().map(Into::into),
                    seller_id: row.seller_id.as_deref().map(Into::into),
                };
                let at = DateTime::from_timestamp_nanos(row.checked_at_ns);
                (row.version_id.as_str(), at, quote)
            })
            .collect();
        let refs: Vec<(&str, Time, &SourceQuote)> = quotes
            .iter()
            .map(|(id, at, quote)| (*id, *at, quote))
            .collect();
        Ok(quote_rows_frame(&refs))
    }
}

/// The `months` holding a check with quotes left out: the others' rows are
/// all in the snapshot.
fn short_months(snapshot: &Snapshot, months: &[Range<Time>]) -> Vec<Range<Time>> {
    let mut short = vec![false; months.len()];
    for check in snapshot.versions.iter().flat_map(|version| &version.checks) {
        if check.quotes_left_out > 0
            && let Some(month) = months.iter().position(|m| m.contains(&check.observed_at))
        {
            short[month] = true;
        }
    }
    months
        .iter()
        .zip(short)
        .filter(|(_, short)| *short)
        .map(|(month, _)| month.clone())
        .collect()
}

/// Reads `dir`'s `quotes` once, appending each row of `months` to its
/// month's file (rows of other months are skipped).
fn spill(dir: &Path, months: &[Range<Time>], scratch: &Path) -> Result<Spill> {
    if scratch.exists() {
        fs::remove_dir_all(scratch)
            .with_context(|| format!("removing stale {}", scratch.display()))?;
    }
    fs::create_dir_all(scratch).with_context(|| format!("creating {}", scratch.display()))?;
    let spill = Spill {
        dir: scratch.to_owned(),
        months: months
            .iter()
            .enumerate()
            .map(|(i, month)| (month.clone(), scratch.join(format!("{i}.msgpack"))))
            .collect(),
    };
    let mut writers: Vec<Option<BufWriter<File>>> = months.iter().map(|_| None).collect();
    Table::read_runs(dir, "quotes", |run| {
        let versions = filled(run.strings("versionId", Need::Required)?);
        let times = filled(run.times("checkedAt", Need::Required)?);
        let quote_ids = filled(run.short_strings("quoteId", Need::Required)?);
        let prices = money_columns(run)?;
        let fees = run.booleans("feesIncluded", Need::Nullable)?;
        let colors = run.short_strings("color", Need::Nullable)?;
        let stocks = run.integers("stock", Need::Nullable)?;
        let locations = run.short_strings("location", Need::Nullable)?;
        let sellers = run.short_strings("sellerId", Need::Nullable)?;
        for i in 0..run.height() {
            let at = times[i];
            let Some(month) = months.iter().position(|month| month.contains(&at)) else {
                continue;
            };
            let writer = match &mut writers[month] {
                Some(writer) => writer,
                slot => {
                    let path = &spill.months[month].1;
                    let file = File::create(path)
                        .with_context(|| format!("creating {}", path.display()))?;
                    slot.insert(BufWriter::new(file))
                }
            };
            let row = RowRef {
                version_id: &versions[i],
                checked_at_ns: at
                    .timestamp_nanos_opt()
                    .context("invariant: a check time is within the nanosecond range")?,
                quote_id: &quote_ids[i],
                amount: prices[i].amount,
                currency: prices[i].currency,
                fees_included: fees[i],
                color: colors[i].as_deref(),
                stock: stocks[i],
                location: locations[i].as_deref(),
                seller_id: sellers[i].as_deref(),
            };
            rmp_serde::encode::write(writer, &row).context("spilling a quote")?;
        }
        Ok(())
    })?;
    for writer in writers.into_iter().flatten() {
        writer
            .into_inner()
            .map_err(|err| err.into_error())
            .context("writing spilled quotes")?;
    }
    Ok(spill)
}

/// Every row of a month's file (none when the month had no quote).
fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
    };
    let mut reader = BufReader::new(file);
    let mut rows = Vec::new();
    while !reader.fill_buf()?.is_empty() {
        rows.push(
            rmp_serde::decode::from_read(&mut reader)
                .with_context(|| format!("reading {}", path.display()))?,
        );
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use chrono::{Datelike, TimeZone, Utc};

    use super::*;
    use crate::sample::{SampleOptions, generate_sample};
    use crate::snapshot::{TableFormat, load_snapshot, load_snapshot_for_signals, write_snapshot};

    /// The calendar months (UTC) from `first` to `last`.
    fn months(first: Time, last: Time) -> Vec<Range<Time>> {
        let start = |time: Time| {
            Utc.with_ymd_and_hms(time.year(), time.month(), 1, 0, 0, 0)
                .single()
                .expect("a month's first instant")
        };
        let mut out = Vec::new();
        let mut at = start(first);
        while at <= last {
            let next = start(at + chrono::Duration::days(32));
            out.push(at..next);
            at = next;
        }
        out
    }

    /// From the input, spilled and sorted, a month's `quotes` is the frame
    /// the whole loaded table gives, for every month, though the compacted
    /// snapshot keeps only the cheapest quotes of its old checks; the
    /// scratch directory goes with it.
    #[test]
    fn every_month_from_the_input_is_the_frame_of_the_loaded_quotes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data");
        let sample = generate_sample(&SampleOptions {
            versions: 30,
            days: 400,
            ..SampleOptions::default()
        });
        write_snapshot(&sample, &data, TableFormat::Parquet).expect("write");
        let full = load_snapshot(&data).expect("load");
        let compact = load_snapshot_for_signals(&data, crate::signals::reach()).expect("load");
        let left_out: usize = compact
            .versions
            .iter()
            .flat_map(|v| &v.checks)
            .map(|c| c.quotes_left_out)
            .sum();
        assert!(left_out > 0, "a premise: the loader left quotes out");
        let times = full
            .versions
            .iter()
            .flat_map(|v| &v.checks)
            .map(|c| c.observed_at);
        let (first, last) = (
            times.clone().min().expect("a check"),
            times.max().expect("a check"),
        );
        let months = months(first, last);
        let scratch = dir.path().join("scratch");
        let spilled = QuoteMonths::of(&compact, &months, &scratch).expect("spill");
        assert!(scratch.is_dir());
        for month in &months {
            assert_eq!(
                spilled.frame(month.clone()).expect("frame"),
                SnapshotTable::Quotes.frame_between(&full, month.clone()),
                "{month:?}"
            );
        }
        drop(spilled);
        assert!(!scratch.exists(), "the scratch directory is removed");
    }
}
