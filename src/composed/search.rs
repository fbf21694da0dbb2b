//! Site pages with a query, search: `/buscar?...` filled in with the cards
//! of `/api/v1/vehicles?...` (or of a deal list, see `deals.rs`), a status
//! line saying how many were found, and links to the other pages.

use super::budget::{self, Asked};
use super::deals;
use super::follow;
use super::forgive::{self, Reading};
use super::form::FormState;
use super::fragments::Fragments;
use super::lists::{SearchResults, find_listed};
use super::page::{Composed, Edit, refused_as, slots};
use super::query::{PageQuery, SEARCH_PAGE};
use crate::api::error::ErrorDetail;
use crate::api::params::{Problem, choices, table};
use crate::api::types::Pagination;
use crate::api::{ApiError, Index};
use crate::html::escape;

/// `/buscar?query`: the results of `/api/v1/vehicles` (or of a deal list)
/// for the page's query with its money rules applied (`budget.rs`), as
/// cards, with the form filled in as it was sent.
pub fn search_page(index: &Index, fragments: &dyn Fragments, query: &str) -> Composed {
    let rate = index.meta().current_rate.and_then(|rate| rate.ars_per_usd);
    let sent = PageQuery::read(query);
    let deal = sent.get("kind").is_some();
    let order = Order::of(deal, sent.get("sort"));
    // The form shows the order applied, not only the one sent.
    let shown = sent.clone().with("sort", order.applied);
    let pairs: Vec<(String, String)> = shown
        .pairs()
        .iter()
        .filter(|(name, _)| deal || !deals::NAMES.contains(&name.as_str()))
        .cloned()
        .collect();
    let asked = budget::asked(&pairs, rate);
    let form = FormState {
        values: shown.pairs().to_vec(),
        errors: Vec::new(),
    };
    let listed = match asked.refused.as_slice() {
        [] => find_listed(index, deal, asked.pairs.clone()),
        fields => Err(ApiError::InvalidParameters(
            fields
                .iter()
                .map(|field| ErrorDetail::new(*field, Problem::Amount))
                .collect(),
        )),
    };
    let data = match listed {
        Ok(data) => data,
        Err(error) => return refused(error, &asked, form),
    };
    let (data, forgiven) = match data.pagination.total {
        0 => match forgive_search(index, deal, &sent, &pairs, rate) {
            Some((found, note)) => (found, Some(note)),
            None => (data, None),
        },
        _ => (data, None),
    };
    let cards: String = data
        .vehicles
        .iter()
        .filter_map(|summary| fragments.vehicle(&summary.facts.id))
        .map(|vehicle| format!("<li>{}</li>\n", vehicle.card))
        .collect();
    let pagination = &data.pagination;
    let pager = pager(&sent, pagination);
    let (follow, alternate) = follow::follow_links(&sent);
    let status = status_html(&data, order.note(deal), forgiven, &follow);
    let mut parts = vec![
        Edit::Append(slots::HEAD, format!("{alternate}\n")),
        Edit::Fill(slots::STATUS, status),
        Edit::Fill(slots::RESULTS, cards),
        Edit::Fill(slots::PAGER, pager),
        Edit::Fill(slots::ALERT, follow::alert_form(&sent)),
    ];
    if pagination.total > 0 {
        // Results first: the filters fold above them (one tap to change).
        parts.push(Edit::Close(slots::FILTERS));
    }
    Composed {
        parts,
        error: None,
        form: Some(form),
    }
}

/// The status above the results: how many were found (under the deal
/// list's title), a note on an order replaced, a forgiven search's note
/// first (already HTML), and the links to follow the search.
fn status_html(
    data: &SearchResults,
    order_note: Option<String>,
    forgiven: Option<String>,
    follow: &str,
) -> String {
    let mut status = status_line(&data.pagination, data.vehicles.len());
    if let Some(title) = &data.title {
        status = format!("{title}: {status}");
    }
    if let Some(note) = order_note {
        status = format!("{status} {note}");
    }
    let status = match forgiven {
        Some(note) => format!("{note} {}", escape(&status)),
        None => escape(&status),
    };
    format!("{status}<p class=\"follow-line\">{follow}</p>")
}

