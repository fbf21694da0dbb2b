//! API stage, OpenAPI parameters: each operation's parameters from the one
//! parameter table (`api::params::table`). A parameter that two or more
//! HTTP operations take (the shared filters, limit, offset) is a reusable
//! component that they refer to; the others are written inline.

use crate::api::ops::http_operations;
use crate::api::params::schema::value_schema;
use crate::api::params::table::{Kind, Location, PARAMS, Param};
use crate::api::query::Operation;

use super::schemas::component_ref;
use serde_json::{Map, Value, json};

/// Whether several HTTP operations take `param`: then it is a component.
fn shared(param: &Param) -> bool {
    http_operations()
        .filter(|(spec, _)| param.takes(spec.operation))
        .count()
        > 1
}

/// The reusable parameters, in table order.
pub(super) fn shared_parameters() -> Value {
    let components: Map<String, Value> = PARAMS
        .iter()
        .filter(|param| shared(param))
        .map(|param| (param.name.to_owned(), parameter(param)))
        .collect();
    Value::Object(components)
}

/// The parameters of `operation`, in table order: references to the
/// shared ones, the others inline.
pub(super) fn operation_parameters(operation: Operation) -> Vec<Value> {
    PARAMS
        .iter()
        .filter(|param| param.takes(operation))
        .map(|param| match shared(param) {
            true => component_ref("parameters", param.name),
            false => parameter(param),
        })
        .collect()
}

/// One parameter object.
fn parameter(param: &Param) -> Value {
    let location = match param.location {
        Location::Query => "query",
        Location::Path => "path",
    };
    let mut parameter = json!({ "name": param.name, "in": location });
    // A path parameter is always there (OpenAPI requires it so); the
    // market report's month is optional only as an MCP argument.
    if param.required || param.location == Location::Path {
        parameter["required"] = json!(true);
    }
    parameter["description"] = json!(param.description);
    if matches!(param.kind, Kind::Ids { .. }) {
        // Comma-separated in one value.
        parameter["style"] = json!("form");
        parameter["explode"] = json!(false);
    }
    parameter["schema"] = Value::Object(value_schema(param.kind));
    parameter
}
