//! Market stage, the monthly series of `GET /api/v1/series`: each index
//! (all versions, each body type, each make; pesos and dollars) as its
//! chained level with its links, the dollar of the month, and each
//! version's monthly price, in the report's own numbers.

use std::collections::BTreeMap;

use super::index::{GroupIndex, round2};
use super::prices::MonthlyPrice;
use crate::api::series::{Series, SeriesTable};
use crate::api::text::slug;
use crate::api::types::report::{Dollar, GroupKind};
use crate::month::ArMonth;
use crate::snapshot::CpiMonth;
use crate::snapshot::Version;

/// The series of a market, by id.
pub(super) fn series_table(
    months: &[ArMonth],
    groups: &[GroupIndex],
    dollars: &[Dollar],
    cpi: &[CpiMonth],
    versions: &[Version],
    prices: &[Vec<MonthlyPrice>],
    source: String,
) -> SeriesTable {
    let mut series: BTreeMap<String, Series> = groups.iter().map(index_series).collect();
    series.insert(
        "dolar".to_owned(),
        Series {
            title: "dolar_referencia".to_owned(),
            description: "Dólar de referencia del mes: promedio ponderado por tiempo de los tipos de cambio observados en los controles de cotizaciones".to_owned(),
            units: "Pesos por dólar".to_owned(),
            values: dollars.iter().map(|d| d.ars_per_usd).collect(),
            links: Vec::new(),
        },
    );
    if !cpi.is_empty() {
        series.insert("ipc".to_owned(), cpi_series(months, cpi));
    }
    let versions = versions
        .iter()
        .zip(prices)
        .filter(|(_, prices)| prices.iter().any(|p| p.ars.is_some() || p.usd.is_some()))
        .map(|(version, prices)| {
            let values = |pick: fn(&MonthlyPrice) -> Option<f64>| {
                prices.iter().map(|p| pick(p).map(round2)).collect()
            };
            (version.id.clone(), [values(|p| p.ars), values(|p| p.usd)])
        })
        .collect();
    SeriesTable {
        months: months.iter().map(|m| (m.year, m.month)).collect(),
        series,
        versions,
        source,
    }
}

/// The series of one group's index: its ID and the series.
fn index_series(index: &GroupIndex) -> (String, Series) {
    let currency = index.currency.to_ascii_lowercase();
    // A body type's or a make's series: its kind and slug in the ID, the
    // slug again in the title.
    let of = |kind: &str, name: &str, about: String| {
        (
            format!("indice.{kind}.{}.{currency}", slug(name)),
            format!(
                "indice_0km_{}_{}",
                slug(name).replace('-', "_"),
                in_words(&currency)
            ),
            about,
        )
    };
    let (id, title, about) = match (index.group.kind, index.group.value.as_deref()) {
        (GroupKind::All, _) => (
            format!("indice.{currency}"),
            format!("indice_0km_{}", in_words(&currency)),
            "todas las versiones".to_owned(),
        ),
        (GroupKind::Type, Some(body)) => of("tipo", body, format!("carrocería {body}")),
        (_, value) => {
            let make = value.unwrap_or_default();
            of("marca", make, format!("marca {make}"))
        }
    };
    let series = Series {
        title,
        description: format!(
            "Índice de precios de concesionaria de los autos 0 km, {about}, en {} (Jevons sobre versiones emparejadas, encadenado; 100 en el primer mes)",
            if currency == "ars" {
                "pesos"
            } else {
                "dólares"
            }
        ),
        units: "Índice (primer mes = 100)".to_owned(),
        values: index.figures.iter().map(|f| f.level.map(round2)).collect(),
        links: index.links.iter().map(|link| link.relative).collect(),
    };
    (id, series)
}

/// The consumer price index as the snapshot brings it, by month.
fn cpi_series(months: &[ArMonth], cpi: &[CpiMonth]) -> Series {
    let value = |month: &ArMonth| {
        cpi.binary_search_by_key(month, |row| row.month)
            .ok()
            .map(|at| cpi[at].value)
    };
    Series {
        title: "ipc".to_owned(),
        description: "Índice de precios al consumidor, como lo trae la captura (tabla cpi)"
            .to_owned(),
        units: "Índice".to_owned(),
        values: months.iter().map(value).collect(),
        links: Vec::new(),
    }
}

/// `pesos` or `dolares`, as titles write them.
fn in_words(currency: &str) -> &'static str {
    if currency == "ars" {
        "pesos"
    } else {
        "dolares"
    }
}
