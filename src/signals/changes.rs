//! Signals stage, recent changes: reads a version's catalogue price runs and
//! finds the price drop and the newly qualifying opportunity in each window
//! (1d, 3d, 7d back from `T`), with prices at the current observed rate.

use std::cmp::Ordering;

use chrono::Duration;

use crate::catalogue::{Cause, ChangeDetail, Native, RecentChange};
use crate::signals::exact::{self, Exact};
use crate::snapshot::{CatalogueRun, Money};
use crate::time::Time;
use crate::vocab::{ChangeKind, Window};

/// Minimum percent reduction for a price drop (with [`MIN_DROP_USD`]).
pub const MIN_DROP_PCT: i64 = 2;
/// Minimum reduction in USD for a price drop (with [`MIN_DROP_PCT`]).
pub const MIN_DROP_USD: i64 = 300;
/// The opportunity threshold as a share of the usual price: 95 %, that is
/// 5 % below it.
pub const THRESHOLD_PER_CENT: i64 = 95;
/// Days before a drop whose lowest catalogue price it is told against (the
/// EU's rule for announced reductions, Omnibus directive art. 6a).
pub const HONEST_BEFORE_DAYS: i64 = 30;
/// The `conversionBasis` of every recent change.
pub const CONVERSION_BASIS: &str = "current_observed_exchange_rate";

/// Which way a catalogue price moved from `from` to `to` (`Less`: a
/// reduction): on native amounts when the currency is unchanged, else in USD
/// at `rate`, the current observed exchange rate; `None` when that cannot be
/// told (a change of currency without a rate).
pub fn direction(from: Money, to: Money, rate: Option<&Exact>) -> Option<Ordering> {
    if from.currency == to.currency {
        return Some(exact::decimal(to.amount)?.cmp(&exact::decimal(from.amount)?));
    }
    Some(exact::usd(to, rate)?.cmp(&exact::usd(from, rate)?))
}

/// What the change rules need to know about one version at `T`.
#[derive(Debug, Clone, Copy)]
pub struct ChangeContext<'a> {
    /// The version's catalogue runs, ascending.
    pub runs: &'a [CatalogueRun],
    /// `T`.
    pub reference: Time,
    /// The current observed exchange rate (ARS per USD), exactly.
    pub rate: Option<&'a Exact>,
    /// Whether the version is an opportunity at `T`.
    pub opportunity: bool,
    /// Its usual price in USD, exactly (not the published, rounded one).
    pub typical_usd: Option<&'a Exact>,
}

/// A detected catalogue price change between two consecutive runs.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Change {
    at: Time,
    from: Money,
    to: Money,
}

/// A reduction measured against its reference price, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Reduction {
    /// The reference price in USD at the current rate.
    pub previous_usd: Exact,
    /// The current catalogue price in USD at the current rate.
    pub current_usd: Exact,
    /// Percent reduction: on native prices when both are in one currency,
    /// else on the USD values.
    pub pct: Exact,
    /// The reference price as listed.
    pub previous: Money,
    /// The current price as listed.
    pub current: Money,
}

/// A catalogue price as the website shows it.
fn native(money: Money) -> Native {
    Native {
        amount: money.amount,
        currency: money.currency,
    }
}

