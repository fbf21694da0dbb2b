//! The HTTP contract: what parameter bounds mean beyond the table's own
//! (tested from it in tests/it/table_bounds.rs) and every error status with
//! its body, including the query-length limit. Every bound here is read
//! from the parameter table or the spec's constants, never written out.

use autoprecios::api::links::percent_encode;
use autoprecios::api::params::table::{Kind, param_of};
use autoprecios::api::query::MAX_QUERY_CHARS;
use autoprecios::api::query::Operation;
use axum::http::{Method, StatusCode};

use crate::harness::{edge_vehicles, get, get_json, send};

/// Asserts a 400 naming exactly `paths`.
async fn assert_invalid(uri: &str, paths: &[&str]) {
    let reply = get(uri).await;
    assert_eq!(reply.error_paths(), paths, "{uri}");
    assert_eq!(reply.header("cache-control"), "no-store", "{uri}");
    assert_eq!(reply.header("content-type"), "application/json", "{uri}");
}

/// The first vehicle of the fixture.
fn some_id() -> String {
    edge_vehicles()[0]["id"].as_str().expect("id").to_owned()
}

/// The most characters the table lets `operation`'s `name` have.
fn most_chars(operation: Operation, name: &str) -> usize {
    match param_of(operation, name).map(|param| param.kind) {
        Some(Kind::Text { max, .. }) => max,
        other => panic!("{name} of {operation:?} is text: {other:?}"),
    }
}

#[tokio::test]
async fn the_largest_offset_is_an_empty_last_page_on_every_listing() {
    let model = &edge_vehicles()[0];
    let encode = |field: &str| percent_encode(model[field].as_str().expect("name"));
    let model_query = format!("make={}&model={}&", encode("make"), encode("model"));
    for (operation, base) in [
        (Operation::Search, "/api/v1/vehicles?"),
        (Operation::Deals, "/api/v1/deals?"),
        (
            Operation::ModelPrices,
            &format!("/api/v1/models/prices?{model_query}"),
        ),
    ] {
        let Some(Kind::Integer { max, .. }) = param_of(operation, "offset").map(|p| p.kind) else {
            panic!("{operation:?} pages by offset");
        };
        let body = get_json(&format!("{base}offset={max}")).await;
        assert_eq!(
            body["data"]["vehicles"].as_array().expect("vehicles").len(),
            0
        );
        assert!(body["data"]["pagination"]["nextOffset"].is_null());
    }
}

/// Beyond each parameter's own bounds (tested from the table, in
/// tests/it/table_bounds.rs): the rules across parameters, values of the
/// wrong type or case, and several problems reported at once.
#[tokio::test]
async fn cross_parameter_rules_types_and_case() {
    get_json("/api/v1/vehicles?minPriceUsd=0&maxPriceUsd=0").await;
    for (bad, path) in [
        ("maxPriceUsd=abc", "maxPriceUsd"),
        ("minPriceUsd=2&maxPriceUsd=1", "maxPriceUsd"),
        ("type=suv", "type"),
        ("fuel=petrol", "fuel"),
        ("drivetrain=AWD", "drivetrain"),
        ("aeb=1", "aeb"),
    ] {
        assert_invalid(&format!("/api/v1/vehicles?{bad}"), &[path]).await;
        assert_invalid(&format!("/api/v1/deals?{bad}"), &[path]).await;
    }
    assert_invalid(
        "/api/v1/vehicles?opportunitiesOnly=1&sort=cheap",
        &["opportunitiesOnly", "sort"],
    )
    .await;
    assert_invalid(
        "/api/v1/deals?kind=drops&window=2d&sort=name",
        &["kind", "window", "sort"],
    )
    .await;
}

#[tokio::test]
async fn text_bounds_count_characters() {
    // As many two-byte characters as `q` may have are that many
    // characters, not twice as many.
    let q = most_chars(Operation::Deals, "q");
    get_json(&format!("/api/v1/deals?q={}", "%C3%B1".repeat(q))).await;
    assert_invalid(
        &format!("/api/v1/deals?q={}", "%C3%B1".repeat(q + 1)),
        &["q"],
    )
    .await;
    // Both names too long are both named, in table order.
    let name = "a".repeat(most_chars(Operation::Search, "make"));
    assert_invalid(
        &format!("/api/v1/vehicles?model={name}a&make={name}a"),
        &["make", "model"],
    )
    .await;
    // A model's longest names are well formed, and name no model.
    let name = "a".repeat(most_chars(Operation::ModelPrices, "make"));
    let reply = get(&format!("/api/v1/models/prices?make={name}&model={name}")).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_invalid("/api/v1/models/prices", &["make", "model"]).await;
}

