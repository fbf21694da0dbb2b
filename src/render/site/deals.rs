//! Render stage, deal lists: every current opportunity (`/ofertas`), every
//! price drop (`/ofertas/bajas`) and every new opportunity
//! (`/ofertas/nuevas`) of the last seven days, as static pages of at most
//! [`MAX_LIMIT`] cards (`/ofertas/2`, ...), so the deals can be read without
//! JavaScript. The lists are the API's own `find_deals` pages, in its
//! `recommended` order.

use serde::Serialize;

use super::cards::Card;
use super::catalogue_pages::crumbs;
use super::feeds::SitemapEntry;
use super::labels;
use super::page::{PageMeta, Site};
use crate::api::ops::deals::find_deals;
use crate::api::params::TypedQuery;
use crate::api::params::typed::with_query;
use crate::api::query::{DealSort, DealsQuery, MAX_LIMIT, Page};
use crate::api::types::DealKind;
use crate::composed::PageQuery;
use crate::composed::{SEARCH_PAGE, follow};
use crate::vocab::{BodyType, Window};

/// One deal list: its kind, path and words.
pub struct DealList {
    /// Kind of deal.
    pub kind: DealKind,
    /// The kind as the API's `kind` parameter spells it.
    param: &'static str,
    /// Site path of its first page.
    pub path: &'static str,
    /// Page title.
    title: &'static str,
    /// What the list holds and its order, one paragraph.
    lead: &'static str,
    /// Said when the list is empty.
    empty: &'static str,
}

/// The three lists, in the order the pages link to each other.
pub const LISTS: [DealList; 3] = [
    DealList {
        kind: DealKind::Opportunities,
        param: "opportunities",
        path: "/ofertas",
        title: "Oportunidades actuales",
        lead: "Versiones cuyo precio más bajo de concesionaria está al menos un 5 % por debajo de su \
               precio habitual, con historia suficiente para compararlas. Primero, las de \
               mayor diferencia.",
        empty: "No hay oportunidades en esta publicación.",
    },
    DealList {
        kind: DealKind::PriceDrops,
        param: "price_drops",
        path: "/ofertas/bajas",
        title: "Bajas de precio de los últimos 7 días",
        lead: "Bajas del precio del catálogo del sitio de los últimos 7 días: al menos 2 % y \
               US$ 300, o que llevan el precio por debajo del umbral de oportunidad. \
               Primero, las bajas más grandes.",
        empty: "No hubo bajas de precio en los últimos 7 días.",
    },
    DealList {
        kind: DealKind::NewOpportunities,
        param: "new_opportunities",
        path: "/ofertas/nuevas",
        title: "Nuevas oportunidades de los últimos 7 días",
        lead: "Versiones que pasaron a ser oportunidad en los últimos 7 días, por una baja \
               de precio o sin ella. Primero, las más recientes.",
        empty: "No hubo nuevas oportunidades en los últimos 7 días.",
    },
];

#[derive(Serialize)]
struct DealsView<'a> {
    lead: &'static str,
    empty: &'static str,
    total: usize,
    first: usize,
    last: usize,
    cards: Vec<Card>,
    previous: Option<String>,
    next: Option<String>,
    /// The other lists: (path, title).
    others: Vec<(&'static str, &'static str)>,
    /// The same list in the API.
    api: String,
    /// The list's `kind`, for its filter form (which `/buscar` answers).
    kind: &'static str,
    /// The address of its feed.
    follow: String,
    /// Other windows of the list: (address, label); none for opportunities.
    windows: Vec<(String, &'static str)>,
    /// The makes and body types to filter by.
    makes: &'a [String],
    types: Vec<(&'static str, &'static str)>,
}

/// The path of page `number` (from 1) of a list.
fn page_path(list: &DealList, number: usize) -> String {
    match number {
        1 => list.path.to_owned(),
        n => format!("{}/{n}", list.path),
    }
}

/// Writes every page of every list; returns them for the sitemap.
pub fn write_deal_pages(site: &Site) -> anyhow::Result<Vec<SitemapEntry>> {
    let mut pages = Vec::new();
    for list in &LISTS {
        pages.extend(write_list(site, list)?);
    }
    Ok(pages)
}

/// The shorter windows of a drops or new-opportunities list, as links to
/// `/buscar` with the list's `kind` and `window`; none for opportunities.
fn other_windows(list: &DealList) -> Vec<(String, &'static str)> {
    if list.kind == DealKind::Opportunities {
        return Vec::new();
    }
    [Window::D1, Window::D3]
        .map(|window| (window, labels::window(window)))
        .into_iter()
        .map(|(window, label)| {
            (
                PageQuery::deal_list(list.kind, Some(window)).href(SEARCH_PAGE),
                label,
            )
        })
        .collect()
}

