//! API stage, `find_deals` (`GET /api/v1/deals`): current opportunities,
//! recent price drops or newly qualifying opportunities, with the shared
//! filters, a page at a time.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::json::{to_json_bytes, to_json_bytes_about};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::typed::typed_query;
use crate::api::params::{Args, TypedQuery, deals_query};
use crate::api::query::{DealKind, DealsQuery, Operation, spelling_of};
use crate::api::types::{Brief, Envelope, Listed, Pagination, Summary, list_headline};
use crate::vocab::Window;

/// The operation.
#[derive(Debug)]
pub struct FindDeals;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Deals,
    name: "find_deals",
    http: Some(Http {
        path: "/api/v1/deals",
        tag: "deals",
        summary: "Find buying opportunities",
        description: "Current opportunities, recent price drops or newly qualifying \
        opportunities, filtered by the shared search filters. `recommended` ranks \
        opportunities by discount, price drops by percentage reduction and new \
        opportunities by recency; ties break by price, then by ID. A recent-deal search \
        may legitimately return an empty list.",
        body: "DealsResponse",
        not_found: false,
        cdn: Cdn::Edge,
        fixed_at_load: true,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Find deals",
        description: "Buying opportunities: versions at least 5% below their own usual price (kind=opportunities), \
         recent catalogue price cuts (price_drops) or versions newly qualifying (new_opportunities) within \
         1d, 3d or 7d, with search_vehicles' filters. Same JSON as GET /api/v1/deals. Signals compare asking \
         prices with their history; they are not manufacturer discounts.",
    }),
};

/// `GET /api/v1/deals`: a page of deals (`V`: a Summary, or a version in
/// brief).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Deals",
    deny_unknown_fields,
    description = "A page of deals."
)]
pub struct DealsData<V> {
    /// Kind of list.
    pub kind: DealKind,
    /// Window applied.
    pub window: Window,
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<V>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/deals`.
pub fn find_deals<'a>(
    index: &'a Index,
    query: &DealsQuery,
) -> Result<Envelope<DealsData<Listed<'a>>>, ApiError> {
    let selection = index.select(&query.filters, false);
    let order = index.orders().deals(query.kind, query.window, query.sort);
    let (page, pagination) = order.page(&selection, query.page);
    Ok(index.envelope(DealsData {
        kind: query.kind,
        window: query.window,
        vehicles: page.into_iter().map(|p| index.summary(p)).collect(),
        pagination,
    }))
}

// Its query read and written by its rows of the parameter table.
typed_query!(DealsQuery: Operation::Deals, filters in filters; Deals(), Page(page));

impl Op for FindDeals {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        deals_query(args).map(|query| Question::new(SPEC.operation, query))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<DealsData<Listed<'static>>>>();
    }

    fn briefs(&self) -> bool {
        true
    }
}

impl Asked for DealsQuery {
    fn key(&self) -> String {
        self.to_query()
    }

    fn answer(&self, index: &Index, brief: bool) -> Result<Reply, ApiError> {
        let full = find_deals(index, self)?;
        let list = match self.kind {
            DealKind::Opportunities => "current opportunities".to_owned(),
            kind => format!(
                "{} within {}",
                spelling_of(&DealKind::ALL, kind).replace('_', " "),
                self.window.as_str()
            ),
        };
        let data = &full.data;
        let headline = list_headline(SPEC.name, &list, &data.pagination, data.vehicles.len());
        let bytes = match brief {
            false => to_json_bytes_about(&full, Listed::json_len(&full.data.vehicles)),
            true => to_json_bytes(&full.map(|data| DealsData {
                kind: data.kind,
                window: data.window,
                vehicles: Brief::all(&data.vehicles, data.window),
                pagination: data.pagination,
            })),
        };
        Ok(Reply::json(bytes, headline))
    }
}
