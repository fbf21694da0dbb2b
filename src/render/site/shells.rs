//! Render stage, query pages: `/buscar` (a GET form whose field names are
//! the API's parameters) and `/comparar` (shareable as `/comparar?ids=a,b`),
//! the pages the edge fills in for a query (`crate::composed`, with the
//! fragments of `fragments.rs`); and the HTML 404 page.

use std::collections::BTreeMap;

use serde::Serialize;

use super::catalogue_pages::crumbs;
use super::feeds::SitemapEntry;
use super::labels;
use super::page::{PageMeta, Site};
use crate::api::params::filter::Form;
use crate::api::params::table::{FILTERS, Kind};
use crate::api::site_pages::{COMPARE, SEARCH};

#[derive(Serialize)]
struct Choice {
    value: String,
    label: String,
}

/// The kinds of control of the form's further filters, in the form's order.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
enum ControlKind {
    /// A select of a choice's values.
    Select,
    /// A number field of a minimum.
    Number,
    /// A select of a boolean's two answers.
    Answers,
}

/// A further filter's control on the search form, from its row.
#[derive(Serialize)]
struct Control {
    control: ControlKind,
    name: &'static str,
    id: &'static str,
    label: &'static str,
    /// A select's options: the choice's values present in the catalogue, or
    /// a boolean's two answers.
    choices: Vec<Choice>,
    /// A number field's step: `1` for an integer, `any` for a number.
    step: &'static str,
}

#[derive(Serialize)]
struct SearchView {
    makes: Vec<String>,
    models: Vec<String>,
    further: Vec<Control>,
}

/// Writes `/buscar`: the filter form (a GET form whose field names are the
/// API's parameters), with the slots the edge fills with the results.
pub fn write_search(site: &Site) -> anyhow::Result<SitemapEntry> {
    let catalogue = site.index.catalogue_data();
    let mut models: Vec<String> = catalogue.models.iter().map(|m| m.model.clone()).collect();
    models.sort();
    models.dedup();
    let view = SearchView {
        makes: catalogue.makes.clone(),
        models,
        further: further_controls(&catalogue.filters),
    };
    let page = PageMeta {
        path: SEARCH.path.to_owned(),
        title: "Buscar versiones".to_owned(),
        description: "Buscá autos 0 km por marca, modelo, carrocería, combustible, precio, \
                      seguridad y descuento sobre su precio habitual."
            .to_owned(),
        kind: SEARCH.kind,
        crumbs: crumbs(&[("/", "Inicio")], "Buscar"),
        ..PageMeta::default()
    };
    site.write_page(&page, "search.html", &view)?;
    Ok(SitemapEntry::at(SEARCH.path, &site.snapshot_at))
}

/// The controls of the form's further filters, one a shared filter whose
/// row puts it there: the choices (each with its values `present` in the
/// catalogue), then the minima, then the booleans, each group in table
/// order.
fn further_controls(present: &BTreeMap<String, Vec<serde_json::Value>>) -> Vec<Control> {
    let options = labels::filter_options();
    let mut controls: Vec<Control> = FILTERS
        .iter()
        .filter_map(|param| {
            let label = param.label.unwrap_or(param.name);
            let (control, id, choices) = match (param.filter()?.form, param.kind) {
                (Form::Own, _) => return None,
                (Form::Answers { id, yes, no }, _) => (ControlKind::Answers, id, answers(yes, no)),
                (Form::Further(id), Kind::Choice { .. }) => {
                    let present = present.get(param.name);
                    let choices = options
                        .iter()
                        .filter(|(name, _)| *name == param.name)
                        .flat_map(|(_, values)| values)
                        .filter(|(value, _)| present.is_some_and(|p| p.iter().any(|v| v == value)))
                        .map(|&(value, label)| Choice::new(value, label))
                        .collect();
                    (ControlKind::Select, id, choices)
                }
                // A text among the further filters (the cities): a select
                // of the values present, each its own label.
                (Form::Further(id), Kind::Text { .. }) => {
                    let choices = present
                        .get(param.name)
                        .into_iter()
                        .flatten()
                        .filter_map(|value| value.as_str())
                        .map(|value| Choice::new(value, value))
                        .collect();
                    (ControlKind::Select, id, choices)
                }
                (Form::Further(id), _) => (ControlKind::Number, id, Vec::new()),
            };
            let step = match param.kind {
                Kind::Integer { .. } => "1",
                _ => "any",
            };
            Some(Control {
                control,
                name: param.name,
                id,
                label,
                choices,
                step,
            })
        })
        .collect();
    // Stable: each kind keeps the table's order.
    controls.sort_by_key(|control| control.control);
    controls
}

/// A boolean's two answers, `true` first.
fn answers(yes: &'static str, no: &'static str) -> Vec<Choice> {
    vec![Choice::new("true", yes), Choice::new("false", no)]
}

impl Choice {
    fn new(value: &str, label: &str) -> Choice {
        Choice {
            value: value.to_owned(),
            label: label.to_owned(),
        }
    }
}

/// Writes `/comparar`: the form, with the slots the edge fills with the table.
pub fn write_compare(site: &Site) -> anyhow::Result<()> {
    let page = PageMeta {
        path: COMPARE.path.to_owned(),
        title: "Comparar versiones".to_owned(),
        description: "Compará lado a lado precios de concesionarias, precio habitual y ficha \
                      técnica de dos a cuatro versiones de autos 0 km."
            .to_owned(),
        kind: COMPARE.kind,
        crumbs: crumbs(&[("/", "Inicio")], "Comparar"),
        ..PageMeta::default()
    };
    site.write_page(&page, "compare.html", &serde_json::json!({}))
}

/// Writes `/404.html`, the page for unknown site URLs.
pub fn write_not_found(site: &Site) -> anyhow::Result<()> {
    let page = PageMeta {
        path: "/404.html".to_owned(),
        title: "Página no encontrada".to_owned(),
        description: "La página que buscás no existe o la versión ya no está publicada.".into(),
        robots: Some("noindex"),
        ..PageMeta::default()
    };
    site.write_page(&page, "404.html", &serde_json::json!({}))
}
