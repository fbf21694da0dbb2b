//! Edge stage, MCP's `brief` argument: the list tools (the operations that
//! `briefs()`: `find_deals`, `search_vehicles`, `get_model_prices`) take
//! `brief: true`, which keeps the envelope and its paging but gives each
//! version in brief (`api::types::Brief`). An MCP choice only: the HTTP API
//! answers with full Summaries, as the contract says.

use serde_json::{Map, Value, json};

use crate::api::ApiError;
use crate::api::error::ErrorDetail;
use crate::api::params::Problem;

/// The argument's name.
pub const NAME: &str = "brief";

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

#[cfg(test)]
mod tests {
    use super::*;

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
