//! OpenAPI tests: the document's shape (version, operations, parameter bounds
//! and defaults, resolvable references, determinism) and JSON Schema
//! validation of hand-written and real payloads against its component schemas.

use std::collections::BTreeMap;

use autoprecios::api::error::Missing;
use autoprecios::api::json::to_json_bytes;
use autoprecios::api::links::Links;
use autoprecios::api::openapi::{component_schemas, render_openapi};
use autoprecios::api::ops::api_info::get_api_info;
use autoprecios::api::ops::catalogue::get_catalogue;
use autoprecios::api::ops::compare::compare_vehicles;
use autoprecios::api::ops::deals::find_deals;
use autoprecios::api::ops::http_operations;
use autoprecios::api::ops::model_prices::get_model_prices;
use autoprecios::api::ops::search::search_vehicles;
use autoprecios::api::ops::vehicle::get_vehicle;
use autoprecios::api::params::Problem;
use autoprecios::api::query::{CompareQuery, DealsQuery, ModelQuery, Page, SearchQuery};
use autoprecios::api::types::DealKind;
use autoprecios::api::{ApiError, Index};
use autoprecios::catalogue::{
    Catalogue, CatalogueMeta, Comparison, ExchangeRate, Identity, Quote, RecentChange,
    RecentChanges, SpecSource, Specs, Vehicle, WINDOW_DAYS,
};
use autoprecios::time::{Time, parse_time};
use autoprecios::vocab::{
    BodyType, ChangeKind, Currency, Drivetrain, Fuel, Reason, Transmission, Window,
};
use serde::Serialize;
use serde_json::{Value, json};

const BASE: &str = "https://autoprecios.example";

/// Validates `instance` against `#/components/schemas/{schema_name}` of an
/// OpenAPI 3.1 document: the whole document is compiled as a JSON Schema
/// 2020-12 with a root `$ref` (its other top-level keys are unknown keywords,
/// which 2020-12 ignores), so every internal reference resolves. Formats
/// (date-time, uri) are asserted. Returns every error, one per line.
pub fn validate_against(
    openapi: &Value,
    schema_name: &str,
    instance: &Value,
) -> Result<(), String> {
    let mut root = openapi.clone();
    let Some(object) = root.as_object_mut() else {
        return Err("the OpenAPI document is not an object".to_owned());
    };
    object.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    object.insert(
        "$ref".into(),
        json!(format!("#/components/schemas/{schema_name}")),
    );
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&root)
        .map_err(|error| format!("compiling schema {schema_name}: {error}"))?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| {
            format!(
                "{schema_name} at {:?}: {error}",
                error.instance_path().as_str()
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

fn document() -> Value {
    render_openapi(&Links::new(BASE, []))
}

fn t(text: &str) -> Time {
    parse_time(text).expect("fixture time")
}

fn to_value<T: Serialize>(payload: &T) -> Value {
    serde_json::from_slice(&to_json_bytes(payload)).expect("payload is JSON")
}

// ------------------------------------------------------------ document

#[test]
fn document_is_openapi_3_1_1_with_every_operation() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.1");
    assert_eq!(doc["info"]["title"], "autoprecios API");
    assert_eq!(doc["info"]["version"], "1.0.0");
    assert_eq!(doc["servers"][0]["url"], BASE);
    let mut ids = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let operation = &item["get"];
        ids.push(
            operation["operationId"]
                .as_str()
                .expect("operationId")
                .to_owned(),
        );
        for status in ["200", "304", "400", "405", "414"] {
            assert!(
                operation["responses"].get(status).is_some(),
                "{path} lacks {status}"
            );
        }
    }
    assert_eq!(
        ids,
        [
            "get_api_info",
            "find_deals",
            "get_model_prices",
            "search_vehicles",
            "get_vehicle",
            "compare_vehicles",
            "get_catalogue",
            "list_market_reports",
            "get_market_report",
            "get_series"
        ]
    );
    assert_eq!(
        doc["paths"]["/api/v1/vehicles/{id}"]["get"]["responses"]["404"]["$ref"],
        "#/components/responses/NotFound"
    );
}

