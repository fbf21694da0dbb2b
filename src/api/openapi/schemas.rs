//! Render stage, OpenAPI schemas: every payload as a component schema with
//! its required fields, matching what the response types serialize.

use crate::api::query::{MAX_LIMIT, MAX_OFFSET};
use crate::api::types::{DealKind, SCHEMA_VERSION};
use crate::catalogue::WINDOW_DAYS;
use crate::vocab::{BodyType, ChangeKind, Currency, Fuel, Reason, Transmission, Window};
use serde_json::{Map, Value, json};

use super::*;

pub(super) fn schemas() -> Value {
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
pub(super) fn envelopes() -> Value {
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
pub(super) fn service_schemas() -> Value {
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
            "exchangeRate": doc(nullable_ref("CurrentRate"), "The current observed exchange rate: \
                it converts dollar quotes for priceArs and the peso budgets, and every \
                recent-change price. Null when no quote check observed a rate."),
        }), &[]),
        "CurrentRate": object("The newest exchange rate observed at any quote check.", json!({
            "arsPerUsd": { "type": "number", "exclusiveMinimum": 0 },
            "observedAt": date_time(),
            "source": { "type": ["string", "null"], "description": "Which dollar it is, when \
                the snapshot names it; null means the rate the listing site used at that check." },
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
pub(super) fn list_schemas() -> Value {
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
pub(super) fn vehicle_schemas() -> Value {
    let mut vehicle = summary_properties();
    vehicle["quotes"] = json!({ "type": "array", "items": schema_ref("Quote"),
        "description": "Every current quote." });
    vehicle["exchangeRate"] = schema_ref("ExchangeRate");
    vehicle["specs"] = schema_ref("Specs");
    vehicle["history"] = schema_ref("History");
    json!({
        "History": object("The weekly dealer-price history of the 180-day window.", json!({
            "currency": doc(nullable_enum(&["ARS", "USD"]), "The one currency of the window's \
                quotes; null when they mix pesos and dollars."),
            "usualPrice": { "type": ["number", "null"], "description": "Median of the weekly \
                averages in currency (the usual level as quoted)." },
            "lowestPrice": { "type": ["number", "null"], "description": "Lowest dealer price of \
                the window in currency." },
            "weeks": { "type": "array", "items": schema_ref("HistoryWeek"), "description":
                "Oldest first: the weeks typicalPriceUsd is the median of." },
        }), &[]),
        "HistoryWeek": object("One week's time-weighted average dealer price.", json!({
            "weekStart": { "type": "string", "format": "date", "description": "Monday of the \
                ISO week, Argentine date." },
            "price": { "type": ["number", "null"], "description": "In the history's currency." },
            "priceUsd": { "type": "number", "description": "In USD at each check's rate." },
        }), &[]),
        "Summary": object("A vehicle version in list results.", summary_properties(), &SUMMARY_OPTIONAL),
        "Vehicle": object("The full record of a version: Summary plus quotes, exchange rate and \
            specifications.", vehicle, &SUMMARY_OPTIONAL),
    })
}

/// Properties of a Summary, in serialization order.
pub(super) fn summary_properties() -> Value {
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
        "priceArs": { "type": ["number", "null"], "minimum": 0, "description": "The price in \
            pesos, in whole pesos: the best quote's price when quoted in ARS, else its USD price \
            at the current observed exchange rate (Catalogue exchangeRate). minPriceArs, \
            maxPriceArs and the price_ars sorts read it. Null without a current rate." },
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
pub(super) fn signal_schemas() -> Value {
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

pub(super) fn specs_schema() -> Value {
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

pub(super) fn error_schema() -> Value {
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
pub(super) fn object(description: &str, properties: Value, optional: &[&str]) -> Value {
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

pub(super) fn doc(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

pub(super) fn schema_ref(name: &str) -> Value {
    component_ref("schemas", name)
}

pub(super) fn component_ref(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}

pub(super) fn nullable_ref(name: &str) -> Value {
    json!({ "anyOf": [schema_ref(name), { "type": "null" }] })
}

pub(super) fn string_enum(values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values })
}

pub(super) fn nullable_enum(values: &[&str]) -> Value {
    let mut all: Vec<Value> = values.iter().map(|value| json!(value)).collect();
    all.push(Value::Null);
    json!({ "type": ["string", "null"], "enum": all })
}

pub(super) fn string_map() -> Value {
    json!({ "type": "object", "additionalProperties": { "type": "string" } })
}

pub(super) fn date_time() -> Value {
    json!({ "type": "string", "format": "date-time" })
}

pub(super) fn nullable_date_time() -> Value {
    json!({ "type": ["string", "null"], "format": "date-time" })
}

pub(super) fn uri() -> Value {
    json!({ "type": "string", "format": "uri" })
}
