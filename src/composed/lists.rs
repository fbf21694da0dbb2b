//! Site pages with a query, the lists they show: a search or a deal list
//! of the API for a page's query (`search.rs` shows it, `follow.rs` makes
//! its feed).

use super::deals;
use crate::api::endpoints::{find_deals, search_vehicles};
use crate::api::params::{parse_deals, parse_search};
use crate::api::types::{Listed, Pagination};
use crate::api::{ApiError, Index};

/// The versions a search page lists: the deal list of its `kind` and
/// `window` with its filters, or the search of its filters.
pub fn find_listed<'a>(
    index: &'a Index,
    deal: bool,
    query: &str,
) -> Result<SearchResults<'a>, ApiError> {
    if deal {
        let data = find_deals(index, &parse_deals(query)?)?.data;
        return Ok(SearchResults {
            title: Some(deals::title(data.kind, data.window)),
            vehicles: data.vehicles,
            pagination: data.pagination,
        });
    }
    let data = search_vehicles(index, &parse_search(query)?)?.data;
    Ok(SearchResults {
        title: None,
        vehicles: data.vehicles,
        pagination: data.pagination,
    })
}

/// A page of listed versions, from a search or a deal list (with its title).
pub struct SearchResults<'a> {
    /// The deal list's title.
    pub title: Option<String>,
    /// The versions of the page.
    pub vehicles: Vec<Listed<'a>>,
    /// Its paging.
    pub pagination: Pagination,
}
