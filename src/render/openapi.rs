//! Render stage, OpenAPI: builds `openapi.json` (OpenAPI 3.1.1, schemas in
//! JSON Schema 2020-12) from the API layer's bounds, defaults and
//! vocabularies. It reads only the base URL, so the document changes with
//! the code, never with the snapshot.
//!
//! The schemas describe exactly what the `api::types` and `catalogue` structs
//! serialize (closed objects; fields the Rust code skips when absent are the
//! only optional ones); the integration tests validate real payloads against
//! them. JSON bodies are written with `json!`, whose insertion order
//! (`preserve_order`) is the document's key order.

use serde_json::{Map, Value, json};

use crate::api::links::Links;
use crate::api::query::{
    COMPARE_IDS, DEFAULT_LIMIT, DealSort, DealsQuery, MAX_AIRBAGS, MAX_DISCOUNT_PCT, MAX_ID_CHARS,
    MAX_LIMIT, MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_QUERY_CHARS, MAX_SEATS, SearchQuery,
    SearchSort, spelling_of,
};
use crate::api::types::{API_VERSION, DealKind, SCHEMA_VERSION};
use crate::catalogue::WINDOW_DAYS;
use crate::vocab::{
    BodyType, ChangeKind, Currency, Drivetrain, Fuel, Reason, Transmission, Window,
};

/// Item bounds of compare `ids`.
const MIN_COMPARE_IDS: usize = *COMPARE_IDS.start();
const MAX_COMPARE_IDS: usize = *COMPARE_IDS.end();

