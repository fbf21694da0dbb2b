//! The tools and resources of `/mcp`: the tool list and its schemas, every
//! API tool's answer against the HTTP response of the same query, error
//! results, the connector tools, and the Markdown resources.

use std::fs;

use autoprecios::api::links::percent_encode;
use axum::http::StatusCode;
use serde_json::{Value, json};

use super::{call_tool, post, rpc};
use crate::harness::{BASE, fixture};
use crate::harness::{edge_vehicles, get, get_json};

/// The tool list an agent keeps in context: its compact JSON under 19 KiB
/// for nine tools (it was 58 KB for eight with full output schemas, 16.0 KB
/// for eight with compact ones; the market report's tool adds 2 KB).
const TOOLS_LIST_LIMIT: usize = 19 * 1024;

#[tokio::test]
async fn the_tool_list_fits_an_agents_context() {
    let listed = rpc("tools/list", json!({})).await;
    let size = listed.to_string().len();
    assert!(size < TOOLS_LIST_LIMIT, "tools/list is {size} bytes");
    // Portable to single-type dialects: no `type` arrays anywhere.
    let text = listed.to_string();
    assert!(!text.contains("\"type\":["), "a type array in {text}");
}

#[tokio::test]
async fn tools_are_nine_read_only_with_closed_schemas() {
    let tools = rpc("tools/list", json!({})).await["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .expect("tools")
        .iter()
        .map(|tool| tool["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "find_deals",
            "get_model_prices",
            "search_vehicles",
            "get_vehicle",
            "compare_vehicles",
            "get_catalogue",
            "get_market_report",
            "search",
            "fetch"
        ]
    );
    for tool in tools.as_array().expect("tools") {
        let annotations = &tool["annotations"];
        assert_eq!(annotations["readOnlyHint"], true, "{tool}");
        assert_eq!(annotations["openWorldHint"], false, "{tool}");
        assert!(annotations.get("destructiveHint").is_none(), "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["inputSchema"]["additionalProperties"], false, "{tool}");
        assert!(
            tool["description"].as_str().is_some_and(|d| d.len() > 80),
            "{tool}"
        );
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
    let search = &tools[2]["inputSchema"]["properties"];
    assert_eq!(
        search["limit"],
        json!({"type": "integer", "minimum": 1, "maximum": 100,
        "default": 20, "description": "Page size."})
    );
    assert_eq!(search["type"]["enum"][0], "SUV");
    assert_eq!(tools[4]["inputSchema"]["properties"]["ids"]["maxItems"], 4);
}

/// A tool's structured content and text against the HTTP body of `uri`.
async fn assert_same_as_http(tool: &str, arguments: Value, uri: &str) {
    let result = call_tool(tool, arguments).await;
    assert_eq!(result["isError"], false, "{tool}: {result}");
    let http = get(uri).await;
    assert_eq!(http.status, StatusCode::OK, "{uri}");
    assert_eq!(result["structuredContent"], http.json(), "{tool} vs {uri}");
    // First the headline, one line; then the JSON, the HTTP body's bytes.
    assert_eq!(result["content"].as_array().map(Vec::len), Some(2));
    let headline = result["content"][0]["text"].as_str().expect("headline");
    assert!(
        headline.starts_with(&format!("{tool}: ")) && !headline.contains('\n'),
        "{headline}"
    );
    assert!(
        headline.contains(" Snapshot of 2026-11-21T23:40:00Z ("),
        "{headline}"
    );
    assert!(
        headline.ends_with("never present them as real."),
        "synthetic: {headline}"
    );
    let text = result["content"][1]["text"].as_str().expect("text");
    assert_eq!(
        format!("{text}\n").as_bytes(),
        http.body,
        "{tool}: the text is the HTTP body"
    );
}

#[tokio::test]
async fn tools_return_the_http_envelope() {
    let vehicle = &edge_vehicles()[0];
    let id = vehicle["id"].as_str().expect("id");
    let other = edge_vehicles()[1]["id"].as_str().expect("id");
    let (make, model) = (
        vehicle["make"].as_str().expect("make"),
        vehicle["model"].as_str().expect("model"),
    );
    assert_same_as_http(
        "search_vehicles",
        json!({"q": "a", "limit": 5, "sort": "name", "minSeats": 2}),
        "/api/v1/vehicles?q=a&limit=5&sort=name&minSeats=2",
    )
    .await;
    assert_same_as_http(
        "find_deals",
        json!({"kind": "price_drops", "window": "3d", "maxPriceUsd": 90000.5}),
        "/api/v1/deals?kind=price_drops&window=3d&maxPriceUsd=90000.5",
    )
    .await;
    assert_same_as_http(
        "get_vehicle",
        json!({"id": id}),
        &format!("/api/v1/vehicles/{}", percent_encode(id)),
    )
    .await;
    assert_same_as_http(
        "compare_vehicles",
        json!({"ids": [id, other]}),
        &format!(
            "/api/v1/compare?ids={},{}",
            percent_encode(id),
            percent_encode(other)
        ),
    )
    .await;
    assert_same_as_http(
        "get_model_prices",
        json!({"make": make, "model": model, "offset": 1}),
        &format!(
            "/api/v1/models/prices?make={}&model={}&offset=1",
            percent_encode(make),
            percent_encode(model)
        ),
    )
    .await;
    assert_same_as_http("get_catalogue", json!({}), "/api/v1/catalogue").await;
}

#[tokio::test]
async fn a_detail_and_a_comparison_are_headed_by_their_versions() {
    // Their headlines are written when an MCP result asks (`Headline`),
    // from the versions' Summaries: each names the versions in order, with
    // the dealer price and dollar price of its record.
    let vehicles = &edge_vehicles()[..3];
    let line = |vehicle: &Value| {
        let trim = vehicle["trimDisplay"].as_str().or(vehicle["trim"].as_str());
        let name = format!(
            "{} {} {}",
            vehicle["make"],
            vehicle["model"],
            trim.expect("a trim")
        )
        .replace('"', "");
        let price = match (
            &vehicle["bestQuote"]["price"],
            &vehicle["bestQuote"]["currency"],
        ) {
            // As a number of pesos or dollars, not as JSON writes it.
            (Value::Number(price), Value::String(currency)) => {
                let price = price.as_f64().expect("a price");
                format!(", best dealer price {price} {currency}")
            }
            _ => String::new(),
        };
        format!(
            "{name}{price} (currentPriceUsd {})",
            vehicle["currentPriceUsd"]
        )
    };
    let headline = |result: &Value| {
        let text = result["content"][0]["text"].as_str().expect("a headline");
        text.split_once(". Snapshot of ")
            .expect("the answer, then the snapshot")
            .0
            .to_owned()
    };
    let id = vehicles[0]["id"].as_str().expect("an ID");
    let detail = call_tool("get_vehicle", json!({"id": id})).await;
    assert_eq!(
        headline(&detail),
        format!("get_vehicle: {}", line(&vehicles[0]))
    );
    let ids: Vec<&str> = vehicles
        .iter()
        .map(|v| v["id"].as_str().expect("an ID"))
        .collect();
    let compared = call_tool("compare_vehicles", json!({"ids": ids})).await;
    let lines: Vec<String> = vehicles.iter().map(line).collect();
    assert_eq!(
        headline(&compared),
        format!(
            "compare_vehicles: 3 versions side by side: {}",
            lines.join("; ")
        )
    );
}

/// The error body of a tool result that must be an error.
async fn tool_error(tool: &str, arguments: Value) -> Value {
    let result = call_tool(tool, arguments).await;
    assert_eq!(result["isError"], true, "{tool}: {result}");
    // No structuredContent: it would not match the tool's output schema.
    assert!(result.get("structuredContent").is_none(), "{result}");
    let headline = result["content"][0]["text"].as_str().expect("headline");
    assert!(
        headline.starts_with(&format!("{tool} refused: ")),
        "{headline}"
    );
    let text: Value = serde_json::from_str(result["content"][1]["text"].as_str().expect("text"))
        .expect("JSON text");
    let error = text["error"].clone();
    assert!(
        headline.contains(error["message"].as_str().expect("message")),
        "the headline says the server's message: {headline}"
    );
    error
}

fn paths(error: &Value) -> Vec<&str> {
    error["details"]
        .as_array()
        .expect("details")
        .iter()
        .map(|detail| detail["path"].as_str().expect("path"))
        .collect()
}

#[tokio::test]
async fn bad_arguments_and_unknown_ids_are_error_results() {
    let id = edge_vehicles()[0]["id"].as_str().expect("id");
    let error = tool_error(
        "search_vehicles",
        json!({"limit": "5", "colour": "red", "q": "x".repeat(201)}),
    )
    .await;
    assert_eq!(error["code"], "invalid_parameters");
    assert_eq!(paths(&error), ["limit", "colour", "q"]);
    let error = tool_error(
        "find_deals",
        json!({"minPriceUsd": 2, "maxPriceUsd": 1, "window": "2d"}),
    )
    .await;
    assert_eq!(paths(&error), ["maxPriceUsd", "window"]);
    let error = tool_error("compare_vehicles", json!({"ids": [id, id]})).await;
    assert_eq!(paths(&error), ["ids[1]"], "duplicate IDs, as HTTP");
    let error = tool_error("compare_vehicles", json!({"ids": [id]})).await;
    assert_eq!(paths(&error), ["ids"]);
    let error = tool_error("get_vehicle", json!({"id": "x".repeat(161)})).await;
    assert_eq!(paths(&error), ["id"]);
    assert_eq!(
        tool_error("get_vehicle", json!({"id": "no-such-version"})).await["code"],
        "not_found"
    );
    assert_eq!(
        tool_error("get_model_prices", json!({"make": "Nope", "model": "Nada"})).await["code"],
        "not_found"
    );
    assert_eq!(
        paths(&tool_error("get_model_prices", json!({"make": "Nope"})).await),
        ["model"]
    );
    assert_eq!(
        paths(&tool_error("get_catalogue", json!({"limit": 1})).await),
        ["limit"]
    );
    assert_eq!(paths(&tool_error("fetch", json!({})).await), ["id"]);
    assert_eq!(
        paths(&tool_error("search", json!({"query": true})).await),
        ["query"]
    );
    // A type slip names both JSON types; identity text may be a number.
    let error = tool_error("search_vehicles", json!({"opportunitiesOnly": "true"})).await;
    assert_eq!(
        error["details"][0]["message"],
        "must be a JSON boolean, not the string \"true\""
    );
    let found = call_tool("search", json!({"query": 208})).await;
    assert_eq!(found["isError"], false, "{found}");
}

#[tokio::test]
async fn search_and_fetch_have_the_connector_shape() {
    let vehicle = &edge_vehicles()[0];
    let make = vehicle["make"].as_str().expect("make");
    let result = call_tool("search", json!({"query": make})).await;
    let found = result["structuredContent"]["results"]
        .as_array()
        .expect("results")
        .clone();
    let http = get_json(&format!("/api/v1/vehicles?q={}", percent_encode(make))).await;
    let expected: Vec<&str> = http["data"]["vehicles"]
        .as_array()
        .expect("vehicles")
        .iter()
        .map(|v| v["id"].as_str().expect("id"))
        .collect();
    let got: Vec<&str> = found
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert_eq!(got, expected);
    for item in &found {
        assert!(
            item["url"]
                .as_str()
                .is_some_and(|url| url.starts_with(&format!("{BASE}/versiones/")))
        );
        assert!(
            item["title"]
                .as_str()
                .is_some_and(|title| title.starts_with(make))
        );
    }
    let id = found[0]["id"].as_str().expect("id");
    let document = call_tool("fetch", json!({"id": id})).await["structuredContent"].clone();
    assert_eq!(document["id"], id);
    assert_eq!(document["url"], found[0]["url"]);
    assert_eq!(document["title"], found[0]["title"]);
    let record: Value =
        serde_json::from_str(document["text"].as_str().expect("text")).expect("JSON");
    assert_eq!(
        record,
        get_json(&format!("/api/v1/vehicles/{}", percent_encode(id))).await
    );
    assert_eq!(document["metadata"]["snapshotAt"], record["snapshotAt"]);
    assert_eq!(
        document["metadata"]["synthetic"], true,
        "the fixture is synthetic"
    );
    assert_eq!(
        document["metadata"]["sourceUrl"],
        record["data"]["vehicle"]["sourceUrl"]
    );
}

#[tokio::test]
async fn the_two_markdown_resources_are_the_tree_files() {
    let listed = rpc("resources/list", json!({})).await["resources"].clone();
    let uris: Vec<&str> = listed
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| r["uri"].as_str().expect("uri"))
        .collect();
    assert_eq!(
        uris,
        [
            format!("{BASE}/developers.md"),
            format!("{BASE}/metodologia.md")
        ]
    );
    for (uri, file) in uris.iter().zip(["developers.md", "metodologia.md"]) {
        let contents = rpc("resources/read", json!({"uri": uri})).await["contents"].clone();
        assert_eq!(contents[0]["mimeType"], "text/markdown");
        let expected = fs::read_to_string(fixture().public.join(file)).expect("markdown");
        assert_eq!(contents[0]["text"], expected, "{uri}");
    }
    let missing = post(
        json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read",
        "params": {"uri": format!("{BASE}/nothing.md")}}),
    )
    .await;
    assert_eq!(missing.json()["error"]["code"], -32002);
}

