//! Peso budgets, everywhere alike: for random peso budgets (typed as
//! Argentines type them on the site), every version `/buscar`, the API and
//! MCP list is within the budget in pesos, none within it is missing, the
//! pages read in order, and the next page keeps the budget.

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::{Value, json};

use crate::harness::rng::Rng;
use crate::harness::{edge_vehicles, get, get_json};
use crate::mcp::call_tool;

/// `12345678` as a buyer types it: `12.345.678`.
fn typed(pesos: u64) -> String {
    let digits = pesos.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push('.');
        }
        out.push(digit);
    }
    out
}

/// The IDs of the published versions whose peso price is within
/// `[min, max]` (bounds inclusive), computed from the edge's own records.
fn within(min: Option<u64>, max: Option<u64>) -> BTreeSet<String> {
    edge_vehicles()
        .iter()
        .filter(|vehicle| {
            let pesos = vehicle["priceArs"]
                .as_f64()
                .expect("every fixture version has one");
            min.is_none_or(|min| pesos >= min as f64) && max.is_none_or(|max| pesos <= max as f64)
        })
        .map(|vehicle| vehicle["id"].as_str().expect("id").to_owned())
        .collect()
}

/// A random budget around the fixture's prices, sometimes one-sided, with
/// bounds that are often exactly a version's price.
fn budget(rng: &mut Rng) -> (Option<u64>, Option<u64>) {
    let prices: Vec<u64> = edge_vehicles()
        .iter()
        .map(|vehicle| vehicle["priceArs"].as_f64().expect("priceArs") as u64)
        .collect();
    let bound = |rng: &mut Rng| {
        let price = *rng.pick(&prices);
        match rng.below(3) {
            0 => price,
            1 => price + 1,
            _ => price - 1,
        }
    };
    let (a, b) = (bound(rng), bound(rng));
    let (low, high) = (a.min(b), a.max(b));
    match rng.below(4) {
        0 => (Some(low), None),
        1 => (None, Some(high)),
        _ => (Some(low), Some(high)),
    }
}

/// The query of a budget, each bound typed with `write`.
fn query(min: Option<u64>, max: Option<u64>, write: impl Fn(u64) -> String) -> String {
    let mut pairs = Vec::new();
    if let Some(min) = min {
        pairs.push(format!("minPriceArs={}", write(min)));
    }
    if let Some(max) = max {
        pairs.push(format!("maxPriceArs={}", write(max)));
    }
    pairs.join("&")
}

/// `text` (a decimal as the site writes it in an attribute or JSON:
/// `1455.28`) as an exact rational.
fn decimal(text: &str) -> BigRational {
    let (whole, places) = text.split_once('.').unwrap_or((text, ""));
    let digits: BigInt = format!("{whole}{places}").parse().expect("a decimal");
    BigRational::new(digits, BigInt::from(10u8).pow(places.len() as u32))
}

/// The compare-box IDs and the peso figures of a search page's cards, in
/// order: a peso quote's lead, or a dollar quote's amount (which the page
/// carries for its script, `data-to="ARS"`) at the reference dollar of
/// `/dolar.json` (`rate`), computed here exactly and rounded to whole
/// pesos, half away from zero.
fn cards(html: &str, rate: &str) -> Vec<(String, u64)> {
    let list = &html[html.find("<ol id=\"lista\"").expect("results")..];
    let list = &list[..list.find("</ol>").expect("closed")];
    list.split("<article class=\"card")
        .skip(1)
        .map(|card| {
            const LEAD: &str = "<span class=\"amount\">$ ";
            const CONVERTED: &str = "<data class=\"nw\" data-to=\"ARS\" value=\"";
            let converted;
            let amount = match card.find(LEAD) {
                Some(at) => &card[at + LEAD.len()..],
                None => {
                    let at = card.find(CONVERTED).expect("a peso figure") + CONVERTED.len();
                    let value = &card[at..at + card[at..].find('"').expect("quoted")];
                    converted = (decimal(value) * decimal(rate)).round().to_string();
                    converted.as_str()
                }
            };
            let digits: String = amount
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .filter(char::is_ascii_digit)
                .collect();
            let value = card.find("data-pick=\"").expect("compare control") + 11;
            let id = &card[value..];
            let id = &id[..id.find('"').expect("quoted")];
            (
                id.replace("&quot;", "\"").replace("&amp;", "&"),
                digits.parse().expect("pesos"),
            )
        })
        .collect()
}

