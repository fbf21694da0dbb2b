//! Tests generated from the parameter table (`api::params::PARAMS`): for
//! every query parameter of every operation with an HTTP route and an MCP
//! tool, the values at each bound are taken and the values just past them
//! refused, naming the parameter, through HTTP and through MCP alike; so
//! are every choice's spellings and the booleans, and, over MCP, a JSON
//! value of the wrong type. A new row is tested the moment it is added,
//! with nothing written out by hand.

use autoprecios::api::links::percent_encode;
use autoprecios::api::ops::http_operations;
use autoprecios::api::params::table::{Kind, Location, params_of};
use autoprecios::api::query::Operation;
use serde_json::{Value, json};

use crate::harness::{edge_vehicles, get};
use crate::mcp::call_tool;

/// One value of a parameter to try, as HTTP text and as MCP JSON, and
/// whether it must be accepted.
struct Case {
    text: String,
    json: Value,
    valid: bool,
}

fn case(text: impl Into<String>, json: Value, valid: bool) -> Case {
    Case {
        text: text.into(),
        json,
        valid,
    }
}

/// The values at and just past a kind's bounds.
fn cases(kind: Kind) -> Vec<Case> {
    match kind {
        Kind::Integer { min, max, .. } => {
            let mut cases = vec![
                case(min.to_string(), json!(min), true),
                case(max.to_string(), json!(max), true),
                case(
                    (u64::from(max) + 1).to_string(),
                    json!(u64::from(max) + 1),
                    false,
                ),
            ];
            let below = i64::from(min) - 1;
            cases.push(case(below.to_string(), json!(below), false));
            cases
        }
        Kind::Number { min, max } => {
            let mut cases = vec![
                case(number(min), json!(min), true),
                case(number(min - 0.5), json!(min - 0.5), false),
            ];
            if let Some(max) = max {
                cases.push(case(number(max), json!(max), true));
                cases.push(case(number(max + 0.5), json!(max + 0.5), false));
            }
            cases
        }
        Kind::Text { min, max } => {
            let mut cases = vec![
                case("a".repeat(max), json!("a".repeat(max)), true),
                case("a".repeat(max + 1), json!("a".repeat(max + 1)), false),
            ];
            if min > 0 {
                cases.push(case("a".repeat(min), json!("a".repeat(min)), true));
                cases.push(case("a".repeat(min - 1), json!("a".repeat(min - 1)), false));
            }
            cases
        }
        Kind::Boolean => vec![
            case("true", json!(true), true),
            case("false", json!(false), true),
            case("1", json!("1"), false),
        ],
        Kind::Choice { values, .. } => values
            .iter()
            .map(|value| case(*value, json!(value), true))
            .chain([case("not-a-value", json!("not-a-value"), false)])
            .collect(),
        Kind::Ids { .. } => Vec::new(),
    }
}

/// A number as the API spells it: plain decimals, no exponent.
fn number(value: f64) -> String {
    let text = format!("{value}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
}

/// What every call of `operation` needs besides the parameter under test:
/// a real make and model for a model's prices.
fn required(operation: Operation) -> Vec<(&'static str, String)> {
    let vehicle = &edge_vehicles()[0];
    let field = |name: &str| vehicle[name].as_str().expect("a name").to_owned();
    match operation {
        Operation::ModelPrices => vec![("make", field("make")), ("model", field("model"))],
        _ => Vec::new(),
    }
}

/// The parameter paths of a 400 body (HTTP) or a refused tool's error.
fn paths(error: &Value) -> Vec<String> {
    error["error"]["details"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|detail| detail["path"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn every_parameter_takes_its_bounds_and_refuses_past_them_over_http_and_mcp() {
    let mut tried = 0;
    for (spec, http) in http_operations() {
        let operation = spec.operation;
        let Some(_) = spec.tool else { continue };
        let base = required(operation);
        for param in params_of(operation).filter(|p| p.location == Location::Query) {
            for case in cases(param.kind) {
                let mut query: Vec<String> = base
                    .iter()
                    .filter(|(name, _)| *name != param.name)
                    .map(|(name, value)| format!("{name}={}", percent_encode(value)))
                    .collect();
                query.push(format!("{}={}", param.name, percent_encode(&case.text)));
                let uri = format!("{}?{}", http.path, query.join("&"));
                let reply = get(&uri).await;
                let named =
                    reply.status == 400 && paths(&reply.json()).contains(&param.name.to_owned());
                assert_eq!(
                    !named,
                    case.valid,
                    "HTTP {uri}: {}",
                    String::from_utf8_lossy(&reply.body)
                );

                let mut arguments = serde_json::Map::new();
                for (name, value) in base.iter().filter(|(name, _)| *name != param.name) {
                    arguments.insert((*name).to_owned(), json!(value));
                }
                arguments.insert(param.name.to_owned(), case.json.clone());
                let result = call_tool(spec.name, Value::Object(arguments.clone())).await;
                let refused = result["isError"] == true
                    && result["content"][1]["text"]
                        .as_str()
                        .and_then(|text| serde_json::from_str::<Value>(text).ok())
                        .is_some_and(|error| paths(&error).contains(&param.name.to_owned()));
                assert_eq!(
                    !refused, case.valid,
                    "MCP {} {arguments:?}: {result}",
                    spec.name
                );
                tried += 1;
            }
        }
    }
    // A premise, not a pin: the table's listings have parameters to try.
    assert!(tried > 50, "{tried} cases");
}

/// A JSON value of another type than `kind` takes (text takes numbers, as
/// identity text such as model 208; not booleans).
fn wrong_type(kind: Kind) -> Value {
    match kind {
        Kind::Text { .. } | Kind::Choice { .. } => json!(true),
        Kind::Integer { .. } | Kind::Number { .. } => json!("1"),
        Kind::Boolean => json!("true"),
        Kind::Ids { .. } => json!("a,b"),
    }
}

#[tokio::test]
async fn every_tool_argument_of_the_wrong_json_type_is_refused_by_name() {
    let mut tried = 0;
    for (spec, _) in http_operations() {
        let Some(_) = spec.tool else { continue };
        let tool = spec.name;
        let base = required(spec.operation);
        for param in params_of(spec.operation) {
            let mut arguments = serde_json::Map::new();
            for (name, value) in base.iter().filter(|(name, _)| *name != param.name) {
                arguments.insert((*name).to_owned(), json!(value));
            }
            arguments.insert(param.name.to_owned(), wrong_type(param.kind));
            let result = call_tool(tool, Value::Object(arguments.clone())).await;
            let named = result["isError"] == true
                && result["content"][1]["text"]
                    .as_str()
                    .and_then(|text| serde_json::from_str::<Value>(text).ok())
                    .is_some_and(|error| paths(&error) == [param.name]);
            assert!(named, "MCP {tool} {arguments:?}: {result}");
            tried += 1;
        }
    }
    assert!(tried > 0, "the tools take arguments");
}
