//! Signals stage, the dealer price check by check: what an alert at a
//! buyer's price reads (`composed::alerts`). For each quote check of the
//! history window, the lowest quote in dollars at that check's rate and the
//! lowest in pesos (as quoted, or dollars at that rate), as the version
//! page's spread counts them; a check whose prices are those of the check
//! before adds nothing (an alert moves only when a price does), so the
//! series is as short as the prices are steady.

use crate::catalogue::{DealerPoint, WINDOW_DAYS};
use crate::signals::exact::{self, Exact};
use crate::signals::history::dealer_price;
use crate::snapshot::QuoteCheck;
use crate::time::Time;

/// The dealer prices of the checks in `(t − window, s]`, oldest first.
pub fn dealer_points(checks: &[QuoteCheck], t: Time, s: Time) -> Vec<DealerPoint> {
    let since = t - chrono::Duration::days(i64::from(WINDOW_DAYS));
    let mut points: Vec<DealerPoint> = Vec::new();
    for check in checks
        .iter()
        .filter(|c| c.observed_at > since && c.observed_at <= s)
    {
        let point = DealerPoint {
            at: check.observed_at,
            usd: dealer_price(check).as_ref().map(exact::cents),
            ars: lowest_pesos(check).as_ref().map(exact::units),
        };
        if point.usd.is_none() && point.ars.is_none() {
            continue;
        }
        let same = points
            .last()
            .is_some_and(|last| (last.usd, last.ars) == (point.usd, point.ars));
        if !same {
            points.push(point);
        }
    }
    points
}

/// The lowest quote of `check` in pesos: a peso quote as quoted, a dollar
/// quote at the check's rate.
fn lowest_pesos(check: &QuoteCheck) -> Option<Exact> {
    let rate = check.ars_per_usd.and_then(exact::decimal);
    check
        .quotes
        .iter()
        .filter_map(|quote| exact::ars(quote.price, rate.as_ref()))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{Money, SourceQuote};
    use crate::time::parse_time;
    use crate::vocab::Currency;

    fn check(day: u32, rate: Option<f64>, prices: &[(f64, Currency)]) -> QuoteCheck {
        QuoteCheck {
            observed_at: parse_time(&format!("2026-11-{day:02}T12:00:00Z")).expect("time"),
            ars_per_usd: rate,
            in_stock: true,
            quotes: prices
                .iter()
                .enumerate()
                .map(|(n, &(amount, currency))| {
                    SourceQuote::bare(&format!("q{n}"), Money { amount, currency })
                })
                .collect(),
        }
    }

    #[test]
    fn each_check_gives_its_lowest_price_in_both_currencies_and_steady_checks_add_nothing() {
        let usd = Currency::Usd;
        let ars = Currency::Ars;
        let checks = [
            // 1,000 pesos a dollar: USD 30,000 is $ 30.000.000, under the
            // peso quote of $ 31.000.000.
            check(10, Some(1000.0), &[(30_000.0, usd), (31_000_000.0, ars)]),
            check(11, Some(1000.0), &[(30_000.0, usd), (31_000_000.0, ars)]),
            // 1,100: the peso quote is the cheapest now.
            check(12, Some(1100.0), &[(30_000.0, usd), (31_000_000.0, ars)]),
            // No rate: each currency's own quotes only.
            check(13, None, &[(30_000.0, usd), (31_000_000.0, ars)]),
            check(14, Some(1100.0), &[]),
        ];
        let t = parse_time("2026-11-14T12:00:00Z").expect("time");
        let points = dealer_points(&checks, t, t);
        let seen: Vec<(u32, Option<f64>, Option<f64>)> = points
            .iter()
            .map(|p| (chrono::Datelike::day(&p.at), p.usd, p.ars))
            .collect();
        assert_eq!(
            seen,
            [
                (10, Some(30_000.0), Some(30_000_000.0)),
                (12, Some(28_181.82), Some(31_000_000.0)),
                (13, Some(30_000.0), Some(31_000_000.0)),
            ]
        );
    }
}
