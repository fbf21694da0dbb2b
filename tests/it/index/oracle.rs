//! The brute-force oracle of the index property test: each list operation
//! evaluated the plain way, straight from the spec and DESIGN.md (filter
//! every vehicle with a predicate, stable-sort by the order's key over the
//! ID order, slice the page), then serialized with the typed Summary and
//! Vehicle shapes. It shares only the query parser, the payload shapes and
//! the serializer with the service, never its selection or ordering.

use std::cmp::Ordering;

use autoprecios::api::facts::Facts;
use autoprecios::api::json::to_json_bytes;
use autoprecios::api::links::{Links, percent_encode};
use autoprecios::api::params::filter::Admits;
use autoprecios::api::params::table::{FILTERS, Given};
use autoprecios::api::params::{parse_compare, parse_deals, parse_model, parse_search};
use autoprecios::api::query::{DealSort, Filters, Page, SearchSort};
use autoprecios::api::types::{
    DealKind, Envelope, Pagination, QuoteDates, SCHEMA_VERSION, Summary, VehicleRecord,
};
use autoprecios::catalogue::{Catalogue, RecentChange, Vehicle};
use autoprecios::vocab::{ChangeKind, Window};
use axum::http::StatusCode;
use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

use crate::harness::BASE;

/// Case- and accent-insensitive form, written for the test.
pub fn loose(text: &str) -> String {
    text.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect::<String>()
        .to_lowercase()
}

#[derive(Serialize)]
struct SearchPage<'a> {
    vehicles: Vec<Summary<'a>>,
    pagination: Pagination,
}

#[derive(Serialize)]
struct DealsPage<'a> {
    kind: DealKind,
    window: Window,
    vehicles: Vec<Summary<'a>>,
    pagination: Pagination,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelPage<'a> {
    make: &'a str,
    model: &'a str,
    url: String,
    from_price_usd: f64,
    to_price_usd: f64,
    version_count: usize,
    opportunity_count: usize,
    cheapest_version: Summary<'a>,
    quote_dates: QuoteDates,
    vehicles: Vec<Summary<'a>>,
    pagination: Pagination,
}

#[derive(Serialize)]
struct ComparePage<'a> {
    vehicles: Vec<VehicleRecord<'a>>,
    url: String,
}

