//! Market stage, final months kept: a final month's report reads nothing a
//! later check changes, so a run over the next snapshot takes the final
//! months the previous tree computed, with what the months after them read
//! of them (each version's monthly prices, the dollar's monthly mean, each
//! version's last checks before the first month left, the last rate
//! observed before it), instead of reading every quote of every month
//! again: a routine run reads the month in progress.
//!
//! Each final month has a key, chained from the first month's: this
//! program's identity, the base URL, the month, the digest of what its UTC
//! month is read from (`HistoryMonths::sources`, by which the downloads
//! keep their months) and of the next UTC month, whose first hours are
//! still the month in Argentine time (while that UTC month is in progress,
//! of those hours only: `HistoryMonths::span_sources`), the
//! catalogue checks in it, the catalogue runs in effect in it (cut at its
//! end), the consumer price index of the month, and the names and body
//! type of every version whose checks span it. The previous tree's months
//! are kept when its last month's key is this run's key of the same month
//! (so every earlier one is too); otherwise every month is computed. A kept
//! month is what computing it gives (a test compares a routine run's
//! reports with a fresh run's, byte for byte).
//!
//! A digest covers a superset of what a month reads, as the downloads'
//! does, so it changes now and then with nothing the month reads: the
//! month in which the loader's checks in brief begin moves once a month,
//! and a UTC month's end turns the last final month's digest from those
//! hours' to the whole month's; every month is computed again those days.
//!
//! The record is [`RECORD`], beside the tree's manifest: MessagePack (the
//! monthly prices of every version are most of it).

use std::ops::Range;
use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::build::{Finals, MonthReport, Prefix};
use super::collect::Carry;
use super::prices::{MonthlyPrice, Point};
use crate::month::ArMonth;
use crate::snapshot::Snapshot;
use crate::snapshot::republish::HistoryMonths;
use crate::time::{Time, month_start, next_month_start};

/// Name of the record beside a tree's manifest.
pub const RECORD: &str = "market-sources.msgpack";

/// The final months of a tree, as the next run keeps them.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Record {
    /// The versions the columns follow, in the snapshot's order (by ID).
    ids: Vec<String>,
    /// The final months, the first month first.
    months: Vec<KeptMonth>,
    /// Each version's last checks before the end of the last month.
    carry: Vec<Carry>,
    /// The last rate observed before that end.
    rate: Option<Point>,
}

/// A final month as kept.
#[derive(Debug, Serialize, Deserialize)]
struct KeptMonth {
    /// Its key, in hex.
    key: String,
    /// Its report.
    computed: MonthReport,
    /// Each version's price in it, in pesos.
    ars: Vec<Option<f64>>,
    /// And in dollars.
    usd: Vec<Option<f64>>,
    /// The time-weighted mean of the rates observed in it, unrounded.
    dollar: Option<f64>,
}

impl Record {
    /// The record of the tree at `tree`; `None` without one, or when it
    /// cannot be read (logged).
    pub fn read(tree: &Path) -> Option<Record> {
        let path = tree.join(RECORD);
        let file = std::fs::File::open(&path).ok()?;
        crate::msgpack::from_read(std::io::BufReader::new(file))
            .inspect_err(|err| tracing::warn!(path = %path.display(), %err, "unreadable record of the previous tree's market; every month is computed"))
            .ok()
    }

    /// Its encoding.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        Ok(crate::msgpack::to_vec(self)?)
    }

    /// What this run keeps of it: its months, when they are the first of
    /// `months` and its last month's key is `keys`' (this run's keys of the
    /// final months); nothing otherwise.
    pub fn keep(self, snapshot: &Snapshot, months: &[ArMonth], keys: &[String]) -> Prefix {
        let n = self.months.len();
        let same = n > 0
            && n <= keys.len()
            && self.carry.len() == self.ids.len()
            && self.months[n - 1].key == keys[n - 1]
            && self
                .months
                .iter()
                .zip(months)
                .all(|(kept, month)| kept.computed.month == *month)
            && self
                .months
                .iter()
                .all(|m| m.ars.len() == self.ids.len() && m.usd.len() == self.ids.len());
        if !same {
            return Prefix::default();
        }
        let at: Vec<Option<usize>> = snapshot
            .versions
            .iter()
            .map(|v| self.ids.binary_search_by(|id| id.as_str().cmp(&v.id)).ok())
            .collect();
        let prices = at
            .iter()
            .map(|at| {
                self.months
                    .iter()
                    .map(|m| match at {
                        Some(i) => MonthlyPrice {
                            ars: m.ars[*i],
                            usd: m.usd[*i],
                        },
                        None => MonthlyPrice::default(),
                    })
                    .collect()
            })
            .collect();
        let carry = at
            .iter()
            .map(|at| at.map_or_else(Carry::default, |i| self.carry[i]))
            .collect();
        let dollars = self.months.iter().map(|m| m.dollar).collect();
        Prefix {
            reports: self.months.into_iter().map(|m| m.computed).collect(),
            prices,
            dollars,
            carry,
            rate: self.rate,
        }
    }
}

