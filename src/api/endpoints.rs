//! API stage, operations: one function per operation of the spec, from the
//! indexed catalogue and a typed query to a payload or an [`ApiError`]. Both
//! `generate` and the edge server call these; nothing else builds responses.

use std::cmp::Ordering;

use crate::api::error::ApiError;
use crate::api::filter::{matches_filters, validate_filters};
use crate::api::index::Index;
use crate::api::query::{
    COMPARE_IDS, CompareQuery, DealSort, DealsQuery, MAX_ID_CHARS, ModelQuery, Page, SearchQuery,
    SearchSort,
};
use crate::api::text::fold;
use crate::api::types::*;
use crate::catalogue::{RecentChange, Vehicle};
use crate::vocab::Window;

/// `GET /api/v1`: the entry point (not enveloped).
pub fn get_api_info(index: &Index) -> ApiInfo {
    let links = index.links();
    let endpoint = |path: &str| links.absolute(path);
    ApiInfo {
        name: "autoprecios".to_owned(),
        version: API_VERSION,
        snapshot_at: index.catalogue().meta.snapshot_at,
        documentation_url: links.documentation(),
        openapi_url: links.openapi(),
        mcp_url: links.mcp(),
        endpoints: [
            "/api/v1",
            "/api/v1/deals",
            "/api/v1/models/prices",
            "/api/v1/vehicles",
            "/api/v1/vehicles/{id}",
            "/api/v1/compare",
            "/api/v1/catalogue",
        ]
        .map(endpoint)
        .to_vec(),
    }
}

/// `GET /api/v1/catalogue`.
pub fn get_catalogue(index: &Index) -> Envelope<CatalogueData> {
    index.envelope(index.catalogue_data())
}

/// `GET /api/v1/vehicles`.
pub fn search_vehicles<'a>(
    index: &'a Index,
    query: &SearchQuery,
) -> Result<Envelope<SearchData<'a>>, ApiError> {
    validate_filters(&query.filters)?;
    let mut found: Vec<&Vehicle> = index
        .vehicles()
        .iter()
        .enumerate()
        .filter(|(position, vehicle)| {
            matches_filters(index, *position, vehicle, &query.filters)
                && (query.opportunities_only != Some(true) || vehicle.comparison.opportunity)
        })
        .map(|(_, vehicle)| vehicle)
        .collect();
    // Searches break ties by ID only; vehicles are already in ID order and the sort is stable.
    match query.sort {
        SearchSort::PriceAsc => {
            found.sort_by(|a, b| a.current_price_usd.total_cmp(&b.current_price_usd))
        }
        SearchSort::PriceDesc => {
            found.sort_by(|a, b| b.current_price_usd.total_cmp(&a.current_price_usd))
        }
        SearchSort::DiscountDesc => found.sort_by(|a, b| {
            descending_nulls_last(a.comparison.discount_pct, b.comparison.discount_pct)
        }),
        SearchSort::Name => found.sort_by_cached_key(|vehicle| index.name_key(vehicle)),
    }
    let (vehicles, pagination) = paginate(&found, query.page);
    Ok(index.envelope(SearchData {
        vehicles: vehicles.iter().map(|v| index.summary(v)).collect(),
        pagination,
    }))
}

/// `GET /api/v1/deals`.
pub fn find_deals<'a>(
    index: &'a Index,
    query: &DealsQuery,
) -> Result<Envelope<DealsData<'a>>, ApiError> {
    validate_filters(&query.filters)?;
    let window = query.window;
    let mut found: Vec<&Vehicle> = index
        .vehicles()
        .iter()
        .enumerate()
        .filter(|(position, vehicle)| {
            is_deal(vehicle, query.kind, window)
                && matches_filters(index, *position, vehicle, &query.filters)
        })
        .map(|(_, vehicle)| vehicle)
        .collect();
    let change = |vehicle: &'a Vehicle| deal_change(vehicle, query.kind, window);
    found.sort_by(|a, b| {
        let primary = match (query.sort, query.kind) {
            (DealSort::Recommended, DealKind::Opportunities) | (DealSort::DiscountDesc, _) => {
                descending_nulls_last(a.comparison.discount_pct, b.comparison.discount_pct)
            }
            (DealSort::Recommended, DealKind::PriceDrops) => descending_nulls_last(
                change(a).and_then(|c| c.drop_pct),
                change(b).and_then(|c| c.drop_pct),
            ),
            (DealSort::Recommended, DealKind::NewOpportunities) | (DealSort::Recent, _) => {
                descending_nulls_last(
                    change(a).and_then(RecentChange::recency),
                    change(b).and_then(RecentChange::recency),
                )
            }
            (DealSort::PriceAsc, _) => Ordering::Equal,
        };
        // Deals break ties by price, then by ID (the catalogue order).
        primary.then(a.current_price_usd.total_cmp(&b.current_price_usd))
    });
    let (vehicles, pagination) = paginate(&found, query.page);
    Ok(index.envelope(DealsData {
        kind: query.kind,
        window,
        vehicles: vehicles.iter().map(|v| index.summary(v)).collect(),
        pagination,
    }))
}

