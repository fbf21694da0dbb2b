//! Render stage, OpenAPI: builds `openapi.json` (OpenAPI 3.1.1, schemas in
//! JSON Schema 2020-12) from the API layer's constants and vocabularies. It
//! reads only the base URL; the document is the same for every snapshot.
//!
//! Schemas describe exactly what the `api::types` and `catalogue` structs
//! serialize; the integration tests validate real payloads against them.

use serde_json::{Map, Value, json};

use crate::api::links::Links;
use crate::api::query::{
    DEFAULT_LIMIT, DealSort, DealsQuery, MAX_ID_CHARS, MAX_LIMIT, MAX_NAME_CHARS, MAX_OFFSET,
    MAX_Q_CHARS, MAX_QUERY_CHARS, SearchQuery, SearchSort, spelling_of,
};
use crate::api::types::{API_VERSION, DealKind, SCHEMA_VERSION};
use crate::catalogue::WINDOW_DAYS;
use crate::vocab::{
    BodyType, ChangeKind, Currency, Drivetrain, Fuel, Reason, Transmission, Window,
};

/// Bounds of the numeric filters (spec, Limits).
const MAX_SEATS: u32 = 100;
const MAX_AIRBAGS: u32 = 30;
const MAX_DISCOUNT_PCT: u32 = 100;
/// Item bounds of compare `ids`.
const MIN_COMPARE_IDS: usize = 2;
const MAX_COMPARE_IDS: usize = 4;

/// The shared search filters of deals and vehicles, in the spec's order.
const FILTERS: [&str; 14] = [
    "q",
    "make",
    "model",
    "type",
    "fuel",
    "transmission",
    "minPriceUsd",
    "maxPriceUsd",
    "minSeats",
    "minAirbags",
    "drivetrain",
    "aeb",
    "hasSpecs",
    "minDiscountPct",
];

/// The OpenAPI 3.1.1 description of the API served under `links.base()`.
pub fn render_openapi(links: &Links) -> Value {
    let base = if links.base().is_empty() {
        "/"
    } else {
        links.base()
    };
    json!({
        "openapi": "3.1.1",
        "info": info(),
        "servers": [{ "url": base, "description": "This service" }],
        "externalDocs": { "description": "Developer guide", "url": links.documentation() },
        "tags": tags(),
        "paths": paths(),
        "components": {
            "parameters": parameters(),
            "headers": headers(),
            "responses": responses(),
            "schemas": schemas(),
        },
    })
}

fn info() -> Value {
    let description = format!(
        "Read-only JSON API of new-car dealer cash quotes in Argentina: current lowest prices, \
         recent price drops and versions priced below their usual level. Every response reads \
         the same published snapshot; a request never starts a live dealer check.\n\n\
         No account, key or authentication header is needed, and responses allow cross-origin \
         browser access. Every operation answers GET, HEAD and OPTIONS; any other method gives \
         405. A query string longer than {MAX_QUERY_CHARS} characters gives 414. Unknown or \
         repeated parameters give 400, as does minPriceUsd above maxPriceUsd (a rule across two \
         parameters that this document cannot express).\n\n\
         Successful queries carry an ETag and a five-minute shared-cache lifetime; \
         `If-None-Match` with an unchanged response yields 304. Errors are not cached. Back off \
         and retry on 429 or temporary 5xx responses. Signals compare recorded asking prices; \
         they are not manufacturer discounts and not guaranteed savings."
    );
    json!({
        "title": "autoprecios API",
        "version": API_VERSION,
        "summary": "New-car dealer prices and buying opportunities in Argentina",
        "description": description,
    })
}

fn tags() -> Value {
    json!([
        { "name": "service", "description": "Entry point and catalogue overview." },
        { "name": "deals", "description": "Buying opportunities and recent price changes." },
        { "name": "vehicles", "description": "Search, detail and comparison of versions." },
        { "name": "models", "description": "Prices of every version of one model." },
    ])
}

// ---------------------------------------------------------------- paths

