//! Render stage, catalogue pages: the home page with the first current
//! opportunities, recent drops and new opportunities, `/modelos` with every make and model, one page per make
//! and one per model with every version cheapest first. Lists come from the
//! API's endpoint functions, so pages and API agree.

use crate::api::index::orders::ascending_nulls_last;
use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde::Serialize;

use super::cards::Card;
use super::feeds::SitemapEntry;
use super::page::{PageMeta, Site};
use crate::api::ops::deals::find_deals;
use crate::api::ops::model_prices::{ModelPricesData, get_model_prices};
use crate::api::params::TypedQuery;
use crate::api::params::typed::with_query;
use crate::api::query::{DealSort, DealsQuery, MAX_LIMIT, ModelQuery, Page};
use crate::api::types::{DealKind, Listed, MakeModel};
use crate::format::{date_time, price};
use crate::vocab::{Currency, Window};

/// How many versions each home-page list shows.
const HOME_LIST: u32 = 6;

/// How many of each list the home page reads to find [`HOME_LIST`] versions
/// not shown above it (the three lists together show at most 18).
const HOME_POOL: u32 = 3 * HOME_LIST;

/// The make page of a model page: its parent path.
pub fn make_path(model_path: &str) -> String {
    model_path
        .rsplit_once('/')
        .map_or_else(|| model_path.to_owned(), |(parent, _)| parent.to_owned())
}

/// Breadcrumbs: linked `trail`, then the page itself.
pub fn crumbs(trail: &[(&str, &str)], last: &str) -> Vec<(Option<String>, String)> {
    let mut crumbs: Vec<(Option<String>, String)> = trail
        .iter()
        .map(|(path, label)| (Some((*path).to_owned()), (*label).to_owned()))
        .collect();
    crumbs.push((None, last.to_owned()));
    crumbs
}

#[derive(Serialize)]
struct HomeView {
    catalogue_observed: String,
    vehicle_count: usize,
    model_count: usize,
    opportunity_count: usize,
    opportunities: Vec<Card>,
    drops: Vec<Card>,
    drop_total: usize,
    new_opportunities: Vec<Card>,
    new_total: usize,
    makes: Vec<MakeLink>,
    /// The latest final month's report: its page, month and headline.
    report: Option<(String, String, String)>,
}

/// A make in a list.
#[derive(Debug, Clone, Serialize)]
struct MakeLink {
    path: String,
    name: String,
    model_count: usize,
}

/// Writes `/`.
pub fn write_home(site: &Site) -> anyhow::Result<SitemapEntry> {
    let index = site.index;
    let deals = |kind| {
        find_deals(
            index,
            &DealsQuery {
                kind,
                window: Window::D7,
                sort: DealSort::Recommended,
                page: Page {
                    limit: HOME_POOL,
                    offset: 0,
                },
                ..DealsQuery::default()
            },
        )
    };
    let opportunities = deals(DealKind::Opportunities)?.data;
    let mut drops = deals(DealKind::PriceDrops)?.data;
    // Cuts first; a drop back to a price of the 30 days before after them
    // (the API's order is the contract's; this is the site's list).
    drops.vehicles.sort_by_key(|listed| {
        let vehicle = &site.catalogue.vehicles[listed.position as usize];
        super::cards::returns_to_earlier_price(vehicle, Window::D7)
    });
    let new_opportunities = deals(DealKind::NewOpportunities)?.data;
    let catalogue = index.catalogue_data();
    let meta = index.meta();
    // A version shows once on the home page: in the first list that has it.
    let mut seen = BTreeSet::new();
    let mut pick = |listed: &[Listed]| fresh_cards(site, listed, &mut seen);
    let view = HomeView {
        catalogue_observed: date_time(meta.catalogue_observed_at),
        vehicle_count: catalogue.vehicle_count,
        model_count: catalogue.model_count,
        opportunity_count: catalogue.opportunity_count,
        opportunities: pick(&opportunities.vehicles),
        drops: pick(&drops.vehicles),
        drop_total: drops.pagination.total,
        new_opportunities: pick(&new_opportunities.vehicles),
        new_total: new_opportunities.pagination.total,
        makes: make_groups(site, &catalogue.models)
            .into_iter()
            .map(|group| group.link)
            .collect(),
        report: site.latest_report.clone(),
    };
    let page = PageMeta {
        path: "/".to_owned(),
        title: "Inicio".to_owned(),
        full_title: Some("autoprecios: precios de autos 0 km y oportunidades en Argentina".into()),
        description: format!(
            "Precios de contado de {} versiones de autos 0 km en concesionarias de Argentina, \
             comparados con su precio habitual: {} oportunidades y las bajas de precio recientes.",
            view.vehicle_count, view.opportunity_count
        ),
        feed: Some((
            index.links().absolute("/feeds/ofertas.xml"),
            "Ofertas nuevas".to_owned(),
        )),
        ..PageMeta::default()
    };
    site.write_page(&page, "home.html", &view)?;
    Ok(SitemapEntry::at("/", &site.snapshot_at))
}

