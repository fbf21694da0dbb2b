//! Render stage, version pages: one page per published version at its
//! canonical `url` (`/versiones/{encoded id}`), with the lowest quote in its
//! original currency and in dollars, every current quote, the comparison
//! with the usual price in words, the price-history chart, recent changes,
//! catalogue facts, the sourced specifications and a schema.org Product; and
//! beside it its Atom data feed and the chart's data as `historial.csv`.

use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;

use super::cards::{PriceView, change_text, comparison_in, price_view, shown_in};
use super::chart::{Chart, ChartData, render_chart};
use super::feeds::SitemapEntry;
use super::format::{UNKNOWN, ars, date_time, price, units};
use super::labels;
use super::specs::{SourceView, SpecGroup, sources, spec_groups};
use super::version_feed::write_version_feed;
use super::{PageMeta, Site, json_for_script, safe_href};
use crate::api::links::{Links, percent_encode};
use crate::catalogue::{Quote, Vehicle};
use crate::render::datos::tables::semanas;
use crate::render::datos::{CSV, HISTORY_CSV};
use crate::time::format_time;
use crate::vocab::{Currency, Window};

/// A quote as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct QuoteView {
    /// Price in its original currency.
    pub price: String,
    /// `ARS` or `USD`.
    pub currency: &'static str,
    /// USD equivalent.
    pub price_usd: String,
    /// Freight and paperwork.
    pub fees: &'static str,
    /// Colour.
    pub color: String,
    /// Units in stock.
    pub stock: String,
    /// Dealer location.
    pub location: String,
    /// Dealer identifier.
    pub seller: String,
}

/// A catalogue fact with its source kind.
#[derive(Debug, Clone, Serialize)]
struct Fact {
    label: &'static str,
    value: String,
    source: Option<String>,
}

/// The recent change of one window.
#[derive(Debug, Clone, Serialize)]
struct ChangeRow {
    window: &'static str,
    text: Option<String>,
}

/// The specification record as shown.
#[derive(Debug, Clone, Serialize)]
struct SpecsView {
    collected_at: String,
    source_label: Option<String>,
    groups: Vec<SpecGroup>,
    sources: Vec<SourceView>,
}

/// Everything the version template shows.
#[derive(Debug, Clone, Serialize)]
struct VersionView {
    id: String,
    make: String,
    model: String,
    trim: String,
    make_path: String,
    model_path: String,
    price_usd: String,
    price: PriceView,
    comparison: String,
    opportunity: bool,
    badges: Vec<labels::Badge>,
    typical: String,
    lowest: String,
    observed_weeks: u32,
    sufficient_history: bool,
    observed_at: String,
    observed_iso: String,
    exchange_rate: String,
    quotes: Vec<QuoteView>,
    changes: Vec<ChangeRow>,
    facts: Vec<Fact>,
    specs: Option<SpecsView>,
    chart: Option<Chart>,
    source_url: Option<String>,
    api_url: String,
    feed_path: String,
    history_csv: String,
}

/// Writes every version page and data feed; returns the pages for the sitemap.
pub fn write_versions(site: &Site) -> anyhow::Result<Vec<SitemapEntry>> {
    site.vehicles()
        .par_iter()
        .map(|vehicle| {
            let path = Links::vehicle_path(&vehicle.id);
            write_version_page(site, vehicle, &path)?;
            write_version_feed(site, vehicle, &path)?;
            write_history_csv(site, vehicle, &path)?;
            Ok(SitemapEntry {
                path,
                lastmod: Some(format_time(vehicle.observed_at)),
            })
        })
        .collect()
}

/// Writes `<path>/historial.csv`: the weekly averages the chart draws, as
/// the bulk `semanas` table has them for this version (a header alone when
/// the version has no history in the window).
fn write_history_csv(site: &Site, vehicle: &Vehicle, path: &str) -> anyhow::Result<()> {
    let url = format!("{path}/{HISTORY_CSV}");
    let file = url.trim_start_matches('/').to_owned();
    let csv = semanas([vehicle]).to_csv();
    site.out.write(&url, &file, CSV, csv.as_bytes())
}

