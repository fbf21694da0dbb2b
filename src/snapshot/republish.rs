//! Snapshot stage, republishing `quotes` (`/datos/snapshot/quotes/`, a month
//! a file) from a snapshot loaded for the signals, whose old checks are kept
//! in brief ([`EarlierCheck`](super::model::EarlierCheck)): the loader
//! spills each of their quotes into a scratch directory as it reads the
//! table, one file a month of its check ([`Spill`]), and a month's frame is
//! the snapshot's own quotes of that month with the month's spilled ones, sorted as every writer of the
//! table sorts them. Memory holds one month of spilled quotes at a time,
//! whatever the length of the history; the table is read once.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter};
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use chrono::DateTime;
use serde::{Deserialize, Serialize};

use super::model::{Money, Snapshot, SourceQuote};
use super::write::{quote_rows, quote_rows_frame};
use crate::frame::Frame;
use crate::time::Time;
use crate::vocab::Currency;

/// One row of `quotes` as spilled ([`RowRef`]) and read back.
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

/// A quote to spill, borrowed: the same fields in the same order as [`Row`].
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

/// Where the loader writes the quotes of the earlier checks: `YYYY-MM.msgpack` in
/// `dir`, by the month (UTC) of each quote's check.
pub(super) struct Spill {
    dir: PathBuf,
    files: HashMap<String, BufWriter<File>>,
}

impl Spill {
    /// A spill into `dir`, emptied first.
    pub(super) fn create(dir: &Path) -> Result<Spill> {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("removing stale {}", dir.display()))?;
        }
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Spill {
            dir: dir.to_owned(),
            files: HashMap::new(),
        })
    }

    /// Appends the quote of version `version_id` checked at `at`.
    pub(super) fn add(&mut self, version_id: &str, at: Time, quote: &SourceQuote) -> Result<()> {
        let month = month_file(at);
        let writer = match self.files.get_mut(&month) {
            Some(writer) => writer,
            None => {
                let path = self.dir.join(&month);
                let file =
                    File::create(&path).with_context(|| format!("creating {}", path.display()))?;
                self.files.entry(month).or_insert(BufWriter::new(file))
            }
        };
        let row = RowRef {
            version_id,
            checked_at_ns: at
                .timestamp_nanos_opt()
                .context("invariant: a check time is within the nanosecond range")?,
            quote_id: &quote.id,
            amount: quote.price.amount,
            currency: quote.price.currency,
            fees_included: quote.fees_included,
            color: quote.color.as_deref(),
            stock: quote.stock,
            location: quote.location.as_deref(),
            seller_id: quote.seller_id.as_deref(),
        };
        rmp_serde::encode::write(writer, &row).context("spilling a quote")
    }

    /// Writes out what is buffered.
    pub(super) fn finish(self) -> Result<()> {
        for (month, writer) in self.files {
            writer
                .into_inner()
                .map_err(|err| err.into_error())
                .with_context(|| format!("writing {}", self.dir.join(month).display()))?;
        }
        Ok(())
    }
}

/// The spill file of the month (UTC) of `at`.
fn month_file(at: Time) -> String {
    format!("{}.msgpack", at.format("%Y-%m"))
}

/// The `quotes` table's rows a month at a time, for the downloads.
pub struct QuoteMonths<'a> {
    snapshot: &'a Snapshot,
}

impl<'a> QuoteMonths<'a> {
    /// The months of `snapshot`: an error if its loader left quotes out
    /// without spilling them (nothing could republish them).
    pub fn of(snapshot: &'a Snapshot) -> Result<Self> {
        let in_brief = snapshot
            .versions
            .iter()
            .any(|version| !version.earlier.is_empty());
        anyhow::ensure!(
            !in_brief || snapshot.earlier_quotes_in.is_some(),
            "invariant: a snapshot that kept checks in brief spilled their quotes, to republish the quotes table"
        );
        Ok(QuoteMonths { snapshot })
    }

    /// The `quotes` frame of the checks whose time is in `period`, a
    /// calendar month (UTC).
    pub fn frame(&self, period: Range<Time>) -> Result<Frame> {
        let spilled = match &self.snapshot.earlier_quotes_in {
            Some(dir) => self.read_month(&dir.join(month_file(period.start)))?,
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
        let file = match File::open(path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
        };
        let versions = &self.snapshot.versions;
        let mut reader = BufReader::new(file);
        let mut quotes = Vec::new();
        while !reader.fill_buf()?.is_empty() {
            let row: Row = rmp_serde::decode::from_read(&mut reader)
                .with_context(|| format!("reading {}", path.display()))?;
            let version = versions
                .binary_search_by(|version| version.id.as_str().cmp(&row.version_id))
                .map(|index| versions[index].id.as_str())
                .map_err(|_| {
                    anyhow::anyhow!(
                        "invariant: {} names a version of the snapshot, not {:?}",
                        path.display(),
                        row.version_id
                    )
                })?;
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
            quotes.push((
                version,
                DateTime::from_timestamp_nanos(row.checked_at_ns),
                quote,
            ));
        }
        Ok(quotes)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Datelike, TimeZone, Utc};

    use super::*;
    use crate::sample::{SampleOptions, generate_sample};
    use crate::snapshot::{
        SnapshotTable, TableFormat, load_snapshot, load_snapshot_for_signals, write_snapshot,
    };

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

    /// A month's `quotes` from a compacted snapshot and its spill is the
    /// frame the whole loaded table gives, for every month, though the
    /// compacted snapshot keeps only the cheapest quotes of its old checks.
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
        let scratch = dir.path().join("scratch");
        let compact = load_snapshot_for_signals(&data, crate::signals::reach(), Some(&scratch))
            .expect("load");
        let in_brief: u32 = compact
            .versions
            .iter()
            .flat_map(|v| &v.earlier)
            .map(|c| c.quote_count)
            .sum();
        assert!(in_brief > 0, "a premise: the loader kept checks in brief");
        // Without its spill, a compacted snapshot cannot be republished.
        let unspilled =
            load_snapshot_for_signals(&data, crate::signals::reach(), None).expect("load");
        assert!(QuoteMonths::of(&unspilled).is_err());
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
        let spilled = QuoteMonths::of(&compact).expect("months");
        assert!(scratch.is_dir());
        for month in &months {
            assert_eq!(
                spilled.frame(month.clone()).expect("frame"),
                SnapshotTable::Quotes.frame_between(&full, month.clone()),
                "{month:?}"
            );
        }
    }
}
