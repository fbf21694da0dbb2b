//! Site pages with a query: `/buscar?...` and `/comparar?ids=...` are
//! composed by the edge (they cannot be precomputed) from the static page
//! and HTML fragments that `generate` rendered with the site's own templates
//! (`_edge/pages.msgpack`: each version's card, compare heading and cells), so
//! the site works without JavaScript and has one renderer. The edge only
//! adds the words around them: counts, paging links and error messages,
//! escaped here.
//!
//! Every change to markup goes through `lol_html` (`rewrite.rs`): each
//! slot, control and link is found by CSS selector in the page as a browser
//! parses it, so a template may reorder, requote or rewrap a tag without
//! breaking the edge. Rendering query pages at the edge with minijinja was
//! the alternative; it would put the template engine and every template in
//! the edge and render whole pages per query. The rewriter costs half a
//! megabyte of binary and about half of a composed page's throughput
//! (above a thousand search pages a second on two shared cores; start-up
//! unchanged): BENCHMARKS.md, "Composed pages: lol_html".

pub mod alerts;
pub mod atom;
pub mod budget;
#[cfg(feature = "edge")]
mod compare;
pub mod deals;
#[cfg(feature = "edge")]
pub mod feed;
pub mod follow;
pub mod forgive;
#[cfg(feature = "edge")]
pub mod form;
#[cfg(feature = "edge")]
mod lists;
#[cfg(feature = "edge")]
mod page;
pub mod picks;
#[cfg(feature = "edge")]
mod rewrite;
#[cfg(feature = "edge")]
mod search;

#[cfg(feature = "edge")]
pub use compare::{compare_page, compared_ids};
#[cfg(feature = "edge")]
pub use page::{Composed, Edit, StaticPage, slots};
#[cfg(feature = "edge")]
pub(crate) use page::{refused, refused_as};
#[cfg(feature = "edge")]
pub use search::search_page;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::params::label;
use crate::api::params::table::Given;
use crate::api::params::typed::{with_query, write_query};
use crate::api::text::form_decode;

/// The search page's path (its query: `PageQuery`).
pub const SEARCH_PAGE: &str = "/buscar";

/// URL (and tree path) of the fragments file.
pub const PAGES_DATA_PATH: &str = "/_edge/pages.msgpack";

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
