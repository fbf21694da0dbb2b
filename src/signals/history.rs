//! Signals stage, dealer-price history: reads a version's quote checks and
//! computes the usual price (median of weekly time-weighted averages), the
//! lowest price, the history sufficiency and the opportunity, as known at a
//! reference time.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate};

use crate::catalogue::{Comparison, HistoryWeek, WINDOW_DAYS};
use crate::signals::exact::{self, Exact};
use crate::snapshot::QuoteCheck;
use crate::time::{Time, argentina};
use crate::vocab::Currency;

/// Minimum weeks with a quote check for sufficient history.
pub const MIN_WEEKS: u32 = 6;
/// Minimum days from the first to the last check in the window.
pub const MIN_SPAN_DAYS: i64 = 35;
/// Maximum age in days of the last check, counted from the reference time.
pub const MAX_AGE_DAYS: i64 = 45;
/// Minimum percent below the usual price for an opportunity.
pub const OPPORTUNITY_PCT: i64 = 5;

/// A dealer price: the lowest quote of one check, exactly; in USD at that
/// check's rate for the signals, or in the quoted currency for the site's
/// history in that currency (`native.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct PricePoint {
    /// When the check was made.
    pub at: Time,
    /// Lowest quote (USD, or the quoted currency).
    pub price: Exact,
}

/// The dealer price of a check: its lowest quote in USD, or `None` for a check
/// without quotes (which then stays out of the history).
pub fn dealer_price(check: &QuoteCheck) -> Option<Exact> {
    let rate = check.ars_per_usd.and_then(exact::decimal);
    // Stored amounts compare as floats exactly as their decimals do, so the
    // cheapest quote of each currency is found on the floats and only those
    // two are converted.
    let cheapest = |currency: Currency| {
        check
            .quotes
            .iter()
            .map(|quote| quote.price)
            .filter(|price| price.currency == currency && price.amount.is_finite())
            .min_by(|a, b| a.amount.total_cmp(&b.amount))
    };
    [Currency::Usd, Currency::Ars]
        .into_iter()
        .filter_map(cheapest)
        .filter_map(|price| exact::usd(price, rate.as_ref()))
        .min()
}

/// The dealer prices of every check with quotes, in time order.
pub fn price_points(checks: &[QuoteCheck]) -> Vec<PricePoint> {
    checks
        .iter()
        .filter_map(|check| {
            dealer_price(check).map(|usd| PricePoint {
                at: check.observed_at,
                price: usd,
            })
        })
        .collect()
}

/// The usual-price comparison as known at a reference time: the published
/// record, the weekly averages of the chart, and the exact usual price the
/// recent-change rules compare with.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// The published comparison.
    pub comparison: Comparison,
    /// Weekly averages in the window, oldest first, in dollars (their
    /// `price` in the quoted currency is written by `quoted::quoted_history`).
    pub history: Vec<HistoryWeek>,
    /// The usual price, exactly; `None` without history.
    pub typical: Option<Exact>,
    /// The usual range in USD, with sufficient history (`signals::range`).
    pub range: Option<(f64, f64)>,
}

/// Weekly averages of one version's price points already computed, by week
/// and the span of it they cover. Asking whether a version was an
/// opportunity at each monitoring time of a week recomputes only the weeks
/// at the edges of each window; the rest come from here.
#[derive(Debug, Default)]
pub struct WeekCache {
    averages: BTreeMap<(NaiveDate, Time, Time), Exact>,
}