/// One GET operation: its parameters, the schema of its 200 body and the
/// error statuses it can answer besides 304, 400, 405 and 414.
struct Operation<'a> {
    id: &'a str,
    tag: &'a str,
    summary: &'a str,
    description: &'a str,
    parameters: Vec<Value>,
    body: &'a str,
    not_found: bool,
}

fn paths() -> Value {
    let mut paths = Map::new();
    for (path, operation) in operations() {
        paths.insert(
            path.to_owned(),
            json!({ "get": render_operation(&operation) }),
        );
    }
    Value::Object(paths)
}

fn operations() -> Vec<(&'static str, Operation<'static>)> {
    vec![
        (
            "/api/v1",
            Operation {
                id: "get_api_info",
                tag: "service",
                summary: "Entry point: version, snapshot date and links",
                description: "Returns ApiInfo directly, not inside the envelope. Takes no parameters.",
                parameters: vec![],
                body: "ApiInfo",
                not_found: false,
            },
        ),
        (
            "/api/v1/deals",
            Operation {
                id: "find_deals",
                tag: "deals",
                summary: "Find buying opportunities",
                description: "Current opportunities, recent price drops or newly qualifying \
                opportunities, filtered by the shared search filters. `recommended` ranks \
                opportunities by discount, price drops by percentage reduction and new \
                opportunities by recency; ties break by price, then by ID. A recent-deal search \
                may legitimately return an empty list.",
                parameters: deals_parameters(),
                body: "DealsResponse",
                not_found: false,
            },
        ),
        (
            "/api/v1/models/prices",
            Operation {
                id: "get_model_prices",
                tag: "models",
                summary: "Prices of every version of a model",
                description: "Versions are ordered by price, cheapest first. fromPriceUsd, \
                toPriceUsd, versionCount, opportunityCount, cheapestVersion and quoteDates cover \
                the whole model even when versions are paginated. Make and model match ignoring \
                case and accents; an unknown model gives 404.",
                parameters: model_prices_parameters(),
                body: "ModelPricesResponse",
                not_found: true,
            },
        ),
        (
            "/api/v1/vehicles",
            Operation {
                id: "search_vehicles",
                tag: "vehicles",
                summary: "Search vehicle versions",
                description: "Versions matching the shared search filters, cheapest first by \
                default; ties break by ID. Follow pagination.nextOffset until it is null, and \
                restart at offset 0 if snapshotAt changes between pages.",
                parameters: search_parameters(),
                body: "SearchResponse",
                not_found: false,
            },
        ),
        (
            "/api/v1/vehicles/{id}",
            Operation {
                id: "get_vehicle",
                tag: "vehicles",
                summary: "Full record of one version",
                description: "Every current quote, the exchange rate and the sourced specifications \
                of one version. An unknown ID or a version outside the current priced catalogue \
                gives 404.",
                parameters: vec![id_parameter()],
                body: "DetailResponse",
                not_found: true,
            },
        ),
        (
            "/api/v1/compare",
            Operation {
                id: "compare_vehicles",
                tag: "vehicles",
                summary: "Compare 2 to 4 versions",
                description: "Full records of the versions, in the order asked, and a shareable \
                comparison page. Duplicate IDs give 400; an unknown ID gives 404. Missing \
                specifications remain unknown.",
                parameters: vec![ids_parameter()],
                body: "CompareResponse",
                not_found: true,
            },
        ),
        (
            "/api/v1/catalogue",
            Operation {
                id: "get_catalogue",
                tag: "service",
                summary: "Catalogue overview",
                description: "Supported makes and models, the filter values present and coverage \
                counts. Takes no parameters.",
                parameters: vec![],
                body: "CatalogueResponse",
                not_found: false,
            },
        ),
    ]
}

