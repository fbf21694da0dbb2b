//! API stage, the market's answers: `GET /api/v1/reports` (the months),
//! `GET /api/v1/reports/{month}` (a month's report) and the series of
//! `GET /api/v1/series`, all computed by `generate` (`market`,
//! `render::informes`) and held by the edge as the bytes the site's files
//! hold (`/informes/informes.json`, `/informes/AAAA-MM/informe.json`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::series::SeriesTable;

/// Where `generate` writes [`MarketData`] for the edge.
pub const MARKET_FILE_PATH: &str = "/_edge/market.msgpack";

/// What the market operations answer from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MarketData {
    /// `GET /api/v1/reports`, as JSON text.
    pub list: String,
    /// `GET /api/v1/reports/{month}` as JSON text, by `AAAA-MM`.
    pub reports: BTreeMap<String, String>,
    /// The latest month whose report is final.
    pub latest_final: Option<String>,
    /// The monthly series.
    pub series: SeriesTable,
}
