//! API stage, OpenAPI: builds `openapi.json` (OpenAPI 3.1.1, schemas in
//! JSON Schema 2020-12) from the API layer's bounds, defaults and
//! vocabularies. It reads only the base URL, so the document changes with
//! the code, never with the snapshot.
//!
//! The component schemas are derived from the `api::types` and `catalogue`
//! structs they describe (`schemars`: closed objects; fields the Rust code
//! skips when absent are the only optional ones, and `feedUrl`), and the MCP
//! tools' output schemas from those; the integration tests validate real
//! payloads against them. The rest is written with `json!`, whose insertion
//! order (`preserve_order`) is the document's key order.

use crate::api::links::Links;
use crate::api::operations::{Http, Spec};
use crate::api::ops::http_operations;
use crate::api::query::MAX_QUERY_CHARS;
use crate::api::types::API_VERSION;
use serde_json::{Map, Value, json};

mod parameters;
mod schemas;

use parameters::*;
pub use schemas::component_schemas;
use schemas::*;

/// The OpenAPI 3.1.1 description of the API served under `links.base()`.
pub fn render_openapi(links: &Links) -> Value {
    let base = if links.base().is_empty() {
        "/"
    } else {
        links.base()
    };
    json!({
        "openapi": "3.1.1",
        "info": info(),
        "servers": [{ "url": base, "description": "This service" }],
        // No operation needs authentication: an empty requirement says so.
        "security": [],
        "externalDocs": { "description": "Developer guide", "url": links.documentation() },
        "tags": [
            { "name": "service", "description": "Entry point and catalogue overview." },
            { "name": "deals", "description": "Buying opportunities and recent price changes." },
            { "name": "vehicles", "description": "Search, detail and comparison of versions." },
            { "name": "models", "description": "Prices of every version of one model." },
        ],
        "paths": paths(),
        "components": {
            "parameters": shared_parameters(),
            "headers": headers(),
            "responses": responses(),
            "schemas": component_schemas(),
        },
    })
}

/// How many object levels of a response a tool's output schema spells
/// out: the envelope and its payload. Deeper objects (each version's
/// Summary or Vehicle, the pagination) are checked as objects only, so the
/// eight tools' schemas stay small enough for an agent's context; their full
/// shapes are this document's components.
const TOOL_SCHEMA_DEPTH: usize = 2;

/// The output schema of an MCP tool answering with `component`
/// (`SearchResponse`, ...): the component with its references resolved,
/// without descriptions and formats (which nothing validates), nullable
/// types as `anyOf` (portable to single-`type` dialects), and objects below
/// `TOOL_SCHEMA_DEPTH` as plain objects.
pub fn output_schema(component: &str) -> Map<String, Value> {
    let Value::Object(all) = component_schemas() else {
        unreachable!("invariant: the component schemas are an object")
    };
    let root = json!({ "$ref": format!("#/components/schemas/{component}") });
    match compact(&root, &all, 0) {
        Value::Object(schema) => schema,
        _ => unreachable!("invariant: a response is an object schema"),
    }
}

/// [`output_schema`]'s rewriting of one schema at object level `depth`.
fn compact(schema: &Value, all: &Map<String, Value>, depth: usize) -> Value {
    const FROM: &str = "#/components/schemas/";
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    if let Some(Value::String(reference)) = map.get("$ref") {
        let target = all.get(reference.trim_start_matches(FROM));
        return target.map_or(json!({}), |target| compact(target, all, depth));
    }
    if let Some(Value::Array(types)) = map.get("type") {
        // `["integer", "null"]`: one branch per type.
        let branches: Vec<Value> = types
            .iter()
            .map(|single| {
                let mut branch = map.clone();
                branch.insert("type".into(), single.clone());
                if single == "null" {
                    json!({ "type": "null" })
                } else {
                    compact(&Value::Object(branch), all, depth)
                }
            })
            .collect();
        return json!({ "anyOf": branches });
    }
    let is_object =
        map.get("type").is_some_and(|t| t == "object") || map.contains_key("properties");
    if is_object && depth >= TOOL_SCHEMA_DEPTH {
        return json!({ "type": "object" });
    }
    let mut out = Map::new();
    for (key, value) in map {
        let rewritten = match (key.as_str(), value) {
            ("description" | "title" | "format" | "example" | "examples", _) => continue,
            ("properties", Value::Object(properties)) => Value::Object(
                properties
                    .iter()
                    .map(|(name, property)| (name.clone(), compact(property, all, depth + 1)))
                    .collect(),
            ),
            ("items" | "additionalProperties", Value::Object(_)) => compact(value, all, depth + 1),
            ("anyOf" | "oneOf" | "allOf", Value::Array(branches)) => Value::Array(
                branches
                    .iter()
                    .map(|branch| compact(branch, all, depth))
                    .collect(),
            ),
            _ => value.clone(),
        };
        out.insert(key.clone(), rewritten);
    }
    Value::Object(out)
}

