//! Render stage, version pages, the page's tables: every current quote, the
//! recent changes (a change that holds in several windows said once), the
//! catalogue facts with their sources and the specifications' groups.

use serde::Serialize;

use crate::catalogue::{Quote, Specs, Vehicle};
use crate::format::{UNKNOWN, price, units};
use crate::render::site::cards::change_text;
use crate::render::site::labels;
use crate::render::site::money::{Conversion, Money};
use crate::render::site::specs::{SourceView, SpecGroup, sources, spec_groups};
use crate::vocab::Window;

/// A quote as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct QuoteView {
    /// Price in its original currency.
    pub price: String,
    /// `ARS` or `USD`.
    pub currency: &'static str,
    /// The amount to show in the other currency at the reference dollar.
    pub other: Option<Conversion>,
    /// Freight and paperwork.
    pub fees: &'static str,
    /// Colour.
    pub color: String,
    /// Units in stock.
    pub stock: String,
    /// Dealer location.
    pub location: String,
    /// Dealer identifier.
    pub seller: String,
}

/// A catalogue fact with its source kind.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Fact {
    label: &'static str,
    value: String,
    source: Option<String>,
}

/// The recent change of one or more windows (a change that holds in
/// several windows is said once).
#[derive(Debug, Clone, Serialize)]
pub(super) struct ChangeRow {
    window: String,
    text: Option<String>,
}

/// The specification record as shown.
#[derive(Debug, Clone, Serialize)]
pub(super) struct SpecsView {
    collected_at: String,
    source_label: Option<String>,
    groups: Vec<SpecGroup>,
    sources: Vec<SourceView>,
}

/// The specifications' table of a page: a function of `specs` alone.
pub(super) fn specs_view(specs: &Specs) -> SpecsView {
    SpecsView {
        collected_at: crate::format::document_date(&specs.collected_at),
        source_label: specs.source_label.clone(),
        groups: spec_groups(specs),
        sources: sources(specs),
    }
}

/// The recent changes, a change that holds in several windows said once
/// (`Últimos 1, 3 y 7 días`).
pub(super) fn change_rows(vehicle: &Vehicle) -> Vec<ChangeRow> {
    let mut rows: Vec<(Vec<Window>, Option<String>)> = Vec::new();
    for window in Window::ALL.iter().copied() {
        let text = vehicle.recent_changes.get(window).map(change_text);
        match rows.last_mut() {
            Some((windows, last)) if *last == text => windows.push(window),
            _ => rows.push((vec![window], text)),
        }
    }
    rows.into_iter()
        .map(|(windows, text)| ChangeRow {
            window: match windows.as_slice() {
                [one] => labels::window(*one).to_owned(),
                [Window::D1, Window::D3, Window::D7] => "Últimos 1, 3 y 7 días".to_owned(),
                [Window::D1, Window::D3] => "Últimos 1 y 3 días".to_owned(),
                _ => "Últimos 3 y 7 días".to_owned(),
            },
            text,
        })
        .collect()
}

/// A quote as the page shows it, with its amount in the other currency.
pub(super) fn quote_view(quote: &Quote, money: &Money) -> QuoteView {
    let unknown = || UNKNOWN.to_owned();
    QuoteView {
        price: price(quote.price, quote.currency),
        currency: quote.currency.as_str(),
        other: money.convert(quote.price, quote.currency),
        fees: match quote.fees_included {
            Some(true) => "Incluidos",
            Some(false) => "No incluidos",
            None => "No informa",
        },
        color: quote.color.clone().unwrap_or_else(unknown),
        stock: quote.stock.map_or_else(unknown, units),
        location: quote.location.clone().unwrap_or_else(unknown),
        seller: quote.seller_id.clone().unwrap_or_else(unknown),
    }
}

/// The catalogue facts, each with its source kind when one is known.
pub(super) fn facts(vehicle: &Vehicle) -> Vec<Fact> {
    let known = |value: Option<String>| value.unwrap_or_else(|| UNKNOWN.to_owned());
    let source = |key: &str| {
        vehicle
            .identity
            .fact_sources
            .get(key)
            .map(|kind| labels::fact_source(kind))
    };
    let fact = |label, key: &str, value| Fact {
        label,
        value: known(value),
        source: source(key),
    };
    vec![
        fact(
            "Carrocería",
            "type",
            vehicle
                .identity
                .body_type
                .map(|v| labels::body_type(v).to_owned()),
        ),
        fact(
            "Combustible",
            "fuel",
            vehicle.identity.fuel.map(|v| labels::fuel(v).to_owned()),
        ),
        fact(
            "Transmisión",
            "transmission",
            vehicle
                .identity
                .transmission
                .map(|v| labels::transmission(v).to_owned()),
        ),
        fact(
            "Tracción",
            "drivetrain",
            vehicle.drivetrain.map(|v| labels::drivetrain(v).to_owned()),
        ),
        fact(
            "Asientos",
            "seats",
            vehicle.identity.seats.map(|v| v.to_string()),
        ),
        fact(
            "Airbags",
            "airbags",
            vehicle.identity.airbags.map(|v| v.to_string()),
        ),
        fact("Segmento", "tier", vehicle.identity.tier_label.clone()),
    ]
}
