//! Snapshot stage, republishing the history: what a month's parts are built
//! from, as one BLAKE3 digest. A month of `quotes`, `quote_checks` or `controles`
//! is a function of the month's two spill files (its earlier checks' quotes,
//! and the earlier checks themselves) and of what the snapshot holds of the
//! month (each version's checks of the month, whole or in brief, and its
//! names), so equal digests mean equal frames, and a run can keep the
//! previous tree's files of a closed month without decoding the spill, let
//! alone sorting and encoding it (`render::datos::reuse`).
//!
//! The digest covers a superset of what each table reads (every table of a
//! month gets the same one), which costs a rebuild now and then, never a
//! stale file. Every field of the held checks is fed through an exhaustive
//! pattern, so a field added to the model does not compile here until it is
//! fed too.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{Context, Result};

use super::super::model::{
    Cheapest, CheapestQuote, EarlierCheck, Money, QuoteCheck, SourceQuote, Version,
};
use super::{CHECKS_DIR, HistoryMonths, month_file, month_of};
use crate::time::{Time, in_period};

/// Each month's digest, computed once a run: the three tables of a month
/// ask for it, often at once (the first to ask computes it, the others
/// wait for it).
#[derive(Default)]
pub(super) struct MonthDigests(Mutex<BTreeMap<Time, Arc<MonthDigest>>>);

/// A month's digest once computed, or why it could not be.
type MonthDigest = OnceLock<Result<[u8; 32], String>>;

impl HistoryMonths<'_> {
    /// BLAKE3 digest of everything a history table's part for the month `period`
    /// is built from: the month's spill files, and each version's names and
    /// held checks of the month, every field.
    pub fn sources(&self, period: &Range<Time>) -> Result<[u8; 32]> {
        let cell = Arc::clone(
            self.month_digests
                .0
                .lock()
                .map_err(|_| anyhow::anyhow!("month digest lock poisoned"))?
                .entry(period.start)
                .or_default(),
        );
        cell.get_or_init(|| self.month_digest(period).map_err(|err| format!("{err:#}")))
            .clone()
            .map_err(anyhow::Error::msg)
    }

    fn month_digest(&self, period: &Range<Time>) -> Result<[u8; 32]> {
        let mut feed = Feed::default();
        match &self.snapshot.spilled_in {
            Some(dir) => {
                feed.tag(1);
                let month = month_file(month_of(period.start));
                for path in [dir.join(&month), dir.join(CHECKS_DIR).join(&month)] {
                    feed.raw(&spill_digest(&path)?);
                }
            }
            None => feed.tag(0),
        }
        for version in &self.snapshot.versions {
            feed_version(&mut feed, version, period);
        }
        Ok(feed.finish())
    }
}

/// The BLAKE3 digest of the spill file at `path`, or of nothing when the month
/// spilled nothing there (tagged, so that it differs from an empty file).
/// The file is read a buffer at a time: read whole, a month's tens of
/// megabytes were fresh pages to fault in, for one pass.
fn spill_digest(path: &Path) -> Result<[u8; 32]> {
    let reading = || format!("reading {}", path.display());
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(*blake3::hash(b"no file").as_bytes());
        }
        Err(err) => return Err(err).with_context(reading),
    };
    let mut hash = blake3::Hasher::new();
    hash.update(b"file");
    let mut buffer = vec![0; 1 << 18];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return Ok(*hash.finalize().as_bytes()),
            Ok(read) => {
                hash.update(&buffer[..read]);
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err).with_context(reading),
        }
    }
}

/// Feeds a version's names (every `controles` row carries them, spilled or
/// not), when its checks span any of `period`, and its held checks of
/// `period`. A version whose checks all came before or after the month
/// leaves its digest alone, so a version added to the catalogue does not
/// change every month's.
fn feed_version(feed: &mut Feed, version: &Version, period: &Range<Time>) {
    match version.check_span() {
        Some((first, last)) if first < period.end && period.start <= last => {}
        _ => return,
    }
    for name in [&version.id, &version.make, &version.model, &version.trim] {
        feed.str(name);
    }
    let earlier = in_period(&version.earlier, |check| check.observed_at, period);
    feed.len(earlier.len());
    for check in earlier {
        feed_earlier(feed, check);
    }
    let checks = in_period(&version.checks, |check| check.observed_at, period);
    feed.len(checks.len());
    for check in checks {
        let QuoteCheck {
            observed_at,
            ars_per_usd,
            in_stock,
            quotes,
        } = check;
        feed.time(*observed_at);
        feed.number(*ars_per_usd);
        feed.flag(Some(*in_stock));
        feed.len(quotes.len());
        for quote in quotes {
            feed_quote(feed, quote);
        }
    }
}

