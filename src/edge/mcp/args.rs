//! Edge stage, MCP arguments: checks a tool call's JSON arguments against the
//! tool's parameter table (unknown keys, JSON types) and builds the same typed
//! query the HTTP parser builds. The bounds, defaults and cross-parameter
//! rules are left to that one parser (`api::params`): well-typed arguments
//! are written as the query string a browser would send and parsed by it, so
//! a tool and its HTTP endpoint can never disagree on what a value means or
//! on the error `path` and `message` that reject it.

use serde_json::{Map, Number, Value};

use crate::api::ApiError;
use crate::api::error::ErrorDetail;
use crate::api::params::{parse_deals, parse_model, parse_search};
use crate::api::query::{CompareQuery, DealsQuery, ModelQuery, SearchQuery};
use crate::edge::mcp::params::{Kind, Param};

/// The arguments of a call (`None` when the client sent none).
pub type Arguments = Option<Map<String, Value>>;

/// `search_vehicles` arguments as the HTTP endpoint's query.
pub fn search_query(args: &Arguments, params: &[Param]) -> Result<SearchQuery, ApiError> {
    via_query_string(args, params, parse_search)
}

/// `find_deals` arguments as the HTTP endpoint's query.
pub fn deals_query(args: &Arguments, params: &[Param]) -> Result<DealsQuery, ApiError> {
    via_query_string(args, params, parse_deals)
}

/// `get_model_prices` arguments as the HTTP endpoint's query.
pub fn model_query(args: &Arguments, params: &[Param]) -> Result<ModelQuery, ApiError> {
    via_query_string(args, params, parse_model)
}