#[tokio::test]
async fn ids_are_bounded_as_the_table_says_in_paths_and_comparisons() {
    let longest = "x".repeat(most_chars(Operation::Vehicle, "id"));
    let reply = get(&format!("/api/v1/vehicles/{longest}")).await;
    assert_eq!(
        reply.status,
        StatusCode::NOT_FOUND,
        "a well-formed unknown ID"
    );
    assert_eq!(reply.json()["error"]["code"], "not_found");
    assert_invalid(&format!("/api/v1/vehicles/{longest}x"), &["id"]).await;
    let compare = get(&format!("/api/v1/compare?ids={longest},{}", some_id())).await;
    assert_eq!(compare.status, StatusCode::NOT_FOUND);
    assert_invalid(
        &format!("/api/v1/compare?ids={longest}x,{}", some_id()),
        &["ids[0]"],
    )
    .await;
    assert_invalid(&format!("/api/v1/compare?ids=,{}", some_id()), &["ids[0]"]).await;
}

#[tokio::test]
async fn vehicle_ids_are_percent_decoded_from_the_raw_path() {
    let id = some_id();
    let plain = get(&format!("/api/v1/vehicles/{id}")).await;
    assert_eq!(plain.status, StatusCode::OK);
    let escaped: String = id.bytes().map(|b| format!("%{b:02X}")).collect();
    let reply = get(&format!("/api/v1/vehicles/{escaped}")).await;
    assert!(
        reply.body == plain.body,
        "every byte escaped gives the same record"
    );
    let slash = get("/api/v1/vehicles/a%2Fb+c%25").await;
    assert_eq!(slash.status, StatusCode::NOT_FOUND);
    let message = slash.json()["error"]["message"]
        .as_str()
        .expect("message")
        .to_owned();
    assert!(message.contains(r#""a/b+c%""#), "{message}");
    assert_eq!(
        get("/api/v1/vehicles/a/b").await.status,
        StatusCode::NOT_FOUND,
        "an unescaped slash is another route"
    );
    assert_invalid("/api/v1/vehicles/%FF", &["id"]).await;
    assert_invalid(&format!("/api/v1/vehicles/{id}?x=1"), &["x"]).await;
}

#[tokio::test]
async fn unknown_repeated_and_duplicate_parameters_are_400_with_details() {
    assert_invalid("/api/v1/vehicles?colour=red", &["colour"]).await;
    assert_invalid("/api/v1/vehicles?sort=name&sort=name", &["sort"]).await;
    assert_invalid("/api/v1?x=1", &["x"]).await;
    assert_invalid("/api/v1/catalogue?limit=1", &["limit"]).await;
    assert_invalid(
        "/api/v1/models/prices?make=a&model=b&sort=price_asc",
        &["sort"],
    )
    .await;
    let id = some_id();
    assert_invalid(&format!("/api/v1/compare?ids={id},{id}"), &["ids[1]"]).await;
    assert_invalid(&format!("/api/v1/compare?ids={id}"), &["ids"]).await;
    assert_invalid("/api/v1/compare?ids=a,b,c,d,e", &["ids"]).await;
    assert_invalid("/api/v1/compare", &["ids"]).await;
    let body = get(&format!("/api/v1/compare?ids={id},{id}")).await.json();
    assert_eq!(body["error"]["message"], "invalid parameters");
}

#[tokio::test]
async fn unknown_routes_ids_and_models_are_json_404s() {
    for uri in [
        "/api/v1/nothing",
        "/api/v2",
        "/api/v1/",
        "/api/v1/vehicles/",
        "/api/v1/vehicles/no-such-version",
        "/api/v1/models/prices?make=Nope&model=Nada",
        "/api",
        "/mcp/",
    ] {
        let reply = get(uri).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(reply.header("content-type"), "application/json", "{uri}");
        assert_eq!(reply.header("cache-control"), "no-store", "{uri}");
        assert_eq!(reply.header("access-control-allow-origin"), "*", "{uri}");
        assert_eq!(reply.header("etag"), "", "{uri}: errors carry no ETag");
        let body = reply.json();
        assert_eq!(body["error"]["code"], "not_found", "{uri}");
        assert!(
            body["error"]["message"].is_string() && body["error"].get("details").is_none(),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn other_methods_are_405_with_allow() {
    for method in [
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::TRACE,
    ] {
        for uri in ["/api/v1/vehicles", "/api/v1/nothing", "/", "/developers"] {
            let reply = send(method.clone(), uri, &[]).await;
            assert_eq!(
                reply.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {uri}"
            );
            assert_eq!(reply.header("allow"), "GET, HEAD, OPTIONS");
            assert_eq!(reply.header("cache-control"), "no-store");
            assert_eq!(reply.json()["error"]["code"], "method_not_allowed");
        }
    }
}

#[tokio::test]
async fn query_strings_over_the_limit_are_414_before_parsing() {
    for base in [
        "/api/v1/vehicles?q=",
        "/api/v1/nothing?q=",
        "/developers?q=",
    ] {
        let at_limit = format!("{base}{}", "a".repeat(MAX_QUERY_CHARS - 2));
        assert_ne!(
            get(&at_limit).await.status,
            StatusCode::URI_TOO_LONG,
            "{MAX_QUERY_CHARS} characters"
        );
        let over = format!("{at_limit}a");
        let reply = get(&over).await;
        assert_eq!(reply.status, StatusCode::URI_TOO_LONG, "{base}");
        assert_eq!(reply.json()["error"]["code"], "uri_too_long");
        assert_eq!(reply.header("cache-control"), "no-store");
        let reply = send(Method::POST, &over, &[]).await;
        assert_eq!(
            reply.status,
            StatusCode::URI_TOO_LONG,
            "the length is checked first"
        );
    }
    // Repeated and unknown parameters within the limit still get their 400.
    let repeated = format!("/api/v1/vehicles?{}", "sort=name&".repeat(400));
    assert!(repeated.len() - "/api/v1/vehicles?".len() <= MAX_QUERY_CHARS);
    assert_invalid(&repeated, &["sort"]).await;
}

/// A deterministic stream of awkward query strings and paths: parameter
/// names, values, escapes (valid, truncated, invalid UTF-8), separators.
fn awkward_inputs(count: usize) -> Vec<String> {
    const PIECES: [&str; 24] = [
        "limit=",
        "offset=",
        "q=",
        "make=",
        "sort=",
        "ids=",
        "kind=",
        "minSeats=",
        "aeb=",
        "minPriceUsd=",
        "&",
        "=",
        "%",
        "%2",
        "%ZZ",
        "%C3%B1",
        "%FF",
        "%00",
        "+",
        ",",
        "-1",
        "1e9",
        "999999999999",
        "price_asc",
    ];
    let mut seed: u64 = 0x5eed;
    (0..count)
        .map(|_| {
            let mut text = String::new();
            for _ in 0..8 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                text.push_str(PIECES[(seed >> 33) as usize % PIECES.len()]);
            }
            text
        })
        .collect()
}

#[tokio::test]
async fn awkward_input_is_never_a_server_error() {
    let routes = [
        "/api/v1",
        "/api/v1/catalogue",
        "/api/v1/vehicles",
        "/api/v1/deals",
        "/api/v1/models/prices",
        "/api/v1/compare",
    ];
    for (n, input) in awkward_inputs(300).into_iter().enumerate() {
        let uri = format!("{}?{input}", routes[n % routes.len()]);
        let reply = get(&uri).await;
        assert!(
            matches!(reply.status.as_u16(), 200 | 400 | 404),
            "{uri}: {}",
            reply.status
        );
        let path = format!("/api/v1/vehicles/{}", input.replace(['&', '='], "%26"));
        let reply = get(&path).await;
        assert!(
            matches!(reply.status.as_u16(), 200 | 400 | 404),
            "{path}: {}",
            reply.status
        );
        let page = format!("/{}", input.replace(['&', '='], "/"));
        let reply = get(&page).await;
        assert!(
            matches!(reply.status.as_u16(), 200 | 400 | 404),
            "{page}: {}",
            reply.status
        );
    }
}

/// The IDs of a compare answer, in order.
fn compared(body: &serde_json::Value) -> Vec<String> {
    crate::harness::ids(body)
}

#[tokio::test]
async fn compare_takes_commas_encoded_or_not() {
    let id = |n: usize| edge_vehicles()[n]["id"].as_str().expect("id").to_owned();
    let (a, b, c) = (id(0), id(1), id(2));
    let expected = [a.clone(), b.clone(), c.clone()];
    let literal = format!(
        "{},{},{}",
        percent_encode(&a),
        percent_encode(&b),
        percent_encode(&c)
    );
    // As typed, and as URLSearchParams or urlencode build it and a CDN
    // proxy forwards it (every comma encoded, in either case).
    let encoded = percent_encode(&format!("{a},{b},{c}"));
    for list in [literal, encoded.clone(), encoded.replace("%2C", "%2c")] {
        let body = get_json(&format!("/api/v1/compare?ids={list}")).await;
        assert_eq!(compared(&body), expected, "ids={list}");
    }
    // With literal separators, an encoded comma belongs to its ID: four IDs,
    // one of them unknown, is a 404 (not five IDs).
    let unknown = percent_encode("no,such,version");
    let list = format!(
        "{},{unknown},{},{}",
        percent_encode(&a),
        percent_encode(&b),
        percent_encode(&c)
    );
    let reply = get(&format!("/api/v1/compare?ids={list}")).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "ids={list}");
    // Encoded commas count toward the 2-to-4 limit and the duplicate check.
    let five = percent_encode(&format!("{a},{b},{c},{},{}", id(3), id(4)));
    assert_invalid(&format!("/api/v1/compare?ids={five}"), &["ids"]).await;
    let twice = percent_encode(&format!("{a},{a}"));
    assert_invalid(&format!("/api/v1/compare?ids={twice}"), &["ids[1]"]).await;
}
