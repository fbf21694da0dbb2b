//! Signal stage, the quote checks as the signals read them: a version's
//! latest check as of a time (whole or in brief), its current quotes in
//! order, and whether the version is published.

use std::borrow::Cow;

use super::exact::{self, Exact};
use crate::catalogue::Quote;
use crate::snapshot::{QuoteCheck, Version};
use crate::time::Time;

/// Whether a version is published as known at `at` with quote checks up to
/// `end`: listed at the catalogue check at `at`, and its latest quote check
/// found stock and at least one quote.
pub fn is_published(version: &Version, at: Time, end: Time) -> bool {
    let listed = version
        .catalogue
        .iter()
        .any(|run| run.first_seen <= at && at <= run.last_seen);
    listed
        && latest_check(version, end)
            .is_some_and(|check| check.in_stock && !check.quotes.is_empty())
}

/// The version's latest quote check at or before `end`. A check that a
/// loader kept in brief (an [`EarlierCheck`](crate::snapshot::EarlierCheck))
/// comes with its cheapest quotes as its quotes: all that is read of it.
pub(crate) fn latest_check(version: &Version, end: Time) -> Option<Cow<'_, QuoteCheck>> {
    let before = |at: Time| at <= end;
    let count = version
        .checks
        .partition_point(|check| before(check.observed_at));
    if let Some(index) = count.checked_sub(1) {
        return Some(Cow::Borrowed(&version.checks[index]));
    }
    let count = version
        .earlier
        .partition_point(|check| before(check.observed_at));
    let index = count.checked_sub(1)?;
    Some(Cow::Owned(version.earlier[index].as_check()))
}

/// The quotes of a check (the latest: the current quotes), cheapest first in exact USD, ties by quote
/// ID; a quote without a USD value (an ARS quote at a check without a rate)
/// goes last.
pub fn current_quotes(check: &QuoteCheck) -> Vec<Quote> {
    let rate = check.ars_per_usd.and_then(exact::decimal);
    let mut quotes: Vec<(Option<Exact>, Quote)> = check
        .quotes
        .iter()
        .map(|quote| {
            let usd = exact::usd(quote.price, rate.as_ref());
            let published = Quote {
                id: quote.id.to_string(),
                price: quote.price.amount,
                currency: quote.price.currency,
                price_usd: usd.as_ref().map_or(f64::NAN, exact::cents),
                fees_included: quote.fees_included,
                color: quote.color.as_deref().map(str::to_owned),
                stock: quote.stock,
                location: quote.location.as_deref().map(str::to_owned),
                seller_id: quote.seller_id.as_deref().map(str::to_owned),
            };
            (usd, published)
        })
        .collect();
    quotes.sort_by(|a, b| {
        let by_usd = match (&a.0, &b.0) {
            (Some(a), Some(b)) => a.cmp(b),
            (a, b) => b.is_some().cmp(&a.is_some()),
        };
        by_usd.then_with(|| a.1.id.as_bytes().cmp(b.1.id.as_bytes()))
    });
    quotes.into_iter().map(|(_, quote)| quote).collect()
}
