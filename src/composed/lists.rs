//! Site pages with a query, the lists they show: a search or a deal list
//! of the API for a page's query (`search.rs` shows it, `follow.rs` makes
//! its feed), asked with the page's pairs as they are, checked by the
//! parameter table as an HTTP query's would be.

use super::deals;
use crate::api::ops::deals::find_deals;
use crate::api::ops::search::search_vehicles;
use crate::api::params::{Args, Raw, deals_query, search_query};
use crate::api::query::Operation;
use crate::api::types::{Listed, Pagination};
use crate::api::{ApiError, Index};

/// The versions a search page lists: the deal list of its `kind` and
/// `window` with its filters, or the search of its filters.
pub fn find_listed(
    index: &Index,
    deal: bool,
    pairs: Vec<(String, Raw)>,
) -> Result<SearchResults<'_>, ApiError> {
    if deal {
        let query = deals_query(Args::from_pairs(Operation::Deals, pairs))?;
        let data = find_deals(index, &query)?.data;
        return Ok(SearchResults {
            title: Some(deals::title(data.kind, data.window)),
            vehicles: data.vehicles,
            pagination: data.pagination,
        });
    }
    let query = search_query(Args::from_pairs(Operation::Search, pairs))?;
    let data = search_vehicles(index, &query)?.data;
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
