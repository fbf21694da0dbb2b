//! Render stage, OpenAPI parameters: the shared filters, paging and each
//! operation's own parameters, with the bounds, enums and defaults of the spec.

use crate::api::query::{
    DEFAULT_LIMIT, DealSort, DealsQuery, MAX_AIRBAGS, MAX_DISCOUNT_PCT, MAX_ID_CHARS, MAX_LIMIT,
    MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_SEATS, SearchQuery, SearchSort, spelling_of,
};
use crate::api::types::DealKind;
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};
use serde_json::{Map, Value, json};

use super::*;

pub(super) fn shared_parameters() -> Value {
    let price = json!({ "type": "number", "minimum": 0 });
    Value::Object(query_parameters(json!({
        "q": ["Words in make, model or version; every word must match, ignoring case and accents.",
            { "type": "string", "maxLength": MAX_Q_CHARS }],
        "make": ["Exact make, ignoring case and accents.", name_schema()],
        "model": ["Exact model, ignoring case and accents.", name_schema()],
        "type": ["Body type.", string_enum(&BodyType::names())],
        "fuel": ["Fuel or powertrain.", string_enum(&Fuel::names())],
        "transmission": ["Transmission.", string_enum(&Transmission::names())],
        "minPriceUsd": ["Minimum detailed quote in USD.", price],
        "maxPriceUsd": ["Maximum detailed quote in USD; less than minPriceUsd gives 400.", price],
        "minSeats": ["Minimum confirmed seats; unknown seats are excluded.",
            { "type": "integer", "minimum": 1, "maximum": MAX_SEATS }],
        "minAirbags": ["Minimum confirmed airbags; unknown airbags are excluded.",
            { "type": "integer", "minimum": 0, "maximum": MAX_AIRBAGS }],
        "drivetrain": ["Driven wheels; awd, 4x4 and 4x4-low-range are distinct.",
            string_enum(&Drivetrain::names())],
        "aeb": ["true: confirmed low-speed automatic emergency braking; false: confirmed absence. \
            Unknown or optional is excluded either way.", { "type": "boolean" }],
        "hasSpecs": ["Whether official specifications are available.", { "type": "boolean" }],
        "minDiscountPct": ["Minimum percent below the usual price; requires sufficient history.",
            { "type": "number", "minimum": 0, "maximum": MAX_DISCOUNT_PCT }],
        "limit": ["Page size.",
            { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT }],
        "offset": ["Records skipped; follow pagination.nextOffset.",
            { "type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0 }],
    })))
}

pub(super) fn deals_parameters() -> Vec<Value> {
    let defaults = DealsQuery::default();
    let kinds = DealKind::ALL.map(|(_, name)| name);
    let sorts = DealSort::ALL.map(|(_, name)| name);
    let own = query_parameters(json!({
        "kind": ["Kind of list.",
            with_default(string_enum(&kinds), spelling_of(&DealKind::ALL, defaults.kind))],
        "window": ["Recent-change window measured back from catalogueObservedAt; applies to \
            price_drops and new_opportunities only.",
            with_default(string_enum(&Window::names()), defaults.window.as_str())],
        "sort": ["Order: recommended (opportunities by discount, price drops by reduction, new \
            opportunities by recency), recent, price_asc or discount_desc. Unknown values sort last.",
            with_default(string_enum(&sorts), spelling_of(&DealSort::ALL, defaults.sort))],
    }));
    with_filters_and_page(own)
}

pub(super) fn search_parameters() -> Vec<Value> {
    let defaults = SearchQuery::default();
    let sorts = SearchSort::ALL.map(|(_, name)| name);
    let own = query_parameters(json!({
        "opportunitiesOnly": ["true keeps versions at least 5% below their usual price with \
            sufficient history.", { "type": "boolean" }],
        "sort": ["Order: price_asc, price_desc, discount_desc (unknown last) or name (make, \
            model, trim, ignoring case and accents).",
            with_default(string_enum(&sorts), spelling_of(&SearchSort::ALL, defaults.sort))],
    }));
    with_filters_and_page(own)
}

pub(super) fn model_prices_parameters() -> Vec<Value> {
    let own = query_parameters(json!({
        "make": ["Make, ignoring case and accents.", name_schema()],
        "model": ["Model, ignoring case and accents.", name_schema()],
    }));
    let mut list: Vec<Value> = own
        .into_iter()
        .map(|(_, parameter)| required(parameter))
        .collect();
    list.extend(["limit", "offset"].map(|name| component_ref("parameters", name)));
    list
}

pub(super) fn id_parameters() -> Vec<Value> {
    vec![json!({
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The original, case-sensitive vehicle ID.",
        "schema": id_schema(),
    })]
}

pub(super) fn ids_parameters() -> Vec<Value> {
    vec![json!({
        "name": "ids",
        "in": "query",
        "required": true,
        "description": "2 to 4 distinct vehicle IDs, comma-separated.",
        "style": "form",
        "explode": false,
        "schema": {
            "type": "array",
            "items": id_schema(),
            "minItems": MIN_COMPARE_IDS,
            "maxItems": MAX_COMPARE_IDS,
            "uniqueItems": true,
        },
    })]
}

/// References to the shared filters, then an operation's own parameters,
/// then limit and offset.
pub(super) fn with_filters_and_page(own: Map<String, Value>) -> Vec<Value> {
    let shared = shared_parameters();
    let filters = shared.as_object().into_iter().flat_map(|map| map.keys());
    let mut list: Vec<Value> = filters
        .filter(|name| !matches!(name.as_str(), "limit" | "offset"))
        .map(|name| component_ref("parameters", name))
        .collect();
    list.extend(own.into_iter().map(|(_, parameter)| parameter));
    list.extend(["limit", "offset"].map(|name| component_ref("parameters", name)));
    list
}

/// Query parameter objects from a table of `name: [description, schema]`.
pub(super) fn query_parameters(table: Value) -> Map<String, Value> {
    let Value::Object(table) = table else {
        return Map::new();
    };
    table
        .into_iter()
        .map(|(name, row)| {
            let parameter = json!({
                "name": name, "in": "query", "description": row[0], "schema": row[1],
            });
            (name, parameter)
        })
        .collect()
}

pub(super) fn required(mut parameter: Value) -> Value {
    parameter["required"] = json!(true);
    parameter
}

pub(super) fn with_default(mut schema: Value, default: &str) -> Value {
    schema["default"] = json!(default);
    schema
}

pub(super) fn name_schema() -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS })
}

pub(super) fn id_schema() -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": MAX_ID_CHARS })
}

// ------------------------------------------------- headers and responses