fn info() -> Value {
    let description = format!(
        "Read-only JSON API of new-car dealer cash quotes in Argentina: current lowest prices, \
         recent price drops and versions priced below their usual level. Every response reads \
         the same published snapshot; a request never starts a live dealer check.\n\n\
         No account, key or authentication header is needed, and responses allow cross-origin \
         browser access. Every operation answers GET, HEAD and OPTIONS; any other method gives \
         405. A query string longer than {MAX_QUERY_CHARS} characters gives 414. Unknown or \
         repeated parameters give 400, as does minPriceUsd above maxPriceUsd (a rule across two \
         parameters that this document cannot express).\n\n\
         Successful queries carry an ETag and a five-minute shared-cache lifetime; \
         `If-None-Match` with an unchanged response yields 304. Errors are not cached. Back off \
         and retry on 429 or temporary 5xx responses. Signals compare recorded asking prices; \
         they are not manufacturer discounts and not guaranteed savings."
    );
    json!({
        "title": "autoprecios API",
        "version": API_VERSION,
        "summary": "New-car dealer prices and buying opportunities in Argentina",
        "description": description,
        "license": { "name": "MIT", "identifier": "MIT" },
    })
}

// ---------------------------------------------------------------- paths

/// One path per HTTP operation of the operations table, in its order.
fn paths() -> Value {
    let mut paths = Map::new();
    for (spec, http) in http_operations() {
        paths.insert(
            http.path.to_owned(),
            json!({ "get": render_operation(spec, http) }),
        );
    }
    Value::Object(paths)
}

fn render_operation(spec: &Spec, operation: &Http) -> Value {
    let mut responses = Map::new();
    responses.insert("200".into(), success(operation.body, operation.csv));
    responses.insert("304".into(), component_ref("responses", "NotModified"));
    // Every operation rejects unknown and repeated parameters, even those that take none.
    responses.insert("400".into(), component_ref("responses", "BadRequest"));
    if operation.not_found {
        responses.insert("404".into(), component_ref("responses", "NotFound"));
    }
    responses.insert("405".into(), component_ref("responses", "MethodNotAllowed"));
    responses.insert("414".into(), component_ref("responses", "UriTooLong"));
    responses.insert(
        "503".into(),
        component_ref("responses", "ServiceUnavailable"),
    );
    let mut rendered = json!({
        "operationId": spec.name,
        "tags": [operation.tag],
        "summary": operation.summary,
        "description": format!(
            "{} HEAD (same headers, no body) and OPTIONS (CORS preflight) are also answered.",
            operation.description
        ),
    });
    let parameters = operation_parameters(spec.operation);
    if !parameters.is_empty() {
        rendered["parameters"] = Value::Array(parameters);
    }
    rendered["responses"] = Value::Object(responses);
    rendered
}

fn success(body: &str, csv: bool) -> Value {
    let mut content = json!({ "application/json": { "schema": schema_ref(body) } });
    if csv {
        content["text/csv"] = json!({ "schema": { "type": "string" } });
    }
    json!({
        "description": "OK",
        "headers": {
            "ETag": component_ref("headers", "ETag"),
            "Cache-Control": component_ref("headers", "CacheControl"),
            "Access-Control-Allow-Origin": component_ref("headers", "AccessControlAllowOrigin"),
        },
        "content": content,
    })
}

// ----------------------------------------------------------- parameters

/// Reusable parameters: the shared search filters (spec order), limit and offset.
fn headers() -> Value {
    json!({
        "ETag": {
            "description": "Strong validator of the response bytes; send it back in If-None-Match.",
            "required": true,
            "schema": { "type": "string" },
        },
        "CacheControl": {
            "description": "Five-minute shared-cache lifetime on successes; errors are not cached.",
            "schema": { "type": "string" },
        },
        "AccessControlAllowOrigin": {
            "description": "Cross-origin browser access is allowed.",
            "schema": { "type": "string" },
        },
        "RetryAfter": {
            "description": "Seconds to wait before retrying.",
            "schema": { "type": "integer", "minimum": 0 },
        },
    })
}

fn responses() -> Value {
    let error = |description: &str, example: Value| {
        json!({
            "description": description,
            "headers": { "Cache-Control": component_ref("headers", "CacheControl") },
            "content": { "application/json": {
                "schema": schema_ref("Error"),
                "example": { "error": example },
            } },
        })
    };
    json!({
        "NotModified": {
            "description": "Not Modified: the If-None-Match validator matches; no body.",
            "headers": { "ETag": component_ref("headers", "ETag") },
        },
        "BadRequest": error(
            "Invalid, unknown or repeated parameter, reversed budget bounds or duplicate IDs.",
            json!({ "code": "invalid_parameters", "message": "invalid parameters",
                "details": [{ "path": "limit", "message": "must be 1 to 100" }] }),
        ),
        "NotFound": error(
            "Unknown route, unknown model, or a version outside the current priced catalogue.",
            json!({ "code": "not_found", "message": "no published version with id \"x\"" }),
        ),
        "MethodNotAllowed": error(
            "Method other than GET, HEAD or OPTIONS.",
            json!({ "code": "method_not_allowed", "message": "method not allowed" }),
        ),
        "UriTooLong": error(
            "Query string longer than 4096 characters.",
            json!({ "code": "uri_too_long", "message": "query string too long" }),
        ),
        "ServiceUnavailable": {
            "description": "Temporarily unavailable: the server is busy (`overloaded`, with \
                Retry-After) or the request took too long (`timeout`). Retry later with \
                increasing delays.",
            "headers": {
                "Cache-Control": component_ref("headers", "CacheControl"),
                "Retry-After": component_ref("headers", "RetryAfter"),
            },
            "content": { "application/json": {
                "schema": schema_ref("Error"),
                "example": { "error": {
                    "code": "overloaded", "message": "the server is busy; retry in a moment",
                } },
            } },
        },
    })
}

// -------------------------------------------------------------- schemas
