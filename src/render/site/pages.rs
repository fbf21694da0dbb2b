//! Render stage, site pages other than versions: the home page with current
//! opportunities and recent drops, the catalogue pages (every make and
//! model, one page per make, one per model with every version cheapest
//! first), the search and compare shells the script fills from the API, and
//! the HTML 404 page. Lists come from the API's endpoint functions.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::cards::{Card, card};
use super::feeds::SitemapEntry;
use super::format::{date_time, usd};
use super::{PageMeta, Site, json_for_script, labels, specs};
use crate::api::endpoints::{find_deals, get_model_prices};
use crate::api::links::percent_encode;
use crate::api::query::{DealSort, DealsQuery, MAX_LIMIT, ModelQuery, Page};
use crate::api::types::{DealKind, MakeModel};
use crate::vocab::Window;

/// How many versions each home-page list shows.
const HOME_LIST: u32 = 6;

/// The make page of a model page: its parent path.
pub fn make_path(model_path: &str) -> String {
    model_path
        .rsplit_once('/')
        .map_or_else(|| model_path.to_owned(), |(parent, _)| parent.to_owned())
}

fn crumbs(trail: &[(&str, &str)], last: &str) -> Vec<(Option<String>, String)> {
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
    synthetic: bool,
    vehicle_count: usize,
    model_count: usize,
    opportunity_count: usize,
    opportunities: Vec<Card>,
    drops: Vec<Card>,
    drop_total: usize,
    makes: Vec<MakeLink>,
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
                    limit: HOME_LIST,
                    offset: 0,
                },
                ..DealsQuery::default()
            },
        )
    };
    let opportunities = deals(DealKind::Opportunities)?.data;
    let drops = deals(DealKind::PriceDrops)?.data;
    let catalogue = index.catalogue_data();
    let meta = &index.catalogue().meta;
    let view = HomeView {
        catalogue_observed: date_time(meta.catalogue_observed_at),
        synthetic: meta.synthetic,
        vehicle_count: catalogue.vehicle_count,
        model_count: catalogue.model_count,
        opportunity_count: catalogue.opportunity_count,
        opportunities: opportunities.vehicles.iter().map(card).collect(),
        drops: drops.vehicles.iter().map(card).collect(),
        drop_total: drops.pagination.total,
        makes: make_groups(site, &catalogue.models)
            .into_iter()
            .map(|group| group.link)
            .collect(),
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

/// A model in a list.
#[derive(Debug, Clone, Serialize)]
struct ModelLink {
    path: String,
    name: String,
    from_price: String,
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
        written.extend(models.iter().map(|m| SitemapEntry::at(&m.path, &site.snapshot_at)));
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
             en autoprecios, con su precio más bajo y sus oportunidades.",
            groups.len(),
            catalogue.model_count
        ),
        crumbs: crumbs(&[("/", "Inicio")], "Modelos"),
        ..PageMeta::default()
    };
    site.write_page(&page, "makes.html", &serde_json::json!({ "groups": groups }))?;
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
             con su precio más bajo y sus oportunidades.",
            group.models.len()
        ),
        crumbs: crumbs(&[("/", "Inicio"), ("/modelos", "Modelos")], name),
        ..PageMeta::default()
    };
    site.write_page(&page, "make.html", group)
}

/// Writes one model page; returns its entry for the make's list.
fn write_model_page(
    site: &Site,
    pair: &MakeModel,
    path: &str,
    make: &MakeLink,
) -> anyhow::Result<ModelLink> {
    let mut query = ModelQuery {
        make: pair.make.clone(),
        model: pair.model.clone(),
        page: Page {
            limit: MAX_LIMIT,
            offset: 0,
        },
    };
    let first = get_model_prices(site.index, &query)?.data;
    let mut versions: Vec<Card> = first.vehicles.iter().map(card).collect();
    let mut next = first.pagination.next_offset;
    while let Some(offset) = next {
        query.page.offset = u32::try_from(offset)?;
        let page = get_model_prices(site.index, &query)?.data;
        versions.extend(page.vehicles.iter().map(card));
        next = page.pagination.next_offset;
    }
    let view = ModelView {
        make: first.make.to_owned(),
        model: first.model.to_owned(),
        make_path: make.path.clone(),
        from_price: usd(first.from_price_usd),
        to_price: usd(first.to_price_usd),
        version_count: first.version_count,
        opportunity_count: first.opportunity_count,
        oldest_quote: date_time(first.quote_dates.oldest),
        newest_quote: date_time(first.quote_dates.newest),
        versions,
        api_url: format!(
            "/api/v1/models/prices?make={}&model={}",
            percent_encode(&pair.make),
            percent_encode(&pair.model)
        ),
    };
    let name = format!("{} {}", view.make, view.model);
    let page = PageMeta {
        path: path.to_owned(),
        title: format!("{name}: precios de todas las versiones"),
        description: format!(
            "{name} 0 km: {} versiones desde {} hasta {} en concesionarias de Argentina, \
             {} con precio por debajo de lo habitual.",
            view.version_count, view.from_price, view.to_price, view.opportunity_count
        ),
        crumbs: crumbs(
            &[("/", "Inicio"), ("/modelos", "Modelos"), (&make.path, &make.name)],
            &view.model,
        ),
        ..PageMeta::default()
    };
    site.write_page(&page, "model.html", &view)?;
    Ok(ModelLink {
        path: path.to_owned(),
        name: view.model,
        from_price: view.from_price,
        version_count: view.version_count,
        opportunity_count: view.opportunity_count,
    })
}