/// Whether a version belongs to a deal list.
fn is_deal(vehicle: &Vehicle, kind: DealKind, window: Window) -> bool {
    match kind {
        DealKind::Opportunities => vehicle.comparison.opportunity,
        DealKind::PriceDrops => vehicle
            .recent_changes
            .get(window)
            .is_some_and(|change| change.kind == crate::vocab::ChangeKind::PriceDrop),
        DealKind::NewOpportunities => vehicle.new_opportunities.get(window).is_some(),
    }
}

/// The change a deal list ranks by: the window's new opportunity for that
/// list, else the window's recent change (seven days for opportunities).
fn deal_change(vehicle: &Vehicle, kind: DealKind, window: Window) -> Option<&RecentChange> {
    match kind {
        DealKind::Opportunities => vehicle.recent_changes.get(Window::D7),
        DealKind::PriceDrops => vehicle.recent_changes.get(window),
        DealKind::NewOpportunities => vehicle.new_opportunities.get(window),
    }
}

/// `GET /api/v1/models/prices`.
pub fn get_model_prices<'a>(
    index: &'a Index,
    query: &ModelQuery,
) -> Result<Envelope<ModelPricesData<'a>>, ApiError> {
    crate::api::filter::validate_name("make", &query.make)?;
    crate::api::filter::validate_name("model", &query.model)?;
    let (make, model) = (fold(&query.make), fold(&query.model));
    let mut versions: Vec<&Vehicle> = index
        .vehicles()
        .iter()
        .enumerate()
        .filter(|(position, _)| {
            index.folded_make(*position) == make && index.folded_model(*position) == model
        })
        .map(|(_, vehicle)| vehicle)
        .collect();
    versions.sort_by(|a, b| a.current_price_usd.total_cmp(&b.current_price_usd));
    let (Some(cheapest), Some(dearest)) = (versions.first(), versions.last()) else {
        return Err(ApiError::NotFound(format!(
            "no published versions of {} {}",
            query.make, query.model
        )));
    };
    let observed = versions.iter().map(|v| v.observed_at);
    let quote_dates = QuoteDates {
        oldest: observed.clone().min().unwrap_or(cheapest.observed_at),
        newest: observed.max().unwrap_or(cheapest.observed_at),
    };
    let (page, pagination) = paginate(&versions, query.page);
    Ok(index.envelope(ModelPricesData {
        make: &cheapest.make,
        model: &cheapest.model,
        url: index.links().model(&cheapest.make, &cheapest.model),
        from_price_usd: cheapest.current_price_usd,
        to_price_usd: dearest.current_price_usd,
        version_count: versions.len(),
        opportunity_count: versions.iter().filter(|v| v.comparison.opportunity).count(),
        cheapest_version: index.summary(cheapest),
        quote_dates,
        vehicles: page.iter().map(|v| index.summary(v)).collect(),
        pagination,
    }))
}

/// `GET /api/v1/vehicles/{id}`.
pub fn get_vehicle<'a>(index: &'a Index, id: &str) -> Result<Envelope<DetailData<'a>>, ApiError> {
    validate_id("id", id)?;
    let vehicle = index
        .find(id)
        .ok_or_else(|| ApiError::NotFound(format!("no published version with id {id:?}")))?;
    Ok(index.envelope(DetailData {
        vehicle: index.record(vehicle),
    }))
}

/// `GET /api/v1/compare`.
pub fn compare_vehicles<'a>(
    index: &'a Index,
    query: &CompareQuery,
) -> Result<Envelope<CompareData<'a>>, ApiError> {
    let mut details = Vec::new();
    if !COMPARE_IDS.contains(&query.ids.len()) {
        details.push(crate::api::error::ErrorDetail::new(
            "ids",
            "give 2 to 4 vehicle IDs",
        ));
    }
    for (position, id) in query.ids.iter().enumerate() {
        let path = format!("ids[{position}]");
        if let Err(ApiError::InvalidParameters(mut found)) = validate_id(&path, id) {
            details.append(&mut found);
        } else if query.ids[..position].contains(id) {
            details.push(crate::api::error::ErrorDetail::new(
                path,
                format!("duplicate ID {id:?}"),
            ));
        }
    }
    if !details.is_empty() {
        return Err(ApiError::InvalidParameters(details));
    }
    let vehicles = query
        .ids
        .iter()
        .map(|id| {
            index
                .find(id)
                .ok_or_else(|| ApiError::NotFound(format!("no published version with id {id:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<&str> = query.ids.iter().map(String::as_str).collect();
    Ok(index.envelope(CompareData {
        vehicles: vehicles.into_iter().map(|v| index.record(v)).collect(),
        url: index.links().compare(&ids),
    }))
}

/// A vehicle ID of 1 to 160 characters.
fn validate_id(path: &str, id: &str) -> Result<(), ApiError> {
    let chars = id.chars().count();
    if chars == 0 || chars > MAX_ID_CHARS {
        return Err(ApiError::invalid(
            path,
            format!("must be 1 to {MAX_ID_CHARS} characters"),
        ));
    }
    Ok(())
}

/// Descending order with unknown values last.
fn descending_nulls_last<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// One page of `items` and its pagination facts.
fn paginate<T>(items: &[T], page: Page) -> (&[T], Pagination) {
    let total = items.len();
    let start = (page.offset as usize).min(total);
    let end = (start + page.limit as usize).min(total);
    let next_offset = (end < total).then_some(end);
    (
        &items[start..end],
        Pagination {
            total,
            limit: page.limit,
            offset: page.offset,
            next_offset,
        },
    )
}
