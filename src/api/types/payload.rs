//! API stage, payloads: each operation's `data`.

use schemars::JsonSchema;
use serde::Serialize;

use super::record::{Listed, Summary, VehicleRecord};
use crate::api::query::{COMPARE_IDS, DealKind, MAX_LIMIT, MAX_OFFSET};
use crate::time::Time;
use crate::vocab::Window;

/// Paging facts of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct Pagination {
    /// Matches before paging.
    pub total: usize,
    /// Page size applied.
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    pub limit: u32,
    /// Records skipped.
    #[schemars(range(max = MAX_OFFSET))]
    pub offset: u32,
    /// Offset of the next page; null when there is none.
    pub next_offset: Option<usize>,
}
/// `GET /api/v1/vehicles`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Search",
    deny_unknown_fields,
    description = "A page of search results."
)]
pub struct SearchData<'a> {
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/deals`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Deals",
    deny_unknown_fields,
    description = "A page of deals."
)]
pub struct DealsData<'a> {
    /// Kind of list.
    pub kind: DealKind,
    /// Window applied.
    pub window: Window,
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// Oldest and newest quote check of a model's versions.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct QuoteDates {
    /// Oldest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub oldest: Time,
    /// Newest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub newest: Time,
}

/// `GET /api/v1/models/prices`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "ModelPrices",
    deny_unknown_fields,
    description = "Prices of one model; totals cover every version, not only the page."
)]
pub struct ModelPricesData<'a> {
    /// Make as the catalogue writes it.
    pub make: &'a str,
    /// Model as the catalogue writes it.
    pub model: &'a str,
    /// Model page.
    #[schemars(url)]
    pub url: String,
    /// Lowest current price of any version.
    pub from_price_usd: f64,
    /// Highest current price of any version.
    pub to_price_usd: f64,
    /// Published versions.
    pub version_count: usize,
    /// Current opportunities.
    pub opportunity_count: usize,
    /// The cheapest version.
    #[schemars(with = "Summary<'static>")]
    pub cheapest_version: Listed<'a>,
    /// Quote check dates.
    pub quote_dates: QuoteDates,
    /// The page of versions, cheapest first.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/vehicles/{id}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Detail",
    deny_unknown_fields,
    description = "The full record of one version."
)]
pub struct DetailData<'a> {
    /// The version (its Vehicle record).
    #[schemars(with = "VehicleRecord<'static>")]
    pub vehicle: Listed<'a>,
}

/// `GET /api/v1/compare`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Compare",
    deny_unknown_fields,
    description = "Versions compared, in the order asked."
)]
pub struct CompareData<'a> {
    /// The versions (Vehicle records), in the order asked.
    #[schemars(
        with = "Vec<VehicleRecord<'static>>",
        length(min = *COMPARE_IDS.start(), max = *COMPARE_IDS.end())
    )]
    pub vehicles: Vec<Listed<'a>>,
    /// Shareable comparison page.
    #[schemars(url)]
    pub url: String,
}