/// The page of a query the list refuses: the form filled in as sent, each
/// refused field named with its problem in Spanish.
fn refused(error: ApiError, asked: &Asked, mut form: FormState) -> Composed {
    let field = |path: &str| origin(asked, path);
    if let ApiError::InvalidParameters(details) = &error {
        form.errors = details
            .iter()
            .map(|detail| (field(&detail.path), detail.problem.spanish()))
            .collect();
    }
    let mut composed = refused_as(error, |path| label_of(&field(path)));
    composed.form = Some(form);
    composed
}

/// The links to the pages before and after this one, where there are any.
fn pager(sent: &PageQuery, pagination: &Pagination) -> String {
    let mut pager = String::new();
    if pagination.offset > 0 {
        let previous = pagination.offset.saturating_sub(pagination.limit);
        pager.push_str(&page_link(sent, previous as usize, "← Anteriores"));
    }
    if let Some(next) = pagination.next_offset {
        pager.push_str(&page_link(sent, next, "Siguientes →"));
    }
    pager
}

/// The order a page applies: the one sent when its list has it, else its
/// list's default (a search lists the cheapest first, in pesos as its cards
/// read; a deal list by its recommended order). An order sent that belongs
/// to the other kind of list (the form offers both) is replaced, and the
/// page says so; a value neither has goes to the API, which refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Order<'a> {
    /// The form value applied (`budget.rs` turns price orders into pesos).
    applied: &'a str,
    /// The order sent and replaced, if any.
    replaced: Option<&'a str>,
}

/// The orders of a search and of a deal list, as the API spells them; the
/// first is the default.
const SEARCH_ORDERS: [&str; 6] = table::SEARCH_SORTS;
const DEAL_ORDERS: [&str; 5] = table::DEAL_SORTS;

impl<'a> Order<'a> {
    fn of(deal: bool, sent: Option<&'a str>) -> Self {
        let (own, other) = match deal {
            true => (&DEAL_ORDERS[..], &SEARCH_ORDERS[..]),
            false => (&SEARCH_ORDERS[..], &DEAL_ORDERS[..]),
        };
        match sent {
            None => Order {
                applied: own[0],
                replaced: None,
            },
            Some(sort) if !own.contains(&sort) && other.contains(&sort) => Order {
                applied: own[0],
                replaced: Some(sort),
            },
            Some(sort) => Order {
                applied: sort,
                replaced: None,
            },
        }
    }

    /// What the status line says of a replaced order.
    fn note(&self, deal: bool) -> Option<String> {
        let replaced = self.replaced?;
        let name = order_name(replaced);
        Some(match deal {
            true => format!(
                "El orden «{name}» es sólo para todas las versiones: esta lista va en el orden recomendado."
            ),
            false => format!(
                "El orden «{name}» es sólo para las listas de ofertas: se muestran de menor a mayor precio."
            ),
        })
    }
}

/// An order's name as the form shows it.
fn order_name(sort: &str) -> &'static str {
    choices::sort_name(sort).unwrap_or("otro")
}

