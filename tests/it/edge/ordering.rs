//! Orderings and paging: every sort's rule and tie rule, checked as
//! invariants over every page of every list, and the membership of each
//! deal list against the edge data.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use autoprecios::api::links::percent_encode;
use autoprecios::api::text::fold;
use chrono::{DateTime, FixedOffset};
use serde_json::Value;

use crate::harness::{edge_vehicles, get_json};

/// Every item of a listing, following `nextOffset` from 0 and checking the
/// pagination facts of each page.
async fn walk(base: &str) -> Vec<Value> {
    let separator = if base.contains('?') { '&' } else { '?' };
    let (mut offset, mut all, mut total) = (0_u64, Vec::new(), None);
    loop {
        let body = get_json(&format!("{base}{separator}offset={offset}")).await;
        let pagination = &body["data"]["pagination"];
        assert_eq!(pagination["offset"].as_u64(), Some(offset), "{base}");
        let page_total = pagination["total"].as_u64().expect("total");
        assert_eq!(
            *total.get_or_insert(page_total),
            page_total,
            "{base}: total changed between pages"
        );
        let page = body["data"]["vehicles"]
            .as_array()
            .expect("vehicles")
            .clone();
        assert!(
            page.len() as u64 <= pagination["limit"].as_u64().expect("limit"),
            "{base}"
        );
        offset += page.len() as u64;
        all.extend(page);
        match pagination["nextOffset"].as_u64() {
            Some(next) => assert_eq!(next, offset, "{base}"),
            None => {
                assert!(pagination["nextOffset"].is_null(), "{base}");
                assert_eq!(
                    all.len() as u64,
                    page_total,
                    "{base}: the pages cover the total"
                );
                return all;
            }
        }
    }
}

fn id(vehicle: &Value) -> &str {
    vehicle["id"].as_str().expect("id")
}

fn price(vehicle: &Value) -> f64 {
    vehicle["currentPriceUsd"].as_f64().expect("price")
}

/// Descending, unknown last.
fn descending_nulls_last<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => b.partial_cmp(&a).expect("comparable"),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Asserts that consecutive items are in strictly increasing order of
/// `primary`, then ID (IDs are unique, so the order is total).
fn assert_order(list: &[Value], what: &str, primary: impl Fn(&Value, &Value) -> Ordering) {
    for pair in list.windows(2) {
        let order = primary(&pair[0], &pair[1])
            .then_with(|| id(&pair[0]).as_bytes().cmp(id(&pair[1]).as_bytes()));
        assert_eq!(
            order,
            Ordering::Less,
            "{what}: {} before {}",
            id(&pair[0]),
            id(&pair[1])
        );
    }
}

fn all_ids() -> BTreeSet<String> {
    edge_vehicles().iter().map(|v| id(v).to_owned()).collect()
}

fn id_set(list: &[Value]) -> BTreeSet<String> {
    let set: BTreeSet<String> = list.iter().map(|v| id(v).to_owned()).collect();
    assert_eq!(set.len(), list.len(), "no vehicle twice");
    set
}

#[tokio::test]
async fn walking_every_page_gives_every_vehicle_exactly_once() {
    let all = walk("/api/v1/vehicles?limit=7").await;
    assert_eq!(id_set(&all), all_ids());
    assert!(all.len() > 7, "the fixture has more than one page");
}

/// An order on two Summaries.
type Comparator = dyn Fn(&Value, &Value) -> Ordering;

#[tokio::test]
async fn search_sorts_tie_by_id() {
    let name = |v: &Value| {
        let field = |name: &str| fold(v[name].as_str().expect("name"));
        (field("make"), field("model"), field("trim"))
    };
    let sorts: [(&str, Box<Comparator>); 4] = [
        ("price_asc", Box::new(|a, b| price(a).total_cmp(&price(b)))),
        ("price_desc", Box::new(|a, b| price(b).total_cmp(&price(a)))),
        (
            "discount_desc",
            Box::new(|a, b| {
                descending_nulls_last(
                    a["comparison"]["discountPct"].as_f64(),
                    b["comparison"]["discountPct"].as_f64(),
                )
            }),
        ),
        ("name", Box::new(move |a, b| name(a).cmp(&name(b)))),
    ];
    for (sort, primary) in sorts {
        let list = walk(&format!("/api/v1/vehicles?sort={sort}&limit=9")).await;
        assert_eq!(id_set(&list), all_ids(), "{sort}");
        assert_order(&list, sort, primary);
    }
    let default = walk("/api/v1/vehicles?limit=100").await;
    let cheapest_first = walk("/api/v1/vehicles?sort=price_asc&limit=100").await;
    assert_eq!(default, cheapest_first, "price_asc is the default");
}