fn feed_earlier(feed: &mut Feed, check: &EarlierCheck) {
    let EarlierCheck {
        observed_at,
        ars_per_usd,
        in_stock,
        quote_count,
        cheapest,
    } = check;
    feed.time(*observed_at);
    feed.number(*ars_per_usd);
    feed.flag(Some(*in_stock));
    feed.len(*quote_count as usize);
    match cheapest.as_deref() {
        None => feed.tag(0),
        Some(Cheapest { usd, ars }) => {
            feed.tag(1);
            for slot in [usd, ars] {
                match slot {
                    None => feed.tag(0),
                    Some(CheapestQuote { id, amount }) => {
                        feed.tag(1);
                        feed.str(id);
                        feed.number(Some(*amount));
                    }
                }
            }
        }
    }
}

fn feed_quote(feed: &mut Feed, quote: &SourceQuote) {
    let SourceQuote {
        id,
        price: Money { amount, currency },
        fees_included,
        color,
        stock,
        location,
        seller_id,
    } = quote;
    feed.str(id);
    feed.number(Some(*amount));
    feed.str(currency.as_str());
    feed.flag(*fees_included);
    for text in [color, location, seller_id] {
        feed.optional_str(text.as_deref());
    }
    match stock {
        None => feed.tag(0),
        Some(stock) => {
            feed.tag(1);
            feed.raw(&stock.to_le_bytes());
        }
    }
}

/// A BLAKE3 hasher fed through a buffer (a month holds hundreds of thousands of
/// short fields): texts length-prefixed, numbers and tags as their fixed
/// bytes, so that every sequence of fields is fed as one byte string.
#[derive(Default)]
struct Feed {
    hash: blake3::Hasher,
    buffer: Vec<u8>,
}

impl Feed {
    fn raw(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= 1 << 16 {
            self.hash.update(&self.buffer);
            self.buffer.clear();
        }
    }

    fn str(&mut self, text: &str) {
        self.len(text.len());
        self.raw(text.as_bytes());
    }

    /// A one-byte field that says which form the fields after it take.
    fn tag(&mut self, tag: u8) {
        self.raw(&[tag]);
    }

    fn optional_str(&mut self, text: Option<&str>) {
        match text {
            None => self.tag(0),
            Some(text) => {
                self.tag(1);
                self.str(text);
            }
        }
    }

    fn len(&mut self, len: usize) {
        self.raw(&(len as u64).to_le_bytes());
    }

    fn time(&mut self, time: Time) {
        self.raw(&time.timestamp().to_le_bytes());
        self.raw(&time.timestamp_subsec_nanos().to_le_bytes());
    }

    fn number(&mut self, number: Option<f64>) {
        match number {
            None => self.tag(0),
            Some(number) => {
                self.tag(1);
                self.raw(&number.to_bits().to_le_bytes());
            }
        }
    }

    fn flag(&mut self, flag: Option<bool>) {
        self.tag(match flag {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        });
    }

