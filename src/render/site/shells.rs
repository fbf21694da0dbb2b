//! Render stage, query pages: the static form of every page of
//! `api::site_pages` (`/buscar`, a GET form whose field names are the API's
//! parameters; `/comparar`, shareable as `/comparar?ids=a,b`), which the
//! edge fills in for a query (`crate::composed`, with the fragments of
//! `fragments.rs`); and the HTML 404 page.

use std::collections::BTreeMap;

use serde::Serialize;

use super::catalogue_pages::crumbs;
use super::feeds::SitemapEntry;
use super::labels;
use super::page::{PageMeta, Site};
use crate::api::params::filter::Form;
use crate::api::params::table::{FILTERS, Kind};
use crate::api::site_pages;

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

/// Writes every query page's static form (`site_pages::ALL`), with the
/// slots the edge fills for a query; returns the sitemap's entries of those
/// it lists.
pub fn write_query_pages(site: &Site) -> anyhow::Result<Vec<SitemapEntry>> {
    let mut listed = Vec::new();
    for page in site_pages::ALL {
        let meta = PageMeta {
            path: page.path.to_owned(),
            title: page.title.to_owned(),
            description: page.description.to_owned(),
            kind: page.kind,
            crumbs: crumbs(&[("/", "Inicio")], page.crumb),
            ..PageMeta::default()
        };
        // The one page whose static form lists data of its own.
        let view = if page == site_pages::SEARCH {
            serde_json::to_value(search_view(site))?
        } else {
            serde_json::json!({})
        };
        site.write_page(&meta, page.template, &view)?;
        if page.in_sitemap {
            listed.push(SitemapEntry::at(page.path, &site.snapshot_at));
        }
    }
    Ok(listed)
}

/// What `/buscar`'s filter form lists (a GET form whose field names are
/// the API's parameters): the makes and models, and the further filters
/// with the values present.
fn search_view(site: &Site) -> SearchView {
    let catalogue = site.index.catalogue_data();
    let mut models: Vec<String> = catalogue.models.iter().map(|m| m.model.clone()).collect();
    models.sort();
    models.dedup();
    SearchView {
        makes: catalogue.makes.clone(),
        models,
        further: further_controls(&catalogue.filters),
    }
}

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
