//! API stage, `get_catalogue` (`GET /api/v1/catalogue`): what is
//! published: counts, makes, models, the filter values present and the
//! current exchange rate.

use schemars::SchemaGenerator;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::json::{json_number, to_json_bytes};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::{Args, no_arguments};
use crate::api::query::Operation;
use crate::api::types::{CatalogueData, Envelope};
use crate::time::format_time;

/// The operation.
#[derive(Debug)]
pub struct GetCatalogue;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Catalogue,
    name: "get_catalogue",
    http: Some(Http {
        path: "/api/v1/catalogue",
        tag: "service",
        summary: "Catalogue overview",
        description: "Supported makes and models, the filter values present and coverage \
        counts. Takes no parameters.",
        body: "CatalogueResponse",
        not_found: false,
        cdn: Cdn::File("/api/v1/catalogue.json"),
        fixed_at_load: true,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Get the catalogue",
        description: "What is published: counts, makes, models, the filter values present and the current exchange \
         rate. Call it first to spell makes and models. Same JSON as GET /api/v1/catalogue.",
    }),
};

/// `GET /api/v1/catalogue`.
pub fn get_catalogue(index: &Index) -> Envelope<&CatalogueData> {
    index.envelope(index.catalogue_data())
}

/// The catalogue is asked without arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogueAsked;

impl Op for GetCatalogue {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        no_arguments(args).map(|()| Question::new(SPEC.operation, CatalogueAsked))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<CatalogueData>>();
    }
}

impl Asked for CatalogueAsked {
    fn key(&self) -> String {
        String::new()
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let catalogue = get_catalogue(index);
        let data = catalogue.data;
        let rate = data.exchange_rate.as_ref().map_or(String::new(), |rate| {
            format!(
                "; current observed exchange rate {} ARS per USD ({})",
                json_number(rate.ars_per_usd),
                format_time(rate.observed_at)
            )
        });
        let headline = format!(
            "{}: {} published versions of {} models, {} opportunities{rate}.",
            SPEC.name, data.vehicle_count, data.model_count, data.opportunity_count
        );
        Ok(Reply::json(to_json_bytes(&catalogue), headline))
    }
}
