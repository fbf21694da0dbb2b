//! Signals stage: reads a [`Snapshot`] and computes the published
//! [`Catalogue`]: for every published version its current quotes, usual price
//! comparison, recent price drops and new opportunities. Pure functions of the
//! snapshot; the reference time is a parameter, never the clock.

pub mod alert_points;
pub mod cause;
pub mod changes;
pub mod checks;
pub mod dealers;
pub mod exact;
pub mod freight;
pub mod history;
pub mod monitoring;
pub mod quoted;
pub mod range;
#[cfg(test)]
mod tests;

use rayon::prelude::*;

use crate::catalogue::{
    Catalogue, CatalogueMeta, Cause, Comparison, ExchangeRate, PriceRange, Quote, QuotedHistory,
    RecentChange, RecentChanges, Vehicle, WINDOW_DAYS,
};
use crate::snapshot::{Snapshot, Version};
use crate::time::Time;
use crate::vocab::{ChangeKind, Reason, Window};
pub use checks::{current_quotes, is_published};

use changes::ChangeContext;
use checks::latest_check;
use exact::Exact;
use history::{PricePoint, WeekCache, assess, dealer_price, price_points, qualifies};
use monitoring::{listed_counts, monitoring_times};

/// The snapshot-wide facts every version's signals depend on.
#[derive(Debug, Clone)]
pub struct Reference {
    /// `T`: the latest catalogue check.
    pub catalogue_observed_at: Time,
    /// `S`: the latest capture.
    pub snapshot_at: Time,
    /// The monitoring times, ascending: catalogue checks that list at least
    /// one version (an empty check is an outage and carries no information).
    pub monitoring: Vec<Time>,
    /// The newest observed exchange rate.
    pub rate: Option<ExchangeRate>,
    /// The same rate, exactly (the decimal it was written as).
    pub exact_rate: Option<Exact>,
}

impl Reference {
    /// The reference facts of a snapshot.
    pub fn of(snapshot: &Snapshot) -> Self {
        let rate = current_rate(snapshot);
        Reference {
            catalogue_observed_at: snapshot.meta.catalogue_observed_at,
            snapshot_at: snapshot.meta.snapshot_at,
            monitoring: monitoring_times(&listed_counts(snapshot)),
            rate,
            exact_rate: rate.and_then(|rate| exact::decimal(rate.ars_per_usd?)),
        }
    }
}

/// Computes every published version's signals, in parallel, sorted by ID.
pub fn compute_catalogue(snapshot: &Snapshot) -> Catalogue {
    let reference = Reference::of(snapshot);
    let vehicles = snapshot
        .versions
        .par_iter()
        .filter_map(|version| compute_vehicle(version, &reference))
        .collect();
    Catalogue {
        meta: CatalogueMeta {
            snapshot_at: snapshot.meta.snapshot_at,
            catalogue_observed_at: snapshot.meta.catalogue_observed_at,
            source: snapshot.meta.source.clone(),
            site_name: snapshot.meta.site_name.clone(),
            synthetic: snapshot.meta.synthetic,
            current_rate: reference.rate,
            rate_source: snapshot.meta.exchange_rate_source.clone(),
        },
        vehicles,
    }
}

/// The "current observed exchange rate": the newest `arsPerUsd` of any quote
/// check (ties at the same instant go to the greatest rate, so the choice does
/// not depend on row order).
pub fn current_rate(snapshot: &Snapshot) -> Option<ExchangeRate> {
    snapshot
        .versions
        .iter()
        .flat_map(|version| &version.checks)
        .filter_map(|check| Some((check.observed_at, check.ars_per_usd?)))
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .map(|(observed_at, rate)| ExchangeRate {
            ars_per_usd: Some(rate),
            observed_at,
        })
}

/// How far before `T` the signals read quotes: the 180-day window of the
/// opportunity at the oldest monitoring time of the 7-day window. A check
/// at or before `T - reach()` only lends its dealer price (and, when it is a
/// version's latest, its current quotes); a loader may keep no more of it.
pub fn reach() -> chrono::Duration {
    chrono::Duration::days(Window::D7.days() + i64::from(WINDOW_DAYS))
}

/// Whether the version was an opportunity at monitoring time `at` (< `T`),
/// using only what was known then.
fn was_opportunity(
    version: &Version,
    points: &[PricePoint],
    at: Time,
    cache: &mut WeekCache,
) -> bool {
    if !is_published(version, at, at) {
        return false;
    }
    let current = latest_check(version, at).and_then(|check| dealer_price(&check));
    current.is_some_and(|current| qualifies(points, &current, at, at, cache))
}

/// The last monitoring time in `[T - 7d, T)` at which the version was not an
/// opportunity, and the monitoring time after it.
fn last_miss(
    version: &Version,
    points: &[PricePoint],
    reference: &Reference,
    cache: &mut WeekCache,
) -> Option<(Time, Time)> {
    let t = reference.catalogue_observed_at;
    let week_start = t - chrono::Duration::days(Window::D7.days());
    let times = &reference.monitoring;
    let first = times.partition_point(|time| *time < week_start);
    let last = times.partition_point(|time| *time < t);
    let miss = (first..last)
        .rev()
        .find(|&index| !was_opportunity(version, points, times[index], cache))?;
    Some((times[miss], times.get(miss + 1).copied().unwrap_or(t)))
}