fn render_operation(operation: &Operation) -> Value {
    let mut responses = Map::new();
    responses.insert("200".into(), success(operation.body));
    responses.insert("304".into(), response_ref("NotModified"));
    // Every operation rejects unknown and repeated parameters, even those that take none.
    responses.insert("400".into(), response_ref("BadRequest"));
    if operation.not_found {
        responses.insert("404".into(), response_ref("NotFound"));
    }
    responses.insert("405".into(), response_ref("MethodNotAllowed"));
    responses.insert("414".into(), response_ref("UriTooLong"));
    let mut rendered = json!({
        "operationId": operation.id,
        "tags": [operation.tag],
        "summary": operation.summary,
        "description": format!(
            "{} HEAD (same headers, no body) and OPTIONS (CORS preflight) are also answered.",
            operation.description
        ),
    });
    if !operation.parameters.is_empty() {
        rendered["parameters"] = Value::Array(operation.parameters.clone());
    }
    rendered["responses"] = Value::Object(responses);
    rendered
}

fn success(body: &str) -> Value {
    json!({
        "description": "OK",
        "headers": {
            "ETag": header_ref("ETag"),
            "Cache-Control": header_ref("CacheControl"),
            "Access-Control-Allow-Origin": header_ref("AccessControlAllowOrigin"),
        },
        "content": { "application/json": { "schema": schema_ref(body) } },
    })
}

// ----------------------------------------------------------- parameters

fn deals_parameters() -> Vec<Value> {
    let defaults = DealsQuery::default();
    let mut list = filter_refs();
    list.push(query_parameter(
        "kind",
        "Kind of list.",
        with_default(
            string_enum(&DealKind::ALL.map(|(_, name)| name)),
            spelling_of(&DealKind::ALL, defaults.kind),
        ),
    ));
    list.push(query_parameter(
        "window",
        "Recent-change window measured back from catalogueObservedAt; applies to price_drops \
         and new_opportunities only.",
        with_default(string_enum(&Window::names()), defaults.window.as_str()),
    ));
    list.push(query_parameter(
        "sort",
        "Order: recommended (by discount, drop or recency depending on kind), recent, \
         price_asc or discount_desc. Unknown discounts sort last.",
        with_default(
            string_enum(&DealSort::ALL.map(|(_, name)| name)),
            spelling_of(&DealSort::ALL, defaults.sort),
        ),
    ));
    list.extend(page_refs());
    list
}

fn search_parameters() -> Vec<Value> {
    let defaults = SearchQuery::default();
    let mut list = filter_refs();
    list.push(query_parameter(
        "opportunitiesOnly",
        "true keeps versions at least 5% below their usual price with sufficient history.",
        json!({ "type": "boolean" }),
    ));
    list.push(query_parameter(
        "sort",
        "Order: price_asc, price_desc, discount_desc (unknown last) or name (make, model, \
         trim, ignoring case and accents).",
        with_default(
            string_enum(&SearchSort::ALL.map(|(_, name)| name)),
            spelling_of(&SearchSort::ALL, defaults.sort),
        ),
    ));
    list.extend(page_refs());
    list
}

fn model_prices_parameters() -> Vec<Value> {
    let mut list = vec![
        required(query_parameter(
            "make",
            "Make, ignoring case and accents.",
            name_schema(),
        )),
        required(query_parameter(
            "model",
            "Model, ignoring case and accents.",
            name_schema(),
        )),
    ];
    list.extend(page_refs());
    list
}

fn id_parameter() -> Value {
    json!({
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The original, case-sensitive vehicle ID.",
        "schema": id_schema(),
    })
}

fn ids_parameter() -> Value {
    let mut parameter = required(query_parameter(
        "ids",
        "2 to 4 distinct vehicle IDs, comma-separated.",
        json!({
            "type": "array",
            "items": id_schema(),
            "minItems": MIN_COMPARE_IDS,
            "maxItems": MAX_COMPARE_IDS,
            "uniqueItems": true,
        }),
    ));
    parameter["style"] = json!("form");
    parameter["explode"] = json!(false);
    parameter
}

fn filter_refs() -> Vec<Value> {
    FILTERS.iter().map(|name| parameter_ref(name)).collect()
}

fn page_refs() -> Vec<Value> {
    vec![parameter_ref("limit"), parameter_ref("offset")]
}