#[tokio::test]
async fn agents_are_told_a_synthetic_snapshot_is_synthetic() {
    // The fixture is a synthetic sample: every result says so in `_meta`,
    // errors included, and the instructions say it before any call.
    for (tool, arguments) in [
        ("get_catalogue", json!({})),
        ("search", json!({"query": "toyota"})),
        ("get_vehicle", json!({"id": "no-such-version"})),
    ] {
        let result = call_tool(tool, arguments).await;
        assert_eq!(result["_meta"]["autoprecios/synthetic"], true, "{tool}");
        assert!(
            result["_meta"]["autoprecios/notice"]
                .as_str()
                .is_some_and(|notice| notice.contains("synthetic")),
            "{tool}: {result}"
        );
    }
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let result = crate::mcp::post(initialize).await.json()["result"].clone();
    assert!(
        result["instructions"]
            .as_str()
            .is_some_and(|text| text.contains("synthetic") && text.contains("invented prices")),
        "{result}"
    );
}

/// Validates `instance` against a tool's `outputSchema` (JSON Schema 2020-12).
fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|err| panic!("{what}: the output schema does not compile: {err}"));
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{error} at {}", error.instance_path().as_str()))
        .collect();
    assert!(errors.is_empty(), "{what}: {}", errors.join("\n"));
}

