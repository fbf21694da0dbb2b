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
        trim: summary.trim_display.unwrap_or(summary.trim).to_owned(),
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
mod tests {
    use super::*;
    use crate::catalogue::{ChangeDetail, Native};
    use crate::time::parse_time;

    fn comparison(typical: Option<f64>, discount: Option<f64>, sufficient: bool) -> Comparison {
        Comparison {
            window_days: 180,
            typical_price_usd: typical,
            lowest_price_usd: None,
            discount_pct: discount,
            observed_weeks: if sufficient { 12 } else { 1 },
            sufficient_history: sufficient,
            opportunity: false,
        }
    }

    fn quote(price: f64, currency: Currency, price_usd: f64) -> Quote {
        Quote {
            id: "q".into(),
            price,
            currency,
            price_usd,
            fees_included: None,
            color: None,
            stock: None,
            location: None,
            seller_id: None,
        }
    }

    #[test]
    fn prices_lead_in_the_quoted_currency_in_whole_units() {
        let exchange = ExchangeRate {
            ars_per_usd: Some(1_420.5),
            observed_at: parse_time("2026-11-21T23:00:00Z").expect("time"),
        };
        let pesos = quote(63_900_000.0, Currency::Ars, 44_984.16);
        assert_eq!(
            price_view(Some(&pesos), 44_984.16, &exchange),
            PriceView {
                lead: "$ 63.900.000".into(),
                other: Some("US$ 44.984 con el dólar a $ 1.420,50 el 21/11/2026".into()),
            }
        );
        // 27 241,39 x 1 420,5 = 38 696 394,495 pesos: whole pesos.
        let dollars = quote(27_241.39, Currency::Usd, 27_241.39);
        assert_eq!(
            price_view(Some(&dollars), 27_241.39, &exchange),
            PriceView {
                lead: "US$ 27.241".into(),
                other: Some("$ 38.696.394 con el dólar a $ 1.420,50 el 21/11/2026".into()),
            }
        );
        let no_rate = ExchangeRate {
            ars_per_usd: None,
            ..exchange
        };
        assert_eq!(price_view(Some(&dollars), 27_241.39, &no_rate).other, None);
        assert_eq!(price_view(None, 27_241.5, &no_rate).lead, "US$ 27.242");
    }

    #[test]
    fn comparisons_read_as_plain_spanish() {
        assert_eq!(
            comparison_text(23_800.0, &comparison(Some(25_000.0), Some(4.8), true)),
            "US$ 1.200 (4,80 %) por debajo de su precio habitual"
        );
        assert_eq!(
            comparison_text(26_000.0, &comparison(Some(25_000.0), Some(-4.0), true)),
            "US$ 1.000 (4,00 %) por encima de su precio habitual"
        );
        assert_eq!(
            comparison_text(25_000.0, &comparison(Some(25_000.0), Some(0.0), true)),
            "En su precio habitual"
        );
        assert_eq!(
            comparison_text(26_000.0, &comparison(None, None, false)),
            "Sin historia suficiente para compararlo con su precio habitual (1 semana observada)"
        );
    }

    #[test]
    fn a_difference_of_cents_is_never_zero_percent() {
        // 0,0092 % below and above: the API publishes a discountPct of 0.
        assert_eq!(
            comparison_text(249_976.88, &comparison(Some(250_000.0), Some(0.0), true)),
            "US$ 23 (menos de 0,01 %) por debajo de su precio habitual"
        );
        assert_eq!(
            comparison_text(250_023.12, &comparison(Some(250_000.0), Some(0.0), true)),
            "US$ 23 (menos de 0,01 %) por encima de su precio habitual"
        );
        assert_eq!(
            comparison_text(24_976.88, &comparison(Some(25_000.0), Some(0.09), true)),
            "US$ 23 (0,09 %) por debajo de su precio habitual"
        );
        // Under one unit, cents; in pesos at the rate, whole pesos.
        assert_eq!(
            comparison_text(24_999.6, &comparison(Some(25_000.0), Some(0.0), true)),
            "US$ 0,40 (menos de 0,01 %) por debajo de su precio habitual"
        );
        // US$ 1.200 x 1.455,28 = $ 1.746.336.
        assert_eq!(
            comparison_in(
                23_800.0,
                &comparison(Some(25_000.0), Some(4.8), true),
                (Currency::Ars, 1_455.28)
            ),
            "$ 1.746.336 (4,80 %) por debajo de su precio habitual"
        );
    }