impl ChangeContext<'_> {
    fn usd(&self, money: Money) -> Option<Exact> {
        exact::usd(money, self.rate)
    }

    /// Price changes between consecutive runs at or before `T`; a gap with
    /// the same price on both sides is no change.
    fn changes(&self) -> impl Iterator<Item = Change> + '_ {
        self.runs
            .windows(2)
            .filter(|pair| pair[1].first_seen <= self.reference && pair[0].price != pair[1].price)
            .map(|pair| Change {
                at: pair[1].first_seen,
                from: pair[0].price,
                to: pair[1].price,
            })
    }

    fn direction(&self, change: &Change) -> Option<Ordering> {
        direction(change.from, change.to, self.rate)
    }

    fn is_reduction(&self, change: &Change) -> bool {
        self.direction(change) == Some(Ordering::Less)
    }

    fn is_increase(&self, change: &Change) -> bool {
        self.direction(change) == Some(Ordering::Greater)
    }

    /// The catalogue price in effect at `time`: that of the last run started
    /// at or before it (absence from a check does not end a price).
    fn price_at(&self, time: Time) -> Option<Money> {
        crate::snapshot::catalogue_price_at(self.runs, time)
    }

    fn window_start(&self, window: Window) -> Time {
        self.reference - Duration::days(window.days())
    }

    /// The highest catalogue price in effect during `[start, until)`, in USD
    /// at the current rate; ties keep the latest (their USD values and
    /// percentages are the same).
    fn reference_price(&self, start: Time, until: Time) -> Option<(Exact, Money)> {
        let in_effect_at_start = self.price_at(start);
        let started_inside = self
            .runs
            .iter()
            .filter(|run| run.first_seen > start && run.first_seen < until)
            .map(|run| run.price);
        in_effect_at_start
            .into_iter()
            .chain(started_inside)
            .filter_map(|price| Some((self.usd(price)?, price)))
            .max_by(|a, b| a.0.cmp(&b.0))
    }

    /// The lowest catalogue price in effect during the 30 days before `at`,
    /// `[at − 30 days, at)`, in USD at the current rate (ties keep the
    /// latest), with the last check that listed it before `at`.
    fn lowest_before(&self, at: Time) -> Option<(Exact, Money, Time)> {
        let start = at - Duration::days(HONEST_BEFORE_DAYS);
        let begun = self.runs.partition_point(|run| run.first_seen <= start);
        let from = begun.checked_sub(1).unwrap_or(begun);
        self.runs[from..]
            .iter()
            .take_while(|run| run.first_seen < at)
            .filter_map(|run| {
                let usd = self.usd(run.price)?;
                Some((usd, run.price, run.last_seen.min(at)))
            })
            .min_by(|a, b| a.0.cmp(&b.0).then(b.2.cmp(&a.2)))
    }

    /// The reduction from the reference price before `at` to the current
    /// price.
    pub fn reduction(&self, window: Window, at: Time) -> Option<Reduction> {
        let (previous_usd, previous) = self.reference_price(self.window_start(window), at)?;
        let current = self.price_at(self.reference)?;
        let current_usd = self.usd(current)?;
        let pct = if previous.currency == current.currency {
            exact::percent_below(
                &exact::decimal(previous.amount)?,
                &exact::decimal(current.amount)?,
            )
        } else {
            exact::percent_below(&previous_usd, &current_usd)
        }?;
        Some(Reduction {
            previous_usd,
            current_usd,
            pct,
            previous,
            current,
        })
    }

    /// Whether a reduction is large enough on its own: at least 2 % and at
    /// least USD 300, both exactly.
    fn is_large(reduction: &Reduction) -> bool {
        reduction.pct >= exact::whole(MIN_DROP_PCT)
            && &reduction.previous_usd - &reduction.current_usd >= exact::whole(MIN_DROP_USD)
    }

    /// Whether a reduction crosses the opportunity threshold of a version that
    /// is an opportunity now: previous > 0.95 x typical >= current, with the
    /// exact usual price.
    fn crosses(&self, reduction: &Reduction) -> bool {
        self.opportunity
            && self.typical_usd.is_some_and(|typical| {
                let threshold = typical * exact::ratio(THRESHOLD_PER_CENT, 100);
                reduction.previous_usd > threshold && threshold >= reduction.current_usd
            })
    }

    /// The price drop in `window`: the latest reduction inside it with no
    /// increase after it, measured against the highest price in effect in the
    /// window before it; kept when it is at least 2% and USD 300, or when it
    /// crosses the opportunity threshold.
    pub fn price_drop(&self, window: Window) -> Option<RecentChange> {
        let start = self.window_start(window);
        let changes: Vec<Change> = self.changes().collect();
        let position = changes
            .iter()
            .rposition(|change| change.at > start && self.is_reduction(change))?;
        if changes[position + 1..]
            .iter()
            .any(|change| self.is_increase(change))
        {
            return None;
        }
        let at = changes[position].at;
        let reduction = self.reduction(window, at)?;
        if !(Self::is_large(&reduction) || self.crosses(&reduction)) {
            return None;
        }
        let lowest = self.lowest_before(at);
        // Not below the lowest of the 30 days before: a price it had.
        let returns = lowest.as_ref().and_then(|(_, low, _)| {
            direction(*low, reduction.current, self.rate).map(|way| way != Ordering::Less)
        });
        Some(RecentChange {
            kind: ChangeKind::PriceDrop,
            changed_at: Some(at),
            qualified_since: None,
            drop_pct: Some(exact::hundredths(&reduction.pct)),
            previous_price_usd: Some(exact::cents(&reduction.previous_usd)),
            current_price_usd: exact::cents(&reduction.current_usd),
            lowest_30d_usd: lowest.as_ref().map(|(usd, _, _)| exact::cents(usd)),
            returns_to_earlier_price: returns,
            conversion_basis: CONVERSION_BASIS.to_owned(),
            detail: ChangeDetail {
                previous: Some(native(reduction.previous)),
                current: Some(native(reduction.current)),
                lowest_30d: lowest.map(|(_, low, last)| (native(low), last)),
                cause: None,
            },
        })
    }

    /// The new opportunity in `window`, given `last_miss` (the last monitoring
    /// time in the week before `T` at which the version was not an
    /// opportunity) and `next_check` (the monitoring time after it); `cause`
    /// is what made it qualify when no catalogue cut did.
    pub fn new_opportunity(
        &self,
        window: Window,
        last_miss: Time,
        next_check: Time,
        cause: Cause,
    ) -> Option<RecentChange> {
        let start = self.window_start(window);
        if !self.opportunity || last_miss < start {
            return None;
        }
        let cut = self
            .changes()
            .filter(|change| change.at >= last_miss && change.at <= next_check && change.at > start)
            .filter(|change| self.is_reduction(change))
            .last();
        let current = self.price_at(self.reference)?;
        let current_usd = self.usd(current)?;
        let mut change = RecentChange {
            kind: ChangeKind::NewOpportunity,
            changed_at: None,
            qualified_since: Some(next_check),
            drop_pct: None,
            previous_price_usd: None,
            current_price_usd: exact::cents(&current_usd),
            lowest_30d_usd: None,
            returns_to_earlier_price: None,
            conversion_basis: CONVERSION_BASIS.to_owned(),
            detail: ChangeDetail {
                previous: None,
                current: Some(native(current)),
                lowest_30d: None,
                cause: Some(cause),
            },
        };
        if let Some(cut) = cut
            && let Some(reduction) = self.reduction(window, cut.at)
        {
            change.changed_at = Some(cut.at);
            change.qualified_since = None;
            change.drop_pct = Some(exact::hundredths(&reduction.pct));
            change.previous_price_usd = Some(exact::cents(&reduction.previous_usd));
            change.detail.previous = Some(native(reduction.previous));
            change.detail.cause = Some(Cause::CatalogueCut);
        }
        Some(change)
    }
}
