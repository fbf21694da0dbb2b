//! Filters on content, on the fixture's real catalogue: for many
//! combinations (accents, other spellings, rare values, mixes), the answer
//! of a search or a deal list is byte for byte the answer of the one
//! brute-force oracle (`index::oracle`, the spec's rules written plainly
//! over the catalogue's vehicles).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use autoprecios::api::links::percent_encode;
use autoprecios::catalogue::Catalogue;
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::load_snapshot;
use serde_json::Value;

use crate::harness::{edge_vehicles, fixture, get, get_json, ids};
use crate::index::oracle::{self, loose};

fn text(vehicle: &Value, field: &str) -> String {
    vehicle[field].as_str().unwrap_or("").to_owned()
}

/// The fixture's catalogue, as the oracle reads it.
fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        compute_catalogue(&load_snapshot(&fixture().data).expect("the fixture snapshot"))
    })
}

/// The edge answers `uri` as the oracle does, byte for byte; the IDs found.
async fn as_the_oracle(uri: &str) -> BTreeSet<String> {
    let expected = oracle::answer(catalogue(), uri).expect("a valid query");
    let reply = get(uri).await;
    assert!(
        reply.body == expected,
        "{uri}: the edge and the oracle differ"
    );
    ids(&reply.json()).into_iter().collect()
}

fn query(filters: &[(&str, String)]) -> String {
    filters
        .iter()
        .map(|(name, value)| format!("{name}={}", percent_encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The most common value of a string field, and one that occurs less often.
fn common(field: &str) -> (String, String) {
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for vehicle in edge_vehicles() {
        if let Some(value) = vehicle[field].as_str() {
            *counts.entry(value.to_owned()).or_default() += 1;
        }
    }
    let mut sorted: Vec<(String, usize)> = counts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let first = sorted.first().expect("a value").0.clone();
    let last = sorted.last().expect("a value").0.clone();
    (first, last)
}

/// A vehicle's make spelt with other case and accents, when it has any: the
/// spelling a user types (`CITROEN` for `Citroën`).
fn respelt(name: &str) -> String {
    loose(name).to_uppercase()
}

/// The filter combinations checked: every filter alone, and mixes.
fn combinations() -> Vec<Vec<(&'static str, String)>> {
    let vehicles = edge_vehicles();
    let accented = vehicles
        .iter()
        .find(|v| !text(v, "make").is_ascii())
        .unwrap_or(&vehicles[0]);
    let (make, rare_make) = common("make");
    let (body_type, other_type) = common("type");
    let (fuel, other_fuel) = common("fuel");
    let (transmission, _) = common("transmission");
    let (drivetrain, other_drivetrain) = common("drivetrain");
    let model = vehicles
        .iter()
        .rev()
        .find(|v| text(v, "make") == make)
        .map(|v| text(v, "model"))
        .expect("a model");
    let trim_word = text(&vehicles[3], "trim")
        .split_whitespace()
        .next()
        .unwrap_or("x")
        .to_owned();
    let s = |value: &str| value.to_owned();
    vec![
        vec![("q", respelt(&text(accented, "make")))],
        vec![(
            "q",
            format!(
                "{}  {}",
                respelt(&text(accented, "model")),
                text(accented, "make").to_lowercase()
            ),
        )],
        vec![("q", trim_word.to_uppercase())],
        vec![("q", s("zzzz-no-match"))],
        vec![("q", s("   "))],
        vec![("make", respelt(&text(accented, "make")))],
        vec![
            ("make", make.to_lowercase()),
            ("model", model.to_uppercase()),
        ],
        vec![("make", rare_make)],
        vec![("model", respelt(&model))],
        vec![("type", body_type.clone())],
        vec![("type", other_type), ("fuel", other_fuel)],
        vec![
            ("fuel", fuel.clone()),
            ("transmission", transmission.clone()),
        ],
        vec![("transmission", s("Manual"))],
        vec![("drivetrain", drivetrain)],
        vec![
            ("drivetrain", other_drivetrain),
            ("type", body_type.clone()),
        ],
        vec![("minPriceUsd", s("20000"))],
        vec![("maxPriceUsd", s("30000.5"))],
        vec![("minPriceUsd", s("25000")), ("maxPriceUsd", s("60000"))],
        vec![("minSeats", s("5"))],
        vec![("minSeats", s("7"))],
        vec![("minAirbags", s("6"))],
        vec![("minAirbags", s("0"))],
        vec![("aeb", s("true"))],
        vec![("aeb", s("false"))],
        vec![("aeb", s("true")), ("minAirbags", s("4"))],
        vec![("hasSpecs", s("true"))],
        vec![("hasSpecs", s("false"))],
        vec![("minDiscountPct", s("0"))],
        vec![("minDiscountPct", s("5"))],
        vec![("minDiscountPct", s("2.5")), ("type", body_type)],
        vec![("opportunitiesOnly", s("true"))],
        vec![("opportunitiesOnly", s("false"))],
        vec![
            ("opportunitiesOnly", s("true")),
            ("make", make),
            ("minSeats", s("5")),
        ],
        vec![
            ("fuel", fuel),
            ("hasSpecs", s("true")),
            ("aeb", s("true")),
            ("maxPriceUsd", s("80000")),
        ],
    ]
}

#[tokio::test]
async fn searches_return_exactly_the_matching_vehicles() {
    let mut partial = 0;
    for filters in combinations() {
        let uri = format!("/api/v1/vehicles?{}&limit=100", query(&filters));
        let found = as_the_oracle(&uri).await;
        partial += usize::from(!found.is_empty() && found.len() < edge_vehicles().len());
    }
    assert!(
        partial >= 20,
        "a premise: most combinations select some but not all vehicles ({partial})"
    );
}

#[tokio::test]
async fn deal_filters_combine_with_the_deal_kind() {
    for filters in combinations() {
        if filters.iter().any(|(name, _)| *name == "opportunitiesOnly") {
            continue;
        }
        for kind in ["opportunities", "price_drops", "new_opportunities"] {
            let uri = format!("/api/v1/deals?kind={kind}&{}&limit=100", query(&filters));
            as_the_oracle(&uri).await;
        }
    }
}

#[tokio::test]
async fn model_prices_match_make_and_model_loosely() {
    let vehicle = &edge_vehicles()[0];
    let (make, model) = (text(vehicle, "make"), text(vehicle, "model"));
    let exact = get_json(&format!(
        "/api/v1/models/prices?make={}&model={}",
        percent_encode(&make),
        percent_encode(&model)
    ))
    .await;
    let loose_uri = format!(
        "/api/v1/models/prices?make={}&model={}",
        percent_encode(&respelt(&make)),
        percent_encode(&model.to_lowercase())
    );
    assert_eq!(get_json(&loose_uri).await, exact);
    assert_eq!(
        exact["data"]["make"],
        make.as_str(),
        "the catalogue's own spelling is returned"
    );
}