/// Reusable parameters: the shared filters, limit and offset.
fn parameters() -> Value {
    let price = json!({ "type": "number", "minimum": 0 });
    let list = [
        (
            "q",
            "Words in make, model or version; every word must match, ignoring case and accents.",
            json!({ "type": "string", "maxLength": MAX_Q_CHARS }),
        ),
        (
            "make",
            "Exact make, ignoring case and accents.",
            name_schema(),
        ),
        (
            "model",
            "Exact model, ignoring case and accents.",
            name_schema(),
        ),
        ("type", "Body type.", string_enum(&BodyType::names())),
        ("fuel", "Fuel or powertrain.", string_enum(&Fuel::names())),
        (
            "transmission",
            "Transmission.",
            string_enum(&Transmission::names()),
        ),
        (
            "minPriceUsd",
            "Minimum detailed quote in USD.",
            price.clone(),
        ),
        (
            "maxPriceUsd",
            "Maximum detailed quote in USD; less than minPriceUsd gives 400.",
            price,
        ),
        (
            "minSeats",
            "Minimum confirmed seats; unknown seats are excluded.",
            json!({ "type": "integer", "minimum": 1, "maximum": MAX_SEATS }),
        ),
        (
            "minAirbags",
            "Minimum confirmed airbags; unknown airbags are excluded.",
            json!({ "type": "integer", "minimum": 0, "maximum": MAX_AIRBAGS }),
        ),
        (
            "drivetrain",
            "Driven wheels; awd, 4x4 and 4x4-low-range are distinct.",
            string_enum(&Drivetrain::names()),
        ),
        (
            "aeb",
            "true: confirmed low-speed automatic emergency braking; false: confirmed \
            absence. Unknown or optional is excluded either way.",
            json!({ "type": "boolean" }),
        ),
        (
            "hasSpecs",
            "Whether official specifications are available.",
            json!({ "type": "boolean" }),
        ),
        (
            "minDiscountPct",
            "Minimum percent below the usual price; requires sufficient history.",
            json!({ "type": "number", "minimum": 0, "maximum": MAX_DISCOUNT_PCT }),
        ),
        (
            "limit",
            "Page size.",
            json!({
            "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT }),
        ),
        (
            "offset",
            "Records skipped; follow pagination.nextOffset.",
            json!({
            "type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0 }),
        ),
    ];
    let mut map = Map::new();
    for (name, description, schema) in list {
        map.insert(name.to_owned(), query_parameter(name, description, schema));
    }
    Value::Object(map)
}

fn query_parameter(name: &str, description: &str, schema: Value) -> Value {
    json!({ "name": name, "in": "query", "description": description, "schema": schema })
}

fn required(mut parameter: Value) -> Value {
    parameter["required"] = json!(true);
    parameter
}

fn with_default(mut schema: Value, default: &str) -> Value {
    schema["default"] = json!(default);
    schema
}

fn name_schema() -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS })
}

fn id_schema() -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": MAX_ID_CHARS })
}

// ------------------------------------------------- headers and responses

fn headers() -> Value {
    json!({
        "ETag": {
            "description": "Strong validator of the response bytes; send it back in If-None-Match.",
            "required": true,
            "schema": { "type": "string" },
        },
        "CacheControl": {
            "description": "Five-minute shared-cache lifetime on successes; errors are not cached.",
            "schema": { "type": "string" },
        },
        "AccessControlAllowOrigin": {
            "description": "Cross-origin browser access is allowed.",
            "schema": { "type": "string" },
        },
    })
}

