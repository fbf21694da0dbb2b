//! Edge stage, MCP: the Model Context Protocol endpoint `/mcp`, stateless
//! Streamable HTTP through the official SDK (`rmcp`), no authentication.
//! Nine read-only tools answer from the loaded tree through the same
//! operations (`api::ops`) as the HTTP API; two Markdown resources are the
//! developer guide and the methodology; two prompts phrase the questions
//! people bring, their arguments completed from the catalogue.
//!
//! - `transport`: the HTTP rules of `/mcp` (Origin, methods, body limit,
//!   malformed messages as JSON-RPC errors) in front of rmcp's service.
//! - `server`: the rmcp handler (protocol versions, tools, resources,
//!   prompts).
//! - `tools`, `connector`: the tools and their answers (their arguments
//!   are the API's parameter table: `api::params`); `headline`: the one
//!   line every result starts with; `resources`: the documents;
//!   `prompts`: the prompts and the completion of their arguments.

pub mod app;
pub mod brief;
pub mod connector;
pub mod headline;
pub mod origin;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod tools;
pub mod transport;

use axum::routing::{MethodRouter, any};

use crate::edge::state::AppState;

pub use transport::MAX_BODY_BYTES;

/// Path of the endpoint.
pub const PATH: &str = "/mcp";

/// Settings of the endpoint beyond the loaded tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpOptions {
    /// Browser origins allowed besides the site's own, in canonical form
    /// (see [`origin::parse_allowed_origin`]).
    pub allowed_origins: Vec<String>,
}

/// The `/mcp` route over `state`, for every method (the transport answers
/// the ones it does not serve).
pub fn route<S: Clone + Send + Sync + 'static>(
    state: AppState,
    options: &McpOptions,
) -> MethodRouter<S> {
    let endpoint = transport::Endpoint::new(state, options.allowed_origins.clone());
    any(transport::handle).with_state(endpoint)
}
