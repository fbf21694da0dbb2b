//! Market stage, reading the history: every quote check of every month,
//! with all its quotes, read once a UTC month at a time (in parallel, from
//! the loader's spill as the downloads read it) and reduced to what the
//! report needs: each version's checks in brief ([`Check`]), and per
//! Argentine month the tallies of its quotes ([`Tally`]).

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use anyhow::Result;
use compact_str::CompactString;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::dealers::{Side, compare};
use super::prices::Point;
use crate::month::ArMonth;
use crate::snapshot::republish::HistoryMonths;
use crate::snapshot::{QuoteCheck, Snapshot, catalogue_price_at};
use crate::time::{Time, month_start, next_month_start};
use crate::vocab::Currency;

/// One quote check of a version, in brief.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// When it was made.
    pub at: Time,
    /// Whether the listing showed stock.
    pub in_stock: bool,
    /// The rate observed at it.
    pub rate: Option<f64>,
    /// Its dealer price (`None` for a check without quotes).
    pub usd: Option<f64>,
    /// Its lowest quote in pesos.
    pub ars: Option<f64>,
    /// Whether its lowest quote includes freight and paperwork.
    pub fees: Option<bool>,
}

impl Check {
    /// Its dealer price as a point of the monthly prices, if it has one.
    pub fn point(&self) -> Option<Point> {
        Some(Point {
            at: self.at,
            usd: self.usd?,
            ars: self.ars,
        })
    }
}

/// A version's last checks before a time: the one with a dealer price (what
/// the monthly prices carry in) and the last of all (what the cheapest
/// list reads).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Carry {
    /// The last check with a dealer price.
    pub priced: Option<Check>,
    /// The last check.
    pub last: Option<Check>,
}

impl Carry {
    /// A version's carry at `end` from its `checks` (by time).
    pub fn at(checks: &[Check], end: Time) -> Carry {
        let before = &checks[..checks.partition_point(|c| c.at < end)];
        Carry {
            priced: before.iter().rev().find(|c| c.usd.is_some()).copied(),
            last: before.last().copied(),
        }
    }

    /// Its checks, by time.
    pub fn checks(&self) -> Vec<Check> {
        let mut checks: Vec<Check> = self.priced.into_iter().collect();
        if let Some(last) = self.last.filter(|last| Some(*last) != self.priced) {
            checks.push(last);
        }
        checks
    }
}

/// What an Argentine month's quotes add up to.
#[derive(Debug, Default)]
pub struct Tally {
    /// Quote checks.
    pub checks: usize,
    /// Of them, with stock.
    pub in_stock: usize,
    /// Quotes.
    pub quotes: usize,
    /// Versions checked (their index in the snapshot).
    pub versions: HashSet<usize>,
    /// Distinct dealers.
    pub dealers: HashSet<CompactString>,
    /// Distinct locations.
    pub locations: HashSet<CompactString>,
    /// Each quote compared with the catalogue: its version, side and gap
    /// (single precision: the published median has two decimals, and a
    /// month of a large snapshot holds half a million quotes).
    pub gaps: Vec<(u32, Side, f32)>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.checks += other.checks;
        self.in_stock += other.in_stock;
        self.quotes += other.quotes;
        self.versions.extend(other.versions);
        self.dealers.extend(other.dealers);
        self.locations.extend(other.locations);
        self.gaps.extend(other.gaps);
    }
}

/// One UTC month read: each check in brief with its version's index, and
/// the tallies of the Argentine months it touches.
type MonthRead = (Vec<(usize, Check)>, BTreeMap<ArMonth, Tally>);

/// The whole history as the report reads it.
#[derive(Debug, Default)]
pub struct History {
    /// Each version's checks (by its index in the snapshot), by time.
    pub checks: Vec<Vec<Check>>,
    /// Each Argentine month's tally.
    pub tallies: BTreeMap<ArMonth, Tally>,
}

/// Reads every check of `snapshot` at or after `from` through `history`,
/// each version's after its `carry` (its last checks before `from`, by
/// the version's index; none for a version not in it).
pub fn read_history(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    from: Time,
    carry: &[Carry],
) -> Result<History> {
    let periods = utc_months(snapshot, from);
    let parts: Vec<MonthRead> = periods
        .par_iter()
        .map(|period| read_month(snapshot, history, period, from))
        .collect::<Result<_>>()?;
    let mut read = History {
        checks: (0..snapshot.versions.len())
            .map(|v| carry.get(v).map_or_else(Vec::new, Carry::checks))
            .collect(),
        tallies: BTreeMap::new(),
    };
    // Months in order, and each month's checks in version and time order:
    // every version's list comes out sorted by time.
    for (checks, tallies) in parts {
        for (version, check) in checks {
            read.checks[version].push(check);
        }
        for (month, tally) in tallies {
            read.tallies.entry(month).or_default().merge(tally);
        }
    }
    Ok(read)
}

