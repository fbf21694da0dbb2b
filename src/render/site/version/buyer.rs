//! Render stage, version pages, what a buyer sees beside the usual price:
//! the usual range and where today's price sits in it, today's quotes in
//! one line and city by city, what freight and paperwork added, and the
//! alert form, each in the version's lead currency.

use serde::Serialize;

use crate::catalogue::Vehicle;
use crate::composed::alerts;
use crate::format::{UNKNOWN, amount, price, whole_percent};
use crate::render::site::money::{Conversion, Money};
use crate::vocab::Currency;

/// The usual range in the currency the version is quoted in when its
/// window has one, else in dollars, and where today's price sits in it:
/// `Suele costar entre $ 30.450.000 y $ 32.100.000 (26 semanas). Hoy está
/// dentro de ese rango.`
pub(super) fn range_line(vehicle: &Vehicle) -> Option<String> {
    let range = vehicle.price_range.as_ref()?;
    let quoted = vehicle.quoted.as_ref();
    let (low, high, currency, current) = match (range.low, range.high, range.currency, quoted) {
        (Some(low), Some(high), Some(currency), Some(quoted)) if quoted.currency == currency => {
            (low, high, currency, quoted.current)
        }
        _ => (
            range.low_usd,
            range.high_usd,
            Currency::Usd,
            vehicle.current_price_usd,
        ),
    };
    let place = if current < low {
        "por debajo de"
    } else if current > high {
        "por encima de"
    } else {
        "dentro de"
    };
    Some(format!(
        "Suele costar entre {} y {} ({} semanas). Hoy está {place} ese rango.",
        price(low, currency),
        price(high, currency),
        range.weeks
    ))
}

/// A city of the "Dónde" table.
#[derive(Debug, Clone, Serialize)]
pub(super) struct PlaceRow {
    location: String,
    dealers: u32,
    lowest: String,
}

/// The alert form of a version page ("Avisame cuando cueste menos de…"):
/// its feed asked with a bound in the page's lead currency.
#[derive(Debug, Clone, Serialize)]
pub(super) struct AlertForm {
    /// `hasta` (pesos) or `hastaUsd` (dollars).
    name: &'static str,
    /// The field's label.
    label: &'static str,
    /// An example amount: today's price 5 % lower, in round thousands.
    example: String,
}

/// The alert form of `vehicle`, in its lead currency.
pub(super) fn alert_form(vehicle: &Vehicle) -> AlertForm {
    let example = |price: f64| amount((price * 0.95 / 1000.0).floor() * 1000.0);
    match (quoted_in_pesos(vehicle), vehicle.price_ars) {
        (true, Some(ars)) => AlertForm {
            name: alerts::PESOS,
            label: "Tu precio, en pesos",
            example: example(ars),
        },
        _ => AlertForm {
            name: alerts::DOLLARS,
            label: "Tu precio, en dólares",
            example: example(vehicle.current_price_usd),
        },
    }
}

/// Whether the version is quoted in pesos (its best quote is).
fn quoted_in_pesos(vehicle: &Vehicle) -> bool {
    vehicle
        .best_quote
        .as_ref()
        .is_some_and(|quote| quote.currency == Currency::Ars)
}

/// An amount in the version's lead currency, from its pesos and dollars.
fn in_lead(vehicle: &Vehicle, ars: Option<f64>, usd: Option<f64>) -> Option<String> {
    match (quoted_in_pesos(vehicle), ars, usd) {
        (true, Some(ars), _) => Some(price(ars, Currency::Ars)),
        (_, _, Some(usd)) => Some(price(usd, Currency::Usd)),
        _ => None,
    }
}

/// `Hoy, 7 concesionarias (5 con stock), de $ 30.450.000 a $ 32.100.000.`
pub(super) fn spread_line(vehicle: &Vehicle) -> Option<String> {
    let spread = vehicle.dealers.as_ref()?;
    let lowest = in_lead(vehicle, spread.lowest_ars, spread.lowest_usd)?;
    let highest = in_lead(vehicle, spread.highest_ars, spread.highest_usd)?;
    let dealers = match spread.count {
        1 => "1 concesionaria".to_owned(),
        n => format!("{n} concesionarias"),
    };
    let range = if lowest == highest {
        format!("a {lowest}")
    } else {
        format!("de {lowest} a {highest}")
    };
    Some(format!(
        "Hoy, {dealers} ({} con stock), {range}.",
        spread.with_stock
    ))
}

/// The "Dónde" rows: each city's dealers and its cheapest quote.
pub(super) fn places(vehicle: &Vehicle) -> Vec<PlaceRow> {
    let Some(spread) = vehicle.dealers.as_ref() else {
        return Vec::new();
    };
    spread
        .by_location
        .iter()
        .map(|place| PlaceRow {
            location: place.location.clone(),
            dealers: place.dealers,
            lowest: in_lead(vehicle, place.lowest_ars, place.lowest_usd)
                .unwrap_or_else(|| UNKNOWN.to_owned()),
        })
        .collect()
}

/// Freight and paperwork as observed, in words.
#[derive(Debug, Clone, Serialize)]
pub(super) struct FreightLine {
    /// What they added (or that they added nothing).
    text: String,
    /// The amount to show in pesos, for a peso-quoted version.
    other: Option<Conversion>,
}

/// What freight and paperwork added where dealers quoted the version both
/// with and without them, for the page's figures: an amount only when it
/// is positive (a median may be negative: then the quotes that include them
/// were not dearer), with its peso equivalent for a peso-quoted version.
pub(super) fn freight_line(vehicle: &Vehicle, money: &Money) -> Option<FreightLine> {
    let freight = vehicle.freight_estimate.as_ref()?;
    let checks = freight.checks;
    if freight.amount_usd <= 0.0 {
        return Some(FreightLine {
            text: format!(
                "con ellos no fueron más caros (mediana de {checks} controles con precios con y \
                 sin ellos)"
            ),
            other: None,
        });
    }
    Some(FreightLine {
        text: format!(
            "alrededor de {} ({} del precio sin ellos, mediana de {checks} controles)",
            price(freight.amount_usd, Currency::Usd),
            whole_percent(freight.pct),
        ),
        other: quoted_in_pesos(vehicle)
            .then(|| money.convert(freight.amount_usd, Currency::Usd))
            .flatten(),
    })
}