fn write_version_page(site: &Site, vehicle: &Vehicle, path: &str) -> anyhow::Result<()> {
    let links = site.index.links();
    let view = view(site, vehicle, path);
    let name = format!("{} {} {}", view.make, view.model, view.trim);
    let meta = PageMeta {
        path: path.to_owned(),
        title: name.clone(),
        description: format!(
            "{name}: precio de contado desde {} en {} de concesionarias al {}, comparado con su \
             precio habitual, con historial de precios y ficha técnica con fuentes.",
            view.price.lead,
            units_of_quotes(vehicle.quote_count),
            super::format::date(vehicle.observed_at)
        ),
        jsonld: Some(json_for_script(&product(site, vehicle, &name, path))),
        feed: Some((links.absolute(&view.feed_path), format!("Datos de {name}"))),
        crumbs: vec![
            (Some("/".to_owned()), "Inicio".to_owned()),
            (Some("/modelos".to_owned()), "Modelos".to_owned()),
            (Some(view.make_path.clone()), view.make.clone()),
            (Some(view.model_path.clone()), view.model.clone()),
            (None, view.trim.clone()),
        ],
        ..PageMeta::default()
    };
    site.write_page(&meta, "version.html", &view)
}

fn units_of_quotes(count: usize) -> String {
    if count == 1 {
        "1 precio".to_owned()
    } else {
        format!("{count} precios")
    }
}

fn view(site: &Site, vehicle: &Vehicle, path: &str) -> VersionView {
    let links = site.index.links();
    let model_path = links.model_path(&vehicle.make, &vehicle.model);
    let comparison = &vehicle.comparison;
    let rate = vehicle.exchange_rate;
    let shown_in = shown_in(vehicle.best_quote.as_ref(), &vehicle.exchange_rate);
    let current_shown = match &vehicle.best_quote {
        Some(quote) if quote.currency == shown_in.0 => quote.price,
        _ => vehicle.current_price_usd * shown_in.1,
    };
    let shown = |usd: f64| price(usd * shown_in.1, shown_in.0);
    VersionView {
        id: vehicle.id.clone(),
        make: vehicle.make.clone(),
        model: vehicle.model.clone(),
        trim: labels::trim(&vehicle.trim, vehicle.trim_display.as_deref()),
        make_path: super::catalogue_pages::make_path(&model_path),
        model_path,
        price_usd: price(vehicle.current_price_usd, Currency::Usd),
        price: price_view(
            vehicle.best_quote.as_ref(),
            vehicle.current_price_usd,
            &vehicle.exchange_rate,
        ),
        comparison: comparison_in(vehicle.current_price_usd, comparison, shown_in),
        opportunity: comparison.opportunity,
        badges: labels::badges(&vehicle.reasons),
        typical: comparison
            .typical_price_usd
            .map_or(UNKNOWN.to_owned(), &shown),
        lowest: comparison
            .lowest_price_usd
            .map_or(UNKNOWN.to_owned(), shown),
        observed_weeks: comparison.observed_weeks,
        sufficient_history: comparison.sufficient_history,
        observed_at: date_time(vehicle.observed_at),
        observed_iso: format_time(vehicle.observed_at),
        exchange_rate: match rate.ars_per_usd {
            Some(rate_value) => format!(
                "{} por dólar, observado el {}",
                ars(rate_value),
                date_time(rate.observed_at)
            ),
            None => "sin dato (el control vio sólo precios en dólares)".to_owned(),
        },
        quotes: vehicle.quotes.iter().map(quote_view).collect(),
        changes: Window::ALL
            .iter()
            .map(|window| ChangeRow {
                window: labels::window(*window),
                text: vehicle.recent_changes.get(*window).map(change_text),
            })
            .collect(),
        facts: facts(vehicle),
        specs: vehicle.specs.as_ref().map(|specs| SpecsView {
            collected_at: super::format::document_date(&specs.collected_at),
            source_label: specs.source_label.clone(),
            groups: spec_groups(specs),
            sources: sources(specs),
        }),
        chart: render_chart(&ChartData {
            history: &vehicle.history,
            typical_usd: comparison.typical_price_usd,
            lowest_usd: comparison.lowest_price_usd,
            current_usd: vehicle.current_price_usd,
            current_shown,
            observed_at: vehicle.observed_at,
            shown_in,
        }),
        source_url: safe_href(&vehicle.source_url),
        api_url: format!("/api/v1/vehicles/{}", percent_encode(&vehicle.id)),
        feed_path: format!("{path}/feed.xml"),
        history_csv: format!("{path}/{HISTORY_CSV}"),
    }
}

