//! API stage, `get_api_info` (`GET /api/v1`): the entry point, with the
//! version, the snapshot's time and the links to everything else. Not
//! enveloped; MCP has its own discovery, so no tool answers it.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Op, Question, Reply};
use super::table::LISTED;
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::json::to_json_bytes;
use crate::api::operations::{Cdn, Http, Spec};
use crate::api::params::{Args, no_arguments};
use crate::api::query::Operation;
use crate::api::types::API_VERSION;
use crate::time::Time;

/// The operation.
#[derive(Debug)]
pub struct GetApiInfo;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::ApiInfo,
    name: "get_api_info",
    http: Some(Http {
        path: "/api/v1",
        tag: "service",
        summary: "Entry point: version, snapshot date and links",
        description: "Returns ApiInfo directly, not inside the envelope. Takes no parameters.",
        body: "ApiInfo",
        not_found: false,
        cdn: Cdn::File("/api/v1/index.json"),
        fixed_at_load: true,
        csv: false,
    }),
    tool: None,
};

/// `GET /api/v1`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Entry point of the API (not enveloped)."
)]
pub struct ApiInfo {
    /// Service name.
    pub name: String,
    /// API version.
    pub version: &'static str,
    /// Latest capture in the snapshot.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub snapshot_at: Time,
    /// Developer documentation.
    #[schemars(url)]
    pub documentation_url: String,
    /// The OpenAPI description.
    #[schemars(url)]
    pub openapi_url: String,
    /// The MCP endpoint.
    #[schemars(url)]
    pub mcp_url: String,
    /// Absolute URL of every operation; path parameters in braces.
    #[schemars(extend("items" = { "type": "string", "format": "uri-template" }))]
    pub endpoints: Vec<String>,
}

/// `GET /api/v1`: the entry point (not enveloped).
pub fn get_api_info(index: &Index) -> ApiInfo {
    let links = index.links();
    ApiInfo {
        name: "autoprecios".to_owned(),
        version: API_VERSION,
        snapshot_at: index.meta().snapshot_at,
        documentation_url: links.documentation(),
        openapi_url: links.openapi(),
        mcp_url: links.mcp(),
        endpoints: std::iter::once(&SPEC)
            .chain(LISTED.iter().map(|op| op.spec()))
            .filter_map(|spec| spec.http)
            .map(|http| links.absolute(http.path))
            .collect(),
    }
}

/// The entry point is asked without arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiInfoAsked;

impl Op for GetApiInfo {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        no_arguments(args).map(|()| Question::new(SPEC.operation, ApiInfoAsked))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<ApiInfo>();
    }
}

impl Asked for ApiInfoAsked {
    fn key(&self) -> String {
        String::new()
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let info = get_api_info(index);
        let headline = format!("{}: API {} of {}.", SPEC.name, info.version, info.name);
        Ok(Reply::json(to_json_bytes(&info), headline))
    }
}
