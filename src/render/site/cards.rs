//! Render stage, version summaries in words: the card a list shows for each
//! version (built from the API's own Summary, so pages and API agree) and the
//! plain-language sentences for a comparison with the usual price and for a
//! recent change.

use serde::Serialize;

use super::format::{ars, date, date_time, money, percent, price, share};
use super::labels::{Badge, badges};
use crate::api::links::Links;
use crate::api::types::Summary;
use crate::catalogue::{Cause, Comparison, ExchangeRate, Quote, RecentChange, Vehicle};
use crate::vocab::{ChangeKind, Currency, Window};

/// A price as a buyer reads it: in the currency the dealers quoted, in whole
/// units, with the other currency beside it at the check's exchange rate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriceView {
    /// The lowest quote in its own currency: `$ 63.900.000`.
    pub lead: String,
    /// The other currency with the rate and its date, when the rate is known:
    /// `US$ 45.000 con el dólar a $ 1.420 el 21/11/2026`.
    pub other: Option<String>,
}

/// The price view of a version's lowest quote (its USD price when it has none).
pub fn price_view(best: Option<&Quote>, current_usd: f64, exchange: &ExchangeRate) -> PriceView {
    let at_rate = |amount: String, ars_per_usd: f64| {
        format!(
            "{amount} con el dólar a {} el {}",
            ars(ars_per_usd),
            date(exchange.observed_at)
        )
    };
    match best {
        Some(quote) if quote.currency == Currency::Ars => PriceView {
            lead: price(quote.price, Currency::Ars),
            other: exchange
                .ars_per_usd
                .map(|ars_per_usd| at_rate(price(quote.price_usd, Currency::Usd), ars_per_usd)),
        },
        Some(quote) => PriceView {
            lead: price(quote.price, Currency::Usd),
            other: exchange.ars_per_usd.map(|ars_per_usd| {
                at_rate(price(quote.price * ars_per_usd, Currency::Ars), ars_per_usd)
            }),
        },
        None => PriceView {
            lead: price(current_usd, Currency::Usd),
            other: None,
        },
    }
}

/// A version in a list.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// Catalogue ID (the compare form's value).
    pub id: String,
    /// Site path of its page.
    pub path: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim as displayed.
    pub trim: String,
    /// Lowest quote in its currency, with the other currency beside it.
    pub price: PriceView,
    /// The comparison with the usual price, in words.
    pub comparison: String,
    /// Whether it is an opportunity now.
    pub opportunity: bool,
    /// Deal reasons as badges.
    pub badges: Vec<Badge>,
    /// The seven-day recent change, in words.
    pub change: Option<String>,
    /// Number of quotes.
    pub quote_count: usize,
    /// When its quotes were checked.
    pub observed: String,
}

/// The card of a published version.
pub fn card(vehicle: &Vehicle, links: &Links) -> Card {
    let summary = Summary::of(vehicle, links);
    Card {
        id: summary.id.to_owned(),
        path: Links::vehicle_path(summary.id),
        make: summary.make.to_owned(),
        model: summary.model.to_owned(),
        trim: super::labels::trim(summary.trim, summary.trim_display),
        price: price_view(
            summary.best_quote,
            summary.current_price_usd,
            &vehicle.exchange_rate,
        ),
        comparison: comparison_in(
            summary.current_price_usd,
            summary.comparison,
            shown_in(summary.best_quote, &vehicle.exchange_rate),
        ),
        opportunity: summary.comparison.opportunity,
        badges: badges(summary.reasons),
        change: summary.recent_changes.get(Window::D7).map(change_text),
        quote_count: summary.quote_count,
        observed: date_time(summary.observed_at),
    }
}

/// The comparison with the usual price in plain words, in dollars:
/// `US$ 1.200 (4,80 %) por debajo de su precio habitual`.
pub fn comparison_text(current_usd: f64, comparison: &Comparison) -> String {
    comparison_in(current_usd, comparison, (Currency::Usd, 1.0))
}