fn responses() -> Value {
    let error = |description: &str, code: &str, message: &str| {
        json!({
            "description": description,
            "headers": { "Cache-Control": header_ref("CacheControl") },
            "content": { "application/json": {
                "schema": schema_ref("Error"),
                "example": { "error": { "code": code, "message": message } },
            } },
        })
    };
    let mut bad_request = error(
        "Invalid, unknown or repeated parameter, reversed budget bounds or duplicate comparison IDs.",
        "invalid_parameters",
        "invalid parameters",
    );
    bad_request["content"]["application/json"]["example"]["error"]["details"] =
        json!([{ "path": "limit", "message": "must be 1 to 100" }]);
    json!({
        "NotModified": {
            "description": "Not Modified: the If-None-Match validator matches; no body.",
            "headers": { "ETag": header_ref("ETag") },
        },
        "BadRequest": bad_request,
        "NotFound": error(
            "Unknown route, unknown model, or a version outside the current priced catalogue.",
            "not_found",
            "no published version with id \"x\"",
        ),
        "MethodNotAllowed": error(
            "Method other than GET, HEAD or OPTIONS.",
            "method_not_allowed",
            "method not allowed",
        ),
        "UriTooLong": error(
            "Query string longer than 4096 characters.",
            "uri_too_long",
            "query string too long",
        ),
    })
}

// -------------------------------------------------------------- schemas

fn schemas() -> Value {
    let mut map = Map::new();
    let envelopes = [
        ("CatalogueResponse", "Catalogue"),
        ("SearchResponse", "Search"),
        ("DealsResponse", "Deals"),
        ("ModelPricesResponse", "ModelPrices"),
        ("DetailResponse", "Detail"),
        ("CompareResponse", "Compare"),
    ];
    for (name, data) in envelopes {
        map.insert(name.to_owned(), envelope(data));
    }
    for (name, schema) in payload_schemas().into_iter().chain(vehicle_schemas()) {
        map.insert(name.to_owned(), schema);
    }
    map.insert("Error".to_owned(), error_schema());
    Value::Object(map)
}

fn envelope(data: &str) -> Value {
    object(
        &format!("Envelope whose data is a {data}."),
        json!({
            "schemaVersion": { "type": "integer", "const": SCHEMA_VERSION },
            "snapshotAt": doc(date_time(), "Latest capture anywhere in the site; not the check date of every quote."),
            "catalogueObservedAt": doc(date_time(), "When the catalogue was checked; reference time of recent-change windows."),
            "source": doc(uri(), "Address of the original listing site."),
            "methodologyUrl": doc(uri(), "Methodology page."),
            "documentationUrl": doc(uri(), "Developer documentation."),
            "data": schema_ref(data),
        }),
        &[],
    )
}

fn payload_schemas() -> Vec<(&'static str, Value)> {
    let count = || json!({ "type": "integer", "minimum": 0 });
    let strings = json!({ "type": "array", "items": { "type": "string" } });
    let summaries = json!({ "type": "array", "items": schema_ref("Summary") });
    vec![
        (
            "ApiInfo",
            object(
                "Entry point of the API (not enveloped).",
                json!({
                    "name": { "type": "string" },
                    "version": { "type": "string" },
                    "snapshotAt": date_time(),
                    "documentationUrl": uri(),
                    "openapiUrl": uri(),
                    "mcpUrl": uri(),
                    "endpoints": doc(
                        json!({ "type": "array", "items": { "type": "string", "format": "uri-template" } }),
                        "Absolute URL of every operation; path parameters in braces.",
                    ),
                }),
                &[],
            ),
        ),
        (
            "Catalogue",
            object(
                "Supported makes, models, filter values and coverage counts.",
                json!({
                    "vehicleCount": count(),
                    "modelCount": count(),
                    "versionsWithSpecs": count(),
                    "opportunityCount": count(),
                    "makes": strings,
                    "models": { "type": "array", "items": schema_ref("MakeModel") },
                    "filters": doc(json!({
                        "type": "object",
                        "additionalProperties": { "type": "array", "items": { "type": ["string", "number"] } },
                    }), "Filter name to the values present in the catalogue."),
                }),
                &[],
            ),
        ),
        (
            "MakeModel",
            object(
                "A make and model.",
                json!({
                    "make": { "type": "string" },
                    "model": { "type": "string" },
                }),
                &[],
            ),
        ),
        (
            "Search",
            object(
                "A page of search results.",
                json!({
                    "vehicles": summaries,
                    "pagination": schema_ref("Pagination"),
                }),
                &[],
            ),
        ),
        (
            "Deals",
            object(
                "A page of deals.",
                json!({
                    "kind": string_enum(&DealKind::ALL.map(|(_, name)| name)),
                    "window": string_enum(&Window::names()),
                    "vehicles": summaries,
                    "pagination": schema_ref("Pagination"),
                }),
                &[],
            ),
        ),
        ("ModelPrices", model_prices_schema()),
        (
            "QuoteDates",
            object(
                "Oldest and newest quote check of a model's versions.",
                json!({
                    "oldest": date_time(),
                    "newest": date_time(),
                }),
                &[],
            ),
        ),
        (
            "Detail",
            object(
                "The full record of one version.",
                json!({
                    "vehicle": schema_ref("Vehicle"),
                }),
                &[],
            ),
        ),
        (
            "Compare",
            object(
                "Versions compared, in the order asked.",
                json!({
                    "vehicles": {
                        "type": "array",
                        "items": schema_ref("Vehicle"),
                        "minItems": MIN_COMPARE_IDS,
                        "maxItems": MAX_COMPARE_IDS,
                    },
                    "url": doc(uri(), "Shareable comparison page."),
                }),
                &[],
            ),
        ),
        (
            "Pagination",
            object(
                "Paging facts of a list.",
                json!({
                    "total": doc(count(), "Count of all matches before paging."),
                    "limit": doc(json!({ "type": "integer", "minimum": 1, "maximum": MAX_LIMIT }), "Page size applied."),
                    "offset": doc(json!({ "type": "integer", "minimum": 0, "maximum": MAX_OFFSET }), "Records skipped."),
                    "nextOffset": doc(json!({ "type": ["integer", "null"], "minimum": 0 }),
                        "Offset of the next page; null when there is none."),
                }),
                &[],
            ),
        ),
    ]
}

