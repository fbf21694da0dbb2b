//! Site pages with a query, following a search: `/buscar/feed.xml?...`, the
//! Atom feed of any search or deal list the site can show (the same query
//! as `/buscar?...`), so a buyer can follow it in a feed reader without an
//! account or an e-mail. The edge answers it from the loaded tree; a feed
//! reader that polls it sees:
//!
//! - an entry for each version that matches (its ID is the version's page,
//!   so a version that newly matches is a new entry, and one that keeps
//!   matching is not repeated), updated when its quotes were last checked;
//! - an entry for each price drop of the last seven days of a matching
//!   version (its ID names the drop's time, so every new drop is a new
//!   entry), updated at the drop.
//!
//! At most the first 100 matches in the list's order are followed, the
//! API's largest page. Entries are ordered newest first, then by ID, so the
//! same tree and query give the same bytes.
//!
//! With a price bound (`hasta` or `hastaUsd`, `composed::alerts`), the
//! feed holds instead the alerts of the matching versions at that price.
//!
//! Here: the feed's addresses and the links to it; the feed itself is
//! written by `feed.rs`.

use super::alerts::{self, Bound};
use super::query::PageQuery;
use crate::html::escape;

/// The feed's path; its query is a search page's.
pub const FEED_PATH: &str = crate::api::site_pages::SEARCH_FEED;

/// The feed address of a search page's query (without one: every version),
/// and its price bound.
pub fn feed_path(sent: &PageQuery, bound: Option<Bound>) -> String {
    match bound {
        Some(bound) => sent
            .clone()
            .with(bound.name(), bound.spelt())
            .href(FEED_PATH),
        None => sent.href(FEED_PATH),
    }
}

/// The "Seguir esta búsqueda" link of a search page, and its
/// `<link rel="alternate">` for the page's head.
pub fn follow_links(sent: &PageQuery) -> (String, String) {
    let path = escape(&feed_path(sent, None));
    (
        format!(
            "<a class=\"follow\" href=\"{path}\" type=\"application/atom+xml\">Seguir esta búsqueda</a> \
             <span class=\"meta\">(en un lector de feeds: las versiones que empiezan a coincidir y las que bajan de precio)</span>"
        ),
        format!(
            "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Seguir esta búsqueda\" href=\"{path}\">"
        ),
    )
}

/// The search page's alert form: its feed at the buyer's price in pesos
/// (`composed::alerts`), the page's query carried as hidden fields. The
/// site's script shows the address it builds; without it, the form opens
/// the feed at the same address.
pub fn alert_form(sent: &PageQuery) -> String {
    let hidden: String = sent
        .pairs()
        .iter()
        .map(|(name, value)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(name),
                escape(value)
            )
        })
        .collect();
    format!(
        "<form class=\"alert-form\" action=\"{FEED_PATH}\" method=\"get\">{hidden}\
         <div class=\"field\"><label for=\"aviso-precio\">Avisame cuando alguna de estas versiones \
         cueste menos de (en pesos)</label><input id=\"aviso-precio\" name=\"{}\" \
         inputmode=\"decimal\" autocomplete=\"off\" placeholder=\"60.000.000\" required></div>\
         <p class=\"actions\"><button type=\"submit\">Armar el aviso</button></p>\
         <p class=\"alert-url\" hidden>Tu aviso: <a></a></p>\
         </form>",
        alerts::PESOS
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_address_is_the_page_query_as_the_page_reads_it() {
        let feed = |query| feed_path(&PageQuery::read(query), None);
        assert_eq!(
            feed("q=hilux&make=&utm_source=x&comparar=a"),
            "/buscar/feed.xml?q=hilux"
        );
        assert_eq!(feed(""), "/buscar/feed.xml");
    }
}