#[tokio::test]
async fn every_successful_result_matches_its_tools_output_schema() {
    let tools = rpc("tools/list", json!({})).await["tools"].clone();
    let schema = |name: &str| {
        tools
            .as_array()
            .expect("tools")
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["outputSchema"].clone())
            .expect("the tool")
    };
    let vehicle = &edge_vehicles()[0];
    let id = vehicle["id"].as_str().expect("id");
    let other = edge_vehicles()[1]["id"].as_str().expect("id");
    let calls = [
        ("find_deals", json!({})),
        ("find_deals", json!({"kind": "price_drops", "window": "7d"})),
        (
            "get_model_prices",
            json!({"make": vehicle["make"], "model": vehicle["model"]}),
        ),
        ("search_vehicles", json!({"q": vehicle["make"], "limit": 3})),
        ("get_vehicle", json!({"id": id})),
        ("compare_vehicles", json!({"ids": [id, other]})),
        ("get_catalogue", json!({})),
        ("search", json!({"query": vehicle["make"]})),
        ("fetch", json!({"id": id})),
    ];
    for (tool, arguments) in calls {
        let result = call_tool(tool, arguments).await;
        assert_ne!(result["isError"], true, "{tool}: {result}");
        assert_valid(&schema(tool), &result["structuredContent"], tool);
    }
}

