//! Market stage, monthly prices: a version's dealer price in each calendar
//! month, time-weighted exactly as the weekly averages are (a price is in
//! effect from its check until the version's next check, the last until
//! `S`; nothing before the version's first check counts; only months that
//! hold one of its checks), in pesos and in dollars. Floats: these are
//! published numbers, and no threshold is decided on them.

use serde::{Deserialize, Serialize};

use crate::month::ArMonth;
use crate::time::Time;

/// A version's dealer price at one quote check with quotes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// When the check was made.
    pub at: Time,
    /// Its lowest quote in dollars, at the check's rate.
    pub usd: f64,
    /// Its lowest quote in pesos (as quoted, or in dollars at the check's
    /// rate); `None` for a check of dollar quotes without a rate.
    pub ars: Option<f64>,
}

/// A version's price in one month, in each currency.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MonthlyPrice {
    /// In pesos.
    pub ars: Option<f64>,
    /// In dollars.
    pub usd: Option<f64>,
}

/// The version's price in each of `months` from its `points` (ascending by
/// time), with `end` (`S`) closing the last price.
pub fn monthly_prices(points: &[Point], months: &[ArMonth], end: Time) -> Vec<MonthlyPrice> {
    let Some(first) = points.first() else {
        return vec![MonthlyPrice::default(); months.len()];
    };
    months
        .iter()
        .map(|month| {
            let (start, stop) = (month.start(), month.end());
            let held = crate::time::in_period(points, |point| point.at, &(start..stop));
            if held.is_empty() {
                return MonthlyPrice::default();
            }
            let from = start.max(first.at);
            let to = stop.min(end);
            MonthlyPrice {
                ars: weighted(points, |point| point.ars, from, to),
                usd: weighted(points, |point| Some(point.usd), from, to),
            }
        })
        .collect()
}

/// The mean of `value` over `[from, to)` (`from` at or after the first
/// point), weighted by the time each point's value is in effect; spans
/// without a value do not count. An empty span (the month's only check is
/// exactly at `S`) takes the value in effect at `from`.
fn weighted(
    points: &[Point],
    value: impl Fn(&Point) -> Option<f64>,
    from: Time,
    to: Time,
) -> Option<f64> {
    let start = points
        .partition_point(|point| point.at <= from)
        .saturating_sub(1);
    if to <= from {
        return value(&points[start]);
    }
    let (mut sum, mut weight) = (0.0, 0.0);
    for (index, point) in points.iter().enumerate().skip(start) {
        if point.at >= to {
            break;
        }
        let next = points.get(index + 1).map_or(to, |next| next.at.min(to));
        let seconds = (next - point.at.max(from)).as_seconds_f64();
        if let Some(price) = value(point) {
            sum += price * seconds;
            weight += seconds;
        }
    }
    (weight > 0.0).then(|| sum / weight)
}
