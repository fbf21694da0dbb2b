//! Signals stage, today's spread and where: the latest check's quotes told
//! as a buyer asks ("who sells it cheaper, and where?"): the lowest, the
//! median (the middle quote, or the mean of the two middle ones) and the
//! highest, in dollars at the check's rate and in pesos (as quoted, or
//! dollars at that rate); the dealers (`sellerId`; a quote without one is
//! its own dealer) and how many of them report stock; and per city
//! (`location`, "sin dato" without one) the cheapest quote and the dealers.
//! Exact, rounded to the cent as published.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::{DealerSpread, LocationSpread, NO_LOCATION};
use crate::signals::exact::{self, Exact};
use crate::signals::history::median;
use crate::snapshot::{QuoteCheck, SourceQuote};

/// The spread of `check`'s quotes; `None` for a check without quotes.
pub fn dealer_spread(check: &QuoteCheck) -> Option<DealerSpread> {
    if check.quotes.is_empty() {
        return None;
    }
    let rate = check.ars_per_usd.and_then(exact::decimal);
    let usd = |quote: &SourceQuote| exact::usd(quote.price, rate.as_ref());
    let ars = |quote: &SourceQuote| exact::ars(quote.price, rate.as_ref());
    let (dollars, pesos): (Vec<Option<Exact>>, Vec<Option<Exact>>) =
        check.quotes.iter().map(|q| (usd(q), ars(q))).unzip();
    let figures = |values: &[Option<Exact>]| {
        let known: Vec<&Exact> = values.iter().flatten().collect();
        (
            known.iter().copied().min().map(exact::cents),
            median(known.iter().copied()).as_ref().map(exact::cents),
            known.iter().copied().max().map(exact::cents),
        )
    };
    let (lowest_usd, median_usd, highest_usd) = figures(&dollars);
    let (lowest_ars, median_ars, highest_ars) = figures(&pesos);
    // Each quote's dealer: its `sellerId`, or the quote itself.
    let dealer = |at: usize| match &check.quotes[at].seller_id {
        Some(seller) => (0u8, seller.to_string()),
        None => (1u8, check.quotes[at].id.to_string()),
    };
    let all: BTreeSet<_> = (0..check.quotes.len()).map(dealer).collect();
    let stocked: BTreeSet<_> = (0..check.quotes.len())
        .filter(|at| check.quotes[*at].stock.is_some_and(|stock| stock > 0))
        .map(dealer)
        .collect();
    let mut places: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (at, quote) in check.quotes.iter().enumerate() {
        let place = quote.location.as_deref().unwrap_or(NO_LOCATION);
        places.entry(place).or_default().push(at);
    }
    let mut by_location: Vec<(Option<Exact>, LocationSpread)> = places
        .into_iter()
        .map(|(place, quotes)| {
            let lowest_usd = quotes.iter().filter_map(|at| dollars[*at].clone()).min();
            let lowest_ars = quotes.iter().filter_map(|at| pesos[*at].clone()).min();
            let dealers: BTreeSet<_> = quotes.iter().map(|at| dealer(*at)).collect();
            let spread = LocationSpread {
                location: place.to_owned(),
                dealers: count(dealers.len()),
                lowest_usd: lowest_usd.as_ref().map(exact::cents),
                lowest_ars: lowest_ars.as_ref().map(exact::cents),
            };
            (lowest_usd, spread)
        })
        .collect();
    // The cheapest city first; a city without a dollar price last; ties by
    // name.
    by_location.sort_by(|a, b| match (&a.0, &b.0) {
        (Some(x), Some(y)) => x.cmp(y).then_with(|| a.1.location.cmp(&b.1.location)),
        (x, y) => y
            .is_some()
            .cmp(&x.is_some())
            .then_with(|| a.1.location.cmp(&b.1.location)),
    });
    Some(DealerSpread {
        count: count(all.len()),
        with_stock: count(stocked.len()),
        lowest_usd,
        median_usd,
        highest_usd,
        lowest_ars,
        median_ars,
        highest_ars,
        by_location: by_location.into_iter().map(|(_, spread)| spread).collect(),
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::Money;
    use crate::time::parse_time;
    use crate::vocab::Currency;

    fn quote(
        id: &str,
        usd: f64,
        seller: Option<&str>,
        place: Option<&str>,
        stock: i64,
    ) -> SourceQuote {
        let price = Money {
            amount: usd,
            currency: Currency::Usd,
        };
        SourceQuote {
            stock: Some(stock),
            location: place.map(Into::into),
            seller_id: seller.map(Into::into),
            ..SourceQuote::bare(id, price)
        }
    }

    #[test]
    fn dealers_are_sellers_and_a_quote_without_one_is_its_own() {
        let check = QuoteCheck {
            observed_at: parse_time("2026-11-21T23:00:00Z").expect("time"),
            ars_per_usd: Some(1_000.0),
            in_stock: true,
            quotes: vec![
                quote("q1", 30_000.0, Some("d1"), Some("Córdoba"), 2),
                quote("q2", 31_000.0, Some("d1"), Some("Córdoba"), 0),
                quote("q3", 29_000.0, Some("d2"), Some("CABA"), 0),
                quote("q4", 32_000.0, None, None, 1),
                quote("q5", 33_000.0, None, Some("CABA"), 0),
            ],
        };
        let spread = dealer_spread(&check).expect("quotes");
        // d1, d2, and q4 and q5 each their own.
        assert_eq!(spread.count, 4);
        // d1 (through q1) and q4.
        assert_eq!(spread.with_stock, 2);
        // Five quotes: the middle one is 31,000.
        assert_eq!(
            (spread.lowest_usd, spread.median_usd, spread.highest_usd),
            (Some(29_000.0), Some(31_000.0), Some(33_000.0))
        );
        assert_eq!(spread.median_ars, Some(31_000_000.0));
        let places: Vec<(&str, u32, Option<f64>)> = spread
            .by_location
            .iter()
            .map(|p| (p.location.as_str(), p.dealers, p.lowest_usd))
            .collect();
        assert_eq!(
            places,
            [
                ("CABA", 2, Some(29_000.0)),
                ("Córdoba", 1, Some(30_000.0)),
                ("sin dato", 1, Some(32_000.0)),
            ]
        );
        // Four quotes: the mean of the middle two.
        let mut even = check.clone();
        even.quotes.pop();
        let spread = dealer_spread(&even).expect("quotes");
        assert_eq!(spread.median_usd, Some(30_500.0));
    }
}