/// `compare_vehicles` arguments: the IDs as given; their count, lengths and
/// duplicates are checked by the operation itself, as for HTTP.
pub fn compare_query(args: &Arguments, params: &[Param]) -> Result<CompareQuery, ApiError> {
    let mut details = Vec::new();
    let ids = match checked(args, params, &mut details).first() {
        Some((_, Value::Array(items))) => items
            .iter()
            .enumerate()
            .filter_map(|(position, item)| match item {
                Value::String(id) => Some(id.clone()),
                _ => {
                    details.push(ErrorDetail::new(
                        format!("ids[{position}]"),
                        "must be a string",
                    ));
                    None
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    require(args, params, &mut details);
    finish(
        details,
        CompareQuery {
            ids,
            commas_separate: false,
        },
    )
}

/// The one string argument of `get_vehicle`, `fetch` and `search`; its
/// bounds are checked by the operation (or by the caller for `search`).
pub fn text_argument(args: &Arguments, params: &[Param]) -> Result<String, ApiError> {
    let mut details = Vec::new();
    let text = match checked(args, params, &mut details).first() {
        Some((_, Value::String(text))) => text.clone(),
        _ => String::new(),
    };
    require(args, params, &mut details);
    finish(details, text)
}

/// Checks that a tool without parameters got none.
pub fn no_arguments(args: &Arguments) -> Result<(), ApiError> {
    let mut details = Vec::new();
    checked(args, &[], &mut details);
    finish(details, ())
}

/// Type-checks the arguments, writes the well-typed ones as a query string
/// and parses it with the HTTP parser; problems of both kinds are reported
/// together, one per argument.
fn via_query_string<T>(
    args: &Arguments,
    params: &[Param],
    parse: fn(&str) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut details = Vec::new();
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (param, value) in checked(args, params, &mut details) {
        if let Some(text) = as_query_value(&param.kind, value) {
            query.append_pair(param.name, &text);
        } else {
            details.push(ErrorDetail::new(param.name, param.expected()));
        }
    }
    match parse(&query.finish()) {
        Ok(parsed) if details.is_empty() => Ok(parsed),
        Ok(_) => Err(ApiError::InvalidParameters(details)),
        Err(ApiError::InvalidParameters(found)) => {
            // An argument of the wrong type was left out of the query, so the
            // parser may call it "required": the type error says more.
            let rest: Vec<ErrorDetail> = found
                .into_iter()
                .filter(|detail| !details.iter().any(|known| known.path == detail.path))
                .collect();
            details.extend(rest);
            Err(ApiError::InvalidParameters(details))
        }
        Err(other) => Err(other),
    }
}

/// The arguments that name a parameter, with it; an unknown name is a detail.
fn checked<'a, 'p>(
    args: &'a Arguments,
    params: &'p [Param],
    details: &mut Vec<ErrorDetail>,
) -> Vec<(&'p Param, &'a Value)> {
    let mut known = Vec::new();
    for (name, value) in args.iter().flatten() {
        match params.iter().find(|param| param.name == name) {
            Some(param) => {
                if param_type_matches(&param.kind, value) {
                    known.push((param, value));
                } else {
                    details.push(ErrorDetail::new(name.as_str(), param.expected()));
                }
            }
            None => details.push(ErrorDetail::new(name.as_str(), "unknown parameter")),
        }
    }
    known
}

/// Adds "required" for every required parameter that is absent.
fn require(args: &Arguments, params: &[Param], details: &mut Vec<ErrorDetail>) {
    for param in params.iter().filter(|param| param.required) {
        let given = args
            .as_ref()
            .is_some_and(|args| args.contains_key(param.name));
        if !given {
            details.push(ErrorDetail::new(param.name, "required"));
        }
    }
}

fn finish<T>(details: Vec<ErrorDetail>, value: T) -> Result<T, ApiError> {
    if details.is_empty() {
        Ok(value)
    } else {
        Err(ApiError::InvalidParameters(details))
    }
}

/// Whether `value` has the JSON type `kind` asks for (bounds come later).
fn param_type_matches(kind: &Kind, value: &Value) -> bool {
    match (kind, value) {
        (Kind::Text { .. } | Kind::Choice { .. }, Value::String(_)) => true,
        (Kind::Integer { .. }, Value::Number(number)) => integer_text(number).is_some(),
        (Kind::Number { .. }, Value::Number(_)) => true,
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Ids, Value::Array(_)) => true,
        _ => false,
    }
}

/// A well-typed value as the HTTP parser reads it.
fn as_query_value(kind: &Kind, value: &Value) -> Option<String> {
    match (kind, value) {
        (_, Value::String(text)) => Some(text.clone()),
        (_, Value::Bool(flag)) => Some(flag.to_string()),
        (Kind::Integer { .. }, Value::Number(number)) => integer_text(number),
        (_, Value::Number(number)) => Some(number_text(number)),
        _ => None,
    }
}

/// An integral JSON number in decimal (`20.0` is the integer 20, as in JSON
/// Schema); `None` for a fraction.
fn integer_text(number: &Number) -> Option<String> {
    if let Some(integer) = number.as_i64() {
        return Some(integer.to_string());
    }
    if let Some(integer) = number.as_u64() {
        return Some(integer.to_string());
    }
    let float = number.as_f64()?;
    (float.fract() == 0.0).then(|| format!("{float}"))
}

/// A JSON number in plain decimal: Rust's float formatting never uses an
/// exponent, which the HTTP parser does not accept.
fn number_text(number: &Number) -> String {
    match (number.as_i64(), number.as_u64(), number.as_f64()) {
        (Some(integer), _, _) => integer.to_string(),
        (_, Some(integer), _) => integer.to_string(),
        (_, _, Some(float)) => format!("{float}"),
        _ => number.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::query::{Page, SearchSort};
    use crate::edge::mcp::params::{compare_params, model_params, search_params};
    use serde_json::json;

    fn args(value: Value) -> Arguments {
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    fn paths(err: ApiError) -> Vec<String> {
        match err {
            ApiError::InvalidParameters(details) => details.into_iter().map(|d| d.path).collect(),
            other => panic!("expected invalid parameters, got {other:?}"),
        }
    }

    #[test]
    fn typed_arguments_build_the_http_query() {
        let query = search_query(
            &args(
                json!({"q": "hilux a&b=c+d", "limit": 5, "offset": 10.0, "aeb": true,
                "minPriceUsd": 1e4, "sort": "name"}),
            ),
            &search_params(),
        )
        .expect("valid");
        assert_eq!(query.filters.q.as_deref(), Some("hilux a&b=c+d"));
        assert_eq!(
            query.page,
            Page {
                limit: 5,
                offset: 10
            }
        );
        assert_eq!(query.filters.aeb, Some(true));
        assert_eq!(query.filters.min_price_usd, Some(10_000.0));
        assert_eq!(query.sort, SearchSort::Name);
        assert_eq!(
            search_query(&None, &search_params()).expect("defaults"),
            SearchQuery::default()
        );
    }

    #[test]
    fn wrong_types_unknown_keys_and_bounds_are_named() {
        let err = search_query(
            &args(
                json!({"limit": "5", "colour": "red", "aeb": "true", "minSeats": 0,
                "offset": 1.5, "minAirbags": -1, "minPriceUsd": 2, "maxPriceUsd": 1}),
            ),
            &search_params(),
        )
        .expect_err("invalid");
        let mut found = paths(err);
        found.sort();
        assert_eq!(
            found,
            [
                "aeb",
                "colour",
                "limit",
                "maxPriceUsd",
                "minAirbags",
                "minSeats",
                "offset"
            ]
        );
        assert_eq!(
            paths(model_query(&args(json!({"make": 1})), &model_params()).expect_err("required")),
            ["make", "model"],
            "a wrong type is reported once, not also as missing"
        );
    }

    #[test]
    fn compare_ids_are_a_json_array_of_strings() {
        let query =
            compare_query(&args(json!({"ids": ["a,b", "c"]})), &compare_params()).expect("ok");
        assert_eq!(query.ids, ["a,b", "c"]);
        assert_eq!(
            paths(compare_query(&args(json!({"ids": "a,b"})), &compare_params()).expect_err("")),
            ["ids"]
        );
        assert_eq!(
            paths(compare_query(&args(json!({"ids": ["a", 2]})), &compare_params()).expect_err("")),
            ["ids[1]"]
        );
        assert_eq!(
            paths(compare_query(&None, &compare_params()).expect_err("")),
            ["ids"]
        );
    }
}
