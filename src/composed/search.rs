//! Site pages with a query, search: `/buscar?...` filled in with the cards
//! of `/api/v1/vehicles?...` (or of a deal list, see `deals.rs`), a status
//! line saying how many were found, and links to the other pages.

use super::{Composed, PageFragments, budget, deals, form_query, refused_as, slots, with_content};
use crate::api::endpoints::{find_deals, search_vehicles};
use crate::api::params::{parse_deals, parse_search};
use crate::api::types::{Listed, Pagination};
use crate::api::{ApiError, Index};
use crate::html::escape;

/// `/buscar?query`: the results of `/api/v1/vehicles?query` as cards.
pub fn search_page(index: &Index, fragments: &PageFragments, query: &str) -> Composed {
    let rate = index.meta().current_rate.and_then(|rate| rate.ars_per_usd);
    let (deal, rest) = deals::split(query);
    let filters = form_query(&budget::in_dollars(&rest, rate));
    let joined = [deal.as_deref().unwrap_or(""), &filters]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("&");
    let query = &joined;
    let data = match find_listed(index, deal.is_some(), query) {
        Ok(data) => data,
        Err(error) => {
            return refused_as(error, |path| {
                budget::peso_field(&rest, path).map(|field| field.label)
            });
        }
    };
    let pagination = &data.pagination;
    let mut status = status_line(pagination, data.vehicles.len());
    if let Some(title) = &data.title {
        status = format!("{title}: {status}");
    }
    let cards: String = data
        .vehicles
        .iter()
        .filter_map(|summary| fragments.vehicles.get(&summary.facts.id))
        .map(|vehicle| format!("<li>{}</li>\n", vehicle.card))
        .collect();
    let mut pager = String::new();
    if pagination.offset > 0 {
        let previous = pagination.offset.saturating_sub(pagination.limit);
        pager.push_str(&page_link(query, previous as usize, "← Anteriores"));
    }
    if let Some(next) = pagination.next_offset {
        pager.push_str(&page_link(query, next, "Siguientes →"));
    }
    Composed {
        parts: vec![
            (slots::STATUS, with_content(slots::STATUS, &escape(&status))),
            (slots::RESULTS, with_content(slots::RESULTS, &cards)),
            (slots::PAGER, with_content(slots::PAGER, &pager)),
        ],
        error: None,
    }
}

/// The versions a search page lists: the deal list of its `kind` and
/// `window` with its filters, or the search of its filters.
fn find_listed<'a>(
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

/// How many versions were found and which this page shows.
fn status_line(pagination: &Pagination, shown: usize) -> String {
    match pagination.total {
        0 => "Ninguna versión cumple todos los filtros.".to_owned(),
        total => {
            let found = if total == 1 {
                "1 versión encontrada".to_owned()
            } else {
                format!("{total} versiones encontradas")
            };
            let first = pagination.offset as usize + 1;
            match shown {
                0 => format!("{found}; esta página no tiene ninguna."),
                _ => format!(
                    "{found} (se muestran de la {first} a la {}).",
                    first + shown - 1
                ),
            }
        }
    }
}

/// A page of listed versions, from a search or a deal list (with its title).
struct SearchResults<'a> {
    title: Option<String>,
    vehicles: Vec<Listed<'a>>,
    pagination: Pagination,
}

/// A link to the same search at another offset.
fn page_link(query: &str, offset: usize, text: &str) -> String {
    let mut pairs: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty() && !pair.starts_with("offset="))
        .collect();
    let offset_pair = format!("offset={offset}");
    if offset > 0 {
        pairs.push(&offset_pair);
    }
    let href = match pairs.is_empty() {
        true => "/buscar".to_owned(),
        false => format!("/buscar?{}", pairs.join("&")),
    };
    format!("<a href=\"{}\">{}</a>", escape(&href), escape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_links_keep_the_query_and_replace_the_offset() {
        assert_eq!(
            page_link("make=Fiat&offset=20&limit=10", 30, "Siguientes →"),
            "<a href=\"/buscar?make=Fiat&amp;limit=10&amp;offset=30\">Siguientes →</a>"
        );
        assert_eq!(page_link("offset=20", 0, "x"), "<a href=\"/buscar\">x</a>");
    }
}