#[test]
fn parameters_carry_the_spec_bounds_and_defaults() {
    let doc = document();
    let shared = &doc["components"]["parameters"];
    assert_eq!(
        shared["limit"]["schema"],
        json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 20})
    );
    assert_eq!(
        shared["offset"]["schema"],
        json!({"type": "integer", "minimum": 0, "maximum": 100000, "default": 0})
    );
    assert_eq!(
        shared["minAirbags"]["schema"],
        json!({"type": "integer", "minimum": 0, "maximum": 30})
    );
    assert_eq!(
        shared["minSeats"]["schema"],
        json!({"type": "integer", "minimum": 1, "maximum": 100})
    );
    assert_eq!(
        shared["q"]["schema"],
        json!({"type": "string", "maxLength": 200})
    );
    assert_eq!(shared["fuel"]["schema"]["enum"], json!(Fuel::names()));
    assert_eq!(
        shared["drivetrain"]["schema"]["enum"],
        json!(Drivetrain::names())
    );

    let compare = &doc["paths"]["/api/v1/compare"]["get"]["parameters"][0];
    assert_eq!(compare["name"], "ids");
    assert_eq!(compare["in"], "query");
    assert_eq!(compare["required"], true);
    assert_eq!(compare["style"], "form");
    assert_eq!(compare["explode"], false);
    assert_eq!(
        compare["schema"]["items"],
        json!({"type": "string", "minLength": 1, "maxLength": 160})
    );
    assert_eq!(
        (
            compare["schema"]["minItems"].as_u64(),
            compare["schema"]["maxItems"].as_u64()
        ),
        (Some(2), Some(4))
    );

    let deals = &doc["paths"]["/api/v1/deals"]["get"]["parameters"];
    let inline = |name: &str| {
        deals
            .as_array()
            .expect("parameters")
            .iter()
            .find(|p| p["name"] == name)
            .expect("inline parameter")
            .clone()
    };
    assert_eq!(inline("kind")["schema"]["default"], "opportunities");
    assert_eq!(
        inline("window")["schema"],
        json!({"type": "string", "enum": ["1d", "3d", "7d"], "default": "7d"})
    );
    assert_eq!(inline("sort")["schema"]["default"], "recommended");
    let prices = &doc["paths"]["/api/v1/models/prices"]["get"]["parameters"];
    assert_eq!(prices[0]["required"], true);
    assert_eq!(
        prices[0]["schema"],
        json!({"type": "string", "minLength": 1, "maxLength": 100})
    );
    let id = &doc["paths"]["/api/v1/vehicles/{id}"]["get"]["parameters"][0];
    assert_eq!(
        (id["in"].as_str(), id["required"].as_bool()),
        (Some("path"), Some(true))
    );
}

#[test]
fn every_reference_resolves_and_output_is_deterministic() {
    let doc = document();
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(
        refs.len() > 50,
        "expected many references, found {}",
        refs.len()
    );
    for reference in refs {
        let pointer = reference.strip_prefix('#').expect("internal reference");
        assert!(doc.pointer(pointer).is_some(), "dangling {reference}");
    }
    assert_eq!(to_json_bytes(&document()), to_json_bytes(&doc));
}

#[test]
fn the_components_are_the_response_types_derived_schemas() {
    let doc = document();
    let components = component_schemas();
    assert_eq!(doc["components"]["schemas"], components);
    for (spec, http) in http_operations() {
        assert!(
            components.get(http.body).is_some(),
            "{} answers {}, which no response type derives",
            spec.name,
            http.body
        );
    }
    // Only JSON Schema's own formats: the derives' Rust number widths
    // (`uint32`, `double`) are not the contract.
    let mut formats = Vec::new();
    collect_key(&components, "format", &mut formats);
    formats.sort();
    formats.dedup();
    assert_eq!(formats, ["date", "date-time", "uri", "uri-template"]);
}

