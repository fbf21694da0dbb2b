//! API stage, what an MCP result says of versions: a version in brief
//! (the list tools' `brief: true`: ID, name, price as quoted, the dollar
//! prices the signal compares and the usual range, band, one-line reason,
//! so that a page of 20 fits in about 2,000 tokens), the one-line name of
//! a version, and the headline of a page of versions. Each reads the
//! version's JSON as listed through a typed view of the fields it needs.
//! An MCP choice only: the HTTP API answers with full Summaries.

use serde::{Deserialize, Serialize};

use super::payload::Pagination;
use super::record::Listed;
use crate::api::json::json_number;
use crate::vocab::{Band, Currency, Window};

/// A version in brief.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Brief {
    /// Its ID.
    pub id: String,
    /// Make, model and trim as displayed.
    pub name: String,
    /// The best quote's price, as quoted.
    pub price: Option<f64>,
    /// Its currency.
    pub currency: Option<Currency>,
    /// `currentPriceUsd`.
    pub price_usd: f64,
    /// `comparison.typicalPriceUsd`.
    pub usual_price_usd: Option<f64>,
    /// `[lowUsd, highUsd]` of the usual range.
    pub usual_range_usd: Option<[f64; 2]>,
    /// The band of `comparison.discountPct`.
    pub band: Option<&'static str>,
    /// The window's recent change, else how the price compares with the
    /// usual one.
    pub reason: String,
}

/// What a brief, a name or a headline reads of a version's JSON.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct View {
    id: String,
    make: String,
    model: String,
    trim: String,
    trim_display: Option<String>,
    current_price_usd: f64,
    best_quote: Option<QuoteView>,
    #[serde(default)]
    comparison: ComparisonView,
    price_range: Option<RangeView>,
    #[serde(default)]
    recent_changes: ChangesView,
}

