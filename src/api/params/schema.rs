//! API stage, parameter schemas: the JSON Schema of a parameter's value
//! from its table row, the one the OpenAPI document publishes for HTTP and
//! the one an MCP tool's input schema gives agents.

use serde_json::{Map, Value, json};

use crate::api::params::table::{Kind, Param};
use crate::api::query::MAX_ID_CHARS;

/// The JSON Schema of `kind`'s values, keys in the order the documents show.
pub fn value_schema(kind: Kind) -> Map<String, Value> {
    let schema = match kind {
        Kind::Text { min: 0, max } => json!({ "type": "string", "maxLength": max }),
        Kind::Text { min, max } => json!({ "type": "string", "minLength": min, "maxLength": max }),
        Kind::Integer { min, max, default } => {
            let mut schema = json!({ "type": "integer", "minimum": min, "maximum": max });
            if let Some(default) = default {
                schema["default"] = json!(default);
            }
            schema
        }
        Kind::Number { min, max } => {
            let mut schema = json!({ "type": "number", "minimum": number(min) });
            if let Some(max) = max {
                schema["maximum"] = number(max);
            }
            schema
        }
        Kind::Boolean => json!({ "type": "boolean" }),
        Kind::Choice { values, default } => {
            let mut schema = json!({ "type": "string", "enum": values });
            if let Some(default) = default {
                schema["default"] = json!(default);
            }
            schema
        }
        Kind::Ids { min, max } => json!({
            "type": "array",
            "items": { "type": "string", "minLength": 1, "maxLength": MAX_ID_CHARS },
            "minItems": min,
            "maxItems": max,
            "uniqueItems": true,
        }),
    };
    match schema {
        Value::Object(schema) => schema,
        _ => unreachable!("invariant: a value schema is an object"),
    }
}

/// An MCP tool's input schema over `params`: their value schemas with
/// their descriptions, the required ones listed, no other key admitted.
pub fn input_schema<'a>(params: impl Iterator<Item = &'a Param>) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in params {
        let mut schema = value_schema(param.kind);
        schema.insert("description".to_owned(), json!(param.description));
        properties.insert(param.name.to_owned(), Value::Object(schema));
        if param.required {
            required.push(param.name);
        }
    }
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), json!(required));
    }
    schema.insert("additionalProperties".to_owned(), json!(false));
    schema
}

/// A bound as JSON: an integer when it is one (`0`, not `0.0`).
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}
