//! Signals stage, freight from the data: what freight and paperwork ("flete
//! y formularios") add to a version's price, measured where the data shows
//! it. At each quote check of the 180-day window with quotes both including
//! them and not, the cheapest of each (in USD at that check's rate) are
//! compared: the gap, and the gap as a percent of the cheapest without;
//! the median of each over those checks, when at least
//! [`MIN_CHECKS`] have both kinds. A median may be negative (a dealer
//! that includes freight may still be the cheaper): it is given as it is.
//! Decided exactly, rounded only as published.

use crate::catalogue::FreightEstimate;
use crate::signals::exact::{self, Exact};
use crate::signals::history::median;
use crate::snapshot::QuoteCheck;
use crate::time::Time;

/// Fewer checks with both kinds give no estimate.
pub const MIN_CHECKS: usize = 3;

/// The freight estimate of a version's `checks` in the window of
/// `reference` (after `reference` minus 180 days, up to `end`).
pub fn freight_estimate(
    checks: &[QuoteCheck],
    reference: Time,
    end: Time,
) -> Option<FreightEstimate> {
    let start = reference - chrono::Duration::days(i64::from(crate::catalogue::WINDOW_DAYS));
    let (gaps, shares): (Vec<Exact>, Vec<Exact>) = checks
        .iter()
        .filter(|check| check.observed_at > start && check.observed_at <= end)
        .filter_map(gap)
        .unzip();
    if gaps.len() < MIN_CHECKS {
        return None;
    }
    Some(FreightEstimate {
        amount_usd: exact::cents(&median(gaps.iter())?),
        pct: exact::hundredths(&median(shares.iter())?),
        checks: u32::try_from(gaps.len()).unwrap_or(u32::MAX),
    })
}

/// A check's gap between its cheapest quote including freight and its
/// cheapest not including it (USD), and that gap in percent of the latter;
/// `None` without quotes of both kinds (a quote that does not say counts
/// as neither).
fn gap(check: &QuoteCheck) -> Option<(Exact, Exact)> {
    let rate = check.ars_per_usd.and_then(exact::decimal);
    let cheapest = |included: bool| {
        check
            .quotes
            .iter()
            .filter(|quote| quote.fees_included == Some(included))
            .filter_map(|quote| exact::usd(quote.price, rate.as_ref()))
            .min()
    };
    let (with, without) = (cheapest(true)?, cheapest(false)?);
    let gap = &with - &without;
    let share = (&gap * exact::whole(100)).checked_div(&without)?;
    Some((gap, share))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{Money, SourceQuote};
    use crate::time::parse_time;
    use crate::vocab::Currency;

    fn quote(id: &str, amount: f64, currency: Currency, fees: Option<bool>) -> SourceQuote {
        SourceQuote {
            fees_included: fees,
            ..SourceQuote::bare(id, Money { amount, currency })
        }
    }

    /// A check `days` before the reference with a quote including freight
    /// at `with` and one not including it at `without` (USD).
    fn check(days: i64, with: f64, without: f64) -> QuoteCheck {
        QuoteCheck {
            observed_at: reference() - chrono::Duration::days(days),
            ars_per_usd: Some(1_000.0),
            in_stock: true,
            quotes: vec![
                quote("a", with, Currency::Usd, Some(true)),
                quote("b", without, Currency::Usd, Some(false)),
                // Dearer, and a quote that does not say: neither counts.
                quote("c", with + 5_000.0, Currency::Usd, Some(true)),
                quote("d", 1.0, Currency::Usd, None),
            ],
        }
    }

    fn reference() -> Time {
        parse_time("2026-11-21T23:00:00Z").expect("time")
    }

    #[test]
    fn the_methodologys_three_checks() {
        // Gaps 400, 500, -100 -> 400; shares 1.333..., 1.666..., -0.331...
        // -> 1.333... truncated to 1.33.
        let checks = [
            check(30, 30_400.0, 30_000.0),
            check(20, 30_500.0, 30_000.0),
            check(10, 30_100.0, 30_200.0),
        ];
        let estimate = freight_estimate(&checks, reference(), reference()).expect("three checks");
        assert_eq!(estimate.amount_usd, 400.0);
        assert_eq!(estimate.pct, 1.33);
        assert_eq!(estimate.checks, 3);
        // Two checks with both kinds are not enough.
        assert_eq!(
            freight_estimate(&checks[..2], reference(), reference()),
            None
        );
    }

    #[test]
    fn only_checks_with_both_kinds_in_the_window_count_and_pesos_convert_at_their_check() {
        let mut pesos = check(5, 0.0, 0.0);
        // 31,000,000 ARS at 1,000 is USD 31,000 against USD 30,000 without.
        pesos.quotes[0] = quote("a", 31_000_000.0, Currency::Ars, Some(true));
        pesos.quotes[1] = quote("b", 30_000.0, Currency::Usd, Some(false));
        pesos.quotes.truncate(2);
        let mut one_kind = check(6, 30_000.0, 30_000.0);
        one_kind.quotes.retain(|q| q.fees_included != Some(false));
        let checks = [
            // 181 days before: outside the 180-day window.
            check(181, 90_000.0, 30_000.0),
            one_kind,
            check(4, 30_100.0, 30_000.0),
            check(3, 30_050.0, 30_000.0),
            pesos,
        ];
        let estimate = freight_estimate(&checks, reference(), reference()).expect("three");
        // Gaps 100, 50, 1,000: the median is 100.
        assert_eq!(estimate.amount_usd, 100.0);
        assert_eq!(estimate.checks, 3);
        // A negative median is given as it is.
        let cheaper = [
            check(3, 29_900.0, 30_000.0),
            check(2, 29_800.0, 30_000.0),
            check(1, 30_100.0, 30_000.0),
        ];
        let estimate = freight_estimate(&cheaper, reference(), reference()).expect("three");
        assert_eq!(estimate.amount_usd, -100.0);
        assert_eq!(estimate.pct, -0.33);
    }
}
