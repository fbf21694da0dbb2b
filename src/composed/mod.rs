//! Site pages with a query: `/buscar?...` and `/comparar?ids=...` are
//! composed by the edge (they cannot be precomputed) from the static page
//! and HTML fragments that `generate` rendered with the site's own templates
//! (`_edge/pages.msgpack`: each version's card, compare heading and cells), so
//! the site works without JavaScript and has one renderer. The edge only
//! adds the words around them: counts, paging links and error messages,
//! escaped here.

pub mod alerts;
pub mod atom;
pub mod budget;
mod compare;
pub mod deals;
pub mod follow;
pub mod forgive;
pub mod form;
mod lists;
pub mod picks;
mod search;

pub use compare::{compare_page, compared_ids};
pub use search::search_page;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::ApiError;
use crate::api::params::label;
use crate::api::params::table::Given;
use crate::api::params::typed::{with_query, write_query};
use crate::api::text::form_decode;
use crate::html::escape;

/// The search page's path (its query: `PageQuery`).
pub const SEARCH_PAGE: &str = "/buscar";

/// URL (and tree path) of the fragments file.
pub const PAGES_DATA_PATH: &str = "/_edge/pages.msgpack";

/// Where the edge puts what it composes: these empty elements of the static
/// pages (`templates/search.html`, `templates/compare.html`); the compare
/// bar of every page is [`picks::BAR`].
pub mod slots {
    /// The status line of both pages.
    pub const STATUS: &str =
        r#"<div id="estado" class="status" role="status" aria-live="polite"></div>"#;
    /// The search results.
    pub const RESULTS: &str = r#"<ol id="lista" class="cards result-list"></ol>"#;
    /// The search paging links.
    pub const PAGER: &str =
        r#"<nav id="paginas" class="pager" aria-label="Páginas de resultados"></nav>"#;
    /// The search's price alert form, after the results.
    pub const ALERT: &str = r#"<div id="aviso-busqueda"></div>"#;
    /// The comparison table.
    pub const COMPARISON: &str = r#"<div id="comparacion"></div>"#;
    /// The end of a page's head, where a feed's `<link rel="alternate">` goes.
    pub const HEAD_END: &str = "</head>";
    /// The search filters' fold, open on the static page; a page with
    /// results has it closed.
    pub const FILTERS: &str = r#"<details class="filters" id="filtros" open>"#;
}

/// `_edge/pages.msgpack`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageFragments {
    /// The comparison's row headings, `<th scope="row">` elements in order.
    pub compare_rows: Vec<String>,
    /// Each published version's fragments, by ID.
    pub vehicles: BTreeMap<String, VehicleFragments>,
}

/// One version's fragments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VehicleFragments {
    /// Its card (`<article class="card">`).
    pub card: String,
    /// Its column heading's content (a link to its page).
    pub head: String,
    /// Its cells, `<td>` elements, one per row of `compareRows`.
    pub cells: Vec<String>,
    /// Its name as a buyer reads it (make, model, trim), for the compare bar.
    #[serde(default)]
    pub name: String,
    /// Per row of `compareRows`, how good its value is (higher is better;
    /// `None` where a row has no better and worse, or the value is unknown),
    /// so a comparison marks each row's best.
    #[serde(default)]
    pub scores: Vec<Option<f64>>,
}

/// The composed parts of a page: each slot's new content, and whether the
/// request was refused (the page is then sent with the error's status).
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    /// (slot, replacement) pairs.
    pub parts: Vec<(&'static str, String)>,
    /// The API error that refused the query, if any.
    pub error: Option<ApiError>,
    /// The page's form as it was sent, to fill back in.
    pub form: Option<form::FormState>,
}

/// The openings of the forms a composed page fills in: the search form
/// (`templates/search.html`) and the compare form (`templates/compare.html`).
const FORMS: [&str; 2] = [
    "<form class=\"search-form\"",
    "<form class=\"compare-form\"",
];

impl Composed {
    /// The page with its slots and its form filled.
    pub fn fill(&self, page: &str) -> String {
        let page = self
            .parts
            .iter()
            .fold(page.to_owned(), |page, (slot, html)| {
                page.replacen(slot, html, 1)
            });
        match &self.form {
            Some(state) => FORMS
                .iter()
                .fold(page, |page, start| form::refill(&page, start, state)),
            None => page,
        }
    }
}

