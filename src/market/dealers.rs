//! Market stage, dealers against the catalogue: where each dealer quote
//! stands against the listing site's catalogue price in effect at its
//! check. The 0.5 % band is decided on exact values, as every threshold of
//! the signals is; the gap itself is a published float.

use crate::signals::exact::{self, Exact};
use crate::snapshot::Money;

/// Where a quote stands against the catalogue price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// At least 0.5 % under it.
    Below,
    /// Within 0.5 % of it.
    At,
    /// At least 0.5 % over it.
    Above,
}

/// How far from the 0.5 % band's edges a float gap decides the side by
/// itself: its rounding error is many orders of magnitude smaller.
const SURE: f64 = 1e-6;

/// A quote against the catalogue price: natively in one currency, else
/// both in dollars at the check's rate (`None` without one); with the gap
/// (quote - catalogue) / catalogue in percent. The side is decided on the
/// exact decimals near the band's edges, on the float gap elsewhere (a
/// snapshot has millions of quotes, and exact rationals cost a thousand
/// times a float division).
pub fn compare(quote: Money, catalogue: Money, ars_per_usd: Option<f64>) -> Option<(Side, f64)> {
    let (quote_f, catalogue_f) = match (quote.currency == catalogue.currency, ars_per_usd) {
        (true, _) => (quote.amount, catalogue.amount),
        (false, Some(rate)) => (quote.usd(rate), catalogue.usd(rate)),
        (false, None) => return None,
    };
    let gap = (quote_f - catalogue_f) / catalogue_f * 100.0;
    if !gap.is_finite() {
        return None;
    }
    if (gap.abs() - 0.5).abs() > SURE {
        let side = match gap {
            g if g <= -0.5 => Side::Below,
            g if g >= 0.5 => Side::Above,
            _ => Side::At,
        };
        return Some((side, gap));
    }
    exact_side(quote, catalogue, ars_per_usd).map(|side| (side, gap))
}

/// The side of a quote on the exact decimals the snapshot wrote.
fn exact_side(quote: Money, catalogue: Money, ars_per_usd: Option<f64>) -> Option<Side> {
    let (quote_exact, catalogue_exact) = if quote.currency == catalogue.currency {
        (
            exact::decimal(quote.amount)?,
            exact::decimal(catalogue.amount)?,
        )
    } else {
        let exact_rate = exact::decimal(ars_per_usd?)?;
        (
            exact::usd(quote, Some(&exact_rate))?,
            exact::usd(catalogue, Some(&exact_rate))?,
        )
    };
    let under: Exact = exact::percent_below(&catalogue_exact, &quote_exact)?;
    let band = exact::ratio(1, 2);
    Some(if under >= band {
        Side::Below
    } else if under <= -band {
        Side::Above
    } else {
        Side::At
    })
}
