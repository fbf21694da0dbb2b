//! Site pages with a query, the query as a page reads and writes it
//! ([`PageQuery`]): read once from the request, every link to a page with a
//! query written from it.

use super::{deals, picks};
use crate::api::params::label;
use crate::api::params::table::Given;
use crate::api::params::typed::{with_query, write_query};
use crate::api::query::spelling_of;
use crate::api::text::form_decode;
use crate::api::types::DealKind;
use crate::vocab::Window;

/// The search page's path (its query: `PageQuery`).
pub const SEARCH_PAGE: &str = crate::api::site_pages::SEARCH.path;

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

    /// The page query of a deal list: its `kind` always (a kind is what makes
    /// `/buscar` a deal list, the API's default one included), and its
    /// `window` when given.
    pub fn deal_list(kind: DealKind, window: Option<Window>) -> PageQuery {
        let query = PageQuery::default().with(deals::NAMES[0], spelling_of(&DealKind::ALL, kind));
        match window {
            Some(window) => query.with(deals::NAMES[1], window.as_str()),
            None => query,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_list_is_asked_by_its_kind_even_the_default_one() {
        assert_eq!(
            PageQuery::deal_list(DealKind::Opportunities, None).href("/buscar"),
            "/buscar?kind=opportunities"
        );
        assert_eq!(
            PageQuery::deal_list(DealKind::PriceDrops, Some(Window::D3)).href("/buscar"),
            "/buscar?kind=price_drops&window=3d"
        );
    }
}