/// Recency of a change: `changedAt`, else `qualifiedSince`.
fn recency(change: &Value) -> Option<DateTime<FixedOffset>> {
    let at = change["changedAt"]
        .as_str()
        .or_else(|| change["qualifiedSince"].as_str())?;
    Some(DateTime::parse_from_rfc3339(at).expect("RFC 3339"))
}

/// The change a deal list ranks `vehicle` by: the one the response shows,
/// `recentChanges` of the window (seven days for opportunities).
fn deal_change<'a>(vehicle: &'a Value, kind: &str, window: &str) -> &'a Value {
    match kind {
        "opportunities" => &vehicle["recentChanges"]["7d"],
        _ => &vehicle["recentChanges"][window],
    }
}

/// Whether a vehicle (edge data) belongs to a deal list.
fn is_deal(vehicle: &Value, kind: &str, window: &str) -> bool {
    match kind {
        "opportunities" => vehicle["comparison"]["opportunity"] == true,
        "price_drops" => vehicle["recentChanges"][window]["kind"] == "price_drop",
        _ => vehicle["newOpportunity"][window] == true,
    }
}

#[tokio::test]
async fn deal_lists_hold_exactly_their_members_in_order() {
    let mut nonempty = BTreeSet::new();
    for kind in ["opportunities", "price_drops", "new_opportunities"] {
        for window in ["1d", "3d", "7d"] {
            let expected: BTreeSet<String> = edge_vehicles()
                .iter()
                .filter(|v| is_deal(v, kind, window))
                .map(|v| id(v).to_owned())
                .collect();
            for sort in ["recommended", "recent", "price_asc", "discount_desc"] {
                let what = format!("kind={kind}&window={window}&sort={sort}");
                let list = walk(&format!("/api/v1/deals?{what}&limit=3")).await;
                assert_eq!(id_set(&list), expected, "{what}");
                if !list.is_empty() {
                    nonempty.insert(kind);
                }
                let discount = |v: &Value| v["comparison"]["discountPct"].as_f64();
                let drop = |v: &Value| deal_change(v, kind, window)["dropPct"].as_f64();
                let recent = |v: &Value| recency(deal_change(v, kind, window));
                assert_order(&list, &what, |a, b| {
                    let primary = match (sort, kind) {
                        ("recommended", "opportunities") | ("discount_desc", _) => {
                            descending_nulls_last(discount(a), discount(b))
                        }
                        ("recommended", "price_drops") => descending_nulls_last(drop(a), drop(b)),
                        ("recommended", _) | ("recent", _) => {
                            descending_nulls_last(recent(a), recent(b))
                        }
                        _ => Ordering::Equal,
                    };
                    primary.then(price(a).total_cmp(&price(b)))
                });
            }
        }
    }
    assert_eq!(
        nonempty.len(),
        3,
        "the fixture has every kind of deal: {nonempty:?}"
    );
}

#[tokio::test]
async fn model_lists_are_cheapest_first_and_totals_cover_the_whole_model() {
    let catalogue = get_json("/api/v1/catalogue").await;
    for pair in catalogue["data"]["models"].as_array().expect("models") {
        let (make, model) = (
            pair["make"].as_str().expect("make"),
            pair["model"].as_str().expect("model"),
        );
        let base = format!(
            "/api/v1/models/prices?make={}&model={}&limit=2",
            percent_encode(make),
            percent_encode(model)
        );
        let list = walk(&base).await;
        assert_order(&list, &base, |a, b| price(a).total_cmp(&price(b)));
        let members: Vec<&Value> = edge_vehicles()
            .iter()
            .filter(|v| v["make"] == make && v["model"] == model)
            .collect();
        assert_eq!(
            id_set(&list),
            members.iter().map(|v| id(v).to_owned()).collect(),
            "{base}"
        );
        let last_page = get_json(&format!("{base}&offset={}", list.len().saturating_sub(1))).await;
        let data = &last_page["data"];
        assert_eq!(
            data["versionCount"].as_u64(),
            Some(members.len() as u64),
            "{base}"
        );
        assert_eq!(
            data["fromPriceUsd"].as_f64(),
            Some(price(&list[0])),
            "{base}"
        );
        assert_eq!(
            data["toPriceUsd"].as_f64(),
            list.last().map(price),
            "{base}"
        );
        assert_eq!(
            data["cheapestVersion"]["id"].as_str(),
            Some(id(&list[0])),
            "{base}"
        );
        let opportunities = members
            .iter()
            .filter(|v| v["comparison"]["opportunity"] == true)
            .count();
        assert_eq!(
            data["opportunityCount"].as_u64(),
            Some(opportunities as u64),
            "{base}"
        );
    }
}
