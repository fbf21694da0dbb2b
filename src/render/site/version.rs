//! Render stage, version pages: one page per published version at its
//! canonical `url` (`/versiones/{encoded id}`), with the lowest quote in its
//! original currency and in dollars, every current quote, the comparison
//! with the usual price in words, the price-history chart, recent changes,
//! catalogue facts, the sourced specifications and a schema.org Product; and
//! beside it its Atom data feed and the chart's data as `historial.csv`.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;

mod buyer;
mod tables;

pub use tables::QuoteView;

use super::chart::{Chart, ChartData, ChartWeek, render_chart};
use super::feeds::SitemapEntry;
use super::labels;
use super::money::{PriceView, UsualView, usual};
use super::page::{PIECE, PageMeta, Site, json_for_script, safe_href};
use super::rivals::{Rival, RivalIndex};
use super::version_feed::write_version_feed;
use crate::api::links::Links;
use crate::api::params::typed::compare_page;
use crate::catalogue::{Vehicle, week_completed};
use crate::format::{UNKNOWN, date_time, price};
use crate::time::{Time, format_time};
use crate::vocab::Currency;
use buyer::{
    AlertForm, FreightLine, PlaceRow, alert_form, freight_line, places, range_line, spread_line,
};
use tables::{ChangeRow, Fact, SpecsView, change_rows, facts, quote_view, specs_view};

/// Everything the version template shows.
#[derive(Debug, Clone, Serialize)]
struct VersionView {
    id: String,
    pick: super::cards::Pick,
    make: String,
    model: String,
    trim: String,
    make_path: String,
    model_path: String,
    price: PriceView,
    usual: UsualView,
    opportunity: bool,
    badges: Vec<labels::Badge>,
    /// The usual price in dollars (the signal's), or `sin dato`.
    typical_usd: String,
    /// Whether that usual price is provisional (history insufficient).
    provisional: bool,
    /// The usual level in pesos of a peso-quoted version.
    typical_quoted: Option<String>,
    /// The usual range in words, with sufficient history.
    range_line: Option<String>,
    /// Freight and paperwork as observed, when known.
    freight_line: Option<FreightLine>,
    /// Today's quotes in one line: their range and the dealers.
    spread_line: Option<String>,
    /// Each city's dealers and cheapest quote, the cheapest first.
    places: Vec<PlaceRow>,
    lowest: String,
    observed_weeks: u32,
    sufficient_history: bool,
    observed_at: String,
    observed_iso: String,
    quotes: Vec<QuoteView>,
    changes: Vec<ChangeRow>,
    facts: Vec<Fact>,
    specs: Option<SpecsView>,
    /// Drawn from [`chart_data`] when the page is rendered.
    chart: Option<Chart>,
    source_url: Option<String>,
    api_url: String,
    feed_path: String,
    /// The alert form: a feed of this version at the buyer's price.
    alert: AlertForm,
    history_csv: String,
    /// "Con la misma plata": other models of its body type at its price.
    rivals: Vec<Arc<Rival>>,
    /// The comparison of this version with its rivals, at today's prices.
    rivals_compare: Option<String>,
    /// Its body type in words, for that section.
    body: Option<&'static str>,
}

/// Name of the file beside each version page with its chart's data (written
/// with the data downloads, `render::datos`).
pub const HISTORY_CSV: &str = "historial.csv";

/// Writes every version page and data feed; returns the pages for the sitemap.
pub fn write_versions(site: &Site) -> anyhow::Result<Vec<SitemapEntry>> {
    let rivals = RivalIndex::new(site.vehicles());
    site.vehicles()
        .par_iter()
        .with_max_len(PIECE)
        .map(|vehicle| {
            let path = Links::vehicle_path(&vehicle.id);
            write_version_page(site, vehicle, &path, &rivals)?;
            write_version_feed(site, vehicle, &path)?;
            Ok(SitemapEntry {
                path,
                lastmod: Some(format_time(vehicle.observed_at)),
            })
        })
        .collect()
}