/// Which properties of a component are required, and which not.
fn required_and_optional(component: &Value) -> (Vec<&str>, Vec<&str>) {
    // A schema whose properties are all optional has no `required`.
    let required: Vec<&str> = component["required"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let optional = component["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .filter(|name| !required.contains(name))
        .collect();
    (required, optional)
}

#[test]
fn optional_fields_are_the_specs() {
    let components = component_schemas();
    // The spec's optional fields, then this server's additions (always
    // sent, but a client of v1 may meet records without them).
    let summary_optional = ["feedUrl", "trimDisplay", "type", "tier", "tierLabel"];
    let additions: [(&str, &[&str]); 2] = [
        ("Summary", &["priceRange", "dealerCount"]),
        (
            "Vehicle",
            &["priceRange", "dealerCount", "freightEstimate", "dealers"],
        ),
    ];
    for (name, added) in additions {
        let (_, optional) = required_and_optional(&components[name]);
        let expected: Vec<&str> = summary_optional.iter().chain(added).copied().collect();
        assert_eq!(optional, expected, "{name}");
    }
    let (_, optional) = required_and_optional(&components["Error"]["properties"]["error"]);
    assert_eq!(optional, ["details"]);
    // Every other object lists all its properties as required, and is closed.
    let mut objects = Vec::new();
    collect_objects(&components, &mut objects);
    for object in objects {
        assert_eq!(object["additionalProperties"], false, "{object}");
        let (_, optional) = required_and_optional(object);
        // The series answer is the national API's shape: `metadata=none`
        // leaves out `meta`, `metadata=only` the rows.
        let change = optional == ["lowest30dUsd", "returnsToEarlierPrice"];
        let record = additions.iter().any(|(_, added)| {
            optional
                .iter()
                .copied()
                .eq(summary_optional.iter().chain(*added).copied())
        });
        assert!(
            optional.is_empty()
                || record
                || change
                || optional == ["details"]
                || optional == ["data", "count", "meta"],
            "{optional:?} optional in {object}"
        );
    }
}

/// Every value of `key` anywhere in `value`.
fn collect_key(value: &Value, key: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(found)) = map.get(key) {
                out.push(found.clone());
            }
            map.values().for_each(|v| collect_key(v, key, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_key(v, key, out)),
        _ => {}
    }
}

/// Every schema with `properties` anywhere in `value`.
fn collect_objects<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            if map.get("properties").is_some_and(Value::is_object) {
                out.push(value);
            }
            map.values().for_each(|v| collect_objects(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_objects(v, out)),
        _ => {}
    }
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                out.push(reference.clone());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

// ------------------------------------------------- hand-written payloads

fn summary_sample() -> Value {
    json!({
        "id": "toyota-corolla-xei-cvt",
        "url": "https://autoprecios.example/versiones/toyota-corolla-xei-cvt",
        "sourceUrl": "https://listing.example/toyota/corolla/xei",
        "make": "Toyota",
        "model": "Corolla",
        "trim": "2.0 XEI CVT",
        "trimDisplay": "XEI CVT",
        "type": "Sedan",
        "fuel": "Petrol",
        "transmission": "Automatic",
        "seats": 5,
        "airbags": null,
        "factSources": {"seats": "official", "fuel": "catalogue"},
        "observedAt": "2026-11-21T14:05:00Z",
        "currentPriceUsd": 28450.5,
        "priceArs": 41403411.0,
        "comparison": {
            "windowDays": 180, "typicalPriceUsd": 30500.0, "lowestPriceUsd": 28000.0,
            "discountPct": 6.72, "observedWeeks": 14, "sufficientHistory": true, "opportunity": true
        },
        "hasSpecs": true,
        "recentChanges": {
            "1d": null,
            "3d": {
                "kind": "price_drop", "changedAt": "2026-11-20T12:00:00Z", "qualifiedSince": null,
                "dropPct": 3.5, "previousPriceUsd": 29480.0, "currentPriceUsd": 28450.5,
                "conversionBasis": "current_observed_exchange_rate"
            },
            "7d": {
                "kind": "price_drop", "changedAt": "2026-11-20T12:00:00Z", "qualifiedSince": null,
                "dropPct": 3.5, "previousPriceUsd": 29480.0, "currentPriceUsd": 28450.5,
                "conversionBasis": "current_observed_exchange_rate"
            }
        },
        "quoteCount": 2,
        "bestQuote": {
            "id": "q-17", "price": 41500000.0, "currency": "ARS", "priceUsd": 28450.5,
            "feesIncluded": true, "color": "Blanco", "stock": null, "location": null, "sellerId": null
        },
        "availability": "InStock",
        "reasons": ["below_typical", "price_drop"]
    })
}

fn vehicle_sample() -> Value {
    let mut vehicle = summary_sample();
    vehicle["quotes"] = json!([vehicle["bestQuote"].clone(), {
        "id": "q-18", "price": 29900.0, "currency": "USD", "priceUsd": 29900.0,
        "feesIncluded": null, "color": null, "stock": 3, "location": "CABA", "sellerId": "d-4"
    }]);
    vehicle["exchangeRate"] = json!({"arsPerUsd": 1458.7, "observedAt": "2026-11-21T14:05:00Z"});
    vehicle["specs"] = json!({
        "collectedAt": "2026-10-02", "sourceLabel": "Ficha oficial",
        "values": {"lengthMm": 4630, "aebLowSpeed": "optional"},
        "sourceOf": {"lengthMm": "s1"},
        "sources": {"s1": {
            "publisher": "Toyota Argentina", "title": "Ficha técnica Corolla",
            "url": "https://toyota.example/corolla.pdf", "kind": "official",
            "documentDate": null, "retrievedAt": "2026-10-02T10:00:00Z"
        }},
        "gaps": {"airbags": {"reason": "disputed"}}
    });
    vehicle["history"] = json!({
        "currency": "ARS", "usualPrice": 43500000.0, "lowestPrice": 41900000.0,
        "weeks": [{"weekStart": "2026-11-16", "price": 41900000.0, "priceUsd": 28724.2}]
    });
    vehicle
}

fn enveloped(data: Value) -> Value {
    json!({
        "schemaVersion": 1,
        "snapshotAt": "2026-11-21T15:10:00Z",
        "catalogueObservedAt": "2026-11-21T15:00:00Z",
        "source": "https://listing.example",
        "methodologyUrl": "https://autoprecios.example/metodologia",
        "documentationUrl": "https://autoprecios.example/developers",
        "data": data
    })
}

#[test]
fn hand_written_payloads_validate() {
    let doc = document();
    let pagination = json!({"total": 41, "limit": 20, "offset": 0, "nextOffset": 20});
    let search = enveloped(json!({"vehicles": [summary_sample()], "pagination": pagination}));
    let detail = enveloped(json!({"vehicle": vehicle_sample()}));
    let no_specs = {
        let mut vehicle = vehicle_sample();
        vehicle["specs"] = Value::Null;
        enveloped(json!({"vehicle": vehicle}))
    };
    let error = json!({"error": {"code": "invalid_parameters", "message": "invalid parameters",
        "details": [{"path": "ids[1]", "message": "duplicate ID \"a\""}]}});
    let cases = [
        ("Summary", summary_sample()),
        ("Vehicle", vehicle_sample()),
        ("SearchResponse", search),
        ("DetailResponse", detail),
        ("DetailResponse", no_specs),
        ("Error", error),
        (
            "Error",
            json!({"error": {"code": "not_found", "message": "no such version"}}),
        ),
    ];
    for (schema, payload) in cases {
        if let Err(errors) = validate_against(&doc, schema, &payload) {
            panic!("valid {schema} rejected:\n{errors}");
        }
    }
}

/// Breakages of a valid Summary: what is wrong, where (a JSON pointer), and
/// the replacement value (JSON text), or `None` to remove the field.
const BREAKAGES: [(&str, &str, Option<&str>); 8] = [
    ("missing required field", "/currentPriceUsd", None),
    ("wrong enum", "/fuel", Some(r#""Gasoline""#)),
    (
        "wrong availability",
        "/availability",
        Some(r#""OutOfStock""#),
    ),
    ("missing window", "/recentChanges/1d", None),
    ("wrong window days", "/comparison/windowDays", Some("90")),
    ("numeric quote id", "/bestQuote/id", Some("17")),
    ("bad date-time", "/observedAt", Some(r#""21/11/2026""#)),
    ("unknown field", "/price", Some("1")),
];

#[test]
fn broken_payloads_fail() {
    let doc = document();
    for (what, pointer, replacement) in BREAKAGES {
        let mut summary = summary_sample();
        let (parent, key) = pointer.rsplit_once('/').expect("pointer");
        let object = summary
            .pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .expect("parent object");
        match replacement {
            Some(text) => object.insert(key.to_owned(), serde_json::from_str(text).expect("JSON")),
            None => object.remove(key),
        };
        let errors = validate_against(&doc, "Summary", &summary).expect_err(what);
        assert!(errors.starts_with("Summary at "), "{what}: {errors}");
    }
    let pagination = json!({"total": 0, "limit": 0, "offset": 0, "nextOffset": null});
    let search = enveloped(json!({"vehicles": [], "pagination": pagination}));
    assert!(
        validate_against(&doc, "SearchResponse", &search).is_err(),
        "limit 0 accepted"
    );
    let error = json!({"error": {"code": "invalid_parameters"}});
    assert!(
        validate_against(&doc, "Error", &error).is_err(),
        "error without message accepted"
    );
}

// ------------------------------------------------- payloads the API emits

fn catalogue(vehicles: Vec<Vehicle>) -> Catalogue {
    Catalogue {
        meta: CatalogueMeta {
            snapshot_at: t("2026-11-21T15:10:00Z"),
            catalogue_observed_at: t("2026-11-21T15:00:00Z"),
            source: "https://listing.example".into(),
            site_name: "Listing".into(),
            synthetic: true,
            current_rate: Some(ExchangeRate {
                ars_per_usd: Some(1458.7),
                observed_at: t("2026-11-21T14:05:00Z"),
            }),
            rate_source: None,
        },
        vehicles,
    }
}

/// A sparse version: every optional fact unknown, no specs, no signals.
fn sparse(id: &str, price_usd: f64) -> Vehicle {
    let best = Quote::bare(&format!("{id}-q1"), price_usd, Currency::Usd, price_usd);
    Vehicle {
        identity: Identity {
            source_url: format!("https://listing.example/{id}"),
            ..Identity::named("Peugeot", "208", &id.to_uppercase())
        },
        comparison: Comparison {
            window_days: WINDOW_DAYS,
            typical_price_usd: None,
            lowest_price_usd: Some(price_usd),
            discount_pct: None,
            observed_weeks: 2,
            sufficient_history: false,
            opportunity: false,
        },
        price_ars: Some((price_usd * 1458.7_f64).round()),
        ..Vehicle::bare(id, vec![best], t("2026-11-21T14:05:00Z"))
    }
}

/// A full version: every optional fact known, specs, a drop and a new opportunity.
fn full(id: &str) -> Vehicle {
    let mut vehicle = sparse(id, 28450.5);
    let drop = RecentChange {
        kind: ChangeKind::PriceDrop,
        changed_at: Some(t("2026-11-20T12:00:00Z")),
        qualified_since: None,
        drop_pct: Some(3.5),
        previous_price_usd: Some(29480.0),
        current_price_usd: 28450.5,
        lowest_30d_usd: Some(28450.5),
        returns_to_earlier_price: Some(true),
        conversion_basis: "current_observed_exchange_rate".into(),
        detail: Default::default(),
    };
    let qualified = RecentChange {
        kind: ChangeKind::NewOpportunity,
        changed_at: None,
        qualified_since: Some(t("2026-11-19T12:00:00Z")),
        drop_pct: None,
        previous_price_usd: None,
        lowest_30d_usd: None,
        returns_to_earlier_price: None,
        ..drop.clone()
    };
    let best = Quote {
        fees_included: Some(true),
        color: Some("Blanco".into()),
        stock: Some(2),
        location: Some("CABA".into()),
        seller_id: Some("d-4".into()),
        ..Quote::bare("q-17", 41_500_000.0, Currency::Ars, 28450.5)
    };
    vehicle.identity.make = "Toyota".into();
    vehicle.identity.model = "Corolla".into();
    vehicle.identity.trim_display = Some("XEI CVT".into());
    vehicle.identity.body_type = Some(BodyType::Sedan);
    vehicle.identity.tier = Some("xei".into());
    vehicle.identity.tier_label = Some("XEI".into());
    vehicle.identity.fuel = Some(Fuel::Hybrid);
    vehicle.identity.transmission = Some(Transmission::Automatic);
    vehicle.drivetrain = Some(Drivetrain::Fwd);
    vehicle.identity.seats = Some(5);
    vehicle.price_range = Some(autoprecios::catalogue::PriceRange {
        low_usd: 28_100.25,
        high_usd: 29_900.0,
        low: Some(40_900_000.0),
        high: Some(43_500_000.0),
        currency: Some(autoprecios::vocab::Currency::Ars),
        weeks: 26,
    });
    vehicle.dealers = Some(autoprecios::catalogue::DealerSpread {
        count: 3,
        with_stock: 1,
        lowest_usd: Some(28_450.5),
        median_usd: Some(28_600.0),
        highest_usd: Some(29_000.0),
        lowest_ars: Some(41_500_000.0),
        median_ars: Some(41_720_000.0),
        highest_ars: None,
        by_location: vec![autoprecios::catalogue::LocationSpread {
            location: "sin dato".into(),
            dealers: 3,
            lowest_usd: Some(28_450.5),
            lowest_ars: None,
        }],
    });
    vehicle.freight_estimate = Some(autoprecios::catalogue::FreightEstimate {
        amount_usd: -120.5,
        pct: -0.42,
        checks: 3,
    });
    vehicle.identity.airbags = Some(7);
    vehicle.identity.fact_sources =
        std::sync::Arc::new(BTreeMap::from([("seats".into(), "official".into())]));
    vehicle.comparison = Comparison {
        typical_price_usd: Some(30500.0),
        discount_pct: Some(6.72),
        observed_weeks: 14,
        sufficient_history: true,
        opportunity: true,
        ..vehicle.comparison
    };
    vehicle.recent_changes = RecentChanges {
        d1: None,
        d3: Some(drop.clone()),
        d7: Some(drop),
    };
    vehicle.new_opportunities = RecentChanges {
        d1: None,
        d3: None,
        d7: Some(qualified),
    };
    vehicle.reasons = vec![
        Reason::BelowTypical,
        Reason::PriceDrop,
        Reason::NewOpportunity,
    ];
    vehicle.quote_count = 2;
    vehicle.best_quote = Some(best.clone());
    vehicle.quotes = vec![best, Quote::bare("q-18", 29900.0, Currency::Usd, 29900.0)];
    vehicle.exchange_rate = ExchangeRate {
        ars_per_usd: Some(1458.7),
        observed_at: t("2026-11-21T14:05:00Z"),
    };
    vehicle.specs = Some(std::sync::Arc::new(Specs {
        collected_at: "2026-10-02".into(),
        source_label: None,
        values: BTreeMap::from([
            ("lengthMm".into(), json!(4630)),
            ("aebLowSpeed".into(), json!(true)),
        ]),
        source_of: BTreeMap::from([("lengthMm".into(), "s1".into())]),
        sources: BTreeMap::from([(
            "s1".into(),
            SpecSource {
                publisher: "Toyota Argentina".into(),
                title: "Ficha técnica".into(),
                url: "https://toyota.example/corolla.pdf".into(),
                kind: "official".into(),
                document_date: Some("2026-03-01".into()),
                retrieved_at: "2026-10-02T10:00:00Z".into(),
            },
        )]),
        gaps: BTreeMap::from([("airbags".into(), json!({"reason": "disputed"}))]),
    }));
    vehicle
}

fn expect_ok<T>(result: Result<T, ApiError>) -> T {
    result.unwrap_or_else(|error| panic!("fixture query failed: {error:?}"))
}

#[test]
fn every_payload_the_api_emits_validates() {
    let index = Index::from_catalogue(
        &catalogue(vec![
            full("Corolla-Hev"),
            sparse("p208-active", 21000.0),
            sparse("p208-allure", 23500.0),
        ]),
        BASE,
    );
    let doc = render_openapi(index.links());
    let deals = |kind, window| DealsQuery {
        kind,
        window,
        ..DealsQuery::default()
    };
    let model = ModelQuery {
        make: "peugeot".into(),
        model: "208".into(),
        page: Page {
            limit: 1,
            offset: 0,
        },
    };
    let ids = CompareQuery {
        ids: vec!["p208-active".into(), "Corolla-Hev".into()],
        commas_separate: true,
    };
    let mut cases = vec![
        ("ApiInfo", to_value(&get_api_info(&index))),
        ("CatalogueResponse", to_value(&get_catalogue(&index))),
        (
            "SearchResponse",
            to_value(&expect_ok(search_vehicles(&index, &SearchQuery::default()))),
        ),
        (
            "ModelPricesResponse",
            to_value(&expect_ok(get_model_prices(&index, &model))),
        ),
        (
            "DetailResponse",
            to_value(&expect_ok(get_vehicle(&index, "Corolla-Hev"))),
        ),
        (
            "DetailResponse",
            to_value(&expect_ok(get_vehicle(&index, "p208-active"))),
        ),
        (
            "CompareResponse",
            to_value(&expect_ok(compare_vehicles(&index, &ids))),
        ),
    ];
    for (kind, _) in DealKind::ALL {
        for window in Window::ALL {
            cases.push((
                "DealsResponse",
                to_value(&expect_ok(find_deals(&index, &deals(kind, *window)))),
            ));
        }
    }
    let errors = [
        ApiError::invalid("limit", Problem::IntegerRange { min: 1, max: 100 }),
        ApiError::NotFound(Missing::Version("x".into())),
        ApiError::MethodNotAllowed,
        ApiError::UriTooLong,
    ];
    cases.extend(
        errors
            .iter()
            .map(|error| ("Error", to_value(&error.body()))),
    );
    for (schema, payload) in &cases {
        if let Err(errors) = validate_against(&doc, schema, payload) {
            panic!("{schema} emitted by the API is invalid:\n{errors}\n{payload:#}");
        }
    }
    let search = &cases[2].1;
    assert_eq!(
        search["data"]["vehicles"].as_array().map(Vec::len),
        Some(3),
        "fixture search returns everything"
    );
}
