//! The MCP prompts and the completion of their arguments (`edge::mcp::prompts`):
//! listed on every revision, a prompt's request naming the tool that
//! answers it, and suggestions recomputed from the catalogue the API
//! serves.

use serde_json::{Value, json};

use super::{post, post_early, rpc, rpc_error};
use crate::harness::{edge_vehicles, get_json};
use axum::http::StatusCode;

/// Folds a name as the filters do: lower case, no accents.
fn fold(text: &str) -> String {
    text.to_lowercase()
        .replace(['á', 'à', 'ä'], "a")
        .replace(['é', 'ë'], "e")
        .replace(['í', 'ï'], "i")
        .replace(['ó', 'ö'], "o")
        .replace(['ú', 'ü'], "u")
}

fn complete(prompt: &str, argument: &str, value: &str, context: Value) -> Value {
    json!({"ref": {"type": "ref/prompt", "name": prompt},
           "argument": {"name": argument, "value": value}, "context": context})
}

/// The distinct values of `field` among the published versions admitted by
/// `keep`, whose folded form starts with `typed`, sorted.
fn expected(field: &str, typed: &str, keep: impl Fn(&Value) -> bool) -> Vec<String> {
    let mut values: Vec<String> = edge_vehicles()
        .iter()
        .filter(|v| keep(v))
        .map(|v| v[field].as_str().expect("text").to_owned())
        .filter(|name| fold(name).starts_with(&fold(typed)))
        .collect();
    values.sort();
    values.dedup();
    values
}

#[tokio::test]
async fn both_prompts_are_listed_on_every_revision_and_advertised() {
    let listed = rpc("prompts/list", json!({})).await;
    let names: Vec<&str> = listed["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["precio_de_un_modelo", "informe_del_mes"]);
    for prompt in listed["prompts"].as_array().expect("prompts") {
        assert!(prompt["description"].is_string() && prompt["title"].is_string());
    }
    assert_eq!(listed["prompts"][0]["arguments"][0]["required"], true);
    assert_eq!(listed["ttlMs"], 300_000);
    assert_eq!(listed["cacheScope"], "public");
    // An early client asks too (rmcp answers an unadvertised method -32601).
    let early = post_early(json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}))
        .await
        .json();
    assert_eq!(early["result"]["prompts"].as_array().map(Vec::len), Some(2));
    let init = post_early(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}}),
    )
    .await
    .json();
    let capabilities = &init["result"]["capabilities"];
    assert!(capabilities["prompts"].is_object() && capabilities["completions"].is_object());
}

#[tokio::test]
async fn a_prompt_asks_for_the_tool_with_its_arguments_and_refuses_a_missing_one() {
    let got = rpc(
        "prompts/get",
        json!({"name": "precio_de_un_modelo", "arguments": {"make": "Peugeot", "model": "208"}}),
    )
    .await;
    let text = got["messages"][0]["content"]["text"]
        .as_str()
        .expect("text");
    assert_eq!(got["messages"][0]["role"], "user");
    assert!(
        text.contains("Peugeot 208")
            && text.contains(r#"get_model_prices (make: "Peugeot", model: "208")"#),
        "{text}"
    );
    let month = rpc(
        "prompts/get",
        json!({"name": "informe_del_mes", "arguments": {"month": "2026-10"}}),
    )
    .await;
    let text = month["messages"][0]["content"]["text"]
        .as_str()
        .expect("text");
    assert!(
        text.contains(r#"get_market_report (month: "2026-10")"#),
        "{text}"
    );
    let latest = rpc("prompts/get", json!({"name": "informe_del_mes"})).await;
    let text = latest["messages"][0]["content"]["text"]
        .as_str()
        .expect("text");
    assert!(
        text.contains("el último mes cerrado") && text.contains("get_market_report y"),
        "{text}"
    );
    for params in [
        json!({"name": "precio_de_un_modelo", "arguments": {"make": "Peugeot"}}),
        json!({"name": "precio_de_un_modelo", "arguments": {"make": "Peugeot", "model": "  "}}),
        json!({"name": "no_such_prompt"}),
    ] {
        let reply =
            post(json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": params}))
                .await;
        let error = rpc_error(&reply, StatusCode::OK);
        assert_eq!(error["code"], -32602, "{params}: {error}");
    }
}

#[tokio::test]
async fn completion_suggests_the_catalogues_names_and_the_reports_months() {
    // A make's start, typed in capitals (and without its accents).
    let first = edge_vehicles()[0]["make"]
        .as_str()
        .expect("make")
        .to_owned();
    let typed: String = fold(&first)
        .chars()
        .take(3)
        .collect::<String>()
        .to_uppercase();
    let makes = rpc(
        "completion/complete",
        complete("precio_de_un_modelo", "make", &typed, json!(null)),
    )
    .await;
    let want = expected("make", &typed, |_| true);
    assert!(want.contains(&first), "{typed}: {want:?}");
    assert_eq!(makes["completion"]["values"], json!(want));
    assert_eq!(makes["completion"]["total"], want.len());
    assert_eq!(makes["completion"]["hasMore"], false);
    // A model among the make already given, folded.
    let make = edge_vehicles()[0]["make"]
        .as_str()
        .expect("make")
        .to_owned();
    let context = json!({"arguments": {"make": make.to_uppercase()}});
    let models = rpc(
        "completion/complete",
        complete("precio_de_un_modelo", "model", "", context),
    )
    .await;
    let want = expected("model", "", |v| v["make"] == make.as_str());
    assert_eq!(models["completion"]["values"], json!(want));
    // Every month with a report, newest first.
    let months = rpc(
        "completion/complete",
        complete("informe_del_mes", "month", "20", json!(null)),
    )
    .await;
    let reports = get_json("/api/v1/reports").await;
    let want: Vec<&Value> = reports["data"]["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| &r["month"])
        .collect();
    assert!(!want.is_empty());
    assert_eq!(months["completion"]["values"], json!(want));
    // Nothing to suggest: an empty list, not an error.
    for params in [
        complete("no_such_prompt", "arg1", "test", json!(null)),
        complete("precio_de_un_modelo", "trim", "a", json!(null)),
        complete("precio_de_un_modelo", "make", "zzz", json!(null)),
        json!({"ref": {"type": "ref/resource", "uri": "autoprecios://x"},
               "argument": {"name": "a", "value": ""}}),
    ] {
        let result = rpc("completion/complete", params.clone()).await;
        assert_eq!(result["completion"]["values"], json!([]), "{params}");
        assert_eq!(result["completion"]["total"], 0, "{params}");
    }
}
