//! Render stage, query pages: `/buscar` (a GET form whose field names are
//! the API's parameters) and `/comparar` (shareable as `/comparar?ids=a,b`),
//! the pages the edge fills in for a query (`crate::composed`, with the
//! fragments of `fragments.rs`); and the HTML 404 page.

use serde::Serialize;

use super::catalogue_pages::crumbs;
use super::feeds::SitemapEntry;
use super::{PageMeta, Site, labels};
use crate::api::params::label;

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
}

/// Writes `/buscar`: the filter form (a GET form whose field names are the
/// API's parameters), with the slots the edge fills with the results.
pub fn write_search(site: &Site) -> anyhow::Result<SitemapEntry> {
    let catalogue = site.index.catalogue_data();
    // Each select's title is its parameter's form label (the table's).
    let filters = labels::filter_options()
        .into_iter()
        .map(|(name, options)| {
            let present = catalogue.filters.get(name);
            let choices = options
                .into_iter()
                .filter(|(value, _)| present.is_some_and(|p| p.iter().any(|v| v == value)))
                .map(|(value, label)| Choice {
                    value: value.to_owned(),
                    label: label.to_owned(),
                })
                .collect();
            (name, label(name).unwrap_or(name), choices)
        })
        .collect();
    let mut models: Vec<String> = catalogue.models.iter().map(|m| m.model.clone()).collect();
    models.sort();
    models.dedup();
    let view = SearchView {
        makes: catalogue.makes.clone(),
        models,
        filters,
    };
    let page = PageMeta {
        path: "/buscar".to_owned(),
        title: "Buscar versiones".to_owned(),
        description: "Buscá autos 0 km por marca, modelo, carrocería, combustible, precio, \
                      seguridad y descuento sobre su precio habitual."
            .to_owned(),
        kind: "buscar",
        crumbs: crumbs(&[("/", "Inicio")], "Buscar"),
        ..PageMeta::default()
    };
    site.write_page(&page, "search.html", &view)?;
    Ok(SitemapEntry::at("/buscar", &site.snapshot_at))
}

/// Writes `/comparar`: the form, with the slots the edge fills with the table.
pub fn write_compare(site: &Site) -> anyhow::Result<()> {
    let page = PageMeta {
        path: "/comparar".to_owned(),
        title: "Comparar versiones".to_owned(),
        description: "Compará lado a lado precios de concesionarias, precio habitual y ficha \
                      técnica de dos a cuatro versiones de autos 0 km."
            .to_owned(),
        kind: "comparar",
        crumbs: crumbs(&[("/", "Inicio")], "Comparar"),
        ..PageMeta::default()
    };
    site.write_page(&page, "compare.html", &serde_json::json!({}))
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
