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
//! megabyte of binary and a quarter to two thirds of a composed page's
//! throughput (the static page is parsed once, `picked::Picking`; start-up
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
mod fragments;
#[cfg(feature = "edge")]
mod lists;
#[cfg(feature = "edge")]
mod page;
#[cfg(feature = "edge")]
pub mod picked;
pub mod picks;
mod query;
#[cfg(feature = "edge")]
mod rewrite;
#[cfg(feature = "edge")]
mod search;

#[cfg(feature = "edge")]
pub use compare::{compare_page, compared_ids};
#[cfg(feature = "edge")]
pub use page::{Composed, Edit, StaticPage, slots};
#[cfg(feature = "edge")]
pub use search::search_page;

pub use fragments::{Fragments, PAGES_DATA_PATH, PageFragments, VehicleFragments};
pub use query::{PageQuery, SEARCH_PAGE};

/// How the edge answers a query page's query: the page, how it is
/// composed from the fragments, and which versions its query picks for the
/// comparison (the links every card keeps).
#[cfg(feature = "edge")]
#[derive(Debug, Clone, Copy)]
pub struct Composer {
    /// The page, one of `site_pages::ALL`.
    pub page: crate::api::site_pages::QueryPage,
    /// Composes the page for a query.
    pub compose: fn(&crate::api::Index, &dyn Fragments, &str) -> Composed,
    /// The versions a query picks.
    pub picked: fn(&str) -> Vec<String>,
}

/// Every query page's composer, in the order of `site_pages::ALL`: the
/// edge routes them.
#[cfg(feature = "edge")]
pub const COMPOSERS: [Composer; 2] = [
    Composer {
        page: crate::api::site_pages::SEARCH,
        compose: search_page,
        picked: picks::read,
    },
    Composer {
        page: crate::api::site_pages::COMPARE,
        compose: compare_page,
        picked: compared_ids,
    },
];

#[cfg(all(test, feature = "edge"))]
mod tests {
    #[test]
    fn every_query_page_has_its_composer_in_the_table_order() {
        let pages: Vec<_> = super::COMPOSERS
            .iter()
            .map(|composer| composer.page)
            .collect();
        assert_eq!(pages, crate::api::site_pages::ALL);
    }
}
