//! Signals stage, why a version newly qualified: compares what was known at
//! the last monitoring time at which it was not an opportunity with what is
//! known at `T`, and names the first cause that applies ([`Cause`]; a
//! catalogue cut is found by the change rules, `changes.rs`).

use super::checks::{current_quotes, is_published, latest_check};
use crate::catalogue::Cause;
use crate::signals::exact::{self, Exact};
use crate::signals::history::{PricePoint, WeekCache, assess, dealer_price};
use crate::snapshot::{QuoteCheck, Version};
use crate::time::Time;
use crate::vocab::Currency;

/// The cause of a new opportunity that no catalogue cut explains: at `miss`
/// the version was not published, or its history was not sufficient, or its
/// dealer price in dollars was higher than `current` (the lowest quote of
/// `latest`), because a dealer lowered it or, with the same peso quote or a
/// higher one, because the dollar rose; failing all of these its usual
/// price rose.
pub fn without_cut(
    version: &Version,
    points: &[PricePoint],
    miss: Time,
    current: &Exact,
    latest: &QuoteCheck,
    cache: &mut WeekCache,
) -> Cause {
    let then_check = latest_check(version, miss);
    let before = then_check.as_deref().and_then(dealer_price);
    let (Some(then_check), Some(before)) = (then_check, before) else {
        return Cause::Returned;
    };
    if !is_published(version, miss, miss) {
        return Cause::Returned;
    }
    let then = assess(points, &before, miss, miss, cache);
    if !then.comparison.sufficient_history {
        return Cause::HistorySufficient;
    }
    if current < &before {
        let before_usd = exact::cents(&before);
        return if same_or_more_pesos(&then_check, latest) {
            Cause::DollarUp { before_usd }
        } else {
            Cause::LowerQuote { before_usd }
        };
    }
    Cause::HigherUsual {
        before_usd: then.typical.as_ref().map_or(f64::NAN, exact::cents),
    }
}

/// Whether the lowest quote of both checks is in pesos and the later one is
/// not lower in pesos.
fn same_or_more_pesos(then: &QuoteCheck, now: &QuoteCheck) -> bool {
    let lowest = |check: &QuoteCheck| current_quotes(check).into_iter().next();
    match (lowest(then), lowest(now)) {
        (Some(then), Some(now)) => {
            then.currency == Currency::Ars
                && now.currency == Currency::Ars
                && now.price >= then.price
        }
        _ => false,
    }
}
