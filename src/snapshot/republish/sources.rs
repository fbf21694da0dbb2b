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
use std::ops::Range;
use std::path::Path;

use anyhow::{Context, Result};

use super::super::model::{
    Cheapest, CheapestQuote, EarlierCheck, Money, QuoteCheck, SourceQuote, Version,
};
use super::months::{CHECKS_DIR, HistoryMonths, Month, month_file, month_of};
use super::spill::digest_path;
use crate::time::{Time, next_month_start};

impl HistoryMonths<'_> {
    /// BLAKE3 digest of everything a history table's part for the month `period`
    /// is built from: the month's spill files, and each version's names and
    /// held checks of the month, every field.
    pub fn sources(&self, period: &Range<Time>) -> Result<[u8; 32]> {
        let versions = self
            .month_digests
            .0
            .get_or_init(|| versions_by_month(&self.snapshot.versions));
        let month = month_of(period.start);
        let mut feed = Feed::default();
        self.feed_spill(&mut feed, month)?;
        // A month whose checks no version spans has no versions' digest.
        match versions.get(&month) {
            Some(digest) => {
                feed.tag(1);
                feed.raw(digest);
            }
            None => feed.tag(0),
        }
        Ok(feed.finish())
    }
}

impl HistoryMonths<'_> {
    /// BLAKE3 digest of everything the quote checks in `span` (a part of
    /// one UTC month) are read from: the month's spill files, and the names
    /// and held checks in `span` of each version that has some there. For
    /// a market report's month, whose last hours in Argentine time are the
    /// first of the next UTC month (`market::kept`).
    pub fn span_sources(&self, span: &Range<Time>) -> Result<[u8; 32]> {
        let mut feed = Feed::default();
        self.feed_spill(&mut feed, month_of(span.start))?;
        for version in &self.snapshot.versions {
            let earlier = crate::time::in_period(&version.earlier, |c| c.observed_at, span);
            let held = crate::time::in_period(&version.checks, |c| c.observed_at, span);
            if !earlier.is_empty() || !held.is_empty() {
                feed_version(&mut feed, version, earlier, held);
            }
        }
        Ok(feed.finish())
    }

    /// Feeds the digests of `month`'s two spill files, or a tag saying the
    /// loader spilled nothing.
    fn feed_spill(&self, feed: &mut Feed, month: Month) -> Result<()> {
        match &self.snapshot.spilled_in {
            Some(dir) => {
                feed.tag(1);
                let file = month_file(month);
                for path in [dir.join(&file), dir.join(CHECKS_DIR).join(&file)] {
                    feed.raw(&spill_digest(&path)?);
                }
            }
            None => feed.tag(0),
        }
        Ok(())
    }
}

/// For each month that some version's checks span, the digest of what
/// [`feed_version`] feeds of every such version, in the versions' order.
fn versions_by_month(versions: &[Version]) -> BTreeMap<Month, [u8; 32]> {
    let mut feeds: BTreeMap<Month, Feed> = BTreeMap::new();
    for version in versions {
        let Some((first, last)) = version.check_span() else {
            continue;
        };
        let (mut earlier, mut checks) = (&version.earlier[..], &version.checks[..]);
        let last = month_of(last);
        let mut start = first;
        loop {
            let month = month_of(start);
            let end = next_month_start(start);
            let split = earlier.partition_point(|check| check.observed_at < end);
            let (in_month, rest) = earlier.split_at(split);
            earlier = rest;
            let split = checks.partition_point(|check| check.observed_at < end);
            let (held, rest) = checks.split_at(split);
            checks = rest;
            feed_version(feeds.entry(month).or_default(), version, in_month, held);
            if month == last {
                break;
            }
            start = end;
        }
    }
    feeds
        .into_iter()
        .map(|(month, feed)| (month, feed.finish()))
        .collect()
}

/// The BLAKE3 digest of the spill file at `path`, as the spill wrote it
/// beside the file when it finished it (`Spill::finish`), or of nothing
/// when the month spilled nothing there (tagged, so that it differs from an
/// empty file).
fn spill_digest(path: &Path) -> Result<[u8; 32]> {
    let beside = digest_path(path);
    match fs::read(&beside) {
        Ok(digest) => digest
            .try_into()
            .map_err(|_| anyhow::anyhow!("{}: not a 32-byte digest", beside.display())),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && !path.exists() => {
            Ok(*blake3::hash(b"no file").as_bytes())
        }
        Err(err) => Err(err).with_context(|| format!("reading {}", beside.display())),
    }
}

/// Feeds a version's names (every `controles` row carries them, spilled or
/// not) and its held checks of a month its checks span, `earlier` in
/// brief and `checks` whole. A version whose checks all came before or
/// after the month feeds nothing to it, so a version added to the
/// catalogue does not change every month's digest.
fn feed_version(
    feed: &mut Feed,
    version: &Version,
    earlier: &[EarlierCheck],
    checks: &[QuoteCheck],
) {
    for name in [
        &version.id,
        &version.identity.make,
        &version.identity.model,
        &version.identity.trim,
    ] {
        feed.str(name);
    }
    feed.len(earlier.len());
    for check in earlier {
        feed_earlier(feed, check);
    }
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
mod tests;
