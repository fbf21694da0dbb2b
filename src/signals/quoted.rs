//! Signals stage, history in the quoted currency: for a version whose quotes
//! in the history window are all in one currency, its dealer price in that
//! currency (weekly averages time-weighted exactly as the dollar ones, their
//! median, the lowest price and the latest change). The contract's signals
//! stay in dollars; this is what the site shows beside them, so that a peso
//! price reads in pesos and a rise of the dollar is never read as a cut.

use crate::catalogue::{HistoryWeek, QuotedHistory};
use crate::signals::exact;
use crate::signals::history::{PricePoint, WeekCache, median, weekly_averages};
use crate::snapshot::QuoteCheck;
use crate::time::Time;
use crate::vocab::Currency;

/// The quoted-currency history of a version's `checks` in the window of
/// `reference`, with checks up to `end`; `None` when the window holds no
/// quotes or quotes in both currencies. Each week's average in that
/// currency is written into the `price` of the same week of `weeks` (the
/// version's dollar weeks of the same window), so that the one weekly
/// history carries both.
pub fn quoted_history(
    checks: &[QuoteCheck],
    reference: Time,
    end: Time,
    weeks: &mut [HistoryWeek],
) -> Option<QuotedHistory> {
    let in_window: Vec<&QuoteCheck> = checks
        .iter()
        .filter(|check| check.observed_at > reference - window() && check.observed_at <= end)
        .filter(|check| !check.quotes.is_empty())
        .collect();
    let currency = one_currency(&in_window)?;
    // In one currency, the cheapest quote is the cheapest amount.
    let points: Vec<PricePoint> = in_window
        .iter()
        .filter_map(|check| {
            let cheapest = check
                .quotes
                .iter()
                .map(|quote| quote.price.amount)
                .min_by(f64::total_cmp)?;
            Some(PricePoint {
                at: check.observed_at,
                price: exact::decimal(cheapest)?,
            })
        })
        .collect();
    let last = points.last()?;
    let averages = weekly_averages(&points, end, &mut WeekCache::default());
    let range = crate::signals::range::usual_range(averages.iter().map(|(_, average)| average));
    let typical = median(averages.iter().map(|(_, average)| average))?;
    let lowest = points.iter().map(|point| &point.price).min()?;
    let run = points
        .iter()
        .rposition(|point| point.price != last.price)
        .map_or(0, |before| before + 1);
    for (week_start, average) in &averages {
        if let Ok(at) = weeks.binary_search_by_key(week_start, |week| week.week_start) {
            weeks[at].price = Some(exact::cents(average));
        }
    }
    Some(QuotedHistory {
        currency,
        typical: exact::cents(&typical),
        lowest: exact::cents(lowest),
        current: exact::cents(&last.price),
        since: points[run].at,
        previous: run
            .checked_sub(1)
            .map(|before| exact::cents(&points[before].price)),
        range,
    })
}

/// The history window's length.
fn window() -> chrono::Duration {
    chrono::Duration::days(i64::from(crate::catalogue::WINDOW_DAYS))
}

/// The one currency of every quote of `checks`, if there is one.
fn one_currency(checks: &[&QuoteCheck]) -> Option<Currency> {
    let mut currencies = checks
        .iter()
        .flat_map(|check| &check.quotes)
        .map(|quote| quote.price.currency);
    let first = currencies.next()?;
    currencies
        .all(|currency| currency == first)
        .then_some(first)
}
