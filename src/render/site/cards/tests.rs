//! The site's words for prices, comparisons and recent changes, at their
//! boundaries, with hand-computed amounts.

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