fn quote_view(quote: &Quote) -> QuoteView {
    let unknown = || UNKNOWN.to_owned();
    QuoteView {
        price: price(quote.price, quote.currency),
        currency: quote.currency.as_str(),
        price_usd: price(quote.price_usd, Currency::Usd),
        fees: match quote.fees_included {
            Some(true) => "Incluidos",
            Some(false) => "No incluidos",
            None => UNKNOWN,
        },
        color: quote.color.clone().unwrap_or_else(unknown),
        stock: quote.stock.map_or_else(unknown, units),
        location: quote.location.clone().unwrap_or_else(unknown),
        seller: quote.seller_id.clone().unwrap_or_else(unknown),
    }
}

fn facts(vehicle: &Vehicle) -> Vec<Fact> {
    let known = |value: Option<String>| value.unwrap_or_else(|| UNKNOWN.to_owned());
    let source = |key: &str| {
        vehicle
            .fact_sources
            .get(key)
            .map(|kind| labels::fact_source(kind))
    };
    let fact = |label, key: &str, value| Fact {
        label,
        value: known(value),
        source: source(key),
    };
    vec![
        fact(
            "Carrocería",
            "type",
            vehicle.body_type.map(|v| labels::body_type(v).to_owned()),
        ),
        fact(
            "Combustible",
            "fuel",
            vehicle.fuel.map(|v| labels::fuel(v).to_owned()),
        ),
        fact(
            "Transmisión",
            "transmission",
            vehicle
                .transmission
                .map(|v| labels::transmission(v).to_owned()),
        ),
        fact(
            "Tracción",
            "drivetrain",
            vehicle.drivetrain.map(|v| labels::drivetrain(v).to_owned()),
        ),
        fact("Asientos", "seats", vehicle.seats.map(|v| v.to_string())),
        fact("Airbags", "airbags", vehicle.airbags.map(|v| v.to_string())),
        fact("Segmento", "tier", vehicle.tier_label.clone()),
    ]
}

/// The schema.org Product with its lowest current offer.
fn product(site: &Site, vehicle: &Vehicle, name: &str, path: &str) -> serde_json::Value {
    let url = site.index.links().absolute(path);
    let (price, currency) = match &vehicle.best_quote {
        Some(quote) => (quote.price, quote.currency.as_str()),
        None => (vehicle.current_price_usd, "USD"),
    };
    // Whole amounts as integers: `25300`, not `25300.0`.
    let price = if price.fract() == 0.0 && price.abs() < 9.0e15 {
        json!(price as i64)
    } else {
        json!(price)
    };
    json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": name,
        "brand": {"@type": "Brand", "name": vehicle.make},
        "model": vehicle.model,
        "sku": vehicle.id,
        "url": url,
        "offers": {
            "@type": "Offer",
            "price": price,
            "priceCurrency": currency,
            "availability": "https://schema.org/InStock",
            "itemCondition": "https://schema.org/NewCondition",
            "url": url,
        },
    })
}
