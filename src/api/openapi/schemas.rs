//! API stage, OpenAPI schemas: every payload as a component schema,
//! derived from the response types (`#[derive(JsonSchema)]` on each
//! operation's payload in `api::ops`, on `api::types`, `api::error` and the
//! catalogue records they carry), so that the document says what the types
//! serialize.

use schemars::generate::SchemaSettings;
use schemars::transform::{RecursiveTransform, RestrictFormats};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Value, json};

use crate::api::error::ErrorBody;
use crate::api::ops::operations;

/// Where the components live in the document.
const COMPONENTS: &str = "/components/schemas";

/// The formats the document keeps: JSON Schema's own, which validators
/// check. The derives also write the Rust width of every number (`uint32`,
/// `double`, ...), which describes the code, not the contract.
const FORMATS: [&str; 4] = ["date-time", "date", "uri", "uri-template"];

/// Every component schema, as `openapi.json` publishes them: the bodies of
/// the operations and what they refer to, each under its schema name
/// (`SearchResponse`, `Summary`, ...), derived from the response types.
pub fn component_schemas() -> Value {
    let mut formats = RestrictFormats::default();
    formats.infer_from_meta_schema = false;
    formats.allowed_formats = FORMATS.into_iter().map(Into::into).collect();
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|settings| {
            settings.definitions_path = COMPONENTS.into();
            settings.meta_schema = None;
        })
        .with_transform(formats)
        .with_transform(RecursiveTransform(unwrap_description))
        .into_generator();
    for op in operations() {
        op.add_schema(&mut generator);
    }
    add::<ErrorBody>(&mut generator);
    Value::Object(generator.take_definitions(true))
}

/// A description is one paragraph: the line breaks of a doc comment it was
/// read from (wrapped for the source, not for the reader) become spaces.
fn unwrap_description(schema: &mut Schema) {
    if let Some(Value::String(description)) = schema.get_mut("description") {
        *description = description.replace('\n', " ");
    }
}

/// Adds `T` and every type it refers to.
fn add<T: JsonSchema>(generator: &mut SchemaGenerator) {
    let _reference = generator.subschema_for::<T>();
}

pub(super) fn schema_ref(name: &str) -> Value {
    component_ref("schemas", name)
}

pub(super) fn component_ref(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}
