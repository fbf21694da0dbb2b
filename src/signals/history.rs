//! Signals stage, dealer-price history: reads a version's quote checks and
//! computes the usual price (median of weekly time-weighted averages), the
//! lowest price, the history sufficiency and the opportunity, as known at a
//! reference time.

use chrono::{Datelike, Duration, NaiveDate};

use crate::catalogue::{Comparison, WINDOW_DAYS, WeeklyAverage};
use crate::snapshot::QuoteCheck;
use crate::time::{DAY, Time, argentina};

/// Minimum weeks with a quote check for sufficient history.
pub const MIN_WEEKS: u32 = 6;
/// Minimum days from the first to the last check in the window.
pub const MIN_SPAN_DAYS: i64 = 35;
/// Maximum age in days of the last check, counted from the reference time.
pub const MAX_AGE_DAYS: i64 = 45;
/// Minimum percent below the usual price for an opportunity.
pub const OPPORTUNITY_PCT: f64 = 5.0;

/// A dealer price: the lowest quote of one check, in USD at that check's rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PricePoint {
    /// When the check was made.
    pub at: Time,
    /// Lowest quote in USD.
    pub usd: f64,
}

/// The dealer price of a check: its lowest quote in USD, or `None` for a check
/// without quotes (which then stays out of the history).
pub fn dealer_price(check: &QuoteCheck) -> Option<f64> {
    check
        .quotes
        .iter()
        .map(|quote| quote.price.usd(check.ars_per_usd.unwrap_or(f64::NAN)))
        .filter(|usd| usd.is_finite())
        .min_by(f64::total_cmp)
}

/// The dealer prices of every check with quotes, in time order.
pub fn price_points(checks: &[QuoteCheck]) -> Vec<PricePoint> {
    checks
        .iter()
        .filter_map(|check| {
            dealer_price(check).map(|usd| PricePoint {
                at: check.observed_at,
                usd,
            })
        })
        .collect()
}

/// The comparison and weekly averages as known at `reference`, using the
/// price points up to `end` (`end` is `S` at the snapshot's own `T`, and the
/// reference itself for an earlier time). `current` is the dealer price the
/// version is offered at.
pub fn compute_comparison(
    points: &[PricePoint],
    current: f64,
    reference: Time,
    end: Time,
) -> (Comparison, Vec<WeeklyAverage>) {
    let window_start = reference - Duration::days(i64::from(WINDOW_DAYS));
    let in_window: Vec<PricePoint> = points
        .iter()
        .copied()
        .filter(|point| point.at > window_start && point.at <= end)
        .collect();
    let weeks = weekly_averages(&in_window, end);
    let averages: Vec<f64> = weeks.iter().map(|week| week.1).collect();
    let typical = median(&averages);
    let lowest = in_window
        .iter()
        .map(|point| point.usd)
        .min_by(f64::total_cmp);
    let observed_weeks = u32::try_from(weeks.len()).unwrap_or(u32::MAX);
    let sufficient = match (in_window.first(), in_window.last()) {
        (Some(first), Some(last)) => {
            observed_weeks >= MIN_WEEKS
                && (last.at - first.at).num_seconds() >= MIN_SPAN_DAYS * DAY
                && (reference - last.at).num_seconds() <= MAX_AGE_DAYS * DAY
        }
        _ => false,
    };
    // The rule runs on the published (cent-rounded) prices, so anyone can
    // recompute it from the API's own numbers.
    let typical = typical.map(round_cents);
    let discount = typical
        .filter(|_| sufficient)
        .map(|typical| percent_below(typical, round_cents(current)));
    let comparison = Comparison {
        window_days: WINDOW_DAYS,
        typical_price_usd: typical,
        lowest_price_usd: lowest.map(round_cents),
        discount_pct: discount.map(truncate_hundredths),
        observed_weeks,
        sufficient_history: sufficient,
        opportunity: discount.is_some_and(|pct| pct >= OPPORTUNITY_PCT),
    };
    let history = weeks
        .into_iter()
        .map(|(week_start, average)| WeeklyAverage {
            week_start,
            average_usd: round_cents(average),
        })
        .collect();
    (comparison, history)
}

/// Percent by which `current` is below `reference`, computed as
/// `difference * 100 / reference` so that round boundaries stay exact.
pub fn percent_below(reference: f64, current: f64) -> f64 {
    (reference - current) * 100.0 / reference
}

/// The time-weighted mean dealer price of each ISO week (Argentine time) that
/// holds at least one point. A price is in effect from its check until the
/// next one, the last until `end`; nothing before the first point counts.
fn weekly_averages(points: &[PricePoint], end: Time) -> Vec<(NaiveDate, f64)> {
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
            let first_in_week = points.partition_point(|point| point.at < week_start);
            if points[first_in_week].at >= to {
                // The week's only checks are exactly at the end: the week has
                // no duration after them, so it averages to their price.
                let last = points.partition_point(|point| point.at <= to) - 1;
                return (monday, points[last].usd);
            }
            (monday, time_weighted_mean(points, from, to))
        })
        .collect()
}

/// Mean of the step function given by `points` over `[from, to)`; when the
/// span is empty (a week whose only check is exactly at the end), the price in
/// effect at `from`.
fn time_weighted_mean(points: &[PricePoint], from: Time, to: Time) -> f64 {
    // The point in effect at `from` is the last one at or before it.
    let start = points
        .partition_point(|point| point.at <= from)
        .saturating_sub(1);
    let total = (to - from).num_seconds();
    if total <= 0 {
        return points[start].usd;
    }
    let mut weighted = 0.0;
    for (index, point) in points.iter().enumerate().skip(start) {
        if point.at >= to {
            break;
        }
        let next = points.get(index + 1).map_or(to, |next| next.at.min(to));
        let seconds = (next - point.at.max(from)).num_seconds();
        weighted += point.usd * seconds as f64;
    }
    weighted / total as f64
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
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Rounds a USD amount to cents.
pub fn round_cents(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// Truncates a percentage toward zero to two decimals, so that a shown value
/// never crosses a threshold the unrounded value did not (4.999 shows 4.99).
/// Binary noise is cancelled first (1.15 is stored as 1.1499999…).
pub fn truncate_hundredths(value: f64) -> f64 {
    let hundredths = (value * 100.0 * 1e6).round() / 1e6;
    let truncated = hundredths.trunc() / 100.0;
    if truncated == 0.0 { 0.0 } else { truncated }
}
