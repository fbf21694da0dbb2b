//! Market stage, dealers against the catalogue: where each dealer quote
//! stands against the listing site's catalogue price in effect at its
//! check. The 0.5 % band is decided on exact values, as every threshold of
//! the signals is; the gap itself is a published float.

use crate::signals::exact::{self, Exact};
use crate::snapshot::{CatalogueRun, Money};

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

/// The catalogue price in effect at `at`: that of the last run that began
/// at or before it (absence from the catalogue does not end a price).
pub fn catalogue_at(runs: &[CatalogueRun], at: crate::time::Time) -> Option<Money> {
    let begun = runs.partition_point(|run| run.first_seen <= at);
    Some(runs.get(begun.checked_sub(1)?)?.price)
}

/// A quote against the catalogue price: natively in one currency, else
/// both in dollars at the check's rate (`None` without one); with the gap
/// (quote - catalogue) / catalogue in percent.
pub fn compare(quote: Money, catalogue: Money, ars_per_usd: Option<f64>) -> Option<(Side, f64)> {
    let (quote_exact, catalogue_exact, quote_f, catalogue_f) =
        if quote.currency == catalogue.currency {
            (
                exact::decimal(quote.amount)?,
                exact::decimal(catalogue.amount)?,
                quote.amount,
                catalogue.amount,
            )
        } else {
            let rate = ars_per_usd?;
            let exact_rate = exact::decimal(rate)?;
            (
                exact::usd(quote, Some(&exact_rate))?,
                exact::usd(catalogue, Some(&exact_rate))?,
                quote.usd(rate),
                catalogue.usd(rate),
            )
        };
    let under: Exact = exact::percent_below(&catalogue_exact, &quote_exact)?;
    let band = exact::ratio(1, 2);
    let side = if under >= band {
        Side::Below
    } else if under <= -band {
        Side::Above
    } else {
        Side::At
    };
    Some((side, (quote_f - catalogue_f) / catalogue_f * 100.0))
}