/// About 2,000 tokens for 20 versions: 8,000 bytes of JSON.
const BRIEF_LIST_LIMIT: usize = 8_000;

#[tokio::test]
async fn list_tools_answer_in_brief_within_a_small_budget() {
    for (tool, arguments) in [
        ("find_deals", json!({"brief": true})),
        ("search_vehicles", json!({"brief": true, "limit": 20})),
    ] {
        let result = call_tool(tool, arguments).await;
        assert_eq!(result["isError"], false, "{result}");
        let text = result["content"][1]["text"].as_str().expect("JSON text");
        let structured = &result["structuredContent"];
        assert_eq!(
            serde_json::from_str::<Value>(text).expect("JSON"),
            *structured
        );
        let vehicles = structured["data"]["vehicles"].as_array().expect("vehicles");
        let total = structured["data"]["pagination"]["total"]
            .as_u64()
            .expect("total");
        assert_eq!(vehicles.len() as u64, total.min(20), "{tool}: a page");
        assert!(
            text.len() < BRIEF_LIST_LIMIT,
            "{tool}: {} bytes",
            text.len()
        );
        for vehicle in vehicles {
            let keys: Vec<&str> = vehicle
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                [
                    "id",
                    "name",
                    "price",
                    "currency",
                    "priceUsd",
                    "usualPriceUsd",
                    "usualRangeUsd",
                    "band",
                    "reason"
                ]
            );
        }
    }
    // Its own type rule, and HTTP knows no such parameter.
    let error = tool_error("find_deals", json!({"brief": "yes"})).await;
    assert_eq!(
        error["details"][0]["message"],
        "must be a JSON boolean, not the string \"yes\""
    );
    assert_eq!(
        get("/api/v1/deals?brief=true").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn fetch_carries_the_weekly_history_as_the_api_does() {
    let id = "fiat-cronos-13-drive-mt";
    let document = call_tool("fetch", json!({"id": id})).await["structuredContent"].clone();
    let record: Value =
        serde_json::from_str(document["text"].as_str().expect("text")).expect("JSON");
    let history = &record["data"]["vehicle"]["history"];
    assert_eq!(
        *history,
        get_json(&format!("/api/v1/vehicles/{id}")).await["data"]["vehicle"]["history"]
    );
    // Quoted in pesos only: each week in pesos and in dollars, and the
    // usual level and the low in pesos; the dealers' 10 % cut shows.
    assert_eq!(history["currency"], "ARS");
    let weeks = history["weeks"].as_array().expect("weeks");
    assert!(weeks.len() >= 20);
    assert!(
        weeks
            .iter()
            .all(|w| w["price"].is_number() && w["priceUsd"].is_number())
    );
    let lowest = history["lowestPrice"].as_f64().expect("low");
    let usual = history["usualPrice"].as_f64().expect("usual");
    assert!(lowest < usual * 0.95, "{lowest} against {usual}");
}

#[tokio::test]
async fn get_vehicle_and_fetch_offer_the_version_as_an_mcp_app() {
    let tools = rpc("tools/list", json!({})).await["tools"].clone();
    for tool in tools.as_array().expect("tools") {
        let offered = tool["_meta"]["ui"]["resourceUri"].as_str();
        match tool["name"].as_str() {
            Some("get_vehicle" | "fetch") => {
                assert_eq!(offered, Some("ui://autoprecios/vehicle.html"), "{tool}")
            }
            _ => assert_eq!(offered, None, "{tool}"),
        }
    }
    let read = rpc(
        "resources/read",
        json!({"uri": "ui://autoprecios/vehicle.html"}),
    )
    .await;
    let view = &read["contents"][0];
    assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    assert!(
        view["text"]
            .as_str()
            .is_some_and(|html| html.starts_with("<!doctype html>"))
    );
    // A UI resource stays out of the list: the two documents only.
    let listed = rpc("resources/list", json!({})).await["resources"].clone();
    assert_eq!(listed.as_array().map(Vec::len), Some(2));
}

/// `search` forgives as the site does: words that match nothing are read
/// another way (here a body type) and the reading is named in `readAs`;
/// words that match are searched as they are, without `readAs`.
#[tokio::test]
async fn search_reads_words_that_match_nothing_another_way() {
    let result = call_tool("search", json!({"query": "camioneta"})).await;
    let content = &result["structuredContent"];
    let read_as = content["readAs"].as_str().expect("readAs");
    let body = match read_as {
        "pick-ups" => "Pickup",
        "SUV" => "SUV",
        other => panic!("read as {other}"),
    };
    let http = get_json(&format!("/api/v1/vehicles?type={body}")).await;
    let got: Vec<&str> = content["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert!(!got.is_empty());
    assert_eq!(got, crate::harness::ids(&http));
    let make = edge_vehicles()[0]["make"].as_str().expect("make");
    let exact = call_tool("search", json!({"query": make})).await;
    assert!(exact["structuredContent"].get("readAs").is_none());
}