/// The first [`HOME_LIST`] cards of `listed` whose versions are not in
/// `seen`, which then holds them too.
fn fresh_cards(site: &Site, listed: &[Listed], seen: &mut BTreeSet<String>) -> Vec<Card> {
    listed
        .iter()
        .map(|v| site.card(v))
        .filter(|card| seen.insert(card.id.clone()))
        .take(HOME_LIST as usize)
        .collect()
}

/// A model in a list.
#[derive(Debug, Clone, Serialize)]
struct ModelLink {
    path: String,
    name: String,
    from_price: String,
    /// The trim of the cheapest version.
    cheapest_trim: Option<String>,
    version_count: usize,
    opportunity_count: usize,
}

/// A make with its models.
#[derive(Debug, Clone, Serialize)]
struct MakeGroup {
    link: MakeLink,
    models: Vec<ModelLink>,
}

/// Makes by page path (two spellings of one make share a page), each with
/// its models as `(make, model)` pairs.
fn make_groups(site: &Site, models: &[MakeModel]) -> Vec<MakeGroupSource> {
    let links = site.index.links();
    let mut groups: BTreeMap<String, MakeGroupSource> = BTreeMap::new();
    for pair in models {
        let model_path = links.model_path(&pair.make, &pair.model);
        let path = make_path(&model_path);
        let group = groups
            .entry(path.clone())
            .or_insert_with(|| MakeGroupSource {
                link: MakeLink {
                    path,
                    name: pair.make.clone(),
                    model_count: 0,
                },
                models: Vec::new(),
            });
        group.link.model_count += 1;
        group.models.push((pair.clone(), model_path));
    }
    groups.into_values().collect()
}

/// A make and its models before their prices are looked up.
struct MakeGroupSource {
    link: MakeLink,
    models: Vec<(MakeModel, String)>,
}

#[derive(Serialize)]
struct ModelView {
    make: String,
    model: String,
    make_path: String,
    from_price: String,
    to_price: String,
    version_count: usize,
    opportunity_count: usize,
    oldest_quote: String,
    newest_quote: String,
    versions: Vec<Card>,
    api_url: String,
}

/// Writes `/modelos`, every make page and every model page.
pub fn write_catalogue_pages(site: &Site) -> anyhow::Result<Vec<SitemapEntry>> {
    let catalogue = site.index.catalogue_data();
    let sources = make_groups(site, &catalogue.models);
    let mut groups = Vec::with_capacity(sources.len());
    let mut written = Vec::new();
    for source in sources {
        let models = source
            .models
            .par_iter()
            .map(|(pair, path)| write_model_page(site, pair, path, &source.link))
            .collect::<anyhow::Result<Vec<ModelLink>>>()?;
        written.extend(
            models
                .iter()
                .map(|m| SitemapEntry::at(&m.path, &site.snapshot_at)),
        );
        let group = MakeGroup {
            link: source.link,
            models,
        };
        write_make_page(site, &group)?;
        written.push(SitemapEntry::at(&group.link.path, &site.snapshot_at));
        groups.push(group);
    }
    let page = PageMeta {
        path: "/modelos".to_owned(),
        title: "Marcas y modelos".to_owned(),
        description: format!(
            "Las {} marcas y {} modelos de autos 0 km con precios de concesionarias publicados \
             en autoprecios, con su precio más bajo de concesionaria y sus oportunidades.",
            groups.len(),
            catalogue.model_count
        ),
        crumbs: crumbs(&[("/", "Inicio")], "Modelos"),
        ..PageMeta::default()
    };
    site.write_page(
        &page,
        "makes.html",
        &serde_json::json!({ "groups": groups }),
    )?;
    written.push(SitemapEntry::at("/modelos", &site.snapshot_at));
    Ok(written)
}

