//! Site pages with a query, compare: `/comparar?ids=...` filled in with the
//! table of `/api/v1/compare?ids=...` from each version's fragments. When
//! the API refuses the list (an unknown ID, a single version), the page says
//! why, naming the IDs it does not know, and still shows the versions it
//! knows, with the API's status.

use std::cell::Cell;

use lol_html::element;
use lol_html::html_content::ContentType;

use super::form::FormState;
use super::fragments::{Fragments, VehicleFragments};
use super::page::{Composed, Edit, refused, slots};
use super::query::PageQuery;
use super::rewrite::{rewrite, with_class};
use crate::api::ops::compare::compare_vehicles;
use crate::api::params::typed::compare_page as page_of;
use crate::api::params::{Args, Raw, compare_query, label};
use crate::api::query::COMPARE_IDS;
use crate::api::query::Operation;
use crate::api::text::form_decode;
use crate::api::{ApiError, Index};
use crate::html::escape;
use std::borrow::Cow;

/// `/comparar?ids=...`: the table of `/api/v1/compare?ids=...`.
pub fn compare_page(index: &Index, fragments: &dyn Fragments, query: &str) -> Composed {
    let ids = requested_ids(query);
    let asked: Vec<(String, Raw)> = match ids.is_empty() {
        // Nothing to compare: the API's own check says what is missing.
        true => PageQuery::read(query)
            .pairs()
            .iter()
            .filter(|(name, _)| label(name).is_some())
            .map(|(name, value)| match name.as_str() {
                "ids" => (name.clone(), Raw::Ids(vec![value.clone()])),
                _ => (name.clone(), Raw::Text(value.clone())),
            })
            .collect(),
        false => vec![("ids".to_owned(), Raw::Ids(ids.clone()))],
    };
    let compared = compare_query(Args::from_pairs(Operation::Compare, asked), true)
        .and_then(|parsed| compare_vehicles(index, &parsed));
    // The field comes back with the IDs asked, as the script writes them.
    let mut form = FormState {
        values: vec![("ids".to_owned(), ids.join(", "))],
        errors: Vec::new(),
    };
    let data = match compared {
        Ok(envelope) => envelope.data,
        Err(error) => {
            if let ApiError::InvalidParameters(details) = &error {
                form.errors = details
                    .iter()
                    .map(|detail| (detail.path.clone(), detail.problem.spanish()))
                    .collect();
            }
            let mut composed = partly(error, fragments, ids);
            composed.form = Some(form);
            return composed;
        }
    };
    let columns: Vec<(&str, Cow<VehicleFragments>)> = data
        .vehicles
        .iter()
        .filter_map(|vehicle| {
            let id = vehicle.facts.id.as_str();
            fragments.vehicle(id).map(|column| (id, column))
        })
        .collect();
    let status = format!("Comparación de {} versiones.", columns.len());
    Composed {
        parts: vec![
            Edit::Fill(slots::STATUS, escape(&status)),
            Edit::Fill(slots::COMPARISON, table(&columns, fragments)),
        ],
        error: None,
        form: Some(form),
    }
}

/// A refused list: the reason, the IDs that name no published version, and
/// the table of those that do (the first four).
fn partly(error: ApiError, fragments: &dyn Fragments, mut ids: Vec<String>) -> Composed {
    let mut seen = std::collections::BTreeSet::new();
    ids.retain(|id| !id.is_empty() && seen.insert(id.clone()));
    let (known, unknown): (Vec<&String>, Vec<&String>) =
        ids.iter().partition(|id| fragments.publishes(id.as_str()));
    // An unknown ID is said once, each on its own line; the API's own
    // message names only the first, so it is not repeated.
    let mut composed = match (&error, unknown.is_empty()) {
        (ApiError::NotFound(_), false) => {
            let mut status =
                String::from("<strong>No encontrado:</strong><ul class=\"unknown-ids\">");
            for id in &unknown {
                status.push_str(&format!(
                    "<li>No hay ninguna versión publicada con el ID «{}».</li>",
                    escape(id)
                ));
            }
            status.push_str("</ul>");
            Composed {
                parts: vec![Edit::Fill(slots::STATUS, status)],
                error: Some(error),
                form: None,
            }
        }
        _ => refused(error),
    };
    let columns: Vec<(&str, Cow<VehicleFragments>)> = known
        .iter()
        .filter_map(|id| {
            let id = id.as_str();
            fragments.vehicle(id).map(|column| (id, column))
        })
        .take(*COMPARE_IDS.end())
        .collect();
    if columns.is_empty() {
        return composed;
    }
    let note = match columns.len() {
        1 => "Esta es la que sí está; elegí otra para compararla.",
        _ => "Estas son las que sí están.",
    };
    if let Some(Edit::Fill(_, status)) = composed.parts.first_mut() {
        status.push_str(&format!("<p>{}</p>", escape(note)));
    }
    composed
        .parts
        .push(Edit::Fill(slots::COMPARISON, table(&columns, fragments)));
    composed
}