fn model_prices_schema() -> Value {
    object(
        "Prices of one model; totals cover every version, not only the page.",
        json!({
            "make": { "type": "string" },
            "model": { "type": "string" },
            "url": doc(uri(), "Model page."),
            "fromPriceUsd": { "type": "number" },
            "toPriceUsd": { "type": "number" },
            "versionCount": { "type": "integer", "minimum": 0 },
            "opportunityCount": { "type": "integer", "minimum": 0 },
            "cheapestVersion": schema_ref("Summary"),
            "quoteDates": schema_ref("QuoteDates"),
            "vehicles": { "type": "array", "items": schema_ref("Summary") },
            "pagination": schema_ref("Pagination"),
        }),
        &[],
    )
}

/// Properties of a Summary, in serialization order; the optional ones are
/// omitted when absent.
fn summary_properties() -> Value {
    json!({
        "id": doc(id_schema(), "Original, case-sensitive catalogue ID."),
        "url": doc(uri(), "Canonical page on the service's website."),
        "feedUrl": doc(uri(), "Per-version data feed."),
        "sourceUrl": doc(uri(), "Original listing."),
        "make": { "type": "string" },
        "model": { "type": "string" },
        "trim": { "type": "string" },
        "trimDisplay": doc(json!({ "type": "string" }), "Display form of trim."),
        "type": doc(string_enum(&BodyType::names()), "Body type."),
        "tier": doc(json!({ "type": "string" }), "Native tier label."),
        "tierLabel": doc(nullable("string"), "Native tier label text; no tier is inferred from price."),
        "fuel": nullable_enum(&Fuel::names()),
        "transmission": nullable_enum(&Transmission::names()),
        "seats": doc(json!({ "type": ["integer", "null"], "minimum": 0 }), "Unknown is null."),
        "airbags": doc(json!({ "type": ["integer", "null"], "minimum": 0 }), "Unknown is null."),
        "factSources": doc(string_map(), "Catalogue fact name to its source kind (official, catalogue)."),
        "observedAt": doc(date_time(), "When this version's detailed quotes, stock and exchange rate were checked."),
        "currentPriceUsd": doc(json!({ "type": "number" }), "Lowest detailed dealer quote in USD at observedAt."),
        "comparison": schema_ref("Comparison"),
        "hasSpecs": doc(json!({ "type": "boolean" }), "Official specifications available."),
        "recentChanges": schema_ref("RecentChanges"),
        "quoteCount": { "type": "integer", "minimum": 0 },
        "bestQuote": doc(nullable_ref("Quote"), "The lowest quote, in its original currency."),
        "availability": doc(json!({ "type": "string", "const": "InStock" }), "The listing had stock at observedAt."),
        "reasons": doc(json!({ "type": "array", "items": string_enum(&Reason::names()) }),
            "Why the version is a deal; recent reasons cover seven days."),
    })
}