/// The expected bytes of a `GET url`, or the expected error status.
pub fn answer(catalogue: &Catalogue, url: &str) -> Result<Vec<u8>, StatusCode> {
    let links = Links::new(
        BASE,
        catalogue
            .vehicles
            .iter()
            .map(|v| (v.identity.make.as_str(), v.identity.model.as_str())),
    );
    fn enveloped<T>(catalogue: &Catalogue, data: T) -> Envelope<T> {
        Envelope {
            schema_version: SCHEMA_VERSION,
            snapshot_at: catalogue.meta.snapshot_at,
            catalogue_observed_at: catalogue.meta.catalogue_observed_at,
            source: catalogue.meta.source.clone(),
            methodology_url: format!("{BASE}/metodologia"),
            documentation_url: format!("{BASE}/developers"),
            data,
        }
    }
    let bad = StatusCode::BAD_REQUEST;
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let all = &catalogue.vehicles;
    let bytes = match path {
        "/api/v1/vehicles" => {
            let query = parse_search(query).map_err(|_| bad)?;
            check_bounds(&query.filters)?;
            let mut found: Vec<&Vehicle> = all
                .iter()
                .filter(|v| matches(v, &query.filters))
                .filter(|v| query.opportunities_only != Some(true) || v.comparison.opportunity)
                .collect();
            found.sort_by(|a, b| match query.sort {
                SearchSort::PriceAsc => a.current_price_usd.total_cmp(&b.current_price_usd),
                SearchSort::PriceDesc => b.current_price_usd.total_cmp(&a.current_price_usd),
                SearchSort::DiscountDesc => {
                    descending(a.comparison.discount_pct, b.comparison.discount_pct)
                }
                SearchSort::Name => name(a).cmp(&name(b)),
                SearchSort::PriceArsAsc => ascending(a.price_ars, b.price_ars),
                SearchSort::PriceArsDesc => descending(a.price_ars, b.price_ars),
            });
            let (page, pagination) = paged(&found, query.page);
            to_json_bytes(&enveloped(
                catalogue,
                SearchPage {
                    vehicles: page.iter().map(|v| Summary::of(v, &links)).collect(),
                    pagination,
                },
            ))
        }
        "/api/v1/deals" => {
            let query = parse_deals(query).map_err(|_| bad)?;
            check_bounds(&query.filters)?;
            let (kind, window) = (query.kind, query.window);
            let shown_window = if kind == DealKind::Opportunities {
                Window::D7
            } else {
                window
            };
            let shown = |v: &Vehicle| v.recent_changes.get(shown_window).cloned();
            let mut found: Vec<&Vehicle> = all
                .iter()
                .filter(|v| match kind {
                    DealKind::Opportunities => v.comparison.opportunity,
                    DealKind::PriceDrops => v
                        .recent_changes
                        .get(window)
                        .is_some_and(|c| c.kind == ChangeKind::PriceDrop),
                    DealKind::NewOpportunities => v.new_opportunities.get(window).is_some(),
                })
                .filter(|v| matches(v, &query.filters))
                .collect();
            found.sort_by(|a, b| {
                let recency = |v: &Vehicle| shown(v).and_then(|c| RecentChange::recency(&c));
                let drop = |v: &Vehicle| shown(v).and_then(|c| c.drop_pct);
                let primary = match (query.sort, kind) {
                    (DealSort::Recommended, DealKind::Opportunities)
                    | (DealSort::DiscountDesc, _) => {
                        descending(a.comparison.discount_pct, b.comparison.discount_pct)
                    }
                    (DealSort::Recommended, DealKind::PriceDrops) => descending(drop(a), drop(b)),
                    (DealSort::Recommended, DealKind::NewOpportunities) | (DealSort::Recent, _) => {
                        descending(recency(a), recency(b))
                    }
                    (DealSort::PriceAsc, _) => Ordering::Equal,
                    (DealSort::PriceArsAsc, _) => ascending(a.price_ars, b.price_ars),
                };
                primary.then(a.current_price_usd.total_cmp(&b.current_price_usd))
            });
            let (page, pagination) = paged(&found, query.page);
            to_json_bytes(&enveloped(
                catalogue,
                DealsPage {
                    kind,
                    window,
                    vehicles: page.iter().map(|v| Summary::of(v, &links)).collect(),
                    pagination,
                },
            ))
        }
        "/api/v1/models/prices" => {
            let query = parse_model(query).map_err(|_| bad)?;
            let mut found: Vec<&Vehicle> = all
                .iter()
                .filter(|v| loose(&v.identity.make) == loose(&query.make))
                .filter(|v| loose(&v.identity.model) == loose(&query.model))
                .collect();
            found.sort_by(|a, b| a.current_price_usd.total_cmp(&b.current_price_usd));
            let (Some(cheapest), Some(dearest)) = (found.first(), found.last()) else {
                return Err(StatusCode::NOT_FOUND);
            };
            let observed = found.iter().map(|v| v.observed_at);
            let (page, pagination) = paged(&found, query.page);
            to_json_bytes(&enveloped(
                catalogue,
                ModelPage {
                    make: &cheapest.identity.make,
                    model: &cheapest.identity.model,
                    url: links.model(&cheapest.identity.make, &cheapest.identity.model),
                    from_price_usd: cheapest.current_price_usd,
                    to_price_usd: dearest.current_price_usd,
                    version_count: found.len(),
                    opportunity_count: found.iter().filter(|v| v.comparison.opportunity).count(),
                    cheapest_version: Summary::of(cheapest, &links),
                    quote_dates: QuoteDates {
                        oldest: observed.clone().min().expect("a version"),
                        newest: observed.max().expect("a version"),
                    },
                    vehicles: page.iter().map(|v| Summary::of(v, &links)).collect(),
                    pagination,
                },
            ))
        }
        "/api/v1/compare" => {
            let query = parse_compare(query).map_err(|_| bad)?;
            // A list sent as one item (every comma encoded) that is not an
            // ID is the IDs between its commas.
            let published = |id: &str| all.iter().any(|v| v.id == id);
            let whole = query.ids.len() == 1;
            let ids: Vec<String> = query
                .ids
                .iter()
                .flat_map(
                    |item| match whole && item.contains(',') && !published(item) {
                        true => item.split(',').map(str::to_owned).collect(),
                        false => vec![item.clone()],
                    },
                )
                .collect();
            let ids = &ids;
            let distinct = ids.iter().enumerate().all(|(i, id)| !ids[..i].contains(id));
            if !(2..=4).contains(&ids.len()) || !distinct {
                return Err(bad);
            }
            let records = ids
                .iter()
                .map(|id| {
                    all.iter()
                        .find(|v| &v.id == id)
                        .ok_or(StatusCode::NOT_FOUND)
                })
                .collect::<Result<Vec<_>, _>>()?;
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            to_json_bytes(&enveloped(
                catalogue,
                ComparePage {
                    vehicles: records
                        .iter()
                        .map(|v| VehicleRecord::of(v, &links))
                        .collect(),
                    // Written plainly: each ID encoded, literal commas between.
                    url: links.absolute(&format!(
                        "/comparar?ids={}",
                        ids.iter()
                            .map(|id| percent_encode(id))
                            .collect::<Vec<_>>()
                            .join(",")
                    )),
                },
            ))
        }
        other => panic!("the oracle does not answer {other}"),
    };
    Ok(bytes)
}

