//! Money as the buyer reads it, at its boundaries, with hand-computed
//! amounts: one reference dollar, fees, age, bands, and what the usual-price
//! signal owes to the dealers and to the dollar.

use super::*;
use crate::catalogue::{Comparison, ExchangeRate, Identity, QuotedHistory};
use crate::time::parse_time;

fn time(text: &str) -> Time {
    parse_time(text).expect("time")
}

/// `T` of these tests.
const T: &str = "2026-11-21T23:00:00Z";

fn money(source: Option<&str>) -> Money {
    Money {
        rate: Some(1_455.28),
        rate_at: time("2026-11-21T20:40:00Z"),
        source: source.map(str::to_owned),
        site_name: "Concesionarias".into(),
        reference: time(T),
        synthetic: true,
    }
}

fn quote(id: &str, price: f64, currency: Currency, fees: Option<bool>) -> Quote {
    Quote {
        fees_included: fees,
        ..Quote::bare(id, price, currency, 0.0)
    }
}

/// A version whose best quote is the first of `quotes` (other stages'
/// tests start from it too).
pub(crate) fn vehicle(quotes: Vec<Quote>, price_ars: Option<f64>) -> Vehicle {
    Vehicle {
        identity: Identity {
            source_url: "https://listing.example/v".into(),
            ..Identity::named("Renault", "Kangoo", "1.6")
        },
        current_price_usd: 17_500.0,
        comparison: Comparison {
            window_days: 180,
            typical_price_usd: Some(18_530.0),
            lowest_price_usd: Some(17_500.0),
            discount_pct: Some(5.56),
            observed_weeks: 23,
            sufficient_history: true,
            opportunity: true,
        },
        exchange_rate: ExchangeRate {
            ars_per_usd: Some(1_459.43),
            observed_at: time("2026-11-20T12:00:00Z"),
        },
        price_ars,
        ..Vehicle::bare("v", quotes, time("2026-11-20T12:00:00Z"))
    }
}

fn quoted(currency: Currency, typical: f64, current: f64, previous: Option<f64>) -> QuotedHistory {
    QuotedHistory {
        currency,
        typical,
        lowest: current,
        current,
        since: time("2026-10-12T15:00:00Z"),
        previous,
        range: None,
    }
}

#[test]
fn the_page_names_one_dollar_once() {
    assert_eq!(
        money(Some("Banco Nación, vendedor")).line().as_deref(),
        Some(
            "Dólar de referencia: $ 1.455,28 por dólar del 21/11/2026 (Banco Nación, vendedor). \
             Toda conversión entre pesos y dólares de esta página usa este valor."
        )
    );
    let unnamed = money(None);
    assert!(unnamed.bar().synthetic && unnamed.bar().has_rate);
    assert!(
        unnamed
            .line()
            .is_some_and(|rate| rate.contains("(el que usó Concesionarias en ese control)"))
    );
    let file = serde_json::to_value(unnamed.file()).expect("json");
    assert_eq!(file["arsPerUsd"], 1_455.28);
    assert_eq!(file["observedAt"], "2026-11-21T20:40:00Z");
    assert_eq!(file["source"], serde_json::Value::Null);
    assert_eq!(file["line"], unnamed.line().expect("line").as_str());
    let none = Money {
        rate: None,
        ..money(None)
    };
    assert!(!none.bar().has_rate && none.line().is_none());
    assert_eq!(
        serde_json::to_value(none.file()).expect("json")["arsPerUsd"],
        serde_json::Value::Null
    );
}

#[test]
fn feeds_name_no_dollar() {
    assert_eq!(
        money(None).feed_note(),
        " Datos de ejemplo: los precios son inventados."
    );
    let real = Money {
        synthetic: false,
        ..money(None)
    };
    assert_eq!(real.feed_note(), "");
}