/// The comparison table of `columns`, one row per row heading: each
/// column's heading with a link that removes it, each row's best value
/// marked (`best_in_row`). Only a table of four, which a phone scrolls
/// sideways, is a focusable scroll region.
fn table(columns: &[(&str, Cow<VehicleFragments>)], fragments: &dyn Fragments) -> String {
    let mut table = String::new();
    let scrolls = columns.len() > 3;
    // Three versions fit a 360-pixel phone; four say that they scroll.
    if scrolls {
        table.push_str(
            "<p class=\"scroll-cue meta\">Deslizá la tabla hacia el costado para ver las cuatro versiones →</p>",
        );
    }
    // The phone layout sets one grid track per version (`compare-n1` to `-n4`).
    let wrap = match scrolls {
        true => {
            "<div class=\"table-wrap compare-wrap\" role=\"region\" aria-label=\"Comparación de versiones\">"
        }
        false => "<div class=\"compare-wrap\">",
    };
    table.push_str(&format!(
        "{wrap}<table class=\"compare-table compare-n{}\">\n<thead><tr><th scope=\"col\">Dato</th>",
        columns.len()
    ));
    let ids: Vec<&str> = columns.iter().map(|(id, _)| *id).collect();
    for (id, column) in columns {
        let others: Vec<&str> = ids.iter().copied().filter(|other| other != id).collect();
        let href = page_of(&others);
        table.push_str(&format!(
            "<th scope=\"col\">{} <a class=\"remove\" href=\"{}\">Quitar<span class=\"visually-hidden\"> {}</span></a></th>",
            column.head,
            escape(&href),
            escape(&column.name)
        ));
    }
    table.push_str("</tr></thead>\n<tbody>\n");
    let mut best = Vec::with_capacity(fragments.compare_rows().len());
    for (row, heading) in fragments.compare_rows().iter().enumerate() {
        best.push(best_in_row(
            columns.iter().map(|(_, column)| &**column),
            row,
        ));
        table.push_str("<tr>");
        table.push_str(heading);
        for (_, column) in columns {
            table.push_str(column.cells.get(row).map_or("<td></td>", String::as_str));
        }
        table.push_str("</tr>\n");
    }
    table.push_str("</tbody>\n</table></div>");
    mark_best(&table, &best)
}

/// The column with a row's best value: the highest score, when at least two
/// columns have one and it is higher than every other (a tie marks none).
fn best_in_row<'a>(
    columns: impl Iterator<Item = &'a VehicleFragments>,
    row: usize,
) -> Option<usize> {
    let scores: Vec<Option<f64>> = columns
        .map(|column| column.scores.get(row).copied().flatten())
        .collect();
    let known: Vec<(usize, f64)> = scores
        .iter()
        .enumerate()
        .filter_map(|(at, score)| score.map(|score| (at, score)))
        .collect();
    if known.len() < 2 {
        return None;
    }
    let top = known
        .iter()
        .map(|(_, score)| *score)
        .fold(f64::MIN, f64::max);
    let mut best = known.iter().filter(|(_, score)| *score == top);
    match (best.next(), best.next()) {
        (Some((at, _)), None) => Some(*at),
        _ => None,
    }
}

/// The table with each row's best cell (`best`, per body row: its column)
/// marked, in words as well as in colour.
fn mark_best(table: &str, best: &[Option<usize>]) -> String {
    let (rows, cells) = (Cell::new(0_usize), Cell::new(0_usize));
    rewrite(
        table,
        vec![
            element!("tbody > tr", |_| {
                rows.set(rows.get() + 1);
                cells.set(0);
                Ok(())
            }),
            element!("tbody > tr > td", |el| {
                let (row, column) = (rows.get().saturating_sub(1), cells.get());
                cells.set(column + 1);
                if best.get(row).copied().flatten() == Some(column) {
                    el.set_attribute("class", &with_class(el.get_attribute("class"), "best"))?;
                    el.prepend(
                        "<strong class=\"best-mark\">Mejor:</strong> ",
                        ContentType::Html,
                    );
                }
                Ok(())
            }),
        ],
    )
}

/// The IDs a compare page's query asks for, as its comparison picks
/// (`picks.rs`): without blanks or repeats.
pub fn compared_ids(query: &str) -> Vec<String> {
    let mut ids = requested_ids(query);
    let mut seen = std::collections::BTreeSet::new();
    ids.retain(|id| !id.is_empty() && seen.insert(id.clone()));
    ids
}

/// The IDs a page asks to compare, the ways it is asked: `ids=a,b` (a
/// shared link, each piece one ID, encoded commas included), one `ids` per
/// ticked box of a list, or the IDs typed into the compare form, whose
/// commas the browser sent as `%2C` (split there, blanks trimmed). A
/// shared link's list goes to the API as it is, empty pieces included, so
/// the page refuses what the API refuses.
fn requested_ids(query: &str) -> Vec<String> {
    // Read from the query as sent, before decoding: a literal comma and an
    // encoded one mean different things. Blank values are not sent.
    let values: Vec<&str> = query
        .split('&')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            let blank = form_decode(value).is_some_and(|value| value.trim().is_empty());
            (form_decode(name).as_deref() == Some("ids") && !blank).then_some(value)
        })
        .collect();
    let decode = |value: &str| form_decode(value).unwrap_or_default();
    match values.as_slice() {
        [one] if one.contains(',') => one.split(',').map(decode).collect(),
        [one] => decode(one)
            .split(',')
            .map(|id| id.trim().to_owned())
            .filter(|id| !id.is_empty())
            .collect(),
        many => many.iter().map(|value| decode(value)).collect(),
    }
}