/// A site page's query, read once ([`PageQuery::read`]): its `(name,
/// value)` pairs decoded and trimmed, without blank values or names no form
/// has, in the order sent, and the comparison picks it carries
/// (`picks.rs`). A page applies its own rules (peso budgets, deal kinds,
/// its order) to these pairs, asks the API with them as they are
/// (`Args::from_pairs`), and writes every link to a page with a query from
/// them ([`PageQuery::href`]), through the service's one query writer; no
/// page edits a query as text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageQuery {
    pairs: Vec<(String, String)>,
    picks: Vec<String>,
}

impl PageQuery {
    /// Reads a page's query string. A form sent without the script sends
    /// every field, empty ones included, and shared links pick up tracking
    /// parameters; a page, unlike the API, takes both as "not set". A pair
    /// that does not decode is kept as sent, so the API refuses it. Picks
    /// are not read here: each page says which versions it carries.
    pub fn read(query: &str) -> PageQuery {
        let pairs = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .filter_map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                let name = form_decode(name)?;
                let value =
                    form_decode(value).map_or_else(|| value.to_owned(), |v| v.trim().to_owned());
                let known = label(&name).is_some() || deals::NAMES.contains(&name.as_str());
                (known && !value.is_empty()).then_some((name, value))
            })
            .collect();
        PageQuery {
            pairs,
            picks: Vec::new(),
        }
    }

    /// The query of these pairs, in order.
    pub fn of(pairs: impl IntoIterator<Item = (String, String)>) -> PageQuery {
        PageQuery {
            pairs: pairs.into_iter().collect(),
            picks: Vec::new(),
        }
    }

    /// Its pairs, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// The value of `name`, if sent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(sent, _)| sent == name)
            .map(|(_, value)| value.as_str())
    }

    /// The query with `name` set to `value` alone, after the other pairs.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> PageQuery {
        self.pairs.retain(|(sent, _)| sent != name);
        self.pairs.push((name.to_owned(), value.into()));
        self
    }

    /// The query without `name`.
    pub fn without(mut self, name: &str) -> PageQuery {
        self.pairs.retain(|(sent, _)| sent != name);
        self
    }

    /// The query carrying `picks` (`picks::NAME`), after its pairs.
    pub fn with_picks(mut self, picks: &[String]) -> PageQuery {
        self.picks = picks.to_vec();
        self
    }

    /// The query string: its pairs, then its picks as one list of IDs.
    pub fn to_query(&self) -> String {
        let texts: Vec<(&str, Given)> = self
            .pairs
            .iter()
            .map(|(name, value)| (name.as_str(), Given::Text(value.clone())))
            .collect();
        let picks = (!self.picks.is_empty()).then(|| (picks::NAME, Given::Ids(self.picks.clone())));
        write_query(
            texts
                .iter()
                .chain(&picks)
                .map(|(name, given)| (*name, given)),
        )
    }

    /// The address of `path` with this query.
    pub fn href(&self, path: &str) -> String {
        with_query(path, &self.to_query())
    }
}

/// The status line of a refused query: what was wrong, in Spanish, each
/// parameter by its form label.
pub(crate) fn refused(error: ApiError) -> Composed {
    refused_as(error, |_| None)
}

/// As [`refused`], with `relabel` naming a parameter the page's own way
/// first (a budget typed in pesos is refused as its dollar parameter).
pub(crate) fn refused_as(
    error: ApiError,
    relabel: impl Fn(&str) -> Option<&'static str>,
) -> Composed {
    let lead = match error {
        ApiError::NotFound(_) => "No encontrado",
        _ => "La consulta no es válida",
    };
    let mut status = format!("<strong>{lead}: {}</strong>", escape(&error.spanish()));
    if let ApiError::InvalidParameters(details) = &error {
        status.push_str("<ul>");
        for detail in details {
            let field = relabel(&detail.path)
                .or_else(|| label(&detail.path))
                .unwrap_or(&detail.path);
            status.push_str(&format!(
                "<li>{}: {}</li>",
                escape(field),
                escape(&detail.problem.spanish())
            ));
        }
        status.push_str("</ul>");
    }
    Composed {
        parts: vec![(slots::STATUS, with_content(slots::STATUS, &status))],
        error: Some(error),
        form: None,
    }
}

/// An empty element with `content` inside.
pub(crate) fn with_content(slot: &str, content: &str) -> String {
    let end = slot.rfind("</").unwrap_or(slot.len());
    format!("{}{content}{}", &slot[..end], &slot[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_filled_once() {
        let composed = Composed {
            parts: vec![(
                slots::COMPARISON,
                with_content(slots::COMPARISON, "<p>x</p>"),
            )],
            error: None,
            form: None,
        };
        assert_eq!(
            composed.fill("a<div id=\"comparacion\"></div>b"),
            "a<div id=\"comparacion\"><p>x</p></div>b"
        );
    }
}