/// Summary fields the Rust code omits when absent (`feedUrl` is not emitted yet).
const SUMMARY_OPTIONAL: [&str; 5] = ["feedUrl", "trimDisplay", "type", "tier", "tierLabel"];

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
        "tags": [
            { "name": "service", "description": "Entry point and catalogue overview." },
            { "name": "deals", "description": "Buying opportunities and recent price changes." },
            { "name": "vehicles", "description": "Search, detail and comparison of versions." },
            { "name": "models", "description": "Prices of every version of one model." },
        ],
        "paths": paths(),
        "components": {
            "parameters": shared_parameters(),
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

// ---------------------------------------------------------------- paths

/// One GET operation: its parameters, the schema of its 200 body and
/// whether it can answer 404 (every operation answers 304, 400, 405 and 414).
struct Operation {
    path: &'static str,
    id: &'static str,
    tag: &'static str,
    summary: &'static str,
    description: &'static str,
    parameters: fn() -> Vec<Value>,
    body: &'static str,
    not_found: bool,
}

/// The seven operations, in the spec's order.
const OPERATIONS: [Operation; 7] = [
    Operation {
        path: "/api/v1",
        id: "get_api_info",
        tag: "service",
        summary: "Entry point: version, snapshot date and links",
        description: "Returns ApiInfo directly, not inside the envelope. Takes no parameters.",
        parameters: Vec::new,
        body: "ApiInfo",
        not_found: false,
    },
    Operation {
        path: "/api/v1/deals",
        id: "find_deals",
        tag: "deals",
        summary: "Find buying opportunities",
        description: "Current opportunities, recent price drops or newly qualifying \
            opportunities, filtered by the shared search filters. `recommended` ranks \
            opportunities by discount, price drops by percentage reduction and new \
            opportunities by recency; ties break by price, then by ID. A recent-deal search \
            may legitimately return an empty list.",
        parameters: deals_parameters,
        body: "DealsResponse",
        not_found: false,
    },
    Operation {
        path: "/api/v1/models/prices",
        id: "get_model_prices",
        tag: "models",
        summary: "Prices of every version of a model",
        description: "Versions are ordered by price, cheapest first. fromPriceUsd, \
            toPriceUsd, versionCount, opportunityCount, cheapestVersion and quoteDates cover \
            the whole model even when versions are paginated. Make and model match ignoring \
            case and accents; an unknown model gives 404.",
        parameters: model_prices_parameters,
        body: "ModelPricesResponse",
        not_found: true,
    },
    Operation {
        path: "/api/v1/vehicles",
        id: "search_vehicles",
        tag: "vehicles",
        summary: "Search vehicle versions",
        description: "Versions matching the shared search filters, cheapest first by \
            default; ties break by ID. Follow pagination.nextOffset until it is null, and \
            restart at offset 0 if snapshotAt changes between pages.",
        parameters: search_parameters,
        body: "SearchResponse",
        not_found: false,
    },
    Operation {
        path: "/api/v1/vehicles/{id}",
        id: "get_vehicle",
        tag: "vehicles",
        summary: "Full record of one version",
        description: "Every current quote, the exchange rate and the sourced specifications \
            of one version. An unknown ID or a version outside the current priced catalogue \
            gives 404.",
        parameters: id_parameters,
        body: "DetailResponse",
        not_found: true,
    },
    Operation {
        path: "/api/v1/compare",
        id: "compare_vehicles",
        tag: "vehicles",
        summary: "Compare 2 to 4 versions",
        description: "Full records of the versions, in the order asked, and a shareable \
            comparison page. Duplicate IDs give 400; an unknown ID gives 404. Missing \
            specifications remain unknown.",
        parameters: ids_parameters,
        body: "CompareResponse",
        not_found: true,
    },
    Operation {
        path: "/api/v1/catalogue",
        id: "get_catalogue",
        tag: "service",
        summary: "Catalogue overview",
        description: "Supported makes and models, the filter values present and coverage \
            counts. Takes no parameters.",
        parameters: Vec::new,
        body: "CatalogueResponse",
        not_found: false,
    },
];

fn paths() -> Value {
    let mut paths = Map::new();
    for operation in &OPERATIONS {
        paths.insert(
            operation.path.to_owned(),
            json!({ "get": render_operation(operation) }),
        );
    }
    Value::Object(paths)
}

fn render_operation(operation: &Operation) -> Value {
    let mut responses = Map::new();
    responses.insert("200".into(), success(operation.body));
    responses.insert("304".into(), component_ref("responses", "NotModified"));
    // Every operation rejects unknown and repeated parameters, even those that take none.
    responses.insert("400".into(), component_ref("responses", "BadRequest"));
    if operation.not_found {
        responses.insert("404".into(), component_ref("responses", "NotFound"));
    }
    responses.insert("405".into(), component_ref("responses", "MethodNotAllowed"));
    responses.insert("414".into(), component_ref("responses", "UriTooLong"));
    let mut rendered = json!({
        "operationId": operation.id,
        "tags": [operation.tag],
        "summary": operation.summary,
        "description": format!(
            "{} HEAD (same headers, no body) and OPTIONS (CORS preflight) are also answered.",
            operation.description
        ),
    });
    let parameters = (operation.parameters)();
    if !parameters.is_empty() {
        rendered["parameters"] = Value::Array(parameters);
    }
    rendered["responses"] = Value::Object(responses);
    rendered
}

fn success(body: &str) -> Value {
    json!({
        "description": "OK",
        "headers": {
            "ETag": component_ref("headers", "ETag"),
            "Cache-Control": component_ref("headers", "CacheControl"),
            "Access-Control-Allow-Origin": component_ref("headers", "AccessControlAllowOrigin"),
        },
        "content": { "application/json": { "schema": schema_ref(body) } },
    })
}

// ----------------------------------------------------------- parameters

/// Reusable parameters: the shared search filters (spec order), limit and offset.
fn shared_parameters() -> Value {
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

fn deals_parameters() -> Vec<Value> {
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

fn search_parameters() -> Vec<Value> {
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

fn model_prices_parameters() -> Vec<Value> {
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

fn id_parameters() -> Vec<Value> {
    vec![json!({
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The original, case-sensitive vehicle ID.",
        "schema": id_schema(),
    })]
}

fn ids_parameters() -> Vec<Value> {
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
fn with_filters_and_page(own: Map<String, Value>) -> Vec<Value> {
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
fn query_parameters(table: Value) -> Map<String, Value> {
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
    let error = |description: &str, example: Value| {
        json!({
            "description": description,
            "headers": { "Cache-Control": component_ref("headers", "CacheControl") },
            "content": { "application/json": {
                "schema": schema_ref("Error"),
                "example": { "error": example },
            } },
        })
    };
    json!({
        "NotModified": {
            "description": "Not Modified: the If-None-Match validator matches; no body.",
            "headers": { "ETag": component_ref("headers", "ETag") },
        },
        "BadRequest": error(
            "Invalid, unknown or repeated parameter, reversed budget bounds or duplicate IDs.",
            json!({ "code": "invalid_parameters", "message": "invalid parameters",
                "details": [{ "path": "limit", "message": "must be 1 to 100" }] }),
        ),
        "NotFound": error(
            "Unknown route, unknown model, or a version outside the current priced catalogue.",
            json!({ "code": "not_found", "message": "no published version with id \"x\"" }),
        ),
        "MethodNotAllowed": error(
            "Method other than GET, HEAD or OPTIONS.",
            json!({ "code": "method_not_allowed", "message": "method not allowed" }),
        ),
        "UriTooLong": error(
            "Query string longer than 4096 characters.",
            json!({ "code": "uri_too_long", "message": "query string too long" }),
        ),
    })
}

// -------------------------------------------------------------- schemas

fn schemas() -> Value {
    let mut all = Map::new();
    for group in [
        envelopes(),
        service_schemas(),
        list_schemas(),
        vehicle_schemas(),
        signal_schemas(),
    ] {
        if let Value::Object(group) = group {
            all.extend(group);
        }
    }
    Value::Object(all)
}

/// `{Payload}Response`: the envelope around each payload but ApiInfo.
fn envelopes() -> Value {
    let payloads = [
        "Catalogue",
        "Search",
        "Deals",
        "ModelPrices",
        "Detail",
        "Compare",
    ];
    let envelope = |data: &str| {
        object(
            "Envelope of a successful query.",
            json!({
                "schemaVersion": { "type": "integer", "const": SCHEMA_VERSION },
                "snapshotAt": doc(date_time(), "Latest capture anywhere in the site; not the check date \
                    of every quote."),
                "catalogueObservedAt": doc(date_time(), "When the catalogue was checked; reference time \
                    of recent-change windows."),
                "source": doc(uri(), "Address of the original listing site."),
                "methodologyUrl": doc(uri(), "Methodology page."),
                "documentationUrl": doc(uri(), "Developer documentation."),
                "data": schema_ref(data),
            }),
            &[],
        )
    };
    Value::Object(
        payloads
            .iter()
            .map(|data| (format!("{data}Response"), envelope(data)))
            .collect(),
    )
}

/// ApiInfo, Catalogue, the single-record payloads and the error body.
fn service_schemas() -> Value {
    let count = json!({ "type": "integer", "minimum": 0 });
    json!({
        "ApiInfo": object("Entry point of the API (not enveloped).", json!({
            "name": { "type": "string" },
            "version": { "type": "string" },
            "snapshotAt": date_time(),
            "documentationUrl": uri(),
            "openapiUrl": uri(),
            "mcpUrl": uri(),
            "endpoints": { "type": "array", "items": { "type": "string", "format": "uri-template" },
                "description": "Absolute URL of every operation; path parameters in braces." },
        }), &[]),
        "Catalogue": object("Supported makes, models, filter values and coverage counts.", json!({
            "vehicleCount": count, "modelCount": count, "versionsWithSpecs": count,
            "opportunityCount": count,
            "makes": { "type": "array", "items": { "type": "string" } },
            "models": { "type": "array", "items": schema_ref("MakeModel") },
            "filters": { "type": "object", "description": "Filter name to the values present.",
                "additionalProperties": { "type": "array", "items": { "type": ["string", "number"] } } },
        }), &[]),
        "MakeModel": object("A make and model.", json!({
            "make": { "type": "string" }, "model": { "type": "string" },
        }), &[]),
        "Detail": object("The full record of one version.", json!({
            "vehicle": schema_ref("Vehicle"),
        }), &[]),
        "Compare": object("Versions compared, in the order asked.", json!({
            "vehicles": { "type": "array", "items": schema_ref("Vehicle"),
                "minItems": MIN_COMPARE_IDS, "maxItems": MAX_COMPARE_IDS },
            "url": doc(uri(), "Shareable comparison page."),
        }), &[]),
        "Error": error_schema(),
    })
}

/// The paginated lists and their parts.
fn list_schemas() -> Value {
    let count = json!({ "type": "integer", "minimum": 0 });
    let summaries = json!({ "type": "array", "items": schema_ref("Summary") });
    let kinds = DealKind::ALL.map(|(_, name)| name);
    json!({
        "Search": object("A page of search results.", json!({
            "vehicles": summaries, "pagination": schema_ref("Pagination"),
        }), &[]),
        "Deals": object("A page of deals.", json!({
            "kind": string_enum(&kinds),
            "window": string_enum(&Window::names()),
            "vehicles": summaries,
            "pagination": schema_ref("Pagination"),
        }), &[]),
        "ModelPrices": object("Prices of one model; totals cover every version, not only the page.", json!({
            "make": { "type": "string" },
            "model": { "type": "string" },
            "url": doc(uri(), "Model page."),
            "fromPriceUsd": { "type": "number" },
            "toPriceUsd": { "type": "number" },
            "versionCount": count,
            "opportunityCount": count,
            "cheapestVersion": schema_ref("Summary"),
            "quoteDates": schema_ref("QuoteDates"),
            "vehicles": summaries,
            "pagination": schema_ref("Pagination"),
        }), &[]),
        "QuoteDates": object("Oldest and newest quote check of a model's versions.", json!({
            "oldest": date_time(), "newest": date_time(),
        }), &[]),
        "Pagination": object("Paging facts of a list.", json!({
            "total": { "type": "integer", "minimum": 0, "description": "Matches before paging." },
            "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT },
            "offset": { "type": "integer", "minimum": 0, "maximum": MAX_OFFSET },
            "nextOffset": { "type": ["integer", "null"], "minimum": 0,
                "description": "Offset of the next page; null when there is none." },
        }), &[]),
    })
}

/// Summary and Vehicle (Summary's properties repeated, so both stay closed).
fn vehicle_schemas() -> Value {
    let mut vehicle = summary_properties();
    vehicle["quotes"] = json!({ "type": "array", "items": schema_ref("Quote"),
        "description": "Every current quote." });
    vehicle["exchangeRate"] = schema_ref("ExchangeRate");
    vehicle["specs"] = schema_ref("Specs");
    json!({
        "Summary": object("A vehicle version in list results.", summary_properties(), &SUMMARY_OPTIONAL),
        "Vehicle": object("The full record of a version: Summary plus quotes, exchange rate and \
            specifications.", vehicle, &SUMMARY_OPTIONAL),
    })
}

/// Properties of a Summary, in serialization order.
fn summary_properties() -> Value {
    json!({
        "id": doc(id_schema(), "Original, case-sensitive catalogue ID."),
        "url": doc(uri(), "Canonical page on the service's website."),
        "feedUrl": doc(uri(), "Per-version data feed."),
        "sourceUrl": doc(uri(), "Original listing."),
        "make": { "type": "string" },
        "model": { "type": "string" },
        "trim": { "type": "string" },
        "trimDisplay": { "type": "string", "description": "Display form of trim." },
        "type": doc(string_enum(&BodyType::names()), "Body type."),
        "tier": { "type": "string", "description": "Native tier label." },
        "tierLabel": { "type": ["string", "null"], "description": "Native tier label text; no \
            tier is inferred from price." },
        "fuel": nullable_enum(&Fuel::names()),
        "transmission": nullable_enum(&Transmission::names()),
        "seats": { "type": ["integer", "null"], "minimum": 0, "description": "Unknown is null." },
        "airbags": { "type": ["integer", "null"], "minimum": 0, "description": "Unknown is null." },
        "factSources": doc(string_map(), "Catalogue fact name to its source kind (official, catalogue)."),
        "observedAt": doc(date_time(), "When this version's detailed quotes, stock and exchange \
            rate were checked."),
        "currentPriceUsd": { "type": "number", "description": "Lowest detailed dealer quote in \
            USD at observedAt; recent-change prices may be newer." },
        "comparison": schema_ref("Comparison"),
        "hasSpecs": { "type": "boolean", "description": "Official specifications available." },
        "recentChanges": schema_ref("RecentChanges"),
        "quoteCount": { "type": "integer", "minimum": 0 },
        "bestQuote": doc(nullable_ref("Quote"), "The lowest quote, in its original currency."),
        "availability": { "type": "string", "const": "InStock",
            "description": "The listing had stock at observedAt." },
        "reasons": { "type": "array", "items": string_enum(&Reason::names()),
            "description": "Why the version is a deal; recent reasons cover seven days." },
    })
}

/// Comparison, recent changes, quotes, the exchange rate and specifications.
fn signal_schemas() -> Value {
    let nullable_number = json!({ "type": ["number", "null"] });
    let nullable_string = json!({ "type": ["string", "null"] });
    let windows = Window::names()
        .into_iter()
        .map(|w| (w.to_owned(), nullable_ref("RecentChange")));
    json!({
        "Comparison": object("How the current price compares with the usual price.", json!({
            "windowDays": { "type": "integer", "const": WINDOW_DAYS },
            "typicalPriceUsd": doc(nullable_number.clone(), "Usual price: median of weekly dealer \
                averages over the window."),
            "lowestPriceUsd": doc(nullable_number.clone(), "Lowest price in the window."),
            "discountPct": doc(nullable_number.clone(), "Percent below the usual price (negative: \
                above); not a manufacturer discount. Null when unknown or history is insufficient."),
            "observedWeeks": { "type": "integer", "minimum": 0 },
            "sufficientHistory": { "type": "boolean" },
            "opportunity": { "type": "boolean", "description": "The qualified signal; use it \
                rather than discountPct alone." },
        }), &[]),
        "RecentChanges": object("Recent change per window, measured back from \
            catalogueObservedAt.", Value::Object(windows.collect()), &[]),
        "RecentChange": object("A detected price drop or a newly qualifying opportunity.", json!({
            "kind": string_enum(&ChangeKind::names()),
            "changedAt": doc(nullable_date_time(), "Detected catalogue change time; null for \
                qualification without a new price change."),
            "qualifiedSince": doc(nullable_date_time(), "Monitoring-window boundary for a newly \
                qualifying opportunity without a price change; not an exact event time."),
            "dropPct": doc(nullable_number.clone(), "Positive percentage reduction; null when \
                there was no reduction."),
            "previousPriceUsd": doc(nullable_number.clone(), "Reference catalogue price at the \
                current observed exchange rate."),
            "currentPriceUsd": { "type": "number", "description": "Current catalogue price at \
                the same rate." },
            "conversionBasis": { "type": "string", "const": "current_observed_exchange_rate" },
        }), &[]),
        "Quote": object("One dealer quote; registration fees are excluded.", json!({
            "id": { "type": "string" },
            "price": { "type": "number", "description": "Price in the original currency." },
            "currency": string_enum(&Currency::names()),
            "priceUsd": { "type": "number", "description": "USD equivalent at the exchange rate \
                observed at the quote check." },
            "feesIncluded": { "type": ["boolean", "null"], "description": "Freight and paperwork \
                included." },
            "color": nullable_string,
            "stock": { "type": ["integer", "null"] },
            "location": nullable_string,
            "sellerId": nullable_string,
        }), &[]),
        "ExchangeRate": object("Exchange rate observed at the quote check.", json!({
            "arsPerUsd": doc(nullable_number, "ARS per USD; null when the check saw no rate."),
            "observedAt": date_time(),
        }), &[]),
        "Specs": specs_schema(),
        "SpecSource": object("One source document of a specification record.", json!({
            "publisher": { "type": "string" },
            "title": { "type": "string" },
            "url": uri(),
            "kind": { "type": "string" },
            "documentDate": nullable_string,
            "retrievedAt": { "type": "string" },
        }), &[]),
    })
}

fn specs_schema() -> Value {
    let mut specs = object(
        "Sourced official specifications, or null. Missing, null or a recorded gap means \
         unknown, unclear or disputed; it never means absent.",
        json!({
            "collectedAt": { "type": "string" },
            "sourceLabel": { "type": ["string", "null"] },
            "values": { "type": "object", "description": "Original sourced values by name. Unit \
                suffixes on names: Mm, Kg, L, Kw, Nm, Kmh, L100km; power carries powerUnit. \
                Equipment values are true, false or \"optional\"." },
            "sourceOf": doc(string_map(), "Value name to an entry key in sources."),
            "sources": { "type": "object", "additionalProperties": schema_ref("SpecSource") },
            "gaps": { "type": "object", "description": "Missing, disputed, contradictory, \
                unreadable or unassigned source values." },
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
            "code": { "type": "string", "description": "Machine-readable code: invalid_parameters, \
                not_found, method_not_allowed or uri_too_long." },
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
    component_ref("schemas", name)
}

fn component_ref(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}

fn nullable_ref(name: &str) -> Value {
    json!({ "anyOf": [schema_ref(name), { "type": "null" }] })
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
