//! Edge stage, MCP headlines: the first text item of every tool result, one
//! line that a model reads before the JSON: what was answered (or why it was
//! refused), how fresh the snapshot is (its time and its age at the moment
//! of the answer), and, for a synthetic snapshot, that the prices are
//! invented. Hosts rarely show `_meta` to the model; they always show text.

use serde_json::Value;

use crate::catalogue::CatalogueMeta;
use crate::time::{Time, format_time};

/// The headline of a result of `tool` whose JSON is `value`, answered at `now`.
pub fn headline(tool: &str, value: &Value, meta: &CatalogueMeta, now: Time) -> String {
    let what = if value.get("error").is_some() {
        refused(tool, &value["error"])
    } else {
        answered(tool, value)
    };
    let mut line = format!("{what} {}", freshness(meta.snapshot_at, now));
    if meta.synthetic {
        line.push_str(" Synthetic data: the prices are invented; never present them as real.");
    }
    line
}

/// `get_vehicle refused: invalid parameters (window: must be one of 1d, 3d, 7d).`
fn refused(tool: &str, error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or("error");
    let details: Vec<String> = error["details"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|detail| {
            format!(
                "{}: {}",
                detail["path"].as_str().unwrap_or(""),
                detail["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    match details.is_empty() {
        true => format!("{tool} refused: {message}."),
        false => format!("{tool} refused: {message} ({}).", details.join("; ")),
    }
}

/// What a successful answer holds, by its shape.
fn answered(tool: &str, value: &Value) -> String {
    let data = &value["data"];
    // A market report: its own headline, the sentence to quote.
    if let Some(text) = data["headline"]["text"].as_str() {
        return format!("{tool}: {text}");
    }
    if let Some(results) = value["results"].as_array() {
        return format!("{tool}: {} matching versions.", results.len());
    }
    if value.get("text").is_some() {
        return format!("{tool}: {}.", value["title"].as_str().unwrap_or(""));
    }
    if let Some(pagination) = data.get("pagination") {
        let total = pagination["total"].as_u64().unwrap_or(0);
        let shown = data["vehicles"].as_array().map_or(0, Vec::len);
        let offset = pagination["offset"].as_u64().unwrap_or(0);
        let list = match (data["kind"].as_str(), data["window"].as_str()) {
            (Some("opportunities"), _) => "current opportunities".to_owned(),
            (Some(kind), Some(window)) => format!("{} within {window}", kind.replace('_', " ")),
            _ => match (data["make"].as_str(), data["model"].as_str()) {
                (Some(make), Some(model)) => format!("versions of {make} {model}"),
                _ => "matching versions".to_owned(),
            },
        };
        let page = match shown {
            0 => "none on this page".to_owned(),
            _ => format!(
                "this page lists {} to {}",
                offset + 1,
                offset + shown as u64
            ),
        };
        return format!("{tool}: {total} {list}; {page}.");
    }
    if let Some(vehicle) = data.get("vehicle") {
        return format!("{tool}: {}.", vehicle_line(vehicle));
    }
    if let Some(vehicles) = data["vehicles"].as_array() {
        let names: Vec<String> = vehicles.iter().map(vehicle_line).collect();
        return format!(
            "{tool}: {} versions side by side: {}.",
            names.len(),
            names.join("; ")
        );
    }
    if let Some(count) = data["vehicleCount"].as_u64() {
        let rate = match &data["exchangeRate"] {
            Value::Object(rate) => format!(
                "; current observed exchange rate {} ARS per USD ({})",
                rate.get("arsPerUsd")
                    .map_or(String::new(), Value::to_string),
                rate.get("observedAt").and_then(Value::as_str).unwrap_or("")
            ),
            _ => String::new(),
        };
        return format!(
            "{tool}: {count} published versions of {} models, {} opportunities{rate}.",
            data["modelCount"], data["opportunityCount"]
        );
    }
    format!("{tool}: answered.")
}

/// `Toyota Hilux 2.8 TDI SRV 4x4 AT, best dealer price 63900000 ARS
/// (currentPriceUsd 43909.03)`.
fn vehicle_line(vehicle: &Value) -> String {
    let text = |key: &str| vehicle[key].as_str().unwrap_or("");
    let best = &vehicle["bestQuote"];
    let price = match (best["price"].as_f64(), best["currency"].as_str()) {
        (Some(price), Some(currency)) => format!(", best dealer price {price} {currency}"),
        _ => String::new(),
    };
    format!(
        "{} {} {}{price} (currentPriceUsd {})",
        text("make"),
        text("model"),
        vehicle["trimDisplay"].as_str().unwrap_or(text("trim")),
        vehicle["currentPriceUsd"]
    )
}

/// `Snapshot of 2026-11-21T23:40:00Z (65 hours old).`
fn freshness(snapshot_at: Time, now: Time) -> String {
    let minutes = (now - snapshot_at).num_minutes().max(0);
    let age = match minutes {
        0..60 => format!("{minutes} minutes"),
        60..4320 => format!("{} hours", minutes / 60),
        _ => format!("{} days", minutes / 1440),
    };
    format!("Snapshot of {} ({age} old).", format_time(snapshot_at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;
    use serde_json::json;

    fn meta(synthetic: bool) -> CatalogueMeta {
        CatalogueMeta {
            snapshot_at: parse_time("2026-11-21T23:40:00Z").expect("time"),
            catalogue_observed_at: parse_time("2026-11-21T23:00:00Z").expect("time"),
            source: "https://listing.example".into(),
            site_name: "Listing".into(),
            synthetic,
            current_rate: None,
            rate_source: None,
        }
    }

    fn at(text: &str) -> Time {
        parse_time(text).expect("time")
    }

    #[test]
    fn a_list_says_what_it_holds_how_fresh_and_whether_invented() {
        let value = json!({"data": {"kind": "price_drops", "window": "3d",
            "vehicles": [{}, {}], "pagination": {"total": 7, "offset": 5}}});
        assert_eq!(
            headline(
                "find_deals",
                &value,
                &meta(true),
                at("2026-11-24T16:41:00Z")
            ),
            "find_deals: 7 price drops within 3d; this page lists 6 to 7. Snapshot of \
             2026-11-21T23:40:00Z (65 hours old). Synthetic data: the prices are invented; \
             never present them as real."
        );
        let value = json!({"data": {"vehicles": [], "pagination": {"total": 0, "offset": 0}}});
        assert_eq!(
            headline(
                "search_vehicles",
                &value,
                &meta(false),
                at("2026-11-22T00:10:00Z")
            ),
            "search_vehicles: 0 matching versions; none on this page. Snapshot of \
             2026-11-21T23:40:00Z (30 minutes old)."
        );
        assert!(
            headline("x", &json!({}), &meta(false), at("2026-11-25T23:40:00Z"))
                .ends_with("(4 days old).")
        );
    }

    #[test]
    fn a_refusal_says_the_server_message() {
        let value = json!({"error": {"code": "invalid_parameters", "message": "invalid parameters",
            "details": [{"path": "type", "message": "must be one of SUV, Pickup"}]}});
        assert!(
            headline(
                "search_vehicles",
                &value,
                &meta(false),
                at("2026-11-22T00:10:00Z")
            )
            .starts_with(
                "search_vehicles refused: invalid parameters (type: must be one of SUV, \
                     Pickup). Snapshot of"
            )
        );
    }

    #[test]
    fn a_record_names_the_car_and_its_prices() {
        let value = json!({"data": {"vehicle": {"make": "Toyota", "model": "Hilux",
            "trim": "SRV", "currentPriceUsd": 43909.03,
            "bestQuote": {"price": 63900000.0, "currency": "ARS"}}}});
        assert!(
            headline(
                "get_vehicle",
                &value,
                &meta(false),
                at("2026-11-22T00:10:00Z")
            )
            .starts_with(
                "get_vehicle: Toyota Hilux SRV, best dealer price 63900000 ARS (currentPriceUsd \
                 43909.03)."
            )
        );
    }
}