fn write_version_page(
    site: &Site,
    vehicle: &Vehicle,
    path: &str,
    rivals: &RivalIndex,
) -> anyhow::Result<()> {
    let links = site.index.links();
    let mut view = view(site, vehicle, path);
    let chart = chart_data(vehicle, site.index.meta().catalogue_observed_at);
    view.rivals = rivals.of(vehicle);
    if !view.rivals.is_empty() {
        let ids: Vec<&str> = std::iter::once(vehicle.id.as_str())
            .chain(view.rivals.iter().map(|rival| rival.id.as_str()))
            .collect();
        view.rivals_compare = Some(compare_page(&ids));
    }
    let name = format!("{} {} {}", view.make, view.model, view.trim);
    let meta = PageMeta {
        path: path.to_owned(),
        title: name.clone(),
        description: format!(
            "{name}: precio de contado desde {} en {} de concesionarias al {}, comparado con su \
             precio habitual, con historial de precios y ficha técnica con fuentes.",
            view.price.lead,
            units_of_quotes(vehicle.quote_count),
            crate::format::date(vehicle.observed_at)
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
    // The page is keyed on the chart's data and on the specifications as
    // the snapshot has them; the chart is drawn and the specifications'
    // table is put in words (much of a kept page's cost) only when the
    // page is rendered. Both are functions of
    // those inputs alone, and this program is part of every page's key.
    let specs = vehicle.specs.as_deref();
    site.write_page_with(&meta, "version.html", &(&view, &chart, specs), || {
        VersionView {
            chart: render_chart(&chart),
            specs: specs.map(specs_view),
            ..view.clone()
        }
    })
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
    let model_path = links.model_path(&vehicle.identity.make, &vehicle.identity.model);
    let comparison = &vehicle.comparison;
    let quoted = vehicle.quoted.as_ref();
    let lowest = match (quoted, comparison.lowest_price_usd) {
        (Some(quoted), _) => price(quoted.lowest, quoted.currency),
        (None, Some(lowest)) => price(lowest, Currency::Usd),
        (None, None) => UNKNOWN.to_owned(),
    };
    VersionView {
        id: vehicle.id.clone(),
        pick: super::cards::Pick::of(vehicle),
        make: vehicle.identity.make.clone(),
        model: vehicle.identity.model.clone(),
        trim: labels::trim(
            &vehicle.identity.trim,
            vehicle.identity.trim_display.as_deref(),
        ),
        make_path: super::catalogue_pages::make_path(&model_path),
        model_path,
        price: site.money.price(vehicle),
        usual: usual(vehicle),
        opportunity: comparison.opportunity,
        badges: labels::badges(&vehicle.reasons),
        typical_usd: comparison
            .typical_price_usd
            .map_or(UNKNOWN.to_owned(), |usd| price(usd, Currency::Usd)),
        provisional: comparison.typical_price_usd.is_some() && !comparison.sufficient_history,
        typical_quoted: quoted
            .filter(|quoted| quoted.currency == Currency::Ars)
            .map(|quoted| price(quoted.typical, quoted.currency)),
        lowest,
        range_line: range_line(vehicle),
        freight_line: freight_line(vehicle, &site.money),
        spread_line: spread_line(vehicle),
        places: places(vehicle),
        observed_weeks: comparison.observed_weeks,
        sufficient_history: comparison.sufficient_history,
        observed_at: date_time(vehicle.observed_at),
        observed_iso: format_time(vehicle.observed_at),
        quotes: vehicle
            .quotes
            .iter()
            .map(|quote| quote_view(quote, &site.money))
            .collect(),
        changes: change_rows(vehicle),
        facts: facts(vehicle),
        // Put in words when the page is rendered (`write_version_page`).
        specs: None,
        chart: None,
        source_url: safe_href(&vehicle.identity.source_url),
        api_url: Links::vehicle_api_path(&vehicle.id),
        feed_path: format!("{path}/feed.xml"),
        alert: alert_form(vehicle),
        history_csv: format!("{path}/{HISTORY_CSV}"),
        rivals: Vec::new(),
        rivals_compare: None,
        body: vehicle.identity.body_type.map(labels::body_type),
    }
}

/// The chart's data, from the version's weekly history (what the API
/// publishes as `history.weeks`), its completed weeks by `at` (the
/// catalogue check) and the current price: in the quoted currency when
/// every quote of the window is in one, else in dollars (the signal's own
/// figures), saying so.
fn chart_data(vehicle: &Vehicle, at: Time) -> ChartData {
    let comparison = &vehicle.comparison;
    let quoted = vehicle.quoted.as_ref();
    let in_pesos = quoted.is_some_and(|quoted| quoted.currency == Currency::Ars);
    let weeks: Vec<ChartWeek> = vehicle
        .history
        .iter()
        .filter(|week| week_completed(week.week_start, at))
        .filter_map(|week| {
            Some(ChartWeek {
                week_start: week.week_start,
                average: match quoted {
                    Some(_) => week.price?,
                    None => week.price_usd,
                },
                average_usd: in_pesos.then_some(week.price_usd),
            })
        })
        .collect();
    match quoted {
        Some(quoted) => ChartData {
            weeks,
            currency: quoted.currency,
            typical: Some((
                quoted.typical,
                if in_pesos {
                    "Precio habitual en pesos"
                } else {
                    "Precio habitual"
                },
            )),
            lowest: Some(quoted.lowest),
            current: quoted.current,
            observed_at: vehicle.observed_at,
            unit: format!(
                "en {}, como cotizaron las concesionarias",
                if in_pesos { "pesos" } else { "dólares" }
            ),
        },
        None => ChartData {
            weeks,
            currency: Currency::Usd,
            typical: comparison
                .typical_price_usd
                .map(|typical| (typical, "Precio habitual")),
            lowest: comparison.lowest_price_usd,
            current: vehicle.current_price_usd,
            observed_at: vehicle.observed_at,
            unit: "en dólares al cambio de cada control (las concesionarias cotizaron en \
                   pesos y en dólares)"
                .to_owned(),
        },
    }
}

/// The schema.org Product, with its lowest current offer unless the
/// snapshot is synthetic.
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
    let mut product = json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": name,
        "brand": {"@type": "Brand", "name": vehicle.identity.make},
        "model": vehicle.identity.model,
        "sku": vehicle.id,
        "url": url,
    });
    // Invented prices are never published as offers.
    if !site.money.synthetic {
        product["offers"] = json!({
            "@type": "Offer",
            "price": price,
            "priceCurrency": currency,
            "availability": "https://schema.org/InStock",
            "itemCondition": "https://schema.org/NewCondition",
            "url": url,
        });
    }
    product
}