    fn change(kind: ChangeKind, drop: Option<f64>, previous: Option<f64>) -> RecentChange {
        RecentChange {
            kind,
            // A cut has its time; a new opportunity without one, the check after the miss.
            changed_at: drop.and(parse_time("2026-11-21T15:00:00Z")),
            qualified_since: match drop {
                Some(_) => None,
                None => parse_time("2026-11-21T14:00:00Z"),
            },
            drop_pct: drop,
            previous_price_usd: previous,
            current_price_usd: 24_187.5,
            conversion_basis: "current_observed_exchange_rate".into(),
            detail: ChangeDetail::default(),
        }
    }

    fn pesos(amount: f64) -> Option<Native> {
        Some(Native {
            amount,
            currency: Currency::Ars,
        })
    }

    #[test]
    fn drops_read_in_the_listed_currency() {
        let mut drop = change(ChangeKind::PriceDrop, Some(3.49), Some(28_398.58));
        drop.detail.previous = pesos(41_300_000.0);
        drop.detail.current = pesos(39_860_000.0);
        assert_eq!(
            change_text(&drop),
            "Bajó su precio de lista 3,49 % el 21/11/2026: de $ 41.300.000 a $ 39.860.000."
        );
        // Without the listed prices (or across currencies): dollars, said so.
        drop.detail = ChangeDetail::default();
        assert_eq!(
            change_text(&drop),
            "Bajó su precio de lista 3,49 % el 21/11/2026: de US$ 28.399 a US$ 24.188 \
             (en dólares al cambio de hoy)."
        );
        let mut tiny = change(ChangeKind::NewOpportunity, Some(0.0), Some(24_190.0));
        tiny.detail.cause = Some(Cause::CatalogueCut);
        assert_eq!(
            change_text(&tiny),
            "Pasó a ser oportunidad al bajar su precio de lista menos de 0,01 % el 21/11/2026: \
             de US$ 24.190 a US$ 24.188 (en dólares al cambio de hoy)."
        );
    }

    #[test]
    fn a_new_opportunity_says_which_cause_made_it_qualify() {
        let with = |cause| {
            let mut fresh = change(ChangeKind::NewOpportunity, None, None);
            fresh.detail.cause = cause;
            change_text(&fresh)
        };
        let since = " (desde el control del 21/11/2026).";
        assert_eq!(
            with(Some(Cause::LowerQuote {
                before_usd: 30_100.4
            })),
            format!(
                "Pasó a ser oportunidad porque las concesionarias bajaron su precio \
                 (antes, US$ 30.100){since}"
            )
        );
        assert_eq!(
            with(Some(Cause::DollarUp {
                before_usd: 30_100.5
            })),
            format!(
                "Pasó a ser oportunidad porque subió el dólar: el precio en pesos equivale \
                 a menos dólares (antes, US$ 30.101){since}"
            )
        );
        assert_eq!(
            with(Some(Cause::HigherUsual {
                before_usd: 25_000.0
            })),
            format!(
                "Pasó a ser oportunidad porque subió su precio habitual (antes, US$ 25.000){since}"
            )
        );
        assert_eq!(
            with(Some(Cause::HistorySufficient)),
            format!(
                "Pasó a ser oportunidad al reunir semanas suficientes para compararla con su \
                 precio habitual{since}"
            )
        );
        assert_eq!(
            with(Some(Cause::Returned)),
            format!(
                "Pasó a ser oportunidad al volver a tener stock y precios de concesionarias{since}"
            )
        );
        assert_eq!(
            with(None),
            format!("Pasó a ser oportunidad sin una baja de su precio de lista{since}")
        );
    }
}