impl Record {
    /// The record of the final months of `snapshot`: their `keys`, their
    /// `reports` and what `finals` gives of them.
    pub fn new(
        snapshot: &Snapshot,
        keys: &[String],
        reports: &[MonthReport],
        finals: Finals,
    ) -> Record {
        Record {
            ids: snapshot.versions.iter().map(|v| v.id.clone()).collect(),
            months: keys
                .iter()
                .zip(reports)
                .zip(finals.prices)
                .zip(finals.means)
                .map(|(((key, computed), prices), dollar)| KeptMonth {
                    key: key.clone(),
                    computed: computed.clone(),
                    ars: prices.iter().map(|p| p.ars).collect(),
                    usd: prices.iter().map(|p| p.usd).collect(),
                    dollar,
                })
                .collect(),
            carry: finals.carry,
            rate: finals.rate,
        }
    }
}

/// The key of each final month of `months` (those ended by the snapshot's
/// time), chained; hex. Empty when this program cannot be read (nothing is
/// kept then).
pub fn keys(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    base_url: &str,
    months: &[ArMonth],
) -> Result<Vec<String>> {
    let Some(program) = crate::program::this_program() else {
        return Ok(Vec::new());
    };
    let at_s = snapshot.meta.snapshot_at;
    let mut chained = *blake3::Hasher::new()
        .update(b"market")
        .update(program)
        .update(&(base_url.len() as u64).to_le_bytes())
        .update(base_url.as_bytes())
        .finalize()
        .as_bytes();
    // Each month's own digest, side by side; then the chain.
    let finals: Vec<&ArMonth> = months.iter().take_while(|m| m.end() <= at_s).collect();
    let spans: Vec<Option<(Time, Time)>> =
        snapshot.versions.iter().map(|v| v.check_span()).collect();
    let owns: Vec<[u8; 32]> = finals
        .par_iter()
        .map(|month| {
            let (start, end) = (month.start(), month.end());
            let next_utc = month_start(end);
            let mut feed = Feed::new();
            feed.str(&month.label());
            // The UTC month holding most of it, and the first hours of the
            // next: the whole month's sources once it has ended (they no
            // longer change), only those hours' while it is in progress.
            feed.raw(&history.sources(&(month_start(start)..next_utc))?);
            if next_month_start(next_utc) <= at_s {
                feed.tag(0);
                feed.raw(&history.sources(&(next_utc..next_month_start(next_utc)))?);
            } else {
                feed.tag(1);
                feed.raw(&history.span_sources(&(next_utc..end))?);
            }
            feed_catalogue(&mut feed, snapshot, &spans, start..end);
            for row in snapshot.cpi.iter().filter(|row| row.month == **month) {
                feed.number(row.value);
            }
            Ok(feed.finish())
        })
        .collect::<Result<_>>()?;
    let mut keys = Vec::new();
    for own in owns {
        chained = *blake3::Hasher::new()
            .update(&chained)
            .update(&own)
            .finalize()
            .as_bytes();
        keys.push(blake3::Hash::from_bytes(chained).to_hex().to_string());
    }
    Ok(keys)
}

/// Feeds what the month `span` reads of the catalogue: its catalogue
/// checks, each version's runs in effect in it, cut at its end, and the
/// names and body type of each version with such a run or whose checks
/// (`checked`, each version's first and last) span part of it.
fn feed_catalogue(
    feed: &mut Feed,
    snapshot: &Snapshot,
    checked: &[Option<(Time, Time)>],
    span: Range<Time>,
) {
    for at in crate::time::in_period(&snapshot.catalogue_checks, |t| *t, &span) {
        feed.time(*at);
    }
    for (version, checked) in snapshot.versions.iter().zip(checked) {
        let runs: Vec<_> = version
            .catalogue
            .iter()
            .filter(|run| run.first_seen < span.end && run.last_seen >= span.start)
            .collect();
        let checked = checked.is_some_and(|(first, last)| first < span.end && last >= span.start);
        if runs.is_empty() && !checked {
            continue;
        }
        for name in [
            &version.id,
            &version.identity.make,
            &version.identity.model,
            &version.identity.trim,
        ] {
            feed.str(name);
        }
        feed.str(version.identity.body_type.map_or("", |t| t.as_str()));
        feed.raw(&(runs.len() as u64).to_le_bytes());
        for run in runs {
            feed.time(run.first_seen);
            feed.time(run.last_seen.min(span.end));
            feed.number(run.price.amount);
            feed.str(run.price.currency.as_str());
        }
    }
}

/// A BLAKE3 hasher fed length-prefixed texts and fixed-width numbers, so
/// that every sequence of fields is one byte string; through a buffer, since
/// a month feeds tens of thousands of short fields.
struct Feed {
    hash: blake3::Hasher,
    buffer: Vec<u8>,
}

impl Feed {
    fn new() -> Feed {
        Feed {
            hash: blake3::Hasher::new(),
            buffer: Vec::with_capacity(1 << 16),
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= 1 << 16 {
            self.hash.update(&self.buffer);
            self.buffer.clear();
        }
    }

    /// A one-byte field that says which form the fields after it take.
    fn tag(&mut self, tag: u8) {
        self.raw(&[tag]);
    }

    fn str(&mut self, text: &str) {
        self.raw(&(text.len() as u64).to_le_bytes());
        self.raw(text.as_bytes());
    }

    fn time(&mut self, time: Time) {
        self.raw(&time.timestamp().to_le_bytes());
        self.raw(&time.timestamp_subsec_nanos().to_le_bytes());
    }

    fn number(&mut self, value: f64) {
        self.raw(&value.to_bits().to_le_bytes());
    }

    fn finish(mut self) -> [u8; 32] {
        self.hash.update(&self.buffer);
        *self.hash.finalize().as_bytes()
    }
}
