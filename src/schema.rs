//! JSON Schema helpers for the `#[derive(JsonSchema)]` of the catalogue and
//! API types: what a derive cannot read from a field's Rust type. The
//! OpenAPI components (`api::openapi`) are generated from those derives.

use schemars::{Schema, SchemaGenerator, json_schema};
use serde_json::Value;

/// The one value a field always has (`schemaVersion`, `windowDays`,
/// `conversionBasis`), for [`constant`].
pub trait Constant {
    /// The value.
    fn value() -> Value;
}

/// A field's schema when it always holds `C::value()`: its JSON type and
/// `const`, for `#[schemars(schema_with = "constant::<C>")]`. (A derived
/// `u32` would add the type's own bounds, which say nothing more here.)
pub fn constant<C: Constant>(_: &mut SchemaGenerator) -> Schema {
    let value = C::value();
    let kind = match &value {
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        _ => "null",
    };
    json_schema!({ "type": kind, "const": value })
}
