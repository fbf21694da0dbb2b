//! API stage, monthly series, the table: every monthly series of a
//! publication as `generate` writes it and the edge holds it, and how an
//! asked id finds its series (a version's named when it is asked for, a
//! make's or a body type's however its name is spelt).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::text::slug;

/// Every monthly series of a publication.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesTable {
    /// Each month, `(year, month)`, consecutive, oldest first.
    pub months: Vec<(i32, u32)>,
    /// Each series by its id, but the versions'.
    pub series: BTreeMap<String, Series>,
    /// Each version's monthly price, pesos and dollars, by version ID (a
    /// version's series, `version.{id}.ars` and `.usd`, is named and
    /// described when it is asked for: tens of thousands of versions would
    /// otherwise hold their words in every edge).
    pub versions: BTreeMap<String, [Vec<Option<f64>>; 2]>,
    /// Where the numbers come from (the site), for the metadata.
    pub source: String,
}

/// One monthly series.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Short name, the CSV header with `header=titles`.
    pub title: String,
    /// What it measures, the header with `header=descriptions`.
    pub description: String,
    /// Its unit.
    pub units: String,
    /// Its value in each month, as published (rounded).
    pub values: Vec<Option<f64>>,
    /// An index's relative to the month before, each month: its
    /// `percent_change` is the report's own change, published even where
    /// the chained level is not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Option<f64>>,
}

/// The series of `id`: exactly, or an index of a make or a body type whose
/// name is spelt another way (`Citroën`, `citroen`: the ids are slugs).
pub(super) fn lookup<'a>(table: &'a SeriesTable, id: &str) -> Option<Cow<'a, Series>> {
    if let Some(series) = table.series.get(id) {
        return Some(Cow::Borrowed(series));
    }
    if let Some(version) = id.strip_prefix("version.") {
        let (version, currency) = version.rsplit_once('.')?;
        let (at, unit, words) = match currency {
            "ars" => (0, "Pesos", "pesos"),
            "usd" => (1, "Dólares", "dólares"),
            _ => return None,
        };
        let values = table.versions.get(version)?[at].clone();
        return Some(Cow::Owned(Series {
            title: format!("precio_{}_{}", slug(version).replace('-', "_"), currency),
            description: format!(
                "Precio mensual de concesionaria de la versión {version} (promedio ponderado por tiempo), en {words}"
            ),
            units: unit.to_owned(),
            values,
            links: Vec::new(),
        }));
    }
    let (group, rest) = id
        .strip_prefix("indice.marca.")
        .map(|r| ("indice.marca.", r))
        .or_else(|| id.strip_prefix("indice.tipo.").map(|r| ("indice.tipo.", r)))?;
    let (name, currency) = rest.rsplit_once('.')?;
    table
        .series
        .get(&format!(
            "{group}{}.{}",
            slug(name),
            currency.to_ascii_lowercase()
        ))
        .map(Cow::Borrowed)
}
