//! API stage, `get_model_prices` (`GET /api/v1/models/prices`): every
//! published version of one model, cheapest first, with totals over the
//! whole model.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::{ApiError, Missing};
use crate::api::index::Index;
use crate::api::index::orders::page_of;
use crate::api::json::{to_json_bytes, to_json_bytes_about};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::typed::typed_query;
use crate::api::params::{Args, TypedQuery, model_query};
use crate::api::query::{ModelQuery, Operation};
use crate::api::types::{Brief, Envelope, Listed, Pagination, QuoteDates, Summary, list_headline};
use crate::vocab::Window;

/// The operation.
#[derive(Debug)]
pub struct GetModelPrices;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::ModelPrices,
    name: "get_model_prices",
    http: Some(Http {
        path: "/api/v1/models/prices",
        tag: "models",
        summary: "Prices of every version of a model",
        description: "Versions are ordered by price, cheapest first. fromPriceUsd, \
        toPriceUsd, versionCount, opportunityCount, cheapestVersion and quoteDates cover \
        the whole model even when versions are paginated. Make and model match ignoring \
        case and accents; an unknown model gives 404.",
        body: "ModelPricesResponse",
        not_found: true,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Get a model's prices",
        description: "Price range and every published version of one model (spelled as in get_catalogue), \
         cheapest first. Same JSON as GET /api/v1/models/prices; an unknown model is an error.",
    }),
};

/// `GET /api/v1/models/prices` (`V`: a Summary, or a version in brief).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "ModelPrices",
    deny_unknown_fields,
    description = "Prices of one model; totals cover every version, not only the page."
)]
pub struct ModelPricesData<'a, V> {
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
    pub cheapest_version: V,
    /// Quote check dates.
    pub quote_dates: QuoteDates,
    /// The page of versions, cheapest first.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<V>,
    /// Paging.
    pub pagination: Pagination,
}

impl<'a, V> ModelPricesData<'a, V> {
    /// The same prices with each version in another form (the brief one).
    pub fn map_versions<W>(self, version: impl Fn(&V) -> W) -> ModelPricesData<'a, W> {
        ModelPricesData {
            cheapest_version: version(&self.cheapest_version),
            vehicles: self.vehicles.iter().map(&version).collect(),
            make: self.make,
            model: self.model,
            url: self.url,
            from_price_usd: self.from_price_usd,
            to_price_usd: self.to_price_usd,
            version_count: self.version_count,
            opportunity_count: self.opportunity_count,
            quote_dates: self.quote_dates,
            pagination: self.pagination,
        }
    }
}

/// `GET /api/v1/models/prices`.
pub fn get_model_prices<'a>(
    index: &'a Index,
    query: &ModelQuery,
) -> Result<Envelope<ModelPricesData<'a, Listed<'a>>>, ApiError> {
    let not_found = || {
        ApiError::NotFound(Missing::Model {
            make: query.make.clone(),
            model: query.model.clone(),
        })
    };
    let model = index
        .model(&query.make, &query.model)
        .ok_or_else(not_found)?;
    let (Some(cheapest), Some(dearest)) = (model.positions.first(), model.positions.last()) else {
        return Err(not_found());
    };
    let (cheapest, dearest) = (index.summary(*cheapest), index.summary(*dearest));
    let (page, pagination) = page_of(&model.positions, query.page);
    Ok(index.envelope(ModelPricesData {
        make: &cheapest.facts.identity.make,
        model: &cheapest.facts.identity.model,
        url: index.links().model(
            &cheapest.facts.identity.make,
            &cheapest.facts.identity.model,
        ),
        from_price_usd: cheapest.facts.current_price_usd,
        to_price_usd: dearest.facts.current_price_usd,
        version_count: model.positions.len(),
        opportunity_count: model.opportunity_count,
        cheapest_version: cheapest,
        quote_dates: QuoteDates {
            oldest: model.oldest,
            newest: model.newest,
        },
        vehicles: page.into_iter().map(|p| index.summary(p)).collect(),
        pagination,
    }))
}

// Its query read and written by its rows of the parameter table.
typed_query!(ModelQuery: Operation::ModelPrices; Model(), Page(page));

impl Op for GetModelPrices {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        model_query(args).map(|query| Question::new(SPEC.operation, query))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<ModelPricesData<'static, Listed<'static>>>>();
    }

    fn briefs(&self) -> bool {
        true
    }
}

impl Asked for ModelQuery {
    fn key(&self) -> String {
        self.to_query()
    }

    fn answer(&self, index: &Index, brief: bool) -> Result<Reply, ApiError> {
        let full = get_model_prices(index, self)?;
        let data = &full.data;
        let list = format!("versions of {} {}", data.make, data.model);
        let headline = list_headline(SPEC.name, &list, &data.pagination, data.vehicles.len());
        let bytes = match brief {
            false => to_json_bytes_about(&full, Listed::json_len(&full.data.vehicles)),
            true => to_json_bytes(
                &full.map(|data| data.map_versions(|version| Brief::of(version, Window::D7))),
            ),
        };
        Ok(Reply::json(bytes, headline))
    }
}
