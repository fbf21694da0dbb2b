//! API stage, `list_market_reports` (`GET /api/v1/reports`): every month
//! the publication covers, newest first, as `generate` wrote the list.

use schemars::SchemaGenerator;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::operations::{Cdn, Http, Spec};
use crate::api::params::{Args, no_arguments};
use crate::api::query::Operation;
use crate::api::types::Envelope;
use crate::api::types::report::Reports;

/// The operation.
#[derive(Debug)]
pub struct ListMarketReports;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Reports,
    name: "list_market_reports",
    http: Some(Http {
        path: "/api/v1/reports",
        tag: "market",
        summary: "The monthly market reports",
        description: "Every calendar month (Argentine time) the publication covers, newest \
        first: provisional for the month in progress, final once it ended, with its page \
        and its API URL. Takes no parameters.",
        body: "ReportsResponse",
        not_found: false,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: false,
    }),
    tool: None,
};

/// The list is asked without arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportsAsked;

impl Op for ListMarketReports {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        no_arguments(args).map(|()| Question::new(SPEC.operation, ReportsAsked))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<Reports>>();
    }
}

impl Asked for ReportsAsked {
    fn key(&self) -> String {
        String::new()
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let market = index.market();
        let headline = format!("{}: {} months.", SPEC.name, market.reports.len());
        Ok(Reply::json(market.list.as_bytes().to_vec(), headline))
    }
}