/// The comparison as known at `reference`, using the price points up to `end`
/// (`end` is `S` at the snapshot's own `T`, and the reference itself for an
/// earlier time). `current` is the dealer price the version is offered at.
/// Every rule is decided on exact values; only the published fields are
/// rounded. `cache` belongs to `points`.
pub fn assess(
    points: &[PricePoint],
    current: &Exact,
    reference: Time,
    end: Time,
    cache: &mut WeekCache,
) -> Assessment {
    let window = in_window(points, reference, end);
    let weeks = weekly_averages(window, end, cache);
    let typical = median(weeks.iter().map(|week| &week.1));
    let lowest = window.iter().map(|point| &point.price).min();
    let observed_weeks = u32::try_from(weeks.len()).unwrap_or(u32::MAX);
    let sufficient = is_sufficient(window, observed_weeks, reference);
    let discount = typical
        .as_ref()
        .filter(|_| sufficient)
        .and_then(|typical| exact::percent_below(typical, current));
    let comparison = Comparison {
        window_days: WINDOW_DAYS,
        typical_price_usd: typical.as_ref().map(exact::cents),
        lowest_price_usd: lowest.map(exact::cents),
        discount_pct: discount.as_ref().map(exact::hundredths),
        observed_weeks,
        sufficient_history: sufficient,
        opportunity: discount.as_ref().is_some_and(is_opportunity_discount),
    };
    let history = weeks
        .iter()
        .map(|(week_start, average)| HistoryWeek {
            week_start: *week_start,
            price: None,
            price_usd: exact::cents(average),
        })
        .collect();
    let range = sufficient
        .then(|| crate::signals::range::usual_range(weeks.iter().map(|week| &week.1)))
        .flatten();
    Assessment {
        comparison,
        history,
        typical,
        range,
    }
}

/// Whether the version is an opportunity as known at `reference`: the same
/// rule as [`assess`], without the published fields, without the weekly
/// averages when the history is insufficient anyway, and without sorting
/// them (see `median_at_least`).
pub fn qualifies(
    points: &[PricePoint],
    current: &Exact,
    reference: Time,
    end: Time,
    cache: &mut WeekCache,
) -> bool {
    let window = in_window(points, reference, end);
    let mut mondays: Vec<NaiveDate> = window.iter().map(|point| week_of(point.at)).collect();
    mondays.dedup();
    let observed_weeks = u32::try_from(mondays.len()).unwrap_or(u32::MAX);
    if !is_sufficient(window, observed_weeks, reference) {
        return false;
    }
    let weeks = weekly_averages(window, end, cache);
    let averages: Vec<&Exact> = weeks.iter().map(|week| &week.1).collect();
    let zero = Exact::zero();
    if *current > zero && averages.iter().all(|average| **average > zero) {
        // With positive prices, (typical - current) x 100 / typical >= 5
        // exactly when typical >= current x 100 / 95.
        let bound = current * exact::ratio(100, 100 - OPPORTUNITY_PCT);
        return median_at_least(&averages, &bound);
    }
    median(averages.into_iter())
        .and_then(|typical| exact::percent_below(&typical, current))
        .is_some_and(|discount| is_opportunity_discount(&discount))
}

/// Whether the median of `values` is at least `bound`, with one comparison
/// per value instead of a sort. Odd count: when at least half of them, plus
/// one, are. Even count: the middle two are the largest value under `bound`
/// and the smallest at or over it exactly when half of them are at or over
/// it; more and both middle values are, fewer and neither is.
pub(crate) fn median_at_least(values: &[&Exact], bound: &Exact) -> bool {
    let (over, under): (Vec<&Exact>, Vec<&Exact>) =
        values.iter().copied().partition(|value| *value >= bound);
    let half = values.len() / 2;
    if values.is_empty() {
        return false;
    }
    if values.len() % 2 == 1 {
        return over.len() > half;
    }
    match over.len().cmp(&half) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => match (under.iter().max(), over.iter().min()) {
            (Some(lower), Some(upper)) => *lower + *upper >= bound * exact::whole(2),
            _ => false,
        },
    }
}

/// `discountPct >= 5`, on the exact percentage.
fn is_opportunity_discount(discount: &Exact) -> bool {
    *discount >= exact::whole(OPPORTUNITY_PCT)
}

/// The points in the history window `(reference - 180 days, end]`; a point
/// before it carries no price into it.
fn in_window(points: &[PricePoint], reference: Time, end: Time) -> &[PricePoint] {
    let window_start = reference - Duration::days(i64::from(WINDOW_DAYS));
    let first = points.partition_point(|point| point.at <= window_start);
    let last = points.partition_point(|point| point.at <= end);
    &points[first..last.max(first)]
}