    fn finish(mut self) -> [u8; 32] {
        self.hash.update(&self.buffer);
        *self.hash.finalize().as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::datos::months::{Month, of_checks};
    use crate::sample::{SampleOptions, generate_sample};
    use crate::snapshot::{
        InBrief, Snapshot, TableFormat, load_snapshot_for_signals, write_snapshot,
    };

    fn digests(snapshot: &Snapshot, months: &[Month]) -> Vec<[u8; 32]> {
        let history = HistoryMonths::of(snapshot).expect("months");
        months
            .iter()
            .map(|month| history.sources(&month.range()).expect("sources"))
            .collect()
    }

    /// Where the signals' window begins moves with every catalogue check;
    /// within a month it changes no month's digest, since the checks kept
    /// in brief end at a month's boundary (`snapshot::load`): a routine
    /// run keeps the downloads of the month the window begins in.
    #[test]
    fn the_window_start_moving_within_a_month_changes_no_digest() {
        use chrono::{Datelike, TimeZone};
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data");
        let sample = generate_sample(&SampleOptions {
            versions: 12,
            days: 400,
            ..SampleOptions::default()
        });
        write_snapshot(&sample, &data, TableFormat::Parquet).expect("write");
        let t = sample.meta.catalogue_observed_at;
        let earliest = t - crate::signals::reach();
        let month_start = chrono::Utc
            .with_ymd_and_hms(earliest.year(), earliest.month(), 1, 0, 0, 0)
            .single()
            .expect("a month's start");
        // Two window starts in the same month, 19.5 days apart.
        let (early, late) = (
            month_start + chrono::Duration::hours(12),
            month_start + chrono::Duration::days(20),
        );
        let load = |start: crate::time::Time, name: &str| {
            load_snapshot_for_signals(
                &data,
                InBrief::MonthsBefore(t - start),
                Some(&dir.path().join(name)),
            )
            .expect("load")
        };
        let (a, b) = (load(early, "a"), load(late, "b"));
        assert!(
            a.versions
                .iter()
                .flat_map(|v| &v.checks)
                .any(|check| { early < check.observed_at && check.observed_at <= late }),
            "a premise: checks between the two starts"
        );
        let months = of_checks(&a);
        assert_eq!(months, of_checks(&b));
        assert!(
            months.iter().any(|month| month.range().contains(&early)),
            "a premise: the month of the window's start is one of the history's"
        );
        assert_eq!(digests(&a, &months), digests(&b, &months));
    }

    /// A month's digest moves with what the month is built from, and only
    /// with that: a version added with checks in the last month alone, or
    /// renamed, changes the months its checks span and no other.
    #[test]
    fn a_months_digest_follows_the_versions_whose_checks_span_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data");
        let sample = generate_sample(&SampleOptions {
            versions: 12,
            days: 400,
            ..SampleOptions::default()
        });
        write_snapshot(&sample, &data, TableFormat::Parquet).expect("write");
        let scratch = dir.path().join("scratch");
        let snapshot = load_snapshot_for_signals(
            &data,
            InBrief::MonthsBefore(crate::signals::reach()),
            Some(&scratch),
        )
        .expect("load");
        let months = of_checks(&snapshot);
        let before = digests(&snapshot, &months);
        assert_eq!(before, digests(&snapshot, &months), "the same twice");
        let distinct: std::collections::BTreeSet<_> = before.iter().collect();
        assert_eq!(distinct.len(), months.len(), "every month its own");

        // A new version, checked in the last month only.
        let mut added = snapshot.clone();
        let mut new = added.versions[0].clone();
        new.id = "zz-new".into();
        new.earlier.clear();
        let last = months.last().expect("a month");
        new.checks
            .retain(|check| last.range().contains(&check.observed_at));
        assert!(
            !new.checks.is_empty(),
            "a premise: checks in the last month"
        );
        added.versions.push(new);
        let after = digests(&added, &months);
        let n = months.len();
        assert_eq!(
            after[..n - 1],
            before[..n - 1],
            "the closed months keep theirs"
        );
        assert_ne!(after[n - 1], before[n - 1]);

        // A version renamed: the months its checks span, from its first to
        // its last, and no other.
        let mut renamed = snapshot.clone();
        let version = &mut renamed.versions[3];
        version.trim.push_str(" Plus");
        let times = (version.earlier.iter().map(|c| c.observed_at))
            .chain(version.checks.iter().map(|c| c.observed_at));
        let (first, last) = (
            times.clone().min().expect("a check"),
            times.max().expect("a check"),
        );
        let after = digests(&renamed, &months);
        let spanned: Vec<bool> = months
            .iter()
            .map(|month| month.start <= last && first < month.end)
            .collect();
        assert!(
            spanned.iter().any(|s| !s),
            "a premise: a month before its first check"
        );
        for ((month, spanned), (a, b)) in months.iter().zip(&spanned).zip(after.iter().zip(&before))
        {
            assert_eq!(a != b, *spanned, "{}", month.label);
        }

        // One field of a held check, the last month's.
        let mut requoted = snapshot.clone();
        let check = requoted.versions[5].checks.last_mut().expect("a check");
        check.in_stock = !check.in_stock;
        let after = digests(&requoted, &months);
        assert_eq!(after[..n - 1], before[..n - 1]);
        assert_ne!(after[n - 1], before[n - 1]);
    }
}
