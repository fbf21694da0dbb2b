//! The site's words for recent changes, at their boundaries, with
//! hand-computed amounts (prices and comparisons: `money/tests.rs`).

use super::*;
use crate::catalogue::{ChangeDetail, Native};
use crate::time::parse_time;

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
        lowest_30d_usd: None,
        returns_to_earlier_price: None,
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
        "Bajó su precio en el catálogo del sitio 3 % el 21/11/2026: de $ 41.300.000 a \
         $ 39.860.000."
    );
    // A listing that changed currency: each price as listed, so the words
    // do not move with the reference dollar.
    drop.detail.current = Some(Native {
        amount: 27_390.0,
        currency: Currency::Usd,
    });
    assert_eq!(
        change_text(&drop),
        "Bajó su precio en el catálogo del sitio 3 % el 21/11/2026: de $ 41.300.000 a \
         US$ 27.390."
    );
    // Without the listed prices: dollars at the reference dollar, said so.
    drop.detail = ChangeDetail::default();
    assert_eq!(
        change_text(&drop),
        "Bajó su precio en el catálogo del sitio 3 % el 21/11/2026: de US$ 28.399 a \
         US$ 24.188 (en dólares, al dólar de referencia)."
    );
    let mut tiny = change(ChangeKind::NewOpportunity, Some(0.0), Some(24_190.0));
    tiny.detail.cause = Some(Cause::CatalogueCut);
    assert_eq!(
        change_text(&tiny),
        "Pasó a ser oportunidad al bajar su precio en el catálogo del sitio menos de 1 % el \
         21/11/2026: de US$ 24.190 a US$ 24.188 (en dólares, al dólar de referencia)."
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
        format!("Pasó a ser oportunidad sin una baja de su precio en el catálogo del sitio{since}")
    );
}