#[test]
fn prices_lead_as_quoted_and_convert_at_the_reference_dollar() {
    // The conversion is written by the site's script at the reference
    // dollar (tests/browser: 25 540 000 / 1 455,28 = 17 549,887…, US$ 17.550).
    let pesos = vehicle(
        vec![quote("a", 25_540_000.0, Currency::Ars, None)],
        Some(25_540_000.0),
    );
    let view = money(None).price(&pesos);
    assert_eq!(view.lead, "$ 25.540.000");
    // The page carries the amount it converts, and converts nothing.
    assert_eq!(
        view.other.as_ref().map(Conversion::markup).as_deref(),
        Some(r#"<data class="nw" data-to="USD" value="25540000"></data>"#)
    );
    // A dollar quote converts from its own amount, as priceArs does
    // (27 241,39 x 1 455,28 = 39 643 850,04 -> $ 39.643.850).
    let dollars = vehicle(
        vec![quote("a", 27_241.39, Currency::Usd, Some(true))],
        Some(39_643_850.0),
    );
    let view = money(None).price(&dollars);
    assert_eq!(view.lead, "US$ 27.241");
    assert_eq!(
        view.other,
        Some(Conversion {
            value: "27241.39".into(),
            to: "ARS"
        })
    );
    let no_rate = Money {
        rate: None,
        ..money(None)
    };
    let pesos_view = no_rate.price(&pesos);
    assert_eq!(pesos_view.other, None, "no rate, no conversion");
}

#[test]
fn the_headline_says_what_freight_and_paperwork_do() {
    let view = |quotes| money(None).price(&vehicle(quotes, None));
    let not_said = view(vec![
        quote("a", 25_540_000.0, Currency::Ars, None),
        quote("b", 25_600_000.0, Currency::Ars, Some(false)),
        quote("c", 25_640_000.0, Currency::Ars, Some(true)),
        quote("d", 25_700_000.0, Currency::Ars, Some(true)),
    ]);
    assert_eq!(not_said.fees, "No informa si incluye flete y gastos");
    assert_eq!(
        not_said.with_fees.as_deref(),
        Some("Con flete y gastos incluidos, desde $ 25.640.000")
    );
    let excluded = view(vec![quote("a", 1.0, Currency::Ars, Some(false))]);
    assert_eq!(excluded.fees, "No incluye flete y gastos");
    assert_eq!(excluded.with_fees, None, "no quote includes them");
    let included = view(vec![
        quote("a", 1.0, Currency::Ars, Some(true)),
        quote("b", 2.0, Currency::Ars, Some(true)),
    ]);
    assert_eq!(included.fees, "Incluye flete y gastos");
    assert_eq!(included.with_fees, None, "the lead includes them");
}

#[test]
fn a_price_older_than_seven_days_says_its_age() {
    let money = money(None);
    assert_eq!(
        money.age(time("2026-11-14T23:00:00Z")),
        None,
        "exactly 7 days"
    );
    assert_eq!(
        money.age(time("2026-11-14T22:59:59Z")).as_deref(),
        Some("Precio de hace 7 días (revisado el 14/11/2026)")
    );
    assert_eq!(
        money.age(time("2026-09-20T12:00:00Z")).as_deref(),
        Some("Precio de hace 62 días (revisado el 20/09/2026)")
    );
}

#[test]
fn bands_at_their_boundaries() {
    let label = |pct| band(pct).label;
    assert_eq!(label(10.0), "Muy buen precio");
    assert_eq!(label(9.99), "Buen precio");
    assert_eq!(label(5.0), "Buen precio");
    assert_eq!(label(4.99), "Precio normal");
    assert_eq!(label(0.0), "Precio normal");
    assert_eq!(label(-2.99), "Precio normal");
    assert_eq!(label(-3.0), "Caro");
    assert_eq!(label(-40.0), "Caro");
}

#[test]
fn a_peso_price_that_stayed_put_while_the_dollar_rose() {
    let mut car = vehicle(vec![], None);
    car.quoted = Some(quoted(Currency::Ars, 25_540_000.0, 25_540_000.0, None));
    let usual = usual(&car);
    assert_eq!(usual.band.map(|band| band.label), Some("Buen precio"));
    assert_eq!(
        usual.line,
        "En dólares, 5 % por debajo de su precio habitual (US$ 18.530)."
    );
    assert_eq!(
        usual.cause.as_deref(),
        Some(
            "La diferencia es por la suba del dólar: en pesos no está por debajo de su precio \
             habitual."
        )
    );
    assert_eq!(
        usual.quoted.as_deref(),
        Some("En pesos, sin cambios desde el 12/10/2026 ($ 25.540.000).")
    );
}

#[test]
fn a_peso_price_that_fell_says_so_in_pesos() {
    let mut car = vehicle(vec![], None);
    car.comparison.discount_pct = Some(10.0);
    car.quoted = Some(quoted(
        Currency::Ars,
        30_000_000.0,
        27_000_000.0,
        Some(30_000_000.0),
    ));
    let usual = usual(&car);
    assert_eq!(usual.band.map(|band| band.label), Some("Muy buen precio"));
    assert_eq!(
        usual.cause.as_deref(),
        Some("La diferencia es por una baja en pesos de las concesionarias.")
    );
    assert_eq!(
        usual.quoted.as_deref(),
        Some("En pesos, bajó de $ 30.000.000 a $ 27.000.000 el 12/10/2026.")
    );
    // 2 % under in pesos, 8 % in dollars: both.
    car.comparison.discount_pct = Some(8.0);
    car.quoted = Some(quoted(Currency::Ars, 30_000_000.0, 29_400_000.0, None));
    assert_eq!(
        self::usual(&car).cause.as_deref(),
        Some(
            "La diferencia es por una baja en pesos de las concesionarias y por la suba del \
             dólar."
        )
    );
    // A dollar quote: its own dealers, in dollars.
    car.quoted = Some(quoted(Currency::Usd, 20_000.0, 18_400.0, Some(20_000.0)));
    let usual = self::usual(&car);
    assert_eq!(
        usual.cause.as_deref(),
        Some("La diferencia es por una baja en dólares de las concesionarias.")
    );
    assert_eq!(
        usual.quoted.as_deref(),
        Some("En dólares, bajó de US$ 20.000 a US$ 18.400 el 12/10/2026.")
    );
}

#[test]
fn above_the_usual_price_names_the_dollar_or_the_dealers() {
    let mut car = vehicle(vec![], None);
    car.current_price_usd = 19_200.0;
    car.comparison.discount_pct = Some(-3.61);
    car.quoted = Some(quoted(Currency::Ars, 28_000_000.0, 28_000_000.0, None));
    let usual = usual(&car);
    assert_eq!(usual.band.map(|band| band.label), Some("Caro"));
    assert_eq!(
        usual.line,
        "En dólares, 3 % por encima de su precio habitual (US$ 18.530)."
    );
    assert_eq!(
        usual.cause.as_deref(),
        Some(
            "La diferencia es por la baja del dólar: en pesos no está por encima de su precio \
             habitual."
        )
    );
    car.quoted = Some(quoted(Currency::Ars, 28_000_000.0, 29_000_000.0, None));
    assert_eq!(
        self::usual(&car).cause.as_deref(),
        Some("La diferencia es por una suba en pesos de las concesionarias.")
    );
}

#[test]
fn without_sufficient_history_there_is_no_band() {
    let mut car = vehicle(vec![], None);
    car.comparison.discount_pct = None;
    car.comparison.sufficient_history = false;
    car.comparison.observed_weeks = 1;
    let usual = usual(&car);
    assert_eq!(usual.band, None);
    assert_eq!(
        usual.line,
        "Sin historia suficiente para compararlo con su precio habitual (1 semana observada)."
    );
}

#[test]
fn a_difference_of_cents_is_never_zero_percent() {
    // 0,0092 % below: the API publishes a discountPct of 0.
    let mut car = vehicle(vec![], None);
    car.current_price_usd = 249_976.88;
    car.comparison.typical_price_usd = Some(250_000.0);
    car.comparison.discount_pct = Some(0.0);
    assert_eq!(
        usual(&car).line,
        "En dólares, menos de 1 % por debajo de su precio habitual (US$ 250.000)."
    );
    car.current_price_usd = 250_000.0;
    assert_eq!(
        usual(&car).line,
        "En dólares, en su precio habitual (US$ 250.000)."
    );
    // Truncated, never rounded up across a band: 9,99 % reads 9 %.
    car.current_price_usd = 225_025.0;
    car.comparison.discount_pct = Some(9.99);
    assert_eq!(
        usual(&car).line,
        "En dólares, 9 % por debajo de su precio habitual (US$ 250.000)."
    );
}

#[test]
fn a_change_under_one_peso_is_no_change() {
    let story = quoted_story(&quoted(
        Currency::Ars,
        25_540_000.0,
        25_540_000.0,
        Some(25_539_999.6),
    ));
    assert_eq!(
        story,
        "En pesos, sin cambios desde el 12/10/2026 ($ 25.540.000)."
    );
}