const SUMMARY_OPTIONAL: [&str; 5] = ["feedUrl", "trimDisplay", "type", "tier", "tierLabel"];

fn vehicle_schemas() -> Vec<(&'static str, Value)> {
    let mut vehicle_properties = summary_properties();
    if let Value::Object(map) = &mut vehicle_properties {
        map.insert(
            "quotes".into(),
            doc(
                json!({ "type": "array", "items": schema_ref("Quote") }),
                "Every current quote.",
            ),
        );
        map.insert("exchangeRate".into(), schema_ref("ExchangeRate"));
        map.insert("specs".into(), schema_ref("Specs"));
    }
    vec![
        (
            "Summary",
            object(
                "A vehicle version in list results.",
                summary_properties(),
                &SUMMARY_OPTIONAL,
            ),
        ),
        (
            "Vehicle",
            object(
                "The full record of a version: Summary plus quotes, exchange rate and specifications.",
                vehicle_properties,
                &SUMMARY_OPTIONAL,
            ),
        ),
        (
            "Comparison",
            object(
                "How the current price compares with the usual price.",
                json!({
                    "windowDays": { "type": "integer", "const": WINDOW_DAYS },
                    "typicalPriceUsd": doc(nullable("number"), "Usual price: median of weekly dealer averages over the window."),
                    "lowestPriceUsd": doc(nullable("number"), "Lowest price in the window."),
                    "discountPct": doc(nullable("number"), "Percent below the usual price (negative: above); not a \
                        manufacturer discount. Null when unknown or history is insufficient."),
                    "observedWeeks": { "type": "integer", "minimum": 0 },
                    "sufficientHistory": { "type": "boolean" },
                    "opportunity": doc(json!({ "type": "boolean" }), "The qualified signal; use it rather than discountPct alone."),
                }),
                &[],
            ),
        ),
        (
            "RecentChanges",
            object(
                "Recent change per window (1d, 3d, 7d), measured back from catalogueObservedAt.",
                Value::Object(
                    Window::names()
                        .into_iter()
                        .map(|w| (w.to_owned(), nullable_ref("RecentChange")))
                        .collect(),
                ),
                &[],
            ),
        ),
        ("RecentChange", recent_change_schema()),
        ("Quote", quote_schema()),
        (
            "ExchangeRate",
            object(
                "Exchange rate observed at the quote check.",
                json!({
                    "arsPerUsd": doc(nullable("number"), "ARS per USD; null when the check saw no rate."),
                    "observedAt": date_time(),
                }),
                &[],
            ),
        ),
        ("Specs", specs_schema()),
        (
            "SpecSource",
            object(
                "One source document of a specification record.",
                json!({
                    "publisher": { "type": "string" },
                    "title": { "type": "string" },
                    "url": uri(),
                    "kind": { "type": "string" },
                    "documentDate": nullable("string"),
                    "retrievedAt": { "type": "string" },
                }),
                &[],
            ),
        ),
    ]
}

fn recent_change_schema() -> Value {
    object(
        "A detected price drop or a newly qualifying opportunity.",
        json!({
            "kind": string_enum(&ChangeKind::names()),
            "changedAt": doc(nullable_date_time(), "Detected catalogue change time; null for qualification without a new price change."),
            "qualifiedSince": doc(nullable_date_time(), "Monitoring-window boundary for a newly qualifying opportunity \
                without a price change; not an exact event time."),
            "dropPct": doc(nullable("number"), "Positive percentage reduction; null when there was no reduction."),
            "previousPriceUsd": doc(nullable("number"), "Reference catalogue price at the current observed exchange rate."),
            "currentPriceUsd": doc(json!({ "type": "number" }), "Current catalogue price at the same rate."),
            "conversionBasis": { "type": "string", "const": "current_observed_exchange_rate" },
        }),
        &[],
    )
}