#[derive(Debug, Deserialize)]
struct QuoteView {
    price: Option<f64>,
    currency: Option<Currency>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ComparisonView {
    typical_price_usd: Option<f64>,
    discount_pct: Option<f64>,
    opportunity: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RangeView {
    low_usd: Option<f64>,
    high_usd: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
struct ChangesView {
    #[serde(rename = "1d")]
    d1: Option<ChangeView>,
    #[serde(rename = "3d")]
    d3: Option<ChangeView>,
    #[serde(rename = "7d")]
    d7: Option<ChangeView>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChangeView {
    kind: Option<String>,
    drop_pct: Option<f64>,
    changed_at: Option<String>,
    qualified_since: Option<String>,
    returns_to_earlier_price: Option<bool>,
}

impl View {
    fn of(listed: &Listed) -> View {
        serde_json::from_str(listed.json().get())
            .expect("invariant: a listed version's JSON is a Summary or a record")
    }

    /// `Renault Kangoo 1.6 Express`.
    fn name(&self) -> String {
        let trim = self.trim_display.as_deref().unwrap_or(&self.trim);
        format!("{} {} {trim}", self.make, self.model)
    }

    fn change(&self, window: Window) -> Option<&ChangeView> {
        let changes = &self.recent_changes;
        match window {
            Window::D1 => changes.d1.as_ref(),
            Window::D3 => changes.d3.as_ref(),
            Window::D7 => changes.d7.as_ref(),
        }
    }
}

impl Brief {
    /// A page of versions in brief, `window`'s recent change first.
    pub fn all(versions: &[Listed], window: Window) -> Vec<Brief> {
        versions.iter().map(|v| Brief::of(v, window)).collect()
    }

    /// One version in brief.
    pub fn of(listed: &Listed, window: Window) -> Brief {
        Brief::of_view(View::of(listed), window)
    }

    fn of_view(view: View, window: Window) -> Brief {
        let comparison = &view.comparison;
        let usual_range_usd = view
            .price_range
            .as_ref()
            .and_then(|range| Some([range.low_usd?, range.high_usd?]));
        Brief {
            name: view.name(),
            price: view.best_quote.as_ref().and_then(|quote| quote.price),
            currency: view.best_quote.as_ref().and_then(|quote| quote.currency),
            price_usd: view.current_price_usd,
            usual_price_usd: comparison.typical_price_usd,
            usual_range_usd,
            band: comparison.discount_pct.map(|pct| Band::of(pct).as_str()),
            reason: reason(&view, window),
            id: view.id,
        }
    }
}

/// One line: the recent change of the window, else how the price compares
/// with the usual one.
fn reason(view: &View, window: Window) -> String {
    if let Some(change) = view.change(window) {
        let when = change
            .changed_at
            .as_deref()
            .or(change.qualified_since.as_deref())
            .map_or(String::new(), |at| format!(" ({at})"));
        let drop = change.drop_pct.map_or("null".to_owned(), json_number);
        match change.kind.as_deref() {
            Some("price_drop") if change.returns_to_earlier_price == Some(true) => {
                return format!(
                    "catalogue price back to one of the 30 days before, {drop}% under the window's highest{when}"
                );
            }
            Some("price_drop") => return format!("catalogue price cut {drop}%{when}"),
            Some("new_opportunity") => return format!("newly an opportunity{when}"),
            _ => {}
        }
    }
    let comparison = &view.comparison;
    match comparison.discount_pct {
        Some(pct) if comparison.opportunity == Some(true) => {
            format!("opportunity: {pct}% below its usual price")
        }
        Some(pct) if pct >= 0.0 => format!("{pct}% below its usual price"),
        Some(pct) => format!("{}% above its usual price", -pct),
        None => "not enough price history to compare".to_owned(),
    }
}

/// `Toyota Hilux 2.8 TDI SRV 4x4 AT, best dealer price 63900000 ARS
/// (currentPriceUsd 43909.03)`: a version as a headline names it, read
/// from its Summary (a record holds the same fields, in several times the
/// bytes).
pub fn vehicle_line(summary: &Listed) -> String {
    let view = View::of(summary);
    let price = match view.best_quote.as_ref() {
        Some(QuoteView {
            price: Some(price),
            currency: Some(currency),
        }) => format!(", best dealer price {price} {}", currency.as_str()),
        _ => String::new(),
    };
    format!(
        "{}{price} (currentPriceUsd {})",
        view.name(),
        json_number(view.current_price_usd)
    )
}

/// `find_deals: 7 price drops within 3d; this page lists 6 to 7.`: the
/// headline of a page of `shown` versions of the list `what`.
pub fn list_headline(tool: &str, what: &str, pagination: &Pagination, shown: usize) -> String {
    let offset = pagination.offset as usize;
    let page = match shown {
        0 => "none on this page".to_owned(),
        _ => format!("this page lists {} to {}", offset + 1, offset + shown),
    };
    format!("{tool}: {} {what}; {page}.", pagination.total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn in_brief(summary: &Value, window: Window) -> Value {
        let view = serde_json::from_value(summary.clone()).expect("a summary's view");
        serde_json::to_value(Brief::of_view(view, window)).expect("json")
    }

    #[test]
    fn a_summary_in_brief() {
        let summary = json!({"id": "a", "make": "Renault", "model": "Kangoo", "trim": "1.6",
            "trimDisplay": "1.6 Express", "currentPriceUsd": 13849.36,
            "bestQuote": {"price": 20290000.0, "currency": "ARS"},
            "comparison": {"typicalPriceUsd": 15002.0, "discountPct": 7.68, "opportunity": true},
            "recentChanges": {"1d": null, "3d": null, "7d": null}});
        assert_eq!(
            in_brief(&summary, Window::D7),
            json!({"id": "a", "name": "Renault Kangoo 1.6 Express", "price": 20290000.0,
                "currency": "ARS", "priceUsd": 13849.36, "usualPriceUsd": 15002.0,
                "usualRangeUsd": null,
                "band": "good", "reason": "opportunity: 7.68% below its usual price"})
        );
        let mut ranged = summary.clone();
        ranged["priceRange"] = json!({"lowUsd": 14500.25, "highUsd": 15600.0, "low": null,
            "high": null, "currency": null, "weeks": 26});
        assert_eq!(
            in_brief(&ranged, Window::D7)["usualRangeUsd"],
            json!([14500.25, 15600.0])
        );
        let mut drop = summary.clone();
        drop["recentChanges"]["3d"] =
            json!({"kind": "price_drop", "dropPct": 3.49, "changedAt": "2026-11-20T14:00:00Z"});
        assert_eq!(
            in_brief(&drop, Window::D3)["reason"],
            "catalogue price cut 3.49% (2026-11-20T14:00:00Z)"
        );
        drop["recentChanges"]["3d"]["returnsToEarlierPrice"] = json!(true);
        assert_eq!(
            in_brief(&drop, Window::D3)["reason"],
            "catalogue price back to one of the 30 days before, 3.49% under the window's highest (2026-11-20T14:00:00Z)"
        );
    }

    #[test]
    fn a_page_heads_with_its_total_and_its_place() {
        let pagination = Pagination {
            total: 7,
            limit: 5,
            offset: 5,
            next_offset: None,
        };
        assert_eq!(
            list_headline("find_deals", "price drops within 3d", &pagination, 2),
            "find_deals: 7 price drops within 3d; this page lists 6 to 7."
        );
        let empty = Pagination {
            total: 0,
            offset: 0,
            ..pagination
        };
        assert_eq!(
            list_headline("search_vehicles", "matching versions", &empty, 0),
            "search_vehicles: 0 matching versions; none on this page."
        );
    }
}
