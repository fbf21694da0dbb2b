//! API stage, `get_market_report` (`GET /api/v1/reports/{month}`): the
//! market in one calendar month, as `generate` wrote it
//! (`market`, `render::informes`); MCP's tool without a month answers the
//! latest final one.

use schemars::SchemaGenerator;
use serde::Deserialize;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::{ApiError, ErrorDetail, Missing};
use crate::api::index::Index;
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::{Args, optional_text};
use crate::api::problem::Problem;
use crate::api::query::Operation;
use crate::api::reports::MarketData;
use crate::api::types::Envelope;
use crate::api::types::report::Report;
use crate::month::ArMonth;

/// The operation.
#[derive(Debug)]
pub struct GetMarketReport;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Report,
    name: "get_market_report",
    http: Some(Http {
        path: "/api/v1/reports/{month}",
        tag: "market",
        summary: "The market in one month",
        description: "How much new-car dealer prices changed in one calendar month \
        (Argentine time), in pesos and in dollars (a Jevons index over the versions priced \
        in both months, by body type and make; no number under 5 versions), the reference \
        dollar, the 10 cheapest versions, the largest rises and falls, dealer quotes against \
        the listing site's catalogue price, and coverage. A malformed month gives 400; a \
        month the publication does not cover gives 404. A final month's answer is the same \
        bytes in every later publication; its envelope carries the month's own times.",
        body: "ReportResponse",
        not_found: true,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Get a monthly market report",
        description: "The new-car market in one calendar month in Argentina: how much dealer prices changed in pesos \
         and in dollars (an index over the versions priced in both months, by body type and make), the reference \
         dollar, the 10 cheapest versions, the largest rises and falls, dealer quotes against the listing site's \
         catalogue price, and coverage. month is AAAA-MM; without it, the latest final month. Same JSON as \
         GET /api/v1/reports/{month}; the first text line is the report's headline.",
    }),
};

/// The month asked for, as given (checked when answered); `None` (MCP
/// only) asks for the latest final month.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthAsked(pub Option<String>);

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

/// What a headline reads of a report: its own headline, the sentence to
/// quote.
#[derive(Deserialize)]
struct Headed {
    data: HeadedData,
}

#[derive(Deserialize)]
struct HeadedData {
    headline: Headline,
}

#[derive(Deserialize)]
struct Headline {
    text: String,
}

impl Op for GetMarketReport {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        optional_text(args).map(|month| Question::new(SPEC.operation, MonthAsked(month)))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<Report>>();
    }
}

impl Asked for MonthAsked {
    /// The month as given, and whether none was (MCP's latest final).
    fn key(&self) -> String {
        match &self.0 {
            Some(month) => format!("0{month}"),
            None => "1".to_owned(),
        }
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let market = index.market();
        let month = self
            .0
            .as_deref()
            .or_else(|| default_month(market))
            .unwrap_or("");
        let bytes = get_report(market, month)?;
        let headline = match serde_json::from_slice::<Headed>(&bytes) {
            Ok(headed) => format!("{}: {}", SPEC.name, headed.data.headline.text),
            Err(_) => format!("{}: answered.", SPEC.name),
        };
        Ok(Reply::json(bytes, headline))
    }
}