/// The UTC months from the first quote check at or after `from` to the
/// last.
fn utc_months(snapshot: &Snapshot, from: Time) -> Vec<Range<Time>> {
    let spans = snapshot.versions.iter().filter_map(|v| v.check_span());
    let (Some(first), Some(last)) = (
        spans.clone().map(|(first, _)| first).min(),
        spans.map(|(_, last)| last).max(),
    ) else {
        return Vec::new();
    };
    let first = first.max(from);
    if first > last {
        return Vec::new();
    }
    let mut months = vec![month_start(first)..next_month_start(first)];
    while let Some(end) = months
        .last()
        .map(|month| month.end)
        .filter(|end| *end <= last)
    {
        months.push(end..next_month_start(end));
    }
    months
}

/// One UTC month's checks in brief and its quotes' tallies, of the checks
/// at or after `from`.
fn read_month(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    period: &Range<Time>,
    from: Time,
) -> Result<MonthRead> {
    let mut brief = Vec::new();
    let mut tallies: BTreeMap<ArMonth, Tally> = BTreeMap::new();
    history.for_each_check(period, |version, check| {
        if check.observed_at < from {
            return Ok(());
        }
        let index = snapshot
            .versions
            .binary_search_by(|v| v.id.as_str().cmp(&version.id))
            .map_err(|_| {
                anyhow::anyhow!("invariant: {} is a version of the snapshot", version.id)
            })?;
        brief.push((index, in_brief(check)));
        let tally = tallies.entry(ArMonth::of(check.observed_at)).or_default();
        tally.checks += 1;
        tally.in_stock += usize::from(check.in_stock);
        tally.quotes += check.quotes.len();
        tally.versions.insert(index);
        let listed = catalogue_price_at(&version.catalogue, check.observed_at);
        for quote in &check.quotes {
            // Most quotes repeat a dealer and a place already seen.
            if let Some(dealer) = quote
                .seller_id
                .as_ref()
                .filter(|d| !tally.dealers.contains(*d))
            {
                tally.dealers.insert(dealer.clone());
            }
            if let Some(place) = quote
                .location
                .as_ref()
                .filter(|l| !tally.locations.contains(*l))
            {
                tally.locations.insert(place.clone());
            }
            if let Some((side, gap)) =
                listed.and_then(|listed| compare(quote.price, listed, check.ars_per_usd))
            {
                let version = u32::try_from(index).unwrap_or(u32::MAX);
                tally.gaps.push((version, side, gap as f32));
            }
        }
        Ok(())
    })?;
    Ok((brief, tallies))
}

/// A check in brief: its lowest quote in each currency's terms, and the
/// freight flag of its lowest quote (ties by quote ID, as `bestQuote`).
fn in_brief(check: &QuoteCheck) -> Check {
    let rate = check.ars_per_usd;
    let in_usd = |amount: f64, currency: Currency| match currency {
        Currency::Usd => Some(amount),
        Currency::Ars => rate.map(|rate| amount / rate),
    };
    let in_ars = |amount: f64, currency: Currency| match currency {
        Currency::Ars => Some(amount),
        Currency::Usd => rate.map(|rate| amount * rate),
    };
    // Quotes are sorted by ID, so the first of equal prices wins the tie.
    let best = check
        .quotes
        .iter()
        .filter_map(|quote| Some((in_usd(quote.price.amount, quote.price.currency)?, quote)))
        .fold(None, |best: Option<(f64, _)>, (usd, quote)| match best {
            Some((lowest, _)) if lowest <= usd => best,
            _ => Some((usd, quote)),
        });
    let ars = check
        .quotes
        .iter()
        .filter_map(|quote| in_ars(quote.price.amount, quote.price.currency))
        .min_by(f64::total_cmp);
    Check {
        at: check.observed_at,
        in_stock: check.in_stock,
        rate,
        usd: best.map(|(usd, _)| usd),
        ars,
        fees: best.and_then(|(_, quote)| quote.fees_included),
    }
}