/// At least six observed weeks, at least 35 days from the first to the last
/// check, and the last check at most 45 days before `reference`, compared as
/// durations (fractions of a second count).
fn is_sufficient(window: &[PricePoint], observed_weeks: u32, reference: Time) -> bool {
    match (window.first(), window.last()) {
        (Some(first), Some(last)) => {
            observed_weeks >= MIN_WEEKS
                && last.at - first.at >= Duration::days(MIN_SPAN_DAYS)
                && reference - last.at <= Duration::days(MAX_AGE_DAYS)
        }
        _ => false,
    }
}

/// The time-weighted mean dealer price of each ISO week (Argentine time) that
/// holds at least one point. A price is in effect from its check until the
/// next one, the last until `end`; nothing before the first point counts.
pub(crate) fn weekly_averages(
    points: &[PricePoint],
    end: Time,
    cache: &mut WeekCache,
) -> Vec<(NaiveDate, Exact)> {
    let Some(first) = points.first() else {
        return Vec::new();
    };
    let mut weeks: Vec<NaiveDate> = points.iter().map(|point| week_of(point.at)).collect();
    weeks.dedup();
    weeks
        .into_iter()
        .map(|monday| {
            let (week_start, week_end) = week_bounds(monday);
            let from = week_start.max(first.at);
            let to = week_end.min(end);
            // The average depends on the points only through this span: the
            // price in effect at `from` (at or after the window's first
            // point) and the checks up to `to`.
            let average = cache.averages.entry((monday, from, to)).or_insert_with(|| {
                let first_in_week = points.partition_point(|point| point.at < week_start);
                if points[first_in_week].at >= to {
                    // The week's only checks are exactly at the end: the
                    // week has no duration after them, so it averages to
                    // their price.
                    let last = points.partition_point(|point| point.at <= to) - 1;
                    return points[last].price.clone();
                }
                time_weighted_mean(points, from, to)
            });
            (monday, average.clone())
        })
        .collect()
}

/// Mean of the step function given by `points` over `[from, to)`, weighted by
/// the nanoseconds each price was in effect; when the span is empty, the
/// price in effect at `from`.
fn time_weighted_mean(points: &[PricePoint], from: Time, to: Time) -> Exact {
    // The point in effect at `from` is the last one at or before it.
    let start = points
        .partition_point(|point| point.at <= from)
        .saturating_sub(1);
    if to <= from {
        return points[start].price.clone();
    }
    let mut weighted = Exact::zero();
    for (index, point) in points.iter().enumerate().skip(start) {
        if point.at >= to {
            break;
        }
        let next = points.get(index + 1).map_or(to, |next| next.at.min(to));
        weighted += &(&point.price * exact::nanoseconds(next - point.at.max(from)));
    }
    // `to > from`, so the division cannot fail.
    weighted
        .checked_div(&exact::nanoseconds(to - from))
        .unwrap_or_else(|| points[start].price.clone())
}

/// Monday (Argentine date) of the ISO week holding `time`.
pub fn week_of(time: Time) -> NaiveDate {
    let local = time.with_timezone(&argentina()).date_naive();
    local - Duration::days(i64::from(local.weekday().num_days_from_monday()))
}

/// The UTC instants where the Argentine week starting on `monday` begins and ends.
fn week_bounds(monday: NaiveDate) -> (Time, Time) {
    let start = monday
        .and_hms_opt(0, 0, 0)
        .expect("invariant: midnight exists")
        .and_local_timezone(argentina())
        .single()
        .expect("invariant: a fixed offset has no gaps")
        .to_utc();
    (start, start + Duration::days(7))
}

/// Median; the mean of the middle two for an even count; `None` when empty.
pub fn median<'a>(values: impl Iterator<Item = &'a Exact>) -> Option<Exact> {
    let mut sorted: Vec<&Exact> = values.collect();
    sorted.sort();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2].clone()),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) * exact::ratio(1, 2)),
    }
}