/// A search whose words found nothing, read another way (`forgive.rs`):
/// the first reading that finds versions, and the status words that say so
/// (HTML: "¿Quisiste decir …?" with a link to each reading that finds
/// some). `sent` are the buyer's pairs, `pairs` the page's API pairs.
fn forgive_search<'a>(
    index: &'a Index,
    deal: bool,
    sent: &PageQuery,
    pairs: &[(String, String)],
    rate: Option<f64>,
) -> Option<(SearchResults<'a>, String)> {
    let typed = sent.get("q")?.to_owned();
    let chosen_type = sent.get("type");
    let read = |pairs: &[(String, String)], reading: &Reading| {
        let mut read = PageQuery::of(pairs.iter().cloned())
            .without("q")
            .without("offset");
        if let Some(q) = &reading.q {
            read = read.with("q", q.clone());
        }
        if let Some(body) = reading.body {
            read = read.with("type", body.as_str());
        }
        read
    };
    let mut found: Vec<(Reading, SearchResults<'a>)> = Vec::new();
    for reading in forgive::readings(index, &typed) {
        // A body type the buyer chose is not read away.
        if let (Some(body), Some(chosen)) = (reading.body, chosen_type)
            && body.as_str() != chosen
        {
            continue;
        }
        let asked = budget::asked(read(pairs, &reading).pairs(), rate);
        if !asked.refused.is_empty() {
            continue;
        }
        if let Ok(data) = find_listed(index, deal, asked.pairs)
            && data.pagination.total > 0
        {
            found.push((reading, data));
        }
    }
    let link = |reading: &Reading| {
        let href = read(sent.pairs(), reading).href(SEARCH_PAGE);
        format!(
            "<a href=\"{}\">{}</a>",
            escape(&href),
            escape(&reading.label())
        )
    };
    let mut found = found.into_iter();
    let (first, data) = found.next()?;
    let mut note = format!(
        "Ninguna versión coincide con «{}». ¿Quisiste decir {}?",
        escape(&typed),
        link(&first)
    );
    let others: Vec<String> = found.map(|(reading, _)| link(&reading)).collect();
    if !others.is_empty() {
        note.push_str(&format!(" También: {}.", others.join(", ")));
    }
    note.push_str(&format!(" Se muestran las de {}:", escape(&first.label())));
    Some((data, note))
}

/// The form field an API parameter came from: a budget typed in another
/// field (dollars become a peso bound) is that field.
fn origin(asked: &Asked, path: &str) -> String {
    asked
        .origins
        .iter()
        .find(|(api_name, _)| *api_name == path)
        .map_or(path, |(_, field)| field)
        .to_owned()
}

/// A field's form label.
fn label_of(field: &str) -> Option<&'static str> {
    crate::api::params::label(field)
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

/// A link to the same search at another offset: the buyer's own pairs
/// (a peso budget stays a peso budget), the offset replaced.
fn page_link(sent: &PageQuery, offset: usize, text: &str) -> String {
    let query = match offset {
        0 => sent.clone().without("offset"),
        offset => sent.clone().with("offset", offset.to_string()),
    };
    let href = query.href(SEARCH_PAGE);
    format!("<a href=\"{}\">{}</a>", escape(&href), escape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_applied_is_the_lists_own() {
        let order = |deal, sent| {
            let order = Order::of(deal, sent);
            (order.applied, order.note(deal).is_some())
        };
        assert_eq!(order(false, None), ("price_asc", false));
        assert_eq!(order(true, None), ("recommended", false));
        assert_eq!(order(true, Some("price_asc")), ("price_asc", false));
        assert_eq!(order(true, Some("name")), ("recommended", true));
        assert_eq!(order(true, Some("price_desc")), ("recommended", true));
        assert_eq!(order(false, Some("recent")), ("price_asc", true));
        assert_eq!(
            order(false, Some("nada")),
            ("nada", false),
            "the API refuses it"
        );
    }

    #[test]
    fn paging_links_keep_the_query_and_replace_the_offset() {
        let sent = |list: &[(&str, &str)]| {
            PageQuery::of(list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())))
        };
        assert_eq!(
            page_link(
                &sent(&[
                    ("make", "Fiat"),
                    ("offset", "20"),
                    ("maxPriceArs", "60.000.000")
                ]),
                30,
                "Siguientes →"
            ),
            "<a href=\"/buscar?make=Fiat&amp;maxPriceArs=60.000.000&amp;offset=30\">Siguientes →</a>"
        );
        assert_eq!(
            page_link(&sent(&[("offset", "20")]), 0, "x"),
            "<a href=\"/buscar\">x</a>"
        );
    }
}
