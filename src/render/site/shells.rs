//! Render stage, script pages: `/buscar` (a GET form whose field names are
//! the API's parameters) and `/comparar` (shareable as `/comparar?ids=a,b`),
//! static shells that the site script fills from `/api/v1/vehicles` and
//! `/api/v1/compare` with a `<noscript>` way out; and the HTML 404 page.

use serde::Serialize;

use super::feeds::SitemapEntry;
use super::pages::crumbs;
use super::{PageMeta, Site, json_for_script, labels, specs};

/// Labels the script needs to show API data in Spanish, as a JSON data island.
fn script_labels() -> String {
    fn map<V: Into<serde_json::Value>>(
        pairs: Vec<(&str, V)>,
    ) -> serde_json::Map<String, serde_json::Value> {
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
