//! Render stage, page fragments for the edge: every published version's
//! card (the `card` macro of every list page), compare heading and compare
//! cells, and the compare row headings, written to `_edge/pages.msgpack`. The
//! edge fills `/buscar?...` and `/comparar?...` with them (see
//! `crate::composed`), so those pages have the same HTML as the static ones
//! and need no script.

use minijinja::context;
use minijinja::value::Serde;
use rayon::prelude::*;

use super::cards::card;
use super::labels;
use super::money::{Money, usual};
use super::page::PIECE;
use super::page::Site;
use super::specs::{self, UNKNOWN_VALUE};
use crate::api::types::Summary;
use crate::catalogue::{Identity, Vehicle};
use crate::composed::{PAGES_DATA_PATH, PageFragments, VehicleFragments};
use crate::format::{self, UNKNOWN, date_time};
use crate::html::{escape, escape_keeping_figures};
use crate::vocab::Currency;

/// The rows every comparison has before the specification rows.
const LEADING_ROWS: [&str; 13] = [
    "Mejor precio de concesionaria",
    "En la otra moneda",
    "Flete y gastos",
    "Frente al precio habitual",
    "Precio habitual (en dólares)",
    "Oportunidad",
    "Precios de concesionarias",
    "Precios revisados",
    "Carrocería",
    "Combustible",
    "Transmisión",
    "Asientos",
    "Airbags",
];

/// Writes `_edge/pages.msgpack`.
pub fn write_fragments(site: &Site) -> anyhow::Result<()> {
    let spec_rows: Vec<(&'static str, String)> = specs::labels()
        .into_iter()
        .filter(|(key, _)| !matches!(*key, "seats" | "airbags"))
        .collect();
    let template = site.env.get_template("card.html")?;
    let mut fragments = PageFragments {
        compare_rows: LEADING_ROWS
            .iter()
            .map(|label| (*label).to_owned())
            .chain(spec_rows.iter().map(|(_, label)| label.clone()))
            .map(|label| format!("<th scope=\"row\">{}</th>", escape(&label)))
            .collect(),
        ..PageFragments::default()
    };
    // One version's fragments read nothing of another's: built on every
    // core, gathered by ID (the map's order, not the threads', is the file's).
    fragments.vehicles = site
        .vehicles()
        .par_iter()
        .with_max_len(PIECE)
        .map(|vehicle| {
            // The Summary alone: the whole record would build the
            // version's history, which no fragment shows.
            let summary = &Summary::of(vehicle, site.index.links());
            let trim = labels::trim(
                &summary.identity.trim,
                summary.identity.trim_display.as_deref(),
            );
            let fragment = VehicleFragments {
                card: template.render(context! { v => Serde(card(vehicle, &site.money)) })?,
                head: format!(
                    "<a href=\"{}\">{}</a>",
                    escape(&crate::api::links::Links::vehicle_path(summary.id)),
                    escape(&format!(
                        "{} {} {trim}",
                        summary.identity.make, summary.identity.model
                    ))
                ),
                cells: cells(summary, vehicle, &site.money, &spec_rows),
                name: format!(
                    "{} {} {trim}",
                    summary.identity.make, summary.identity.model
                ),
                scores: scores(vehicle, spec_rows.len()),
            };
            Ok((summary.id.to_owned(), fragment))
        })
        .collect::<anyhow::Result<_>>()?;
    site.out.write_msgpack(
        PAGES_DATA_PATH,
        PAGES_DATA_PATH.trim_start_matches('/'),
        &fragments,
    )
}

/// How good a version's value is in each compare row, higher better: the
/// price in pesos (lower is better; every version has one at the reference
/// dollar), the difference with the usual price, and airbags (more). Rows
/// of words or of specifications are not ranked: more seats, a longer car or
/// a bigger engine is not better for every buyer.
fn scores(vehicle: &Vehicle, spec_rows: usize) -> Vec<Option<f64>> {
    let mut scores = vec![None; LEADING_ROWS.len() + spec_rows];
    scores[0] = vehicle.price_ars.map(|pesos| -pesos);
    scores[3] = vehicle
        .comparison
        .discount_pct
        .filter(|_| vehicle.comparison.sufficient_history);
    scores[12] = vehicle.identity.airbags.map(f64::from);
    scores
}

/// A version's compare cells, in the order of the row headings.
fn cells(
    summary: &Summary,
    vehicle: &Vehicle,
    money: &Money,
    spec_rows: &[(&'static str, String)],
) -> Vec<String> {
    let comparison = summary.comparison;
    let price = money.price(vehicle);
    let conversion = match &price.other {
        Some(other) => format!("<td>{}</td>", other.markup()),
        None => format!("<td class=\"unknown\">{UNKNOWN}</td>"),
    };
    let usual = usual(vehicle);
    let verdict = match usual.band {
        Some(band) => format!("{}. {}", band.label, usual.line),
        None => usual.line,
    };
    let mut texts: Vec<String> = vec![
        match price.age {
            Some(age) => format!("{} ({})", price.lead, age.to_lowercase()),
            None => price.lead,
        },
        String::new(), // the conversion, below
        match price.with_fees {
            Some(with_fees) => format!("{}. {with_fees}", price.fees),
            None => price.fees.to_owned(),
        },
        verdict,
        known(
            comparison
                .typical_price_usd
                .map(|typical| format::price(typical, Currency::Usd)),
        ),
        if comparison.opportunity { "Sí" } else { "No" }.to_owned(),
        summary.quote_count.to_string(),
        date_time(summary.observed_at),
    ];
    texts.extend(identity_texts(summary.identity));
    texts.extend(
        spec_rows
            .iter()
            .map(|(key, _)| specs::compare_value(vehicle.specs.as_deref(), key)),
    );
    let mut cells: Vec<String> = texts.iter().map(|text| cell(text)).collect();
    // The conversion's cell holds the element the site's script fills in.
    cells[1] = conversion;
    cells
}

/// The compare rows of a version's names and facts: body, fuel,
/// transmission, seats and airbags.
fn identity_texts(identity: &Identity) -> [String; 5] {
    [
        known(identity.body_type.map(|v| labels::body_type(v).to_owned())),
        known(identity.fuel.map(|v| labels::fuel(v).to_owned())),
        known(
            identity
                .transmission
                .map(|v| labels::transmission(v).to_owned()),
        ),
        known(identity.seats.map(|v| v.to_string())),
        known(identity.airbags.map(|v| v.to_string())),
    ]
}

/// A value, or the words for an unknown one.
fn known(value: Option<String>) -> String {
    value.unwrap_or_else(|| UNKNOWN.to_owned())
}

/// A compare cell, marked when its value is unknown.
fn cell(text: &str) -> String {
    let class = if text == UNKNOWN || text == UNKNOWN_VALUE {
        " class=\"unknown\""
    } else {
        ""
    };
    format!("<td{class}>{}</td>", escape_keeping_figures(text))
}