/// Reversed budget bounds are a 400.
fn check_bounds(filters: &Filters) -> Result<(), StatusCode> {
    let value = |name: &str| filters.get(name).map(number);
    let reversed = |min: &str, max: &str| value(min).zip(value(max)).is_some_and(|(a, b)| a > b);
    if reversed("minPriceUsd", "maxPriceUsd") || reversed("minPriceArs", "maxPriceArs") {
        return Err(StatusCode::BAD_REQUEST);
    }
    Ok(())
}

/// Every shared filter, read plainly by its row: the version's fact (its
/// `Facts`, through the row's accessor) against the value asked, by the
/// row's rule. Nothing here knows a filter by name, so a new row is checked
/// as soon as it is in the table.
fn matches(v: &Vehicle, f: &Filters) -> bool {
    let facts = Facts::of(v);
    FILTERS.iter().all(|param| {
        let filter = param.filter().expect("the filter rows are filters");
        let Some(asked) = f.get(param.name) else {
            return true;
        };
        // Of several facts (the cities of its quotes), any one admits it.
        (filter.fact)(&facts)
            .iter()
            .any(|fact| match filter.admits {
                Admits::Same => match (fact, asked) {
                    (Given::Text(fact), Given::Text(asked)) => loose(fact) == loose(asked),
                    _ => fact == asked,
                },
                Admits::AtLeast => number(fact) >= number(asked),
                Admits::AtMost => number(fact) <= number(asked),
                Admits::EveryWord => {
                    let fact = loose(&fact.to_text());
                    loose(&asked.to_text())
                        .split_whitespace()
                        .all(|word| fact.contains(word))
                }
            })
    })
}

/// A numeric value as a number.
fn number(value: &Given) -> f64 {
    match value {
        Given::Integer(value) => f64::from(*value),
        Given::Number(value) => *value,
        other => panic!("{other:?} is not a number"),
    }
}

/// The `name` sort key.
fn name(v: &Vehicle) -> (String, String, String) {
    (
        loose(&v.identity.make),
        loose(&v.identity.model),
        loose(&v.identity.trim),
    )
}

/// Ascending, unknown last.
fn ascending<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Descending, unknown last.
fn descending<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// One page of `found` and its pagination.
fn paged<'a>(found: &[&'a Vehicle], page: Page) -> (Vec<&'a Vehicle>, Pagination) {
    let total = found.len();
    let start = (page.offset as usize).min(total);
    let end = (start + page.limit as usize).min(total);
    let pagination = Pagination {
        total,
        limit: page.limit,
        offset: page.offset,
        next_offset: (end < total).then_some(end),
    };
    (found[start..end].to_vec(), pagination)
}
