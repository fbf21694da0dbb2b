//! API stage, operations: one function per operation of the spec, from the
//! indexed catalogue and a typed query to a payload or an [`ApiError`]. Both
//! `generate` and the edge server call these; nothing else builds responses.
//! The queries were checked when they were parsed (`api::params`), so only
//! what needs the index is checked here: a comparison's IDs once their
//! encoded commas are read.

use crate::api::error::{ApiError, ErrorDetail, Missing};
use crate::api::index::Index;
use crate::api::index::orders::page_of;
use crate::api::operations::http_operations;
use crate::api::params::Problem;
use crate::api::params::typed::compare_page;
use crate::api::query::{
    COMPARE_IDS, CompareQuery, DealsQuery, MAX_ID_CHARS, ModelQuery, SearchQuery,
};
use crate::api::types::*;

/// `GET /api/v1`: the entry point (not enveloped).
pub fn get_api_info(index: &Index) -> ApiInfo {
    let links = index.links();
    ApiInfo {
        name: "autoprecios".to_owned(),
        version: API_VERSION,
        snapshot_at: index.meta().snapshot_at,
        documentation_url: links.documentation(),
        openapi_url: links.openapi(),
        mcp_url: links.mcp(),
        endpoints: http_operations()
            .map(|(_, http)| links.absolute(http.path))
            .collect(),
    }
}

/// `GET /api/v1/catalogue`.
pub fn get_catalogue(index: &Index) -> Envelope<&CatalogueData> {
    index.envelope(index.catalogue_data())
}

/// `GET /api/v1/vehicles`.
pub fn search_vehicles<'a>(
    index: &'a Index,
    query: &SearchQuery,
) -> Result<Envelope<SearchData<'a>>, ApiError> {
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

/// `GET /api/v1/deals`.
pub fn find_deals<'a>(
    index: &'a Index,
    query: &DealsQuery,
) -> Result<Envelope<DealsData<'a>>, ApiError> {
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

/// `GET /api/v1/models/prices`.
pub fn get_model_prices<'a>(
    index: &'a Index,
    query: &ModelQuery,
) -> Result<Envelope<ModelPricesData<'a>>, ApiError> {
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
        make: &cheapest.facts.make,
        model: &cheapest.facts.model,
        url: index
            .links()
            .model(&cheapest.facts.make, &cheapest.facts.model),
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

/// `GET /api/v1/vehicles/{id}`.
pub fn get_vehicle<'a>(index: &'a Index, id: &str) -> Result<Envelope<DetailData<'a>>, ApiError> {
    let position = index
        .find(id)
        .ok_or_else(|| ApiError::NotFound(Missing::Version(id.to_owned())))?;
    Ok(index.envelope(DetailData {
        vehicle: index.record(position),
    }))
}

/// `GET /api/v1/compare`.
pub fn compare_vehicles<'a>(
    index: &'a Index,
    query: &CompareQuery,
) -> Result<Envelope<CompareData<'a>>, ApiError> {
    let ids = compared_ids(index, query);
    let mut details = Vec::new();
    if !COMPARE_IDS.contains(&ids.len()) {
        details.push(ErrorDetail::new(
            "ids",
            Problem::IdCount {
                min: *COMPARE_IDS.start(),
                max: *COMPARE_IDS.end(),
            },
        ));
    }
    for (position, id) in ids.iter().enumerate() {
        let path = format!("ids[{position}]");
        let chars = id.chars().count();
        if chars == 0 || chars > MAX_ID_CHARS {
            let problem = Problem::TextLength {
                min: 1,
                max: MAX_ID_CHARS,
            };
            details.push(ErrorDetail::new(path, problem));
        } else if ids[..position].contains(id) {
            details.push(ErrorDetail::new(
                path,
                Problem::DuplicateId((*id).to_owned()),
            ));
        }
    }
    if !details.is_empty() {
        return Err(ApiError::InvalidParameters(details));
    }
    let vehicles = ids
        .iter()
        .map(|id| {
            index
                .find(id)
                .ok_or_else(|| ApiError::NotFound(Missing::Version((*id).to_owned())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(index.envelope(CompareData {
        vehicles: vehicles.into_iter().map(|p| index.record(p)).collect(),
        url: index.links().absolute(&compare_page(&ids)),
    }))
}

/// The IDs a comparison asks for. With [`CompareQuery::commas_separate`],
/// a list sent with every comma encoded (one item: `ids=a%2Cb`, as URL
/// builders and CDN proxies send it) that is not itself a published ID is
/// the IDs between its commas. A list with literal commas keeps its items
/// exactly, so an ID that holds commas is compared by sending it encoded
/// between literal separators.
fn compared_ids<'q>(index: &Index, query: &'q CompareQuery) -> Vec<&'q str> {
    let whole = query.ids.len() == 1;
    query
        .ids
        .iter()
        .flat_map(|item| {
            let split =
                query.commas_separate && whole && item.contains(',') && index.find(item).is_none();
            if split {
                item.split(',').collect()
            } else {
                vec![item.as_str()]
            }
        })
        .collect()
}