/// One version's published record, or `None` when it is not published.
pub fn compute_vehicle(version: &Version, reference: &Reference) -> Option<Vehicle> {
    let (t, s) = (reference.catalogue_observed_at, reference.snapshot_at);
    if !is_published(version, t, s) {
        return None;
    }
    let latest = latest_check(version, s)?;
    let latest = &*latest;
    let current = dealer_price(latest)?;
    // Every evaluation (at `T`, and at the monitoring times of the week
    // before it) reads only the checks of its own 180 days, so older checks
    // are never converted.
    let earliest = t - reach();
    let older = version
        .checks
        .partition_point(|check| check.observed_at <= earliest);
    let points = price_points(&version.checks[older..]);
    let mut cache = WeekCache::default();
    let assessment = assess(&points, &current, t, s, &mut cache);
    let comparison = assessment.comparison;
    let context = ChangeContext {
        runs: &version.catalogue,
        reference: t,
        rate: reference.exact_rate.as_ref(),
        opportunity: comparison.opportunity,
        typical_usd: assessment.typical.as_ref(),
    };
    let miss = comparison
        .opportunity
        .then(|| last_miss(version, &points, reference, &mut cache))
        .flatten()
        .map(|(last, next)| {
            let cause = cause::without_cut(version, &points, last, &current, latest, &mut cache);
            (last, next, cause)
        });
    let (recent_changes, new_opportunities) = windows(&context, miss);
    let reasons = reasons(&comparison, &recent_changes, &new_opportunities);
    let mut history = assessment.history;
    let quoted = quoted::quoted_history(&version.checks[older..], t, s, &mut history);
    let price_range = assessment
        .range
        .map(|range| price_range(range, quoted.as_ref(), comparison.observed_weeks));
    let quotes = current_quotes(latest);
    let price_ars = quotes
        .first()
        .and_then(|best| price_ars(best, reference.exact_rate.as_ref()));
    Some(Vehicle {
        id: version.id.clone(),
        identity: version.identity.clone(),
        drivetrain: version.drivetrain,
        observed_at: latest.observed_at,
        current_price_usd: exact::cents(&current),
        comparison,
        recent_changes,
        new_opportunities,
        quote_count: quotes.len(),
        best_quote: quotes.first().cloned(),
        reasons,
        quotes,
        exchange_rate: ExchangeRate {
            ars_per_usd: latest.ars_per_usd,
            observed_at: latest.observed_at,
        },
        specs: version.specs.clone(),
        history,
        price_ars,
        price_range,
        freight_estimate: freight::freight_estimate(&version.checks[older..], t, s),
        dealers: dealers::dealer_spread(latest),
        dealer_prices: alert_points::dealer_points(&version.checks[older..], t, s),
        quoted,
    })
}

/// The change each window shows, and the opportunities each window finds
/// new, given the version's last miss of the opportunity (its time, the
/// next check's and what ended it) if it is one now.
fn windows(
    context: &ChangeContext,
    miss: Option<(Time, Time, Cause)>,
) -> (RecentChanges, RecentChanges) {
    let mut recent_changes = RecentChanges::default();
    let mut new_opportunities = RecentChanges::default();
    for window in Window::ALL.iter().copied() {
        let fresh =
            miss.and_then(|(last, next, cause)| context.new_opportunity(window, last, next, cause));
        recent_changes.set(window, context.price_drop(window).or_else(|| fresh.clone()));
        new_opportunities.set(window, fresh);
    }
    (recent_changes, new_opportunities)
}

/// Why a version is listed among the deals, in the spec's order.
fn reasons(
    comparison: &Comparison,
    recent_changes: &RecentChanges,
    new_opportunities: &RecentChanges,
) -> Vec<Reason> {
    [
        (comparison.opportunity, Reason::BelowTypical),
        (is_drop(recent_changes.d7.as_ref()), Reason::PriceDrop),
        (new_opportunities.d7.is_some(), Reason::NewOpportunity),
    ]
    .into_iter()
    .filter_map(|(present, reason)| present.then_some(reason))
    .collect()
}

/// The usual range in dollars, with its quoted amounts when the weeks are
/// quoted in one currency.
fn price_range(
    (low_usd, high_usd): (f64, f64),
    quoted: Option<&QuotedHistory>,
    weeks: u32,
) -> PriceRange {
    let quoted_range = quoted.and_then(|q| q.range);
    PriceRange {
        low_usd,
        high_usd,
        low: quoted_range.map(|(low, _)| low),
        high: quoted_range.map(|(_, high)| high),
        currency: quoted.filter(|q| q.range.is_some()).map(|q| q.currency),
        weeks,
    }
}

/// The price in pesos of a version whose best quote is `best`, in whole
/// pesos: a peso quote as quoted, a dollar quote at the current observed
/// rate (exactly, then rounded).
fn price_ars(best: &Quote, current_rate: Option<&Exact>) -> Option<f64> {
    let quoted = crate::snapshot::Money {
        amount: best.price,
        currency: best.currency,
    };
    Some(exact::units(&exact::ars(quoted, current_rate)?))
}

fn is_drop(change: Option<&RecentChange>) -> bool {
    change.is_some_and(|change| change.kind == ChangeKind::PriceDrop)
}