/// The comparison with the usual price in plain words, in the currency and
/// at the rate of `shown_in` ([`shown_in`]): whole units, or cents when the
/// difference is under one unit. The direction comes from the published
/// amounts, so a difference of a few cents never reads as `0,00 %` or as no
/// difference at all.
pub fn comparison_in(
    current_usd: f64,
    comparison: &Comparison,
    (currency, factor): (Currency, f64),
) -> String {
    match (comparison.typical_price_usd, comparison.discount_pct) {
        (Some(typical), Some(discount)) if comparison.sufficient_history => {
            // Both are published in cents: compare whole cents, not floats.
            let cents = ((typical - current_usd) * 100.0).round();
            let size = (cents / 100.0).abs() * factor;
            let size = if size >= 1.0 {
                price(size, currency)
            } else {
                money(size, currency)
            };
            if cents > 0.0 {
                format!(
                    "{size} ({}) por debajo de su precio habitual",
                    share(discount)
                )
            } else if cents < 0.0 {
                format!(
                    "{size} ({}) por encima de su precio habitual",
                    share(discount)
                )
            } else {
                "En su precio habitual".to_owned()
            }
        }
        _ => {
            let weeks = comparison.observed_weeks;
            let observed = if weeks == 1 {
                "1 semana observada".to_owned()
            } else {
                format!("{weeks} semanas observadas")
            };
            format!("Sin historia suficiente para compararlo con su precio habitual ({observed})")
        }
    }
}

/// The currency a version's prices are shown in (that of its lowest quote)
/// and the pesos per dollar its dollar figures are converted at (the latest
/// check's rate; 1 for dollars, and dollars when pesos have no rate).
pub fn shown_in(best: Option<&Quote>, exchange: &ExchangeRate) -> (Currency, f64) {
    match (best.map(|quote| quote.currency), exchange.ars_per_usd) {
        (Some(Currency::Ars), Some(rate)) => (Currency::Ars, rate),
        _ => (Currency::Usd, 1.0),
    }
}

/// A recent change in plain words, saying what happened: a cut of the list
/// price (in the currency it is listed in), or what made a version newly
/// qualify as an opportunity (the engine's [`Cause`]).
pub fn change_text(change: &RecentChange) -> String {
    let drop = drop_size(change);
    let cut = |lead: &str| {
        let when = change
            .changed_at
            .map_or_else(String::new, |at| format!(" el {}", date(at)));
        let size = drop
            .as_ref()
            .map_or_else(String::new, |drop| format!(" {drop}"));
        format!("{lead}{size}{when}: {}.", list_prices(change))
    };
    if change.kind == ChangeKind::PriceDrop {
        return cut("Bajó su precio de lista");
    }
    if change.changed_at.is_some() {
        return cut("Pasó a ser oportunidad al bajar su precio de lista");
    }
    let since = change.qualified_since.map_or_else(String::new, |at| {
        format!(" (desde el control del {})", date(at))
    });
    let why = match change.detail.cause {
        Some(Cause::Returned) => "al volver a tener stock y precios de concesionarias".to_owned(),
        Some(Cause::HistorySufficient) => {
            "al reunir semanas suficientes para compararla con su precio habitual".to_owned()
        }
        Some(Cause::LowerQuote { before_usd }) => format!(
            "porque las concesionarias bajaron su precio (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::DollarUp { before_usd }) => format!(
            "porque subió el dólar: el precio en pesos equivale a menos dólares (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::HigherUsual { before_usd }) => format!(
            "porque subió su precio habitual (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::CatalogueCut) | None => "sin una baja de su precio de lista".to_owned(),
    };
    format!("Pasó a ser oportunidad {why}{since}.")
}

/// The list prices of a change, as listed (`de $ 41.300.000 a $ 39.860.000`),
/// or in dollars at today's rate when the listed prices are not at hand or
/// changed currency.
fn list_prices(change: &RecentChange) -> String {
    let detail = &change.detail;
    match (detail.previous, detail.current) {
        (Some(before), Some(now)) if before.currency == now.currency => format!(
            "de {} a {}",
            price(before.amount, before.currency),
            price(now.amount, now.currency)
        ),
        (None, Some(now)) if change.previous_price_usd.is_none() => {
            format!("ahora {}", price(now.amount, now.currency))
        }
        _ => match change.previous_price_usd {
            Some(previous) => format!(
                "de {} a {} (en dólares al cambio de hoy)",
                price(previous, Currency::Usd),
                price(change.current_price_usd, Currency::Usd)
            ),
            None => format!(
                "ahora {} (en dólares al cambio de hoy)",
                price(change.current_price_usd, Currency::Usd)
            ),
        },
    }
}

/// The size of a catalogue cut: `menos de 0,01 %` when the prices show a cut
/// that truncates to zero; the published percent otherwise (it can be zero
/// or negative for a new opportunity whose cut was undone later).
pub fn drop_size(change: &RecentChange) -> Option<String> {
    let pct = change.drop_pct?;
    let cut = change
        .previous_price_usd
        .is_some_and(|previous| previous > change.current_price_usd);
    Some(if pct == 0.0 && cut {
        share(pct)
    } else {
        percent(pct)
    })
}

#[cfg(test)]
mod tests;
