//! Site pages with a query: `/buscar?...` and `/comparar?ids=...` are
//! composed by the edge (they cannot be precomputed) from the static page
//! and HTML fragments that `generate` rendered with the site's own templates
//! (`_edge/pages.json`: each version's card, compare heading and cells), so
//! the site works without JavaScript and has one renderer. The edge only
//! adds the words around them: counts, paging links and error messages,
//! escaped here.

pub mod budget;
mod compare;
pub mod deals;

pub use compare::compare_page;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::ApiError;
use crate::api::Index;
use crate::api::endpoints::{find_deals, search_vehicles};
use crate::api::params::{label, parse_deals, parse_search};
use crate::api::text::form_decode;
use crate::api::types::{Listed, Pagination};

/// URL (and tree path) of the fragments file.
pub const PAGES_DATA_PATH: &str = "/_edge/pages.json";

/// Where the edge puts what it composes: these empty elements of the static
/// pages (`templates/search.html`, `templates/compare.html`).
pub mod slots {
    /// The status line of both pages.
    pub const STATUS: &str =
        r#"<div id="estado" class="status" role="status" aria-live="polite"></div>"#;
    /// The search results.
    pub const RESULTS: &str = r#"<ol id="lista" class="cards result-list"></ol>"#;
    /// The search paging links.
    pub const PAGER: &str =
        r#"<nav id="paginas" class="pager" aria-label="Páginas de resultados"></nav>"#;
    /// The comparison table.
    pub const COMPARISON: &str = r#"<div id="comparacion"></div>"#;
}

/// `_edge/pages.json`.
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
}

/// The composed parts of a page: each slot's new content, and whether the
/// request was refused (the page is then sent with the error's status).
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    /// (slot, replacement) pairs.
    pub parts: Vec<(&'static str, String)>,
    /// The API error that refused the query, if any.
    pub error: Option<ApiError>,
}

impl Composed {
    /// The page with its slots filled.
    pub fn fill(&self, page: &str) -> String {
        self.parts
            .iter()
            .fold(page.to_owned(), |page, (slot, html)| {
                page.replacen(slot, html, 1)
            })
    }
}

/// What a page's query asks the API: the pairs that name a form field (or
/// the paging), without empty values. A form sent without the script sends
/// every field, empty ones included, and shared links pick up tracking
/// parameters; a page, unlike the API, takes both as "not set".
pub fn form_query(query: &str) -> String {
    query
        .split('&')
        .filter(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let known = form_decode(name).is_some_and(|name| label(&name).is_some());
            let empty = form_decode(value).is_some_and(|value| value.trim().is_empty());
            known && !empty
        })
        .collect::<Vec<_>>()
        .join("&")
}

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
        Err(error) => return refused(error),
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

/// The status line of a refused query: what was wrong, in Spanish, each
/// parameter by its form label.
pub(crate) fn refused(error: ApiError) -> Composed {
    let lead = match error {
        ApiError::NotFound(_) => "No encontrado",
        _ => "La consulta no es válida",
    };
    let mut status = format!("<strong>{lead}: {}</strong>", escape(&error.spanish()));
    if let ApiError::InvalidParameters(details) = &error {
        status.push_str("<ul>");
        for detail in details {
            let field = label(&detail.path).unwrap_or(&detail.path);
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
    }
}

/// An empty element with `content` inside.
pub(crate) fn with_content(slot: &str, content: &str) -> String {
    let end = slot.rfind("</").unwrap_or(slot.len());
    format!("{}{content}{}", &slot[..end], &slot[end..])
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

/// Text for HTML content or a quoted attribute (the templates' escaping
/// too, so the edge's words and the rendered fragments escape alike).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
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

    #[test]
    fn slots_are_filled_once_and_escaping_covers_attributes() {
        let composed = Composed {
            parts: vec![(
                slots::COMPARISON,
                with_content(slots::COMPARISON, "<p>x</p>"),
            )],
            error: None,
        };
        assert_eq!(
            composed.fill("a<div id=\"comparacion\"></div>b"),
            "a<div id=\"comparacion\"><p>x</p></div>b"
        );
        assert_eq!(
            escape("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
    }
}