/// The body types some published version has: (API value, label).
fn body_types(site: &Site) -> Vec<(&'static str, &'static str)> {
    let present = site.index.catalogue_data().filters.get("type");
    BodyType::ALL
        .iter()
        .map(|body| (body.as_str(), labels::body_type(*body)))
        .filter(|(value, _)| present.is_some_and(|p| p.iter().any(|v| v == value)))
        .collect()
}

/// The query of a list's page at `offset`, as the site lists it.
fn page_query(list: &DealList, offset: u32) -> DealsQuery {
    DealsQuery {
        kind: list.kind,
        window: Window::D7,
        sort: DealSort::Recommended,
        page: Page {
            limit: MAX_LIMIT,
            offset,
        },
        ..DealsQuery::default()
    }
}

/// The drops list's order on the site, every page's versions at once:
/// the API's, with the drops that return to a price of the 30 days before
/// after the cuts. `None` for the other lists (the API's order, page by
/// page).
fn site_order(site: &Site, list: &DealList) -> anyhow::Result<Option<Vec<u32>>> {
    if list.kind != DealKind::PriceDrops {
        return Ok(None);
    }
    let mut positions = Vec::new();
    let mut offset = 0;
    loop {
        let data = find_deals(site.index, &page_query(list, offset))?.data;
        positions.extend(data.vehicles.iter().map(|v| v.position));
        match data.pagination.next_offset {
            Some(next) => offset = u32::try_from(next)?,
            None => break,
        }
    }
    positions.sort_by_key(|position| {
        let vehicle = &site.catalogue.vehicles[*position as usize];
        super::cards::returns_to_earlier_price(vehicle, Window::D7)
    });
    Ok(Some(positions))
}

fn write_list(site: &Site, list: &DealList) -> anyhow::Result<Vec<SitemapEntry>> {
    let mut pages = Vec::new();
    let catalogue = site.index.catalogue_data();
    let types = body_types(site);
    let order = site_order(site, list)?;
    let mut offset = 0;
    loop {
        let data = find_deals(site.index, &page_query(list, offset))?.data;
        let number = pages.len() + 1;
        let pagination = &data.pagination;
        // "Seguir esta lista": the list's search feed (`composed::follow`),
        // which the edge answers.
        let follow = follow::feed_path(&PageQuery::deal_list(list.kind, None), None);
        let view = DealsView {
            lead: list.lead,
            empty: list.empty,
            total: pagination.total,
            first: offset as usize + 1,
            last: offset as usize + data.vehicles.len(),
            cards: match &order {
                Some(order) => order
                    .iter()
                    .skip(offset as usize)
                    .take(data.vehicles.len())
                    .map(|position| site.card_at(*position))
                    .collect(),
                None => data.vehicles.iter().map(|v| site.card(v)).collect(),
            },
            previous: (number > 1).then(|| page_path(list, number - 1)),
            next: pagination.next_offset.map(|_| page_path(list, number + 1)),
            others: LISTS
                .iter()
                .filter(|other| other.path != list.path)
                .map(|other| (other.path, other.title))
                .collect(),
            api: with_query(
                "/api/v1/deals",
                &DealsQuery {
                    kind: list.kind,
                    ..DealsQuery::default()
                }
                .to_spelt_out_query(),
            ),
            kind: list.param,
            follow,
            windows: other_windows(list),
            makes: &catalogue.makes,
            types: types.clone(),
        };
        let path = page_path(list, number);
        let meta = page_meta(site, list, number, &view);
        site.write_page(&meta, "deals.html", &view)?;
        pages.push(SitemapEntry::at(&path, &site.snapshot_at));
        match pagination.next_offset {
            Some(next) => offset = u32::try_from(next)?,
            None => return Ok(pages),
        }
    }
}

/// The head of page `number` of `list`: its title, description, feed and
/// breadcrumbs.
fn page_meta(site: &Site, list: &DealList, number: usize, view: &DealsView) -> PageMeta {
    let title = match number {
        1 => list.title.to_owned(),
        n => format!("{}, página {n}", list.title),
    };
    PageMeta {
        path: page_path(list, number),
        title: title.clone(),
        description: format!("{} {} versiones.", list.lead, view.total),
        feed: Some((
            site.index.links().absolute(&view.follow),
            format!("Seguir: {}", list.title),
        )),
        crumbs: if list.path == "/ofertas" && number == 1 {
            crumbs(&[("/", "Inicio")], "Ofertas")
        } else {
            crumbs(&[("/", "Inicio"), ("/ofertas", "Ofertas")], &title)
        },
        ..PageMeta::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_has_the_list_path_and_the_others_a_number() {
        let list = &LISTS[1];
        assert_eq!(page_path(list, 1), "/ofertas/bajas");
        assert_eq!(page_path(list, 2), "/ofertas/bajas/2");
        assert_eq!(page_path(&LISTS[0], 3), "/ofertas/3");
    }
}