/// Labels the script needs to show API data in Spanish, as a JSON data island.
fn script_labels() -> String {
    fn map<V: Into<serde_json::Value>>(pairs: Vec<(&str, V)>) -> serde_json::Map<String, serde_json::Value> {
        pairs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.into()))
            .collect()
    }
    let mut labels_json = serde_json::Map::new();
    for (name, options) in labels::filter_options() {
        labels_json.insert(name.to_owned(), map(options).into());
    }
    let reasons = crate::vocab::Reason::ALL
        .iter()
        .map(|r| (r.as_str(), labels::reason(*r)))
        .collect();
    labels_json.insert("reasons".into(), map(reasons).into());
    labels_json.insert("specs".into(), map(specs::labels()).into());
    json_for_script(&labels_json.into())
}

#[derive(Serialize)]
struct Choice {
    value: String,
    label: String,
}

#[derive(Serialize)]
struct SearchView {
    makes: Vec<String>,
    models: Vec<String>,
    filters: Vec<(&'static str, &'static str, Vec<Choice>)>,
    labels: String,
}

/// Writes `/buscar`: the filter form (a GET form whose field names are the
/// API's parameters); the script fetches and shows the results.
pub fn write_search(site: &Site) -> anyhow::Result<SitemapEntry> {
    let catalogue = site.index.catalogue_data();
    let titles = [
        ("type", "Carrocería"),
        ("fuel", "Combustible"),
        ("transmission", "Transmisión"),
        ("drivetrain", "Tracción"),
    ];
    let filters = labels::filter_options()
        .into_iter()
        .zip(titles)
        .map(|((name, options), (_, title))| {
            let present = catalogue.filters.get(name);
            let choices = options
                .into_iter()
                .filter(|(value, _)| present.is_some_and(|p| p.iter().any(|v| v == value)))
                .map(|(value, label)| Choice {
                    value: value.to_owned(),
                    label: label.to_owned(),
                })
                .collect();
            (name, title, choices)
        })
        .collect();
    let mut models: Vec<String> = catalogue.models.iter().map(|m| m.model.clone()).collect();
    models.sort();
    models.dedup();
    let view = SearchView {
        makes: catalogue.makes,
        models,
        filters,
        labels: script_labels(),
    };
    let page = PageMeta {
        path: "/buscar".to_owned(),
        title: "Buscar versiones".to_owned(),
        description: "Buscá autos 0 km por marca, modelo, carrocería, combustible, precio, \
                      seguridad y descuento sobre su precio habitual."
            .to_owned(),
        script: true,
        kind: "buscar",
        crumbs: crumbs(&[("/", "Inicio")], "Buscar"),
        ..PageMeta::default()
    };
    site.write_page(&page, "search.html", &view)?;
    Ok(SitemapEntry::at("/buscar", &site.snapshot_at))
}

/// Writes `/comparar`: the shell the script fills from `/api/v1/compare`.
pub fn write_compare(site: &Site) -> anyhow::Result<()> {
    let page = PageMeta {
        path: "/comparar".to_owned(),
        title: "Comparar versiones".to_owned(),
        description: "Compará lado a lado precios, cotizaciones, precio habitual y ficha \
                      técnica de dos a cuatro versiones de autos 0 km."
            .to_owned(),
        script: true,
        kind: "comparar",
        crumbs: crumbs(&[("/", "Inicio")], "Comparar"),
        ..PageMeta::default()
    };
    site.write_page(
        &page,
        "compare.html",
        &serde_json::json!({ "labels": script_labels() }),
    )
}

/// Writes `/404.html`, the page for unknown site URLs.
pub fn write_not_found(site: &Site) -> anyhow::Result<()> {
    let page = PageMeta {
        path: "/404.html".to_owned(),
        title: "Página no encontrada".to_owned(),
        description: "La página que buscás no existe o la versión ya no está publicada.".into(),
        robots: Some("noindex"),
        ..PageMeta::default()
    };
    site.write_page(&page, "404.html", &serde_json::json!({}))
}