fn quote_schema() -> Value {
    object(
        "One dealer quote; registration fees are excluded.",
        json!({
            "id": { "type": "string" },
            "price": doc(json!({ "type": "number" }), "Price in the original currency."),
            "currency": string_enum(&Currency::names()),
            "priceUsd": doc(json!({ "type": "number" }), "USD equivalent at the exchange rate observed at the quote check."),
            "feesIncluded": doc(nullable("boolean"), "Freight and paperwork included."),
            "color": nullable("string"),
            "stock": nullable("integer"),
            "location": nullable("string"),
            "sellerId": nullable("string"),
        }),
        &[],
    )
}

fn specs_schema() -> Value {
    let mut specs = object(
        "Sourced official specifications, or null. Missing, null or a recorded gap means \
         unknown, unclear or disputed; it never means absent.",
        json!({
            "collectedAt": { "type": "string" },
            "sourceLabel": nullable("string"),
            "values": doc(json!({ "type": "object" }), "Original sourced values by name. Unit suffixes on \
                names: Mm, Kg, L, Kw, Nm, Kmh, L100km; equipment values are true, false or \"optional\"."),
            "sourceOf": doc(string_map(), "Value name to an entry key in sources."),
            "sources": { "type": "object", "additionalProperties": schema_ref("SpecSource") },
            "gaps": doc(json!({ "type": "object" }), "Missing, disputed, contradictory, unreadable or unassigned values."),
        }),
        &[],
    );
    specs["type"] = json!(["object", "null"]);
    specs
}

fn error_schema() -> Value {
    let detail = object(
        "A problem with one parameter.",
        json!({
            "path": { "type": "string" },
            "message": { "type": "string" },
        }),
        &[],
    );
    let error = object(
        "What went wrong.",
        json!({
            "code": doc(json!({ "type": "string" }), "Machine-readable code, e.g. invalid_parameters, not_found, \
                method_not_allowed, uri_too_long."),
            "message": { "type": "string" },
            "details": { "type": "array", "items": detail },
        }),
        &["details"],
    );
    object("Error body.", json!({ "error": error }), &[])
}

// -------------------------------------------------------------- helpers

/// A closed object whose properties are all required except `optional`.
fn object(description: &str, properties: Value, optional: &[&str]) -> Value {
    let required: Vec<&str> = properties
        .as_object()
        .map(|map| {
            map.keys()
                .map(String::as_str)
                .filter(|key| !optional.contains(key))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "type": "object",
        "description": description,
        "required": required,
        "properties": properties,
        "additionalProperties": false,
    })
}

fn doc(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn parameter_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/parameters/{name}") })
}

fn header_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/headers/{name}") })
}

fn response_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/responses/{name}") })
}

fn nullable_ref(name: &str) -> Value {
    json!({ "anyOf": [schema_ref(name), { "type": "null" }] })
}

fn nullable(kind: &str) -> Value {
    json!({ "type": [kind, "null"] })
}

fn string_enum(values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values })
}

fn nullable_enum(values: &[&str]) -> Value {
    let mut all: Vec<Value> = values.iter().map(|value| json!(value)).collect();
    all.push(Value::Null);
    json!({ "type": ["string", "null"], "enum": all })
}

fn string_map() -> Value {
    json!({ "type": "object", "additionalProperties": { "type": "string" } })
}

fn date_time() -> Value {
    json!({ "type": "string", "format": "date-time" })
}

fn nullable_date_time() -> Value {
    json!({ "type": ["string", "null"], "format": "date-time" })
}

fn uri() -> Value {
    json!({ "type": "string", "format": "uri" })
}