fn write_make_page(site: &Site, group: &MakeGroup) -> anyhow::Result<()> {
    let name = &group.link.name;
    let page = PageMeta {
        path: group.link.path.clone(),
        title: format!("{name}: modelos y precios 0 km"),
        description: format!(
            "Precios de contado de los {} modelos de {name} en concesionarias de Argentina, \
             con su precio más bajo de concesionaria y sus oportunidades.",
            group.models.len()
        ),
        crumbs: crumbs(&[("/", "Inicio"), ("/modelos", "Modelos")], name),
        ..PageMeta::default()
    };
    site.write_page(&page, "make.html", group)
}

/// Every version of a model, cheapest first in pesos (the order its cards
/// read in at the page's one dollar; the API's own order is in dollars at
/// each check's rate), paging through the endpoint.
fn model_prices<'a>(
    site: &Site<'a>,
    pair: &MakeModel,
) -> anyhow::Result<(ModelPricesData<'a, Listed<'a>>, Vec<Card>)> {
    let mut query = ModelQuery {
        make: pair.make.clone(),
        model: pair.model.clone(),
        page: Page {
            limit: MAX_LIMIT,
            offset: 0,
        },
    };
    let first = get_model_prices(site.index, &query)?.data;
    let mut versions: Vec<Card> = first.vehicles.iter().map(|v| site.card(v)).collect();
    let mut next = first.pagination.next_offset;
    while let Some(offset) = next {
        query.page.offset = u32::try_from(offset)?;
        let page = get_model_prices(site.index, &query)?.data;
        versions.extend(page.vehicles.iter().map(|v| site.card(v)));
        next = page.pagination.next_offset;
    }
    // Stable: equal peso prices keep the API's order.
    versions.sort_by(|a, b| ascending_nulls_last(a.price_ars, b.price_ars));
    Ok((first, versions))
}

/// Writes one model page; returns its entry for the make's list.
fn write_model_page(
    site: &Site,
    pair: &MakeModel,
    path: &str,
    make: &MakeLink,
) -> anyhow::Result<ModelLink> {
    let (first, versions) = model_prices(site, pair)?;
    // The range as the cards show it (cheapest and dearest in pesos, each
    // in the currency it was quoted in), the dollar range without cards.
    let ends = versions.first().zip(versions.last());
    let (from_price, to_price) = match ends {
        Some((cheapest, dearest)) => (cheapest.price.lead.clone(), dearest.price.lead.clone()),
        None => (
            price(first.from_price_usd, Currency::Usd),
            price(first.to_price_usd, Currency::Usd),
        ),
    };
    let cheapest_trim = versions.first().map(|card| card.trim.clone());
    let view = ModelView {
        make: first.make.to_owned(),
        model: first.model.to_owned(),
        make_path: make.path.clone(),
        from_price,
        to_price,
        version_count: first.version_count,
        opportunity_count: first.opportunity_count,
        oldest_quote: date_time(first.quote_dates.oldest),
        newest_quote: date_time(first.quote_dates.newest),
        versions,
        api_url: with_query(
            "/api/v1/models/prices",
            &ModelQuery {
                make: pair.make.clone(),
                model: pair.model.clone(),
                ..ModelQuery::default()
            }
            .to_query(),
        ),
    };
    let name = format!("{} {}", view.make, view.model);
    let page = PageMeta {
        path: path.to_owned(),
        title: format!("{name}: precios de todas las versiones"),
        description: model_description(&name, &view),
        crumbs: crumbs(
            &[
                ("/", "Inicio"),
                ("/modelos", "Modelos"),
                (&make.path, &make.name),
            ],
            &view.model,
        ),
        ..PageMeta::default()
    };
    site.write_page(&page, "model.html", &view)?;
    Ok(ModelLink {
        path: path.to_owned(),
        name: view.model,
        from_price: view.from_price,
        cheapest_trim,
        version_count: view.version_count,
        opportunity_count: view.opportunity_count,
    })
}
/// A model page's description: its versions and price range, said once
/// when there is one price, and how many are opportunities.
fn model_description(name: &str, view: &ModelView) -> String {
    let versions = match view.version_count {
        1 => format!("1 versión a {}", view.from_price),
        n if view.from_price == view.to_price => format!("{n} versiones a {}", view.from_price),
        n => format!(
            "{n} versiones desde {} hasta {}",
            view.from_price, view.to_price
        ),
    };
    let opportunities = match view.opportunity_count {
        0 => "ninguna oportunidad".to_owned(),
        1 => "1 oportunidad".to_owned(),
        n => format!("{n} oportunidades"),
    };
    format!("{name} 0 km: {versions} en concesionarias de Argentina; {opportunities}.")
}
