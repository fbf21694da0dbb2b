//! Edge stage, MCP brief answers: the list tools (`find_deals`,
//! `search_vehicles`, `get_model_prices`) take `brief: true`, which keeps
//! the envelope and its paging but gives each version as one short object
//! (ID, name, price as quoted, the dollar prices the signal compares and the
//! usual range, band, one-line reason), so a 20-version answer fits in about 2,000 tokens. An
//! MCP choice only: the HTTP API answers with full Summaries, as the
//! contract says.

use serde_json::{Map, Value, json};

use crate::api::ApiError;
use crate::api::error::ErrorDetail;
use crate::api::params::Problem;
use crate::vocab::Band;

/// The argument's name.
pub const NAME: &str = "brief";

/// The tools that take it.
pub const TOOLS: [&str; 3] = ["find_deals", "search_vehicles", "get_model_prices"];

/// Its input-schema property.
pub fn property() -> Value {
    json!({
        "type": "boolean",
        "default": false,
        "description": "true: each version as a short object (id, name, prices, band, reason).",
    })
}

/// Takes `brief` out of a list tool's arguments (the API's parameters are
/// checked without it): its value, or the error of a value that is not a
/// JSON boolean.
pub fn take(arguments: &mut Option<Map<String, Value>>) -> Result<bool, ApiError> {
    match arguments.as_mut().and_then(|args| args.remove(NAME)) {
        None => Ok(false),
        Some(Value::Bool(brief)) => Ok(brief),
        Some(other) => {
            let given = match &other {
                Value::String(text) => format!("the string {}", Value::String(text.clone())),
                Value::Number(number) => format!("the number {number}"),
                Value::Null => "null".to_owned(),
                _ => "an array or object".to_owned(),
            };
            let problem = Problem::JsonType {
                expected: "a JSON boolean",
                given,
            };
            Err(ApiError::InvalidParameters(vec![ErrorDetail::new(
                NAME, problem,
            )]))
        }
    }
}

/// The envelope of a list answer with every version (and a model's
/// cheapest version) in brief.
pub fn shorten(mut envelope: Value) -> Value {
    let data = &mut envelope["data"];
    let window = data["window"].as_str().unwrap_or("7d").to_owned();
    if let Some(vehicles) = data.get_mut("vehicles").and_then(Value::as_array_mut) {
        for vehicle in vehicles.iter_mut() {
            *vehicle = brief(vehicle, &window);
        }
    }
    if let Some(cheapest) = data.get_mut("cheapestVersion") {
        *cheapest = brief(cheapest, &window);
    }
    envelope
}

/// One Summary in brief.
fn brief(summary: &Value, window: &str) -> Value {
    let text = |key: &str| summary[key].as_str().unwrap_or("");
    let trim = summary["trimDisplay"].as_str().unwrap_or(text("trim"));
    let comparison = &summary["comparison"];
    let best = &summary["bestQuote"];
    json!({
        "id": summary["id"],
        "name": format!("{} {} {trim}", text("make"), text("model")),
        "price": best["price"],
        "currency": best["currency"],
        "priceUsd": summary["currentPriceUsd"],
        "usualPriceUsd": comparison["typicalPriceUsd"],
        "usualRangeUsd": usual_range(&summary["priceRange"]),
        "band": comparison["discountPct"].as_f64().map(|pct| Band::of(pct).as_str()),
        "reason": reason(summary, window),
    })
}

/// `[low, high]` of a Summary's usual range in dollars, or null.
fn usual_range(range: &Value) -> Value {
    match (range["lowUsd"].as_f64(), range["highUsd"].as_f64()) {
        (Some(low), Some(high)) => json!([low, high]),
        _ => Value::Null,
    }
}

/// One line: the recent change of the window, else how the price compares
/// with the usual one.
fn reason(summary: &Value, window: &str) -> String {
    let change = &summary["recentChanges"][window];
    let when = change["changedAt"]
        .as_str()
        .or(change["qualifiedSince"].as_str())
        .map_or(String::new(), |at| format!(" ({at})"));
    match change["kind"].as_str() {
        Some("price_drop") if change["returnsToEarlierPrice"] == true => {
            return format!(
                "catalogue price back to one of the 30 days before, {}% under the window's highest{when}",
                change["dropPct"]
            );
        }
        Some("price_drop") => {
            return format!("catalogue price cut {}%{when}", change["dropPct"]);
        }
        Some("new_opportunity") => return format!("newly an opportunity{when}"),
        _ => {}
    }
    let comparison = &summary["comparison"];
    match comparison["discountPct"].as_f64() {
        Some(pct) if comparison["opportunity"] == true => {
            format!("opportunity: {pct}% below its usual price")
        }
        Some(pct) if pct >= 0.0 => format!("{pct}% below its usual price"),
        Some(pct) => format!("{}% above its usual price", -pct),
        None => "not enough price history to compare".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_in_brief() {
        let summary = json!({"id": "a", "make": "Renault", "model": "Kangoo", "trim": "1.6",
            "trimDisplay": "1.6 Express", "currentPriceUsd": 13849.36,
            "bestQuote": {"price": 20290000.0, "currency": "ARS"},
            "comparison": {"typicalPriceUsd": 15002.0, "discountPct": 7.68, "opportunity": true},
            "recentChanges": {"1d": null, "3d": null, "7d": null}});
        assert_eq!(
            brief(&summary, "7d"),
            json!({"id": "a", "name": "Renault Kangoo 1.6 Express", "price": 20290000.0,
                "currency": "ARS", "priceUsd": 13849.36, "usualPriceUsd": 15002.0,
                "usualRangeUsd": null,
                "band": "good", "reason": "opportunity: 7.68% below its usual price"})
        );
        let mut ranged = summary.clone();
        ranged["priceRange"] = json!({"lowUsd": 14500.25, "highUsd": 15600.0, "low": null,
            "high": null, "currency": null, "weeks": 26});
        assert_eq!(
            brief(&ranged, "7d")["usualRangeUsd"],
            json!([14500.25, 15600.0])
        );
        let mut drop = summary.clone();
        drop["recentChanges"]["3d"] =
            json!({"kind": "price_drop", "dropPct": 3.49, "changedAt": "2026-11-20T14:00:00Z"});
        assert_eq!(
            brief(&drop, "3d")["reason"],
            "catalogue price cut 3.49% (2026-11-20T14:00:00Z)"
        );
        drop["recentChanges"]["3d"]["returnsToEarlierPrice"] = json!(true);
        assert_eq!(
            brief(&drop, "3d")["reason"],
            "catalogue price back to one of the 30 days before, 3.49% under the window's highest (2026-11-20T14:00:00Z)"
        );
    }

    #[test]
    fn brief_must_be_a_boolean() {
        let mut args = Some(Map::from_iter([("brief".to_owned(), json!("yes"))]));
        let err = take(&mut args).expect_err("a string");
        let ApiError::InvalidParameters(details) = err else {
            unreachable!()
        };
        assert_eq!(
            details[0].problem.english(),
            "must be a JSON boolean, not the string \"yes\""
        );
        let mut args = Some(Map::from_iter([("brief".to_owned(), json!(true))]));
        assert_eq!(take(&mut args).ok(), Some(true));
        assert_eq!(args.map(|a| a.len()), Some(0), "taken out");
    }
}
