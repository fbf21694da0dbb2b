//! Edge stage, MCP server: the `rmcp` handler of one request. It is built per
//! request (the transport is stateless) over the shared [`AppState`] and
//! reads the tree current when the request arrives, so a reload never
//! changes the data under an answer being built.

use std::borrow::Cow;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, Implementation, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::edge::mcp::{resources, tools};
use crate::edge::state::AppState;

/// The protocol revisions served. 2025-03-26 is left out: it required
/// servers to accept JSON-RPC batches, which this endpoint refuses (later
/// revisions removed them). 2026-07-28 is the stateless revision without
/// `initialize`; the two before it use the handshake.
pub static SUPPORTED_VERSIONS: [ProtocolVersion; 3] = [
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2026_07_28,
];

/// How long clients may reuse the tool list, the resource list and a
/// resource's text: the HTTP API's five-minute shared-cache lifetime.
const CACHE_TTL_MS: u64 = 300_000;

/// What `initialize` and `server/discover` tell an agent first.
const INSTRUCTIONS: &str = "New-car dealer cash prices in Argentina, from the published snapshot \
    (read-only, no live dealer checks). Start with get_catalogue to spell makes and models and see \
    which filter values exist; search_vehicles filters and pages versions; find_deals lists \
    opportunities (at least 5% below a version's usual price), recent price drops and new \
    opportunities; get_model_prices gives one model's versions; get_vehicle and compare_vehicles \
    give full records with every quote and sourced specifications. Prices are asking prices in \
    USD (quotes keep their original ARS or USD); signals are not manufacturer discounts. The \
    resources are the developer guide and the methodology.";

/// What an agent must say of a synthetic snapshot: in the instructions, and
/// in every tool result's `_meta` ([`tools::SYNTHETIC_NOTICE`]).
fn instructions(synthetic: bool) -> String {
    if synthetic {
        format!("{INSTRUCTIONS} {}", tools::SYNTHETIC_NOTICE)
    } else {
        INSTRUCTIONS.to_owned()
    }
}

/// The MCP server of one request.
#[derive(Debug, Clone)]
pub struct McpServer {
    state: AppState,
}

impl McpServer {
    /// A server answering from `state`'s current tree.
    pub fn new(state: AppState) -> Self {
        McpServer { state }
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let site = self.state.site();
        let server = Implementation::new("autoprecios", env!("CARGO_PKG_VERSION"))
            .with_title("autoprecios: new-car prices in Argentina")
            .with_website_url(site.index().links().base());
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        // The version `initialize` falls back to when the client asks for one
        // this server does not speak: the newest with a handshake.
        ServerConfig::new(capabilities)
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .with_server_info(server)
            .with_instructions(instructions(site.index().meta().synthetic))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&SUPPORTED_VERSIONS[..])
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let listed = tools::tools()
            .iter()
            .map(|spec| spec.tool.clone())
            .collect();
        let mut result = ListToolsResult::with_all_items(listed);
        result.ttl_ms = Some(CACHE_TTL_MS);
        result.cache_scope = Some(CacheScope::Public);
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find_tool(name).map(|spec| spec.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(spec) = tools::find_tool(&request.name) else {
            // The protocol's answer to an unknown tool: a JSON-RPC error, not a result.
            let names: Vec<&str> = tools::tools()
                .iter()
                .map(|spec| spec.tool.name.as_ref())
                .collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {:?}; tools: {}",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
        };
        let site = self.state.site();
        Ok(tools::call(&site, spec, &request.arguments).into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let site = self.state.site();
        let mut result = ListResourcesResult::with_all_items(resources::list(&site));
        result.ttl_ms = Some(CACHE_TTL_MS);
        result.cache_scope = Some(CacheScope::Public);
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let site = self.state.site();
        let result = resources::read(&site, &request.uri).await?;
        Ok(result
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public)
            .into())
    }
}
