//! API stage, the market's answers: `GET /api/v1/reports` (the months),
//! `GET /api/v1/reports/{month}` (a month's report) and the series of
//! `GET /api/v1/series`, all computed by `generate` (`market`,
//! `render::informes`) and held by the edge as the bytes the site's files
//! hold (`/informes/informes.json`, `/informes/AAAA-MM/informe.json`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::error::{ApiError, ErrorDetail, Missing};
use crate::api::problem::Problem;
use crate::api::series::SeriesTable;
use crate::month::ArMonth;

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

/// `GET /api/v1/reports`.
pub fn get_reports(market: &MarketData) -> Vec<u8> {
    market.list.as_bytes().to_vec()
}

/// `GET /api/v1/reports/{month}`: a malformed month is a 400, a month
/// without a report a 404.
pub fn get_report(market: &MarketData, month: &str) -> Result<Vec<u8>, ApiError> {
    let Some(parsed) = ArMonth::parse(month) else {
        return Err(ApiError::InvalidParameters(vec![ErrorDetail::new(
            "month",
            Problem::Month,
        )]));
    };
    market
        .reports
        .get(&parsed.label())
        .map(|json| json.as_bytes().to_vec())
        .ok_or_else(|| ApiError::NotFound(Missing::Report(parsed.label())))
}

/// The month of the latest final report, else of the latest: what the
/// MCP tool answers without a month.
pub fn default_month(market: &MarketData) -> Option<&str> {
    market
        .latest_final
        .as_deref()
        .or_else(|| market.reports.keys().next_back().map(String::as_str))
}
