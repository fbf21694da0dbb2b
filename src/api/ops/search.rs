//! API stage, `search_vehicles` (`GET /api/v1/vehicles`): versions that
//! match the shared filters, in a chosen order, a page at a time.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::json::{to_json_bytes, to_json_bytes_about};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::typed::typed_query;
use crate::api::params::{Args, TypedQuery, search_query};
use crate::api::query::{Operation, SearchQuery};
use crate::api::types::{Brief, Envelope, Listed, Pagination, Summary, list_headline};
use crate::vocab::Window;

/// The operation.
#[derive(Debug)]
pub struct SearchVehicles;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Search,
    name: "search_vehicles",
    http: Some(Http {
        path: "/api/v1/vehicles",
        tag: "vehicles",
        summary: "Search vehicle versions",
        description: "Versions matching the shared search filters, cheapest first by \
        default; ties break by ID. Follow pagination.nextOffset until it is null, and \
        restart at offset 0 if snapshotAt changes between pages.",
        body: "SearchResponse",
        not_found: false,
        cdn: Cdn::Edge,
        fixed_at_load: true,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Search vehicles",
        description: "Search the published new-car versions in Argentina with filters (words, make, model, body type, fuel, \
         transmission, price range in USD or in pesos, seats, airbags, drivetrain, AEB, specifications, discount), \
         a sort order and paging. Returns the same JSON as GET /api/v1/vehicles: an envelope whose data holds \
         vehicles (summaries) and pagination. currentPriceUsd is the dealer quote at its own check; \
         recentChanges prices are catalogue prices at today's rate.",
    }),
};

/// `GET /api/v1/vehicles`: a page of versions (`V`: a Summary, or a
/// version in brief).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Search",
    deny_unknown_fields,
    description = "A page of search results."
)]
pub struct SearchData<V> {
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<V>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/vehicles`.
pub fn search_vehicles<'a>(
    index: &'a Index,
    query: &SearchQuery,
) -> Result<Envelope<SearchData<Listed<'a>>>, ApiError> {
    let selection = index.select(&query.filters, query.opportunities_only == Some(true));
    let (page, pagination) = index
        .orders()
        .search(query.sort)
        .page(&selection, query.page);
    Ok(index.envelope(SearchData {
        vehicles: page.into_iter().map(|p| index.summary(p)).collect(),
        pagination,
    }))
}

// Its query read and written by its rows of the parameter table.
typed_query!(SearchQuery: Operation::Search, filters in filters; Search(), Page(page));

impl Op for SearchVehicles {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        search_query(args).map(|query| Question::new(SPEC.operation, query))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<SearchData<Listed<'static>>>>();
    }

    fn briefs(&self) -> bool {
        true
    }
}

impl Asked for SearchQuery {
    fn key(&self) -> String {
        self.to_query()
    }

    fn answer(&self, index: &Index, brief: bool) -> Result<Reply, ApiError> {
        let full = search_vehicles(index, self)?;
        let headline = list_headline(
            SPEC.name,
            "matching versions",
            &full.data.pagination,
            full.data.vehicles.len(),
        );
        let bytes = match brief {
            false => to_json_bytes_about(&full, Listed::json_len(&full.data.vehicles)),
            true => to_json_bytes(&full.map(|data| SearchData {
                vehicles: Brief::all(&data.vehicles, Window::D7),
                pagination: data.pagination,
            })),
        };
        Ok(Reply::json(bytes, headline))
    }
}