#[tokio::test]
async fn random_peso_budgets_list_exactly_what_is_within_them_everywhere() {
    let rate = get_json("/dolar.json").await["arsPerUsd"].to_string();
    let mut rng = Rng::new(20);
    for round in 0..40 {
        let (min, max) = budget(&mut rng);
        let expected = within(min, max);
        let inside = |pesos: u64| min.is_none_or(|m| pesos >= m) && max.is_none_or(|m| pesos <= m);

        let api = get_json(&format!(
            "/api/v1/vehicles?{}&sort=price_ars_asc&limit=100",
            query(min, max, |v| v.to_string())
        ))
        .await;
        let listed: Vec<&Value> = api["data"]["vehicles"]
            .as_array()
            .expect("list")
            .iter()
            .collect();
        let ids: BTreeSet<String> = listed
            .iter()
            .map(|v| v["id"].as_str().expect("id").to_owned())
            .collect();
        assert_eq!(ids, expected, "API, round {round}: {min:?}..{max:?}");
        let pesos: Vec<f64> = listed
            .iter()
            .map(|v| v["priceArs"].as_f64().expect("priceArs"))
            .collect();
        assert!(pesos.windows(2).all(|p| p[0] <= p[1]), "API order");

        let mut arguments = json!({"limit": 100, "sort": "price_ars_asc"});
        if let Some(min) = min {
            arguments["minPriceArs"] = json!(min);
        }
        if let Some(max) = max {
            arguments["maxPriceArs"] = json!(max);
        }
        let tool = call_tool("search_vehicles", arguments).await;
        assert_ne!(tool["isError"], true, "{tool}");
        let ids: BTreeSet<String> = tool["structuredContent"]["data"]["vehicles"]
            .as_array()
            .expect("list")
            .iter()
            .map(|v| v["id"].as_str().expect("id").to_owned())
            .collect();
        assert_eq!(ids, expected, "MCP, round {round}");

        let page = get(&format!("/buscar?{}&limit=100", query(min, max, typed))).await;
        let html = String::from_utf8(page.body.clone()).expect("UTF-8");
        let shown = cards(&html, &rate);
        let ids: BTreeSet<String> = shown.iter().map(|(id, _)| id.clone()).collect();
        assert_eq!(ids, expected, "/buscar, round {round}");
        assert!(shown.iter().all(|(_, pesos)| inside(*pesos)), "{shown:?}");
        assert!(
            shown.windows(2).all(|pair| pair[0].1 <= pair[1].1),
            "cheapest first in pesos: {shown:?}"
        );
    }
}

#[tokio::test]
async fn the_next_page_keeps_the_peso_budget_as_typed() {
    let max = edge_vehicles()
        .iter()
        .filter_map(|v| v["priceArs"].as_f64())
        .fold(0.0, f64::max) as u64;
    let typed_max = typed(max);
    let page = get(&format!("/buscar?maxPriceArs={typed_max}&limit=3")).await;
    let html = String::from_utf8(page.body.clone()).expect("UTF-8");
    let next = format!("/buscar?maxPriceArs={typed_max}&amp;limit=3&amp;offset=3");
    assert!(html.contains(&next), "{next}");
    let second = get(&next.replace("&amp;", "&")).await;
    let html = String::from_utf8(second.body.clone()).expect("UTF-8");
    assert!(html.contains("(se muestran de la 4 a la 6)"));
    assert!(html.contains(&format!("value=\"{typed_max}\"")));
}
