//! Edge stage, MCP server: the `rmcp` handler of one request. It is built per
//! request (the transport is stateless) over the shared [`AppState`] and
//! reads the tree current when the request arrives, so a reload never
//! changes the data under an answer being built.

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::task::Poll;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    DiscoverResult, GetPromptRequestParams, GetPromptResponse, Icon, Implementation,
    ListPromptsResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::api::identity;
use crate::edge::http::panic_message;
use crate::edge::mcp::{prompts, resources, tools};
use crate::edge::state::AppState;

/// The protocol revisions served: every one rmcp speaks, each with its own
/// rules. 2024-11-05 and 2025-03-26 take JSON-RPC batches (the transport
/// answers them) and know neither output schemas nor structured results
/// (their tool lists and results leave them out: [`Era`]); 2025-06-18 and
/// 2025-11-25 use the handshake; 2026-07-28 is the stateless revision
/// without `initialize`.
pub static SUPPORTED_VERSIONS: [ProtocolVersion; 5] = [
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2026_07_28,
];

/// What a request's protocol revision allows in answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2024-11-05 and 2025-03-26 (a request without `MCP-Protocol-Version`
    /// is one of these, as the 2025-06-18 transport rules say): tools
    /// without `outputSchema` or `title`, results without
    /// `structuredContent`; the JSON text item carries the answer.
    Early,
    /// 2025-06-18 and later: output schemas and structured results.
    Structured,
}

impl Era {
    /// The era of a request, from the `MCP-Protocol-Version` its transport
    /// carried (rmcp puts the HTTP request head in the context).
    pub fn of(extensions: &rmcp::model::Extensions) -> Era {
        let version = extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-protocol-version"))
            .and_then(|value| value.to_str().ok());
        match version {
            None | Some("2024-11-05" | "2025-03-26") => Era::Early,
            Some(_) => Era::Structured,
        }
    }
}

/// How long clients may reuse the tool list, the resource list and a
/// resource's text: the HTTP API's five-minute shared-cache lifetime.
const CACHE_TTL_MS: u64 = 300_000;

/// What `initialize` and `server/discover` tell an agent first.
const INSTRUCTIONS: &str = "New-car dealer cash prices in Argentina, from the published snapshot \
    (read-only, no live dealer checks). Start with get_catalogue to spell makes and models and see \
    which filter values exist; search_vehicles filters and pages versions; find_deals lists \
    opportunities (at least 5% below a version's usual price), recent price drops and new \
    opportunities; get_model_prices gives one model's versions; get_vehicle and compare_vehicles \
    give full records with every quote and sourced specifications. Three prices differ: \
    currentPriceUsd is the lowest dealer quote in USD at that version's own quote check (the \
    usual-price signal compares it); recentChanges[window].currentPriceUsd and previousPriceUsd are \
    the listing site's catalogue prices at the current observed exchange rate (get_catalogue's \
    exchangeRate); priceArs is the price in pesos (a peso quote as quoted, a dollar quote at that \
    rate), which minPriceArs and maxPriceArs compare with. Quotes keep their original ARS or USD; \
    signals are not manufacturer discounts. Every result starts with one line saying what was \
    answered and how old the snapshot is. The resources are the developer guide and the \
    methodology.";

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
        let links = site.index().links();
        let mut server = Implementation::new(identity::NAME, identity::VERSION)
            .with_title(identity::TITLE)
            .with_website_url(links.base());
        let icons: Vec<Icon> = identity::mark_icons(links, &site.marks())
            .into_iter()
            .map(|(src, mime_type, sizes)| {
                Icon::new(src)
                    .with_mime_type(mime_type)
                    .with_sizes(vec![sizes])
            })
            .collect();
        if !icons.is_empty() {
            server = server.with_icons(icons);
        }
        // Prompts and completions are advertised, as every method served
        // must be (rmcp answers an unadvertised one "method not found").
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_completions()
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

    /// The server's description (`server/discover`, protocol 2026-07-28),
    /// cached like the lists: public, for as long as the tree it describes
    /// (rmcp's default says private and 0, telling every client to ask
    /// again each time).
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        )
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let era = Era::of(&context.extensions);
        let listed = tools::tools()
            .iter()
            .map(|spec| match era {
                Era::Structured => spec.tool.clone(),
                Era::Early => {
                    let mut tool = spec.tool.clone();
                    tool.output_schema = None;
                    tool.title = None;
                    tool
                }
            })
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
        context: RequestContext<RoleServer>,
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
        guarded(async {
            let site = self.state.site();
            let mut result = tools::call(&site, spec, &request.arguments);
            if Era::of(&context.extensions) == Era::Early {
                result.structured_content = None;
            }
            Ok(result.into())
        })
        .await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut result = ListPromptsResult::with_all_items(prompts::list());
        result.ttl_ms = Some(CACHE_TTL_MS);
        result.cache_scope = Some(CacheScope::Public);
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        guarded(async { prompts::get(&request.name, request.arguments.as_ref()).map(Into::into) })
            .await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        guarded(async { Ok(prompts::complete(&self.state.site(), &request)) }).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        guarded(async {
            let site = self.state.site();
            let mut result = ListResourcesResult::with_all_items(resources::list(&site));
            result.ttl_ms = Some(CACHE_TTL_MS);
            result.cache_scope = Some(CacheScope::Public);
            Ok(result)
        })
        .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        guarded(async {
            let site = self.state.site();
            let result = resources::read(&site, &request.uri).await?;
            Ok(result
                .with_ttl_ms(CACHE_TTL_MS)
                .with_cache_scope(CacheScope::Public)
                .into())
        })
        .await
    }
}

/// Runs `work`, a request's own work; a panic in it (a broken invariant,
/// such as a records file changed under the loaded tree) becomes the
/// protocol's internal error, logged, as the HTTP routes' guard makes it a
/// JSON 500 (`edge::http::panic_response`). rmcp runs each request in a
/// task of its own: a panic there ended the task, and the client waited
/// for an answer that never came.
async fn guarded<T>(work: impl Future<Output = Result<T, ErrorData>>) -> Result<T, ErrorData> {
    let mut work = std::pin::pin!(work);
    std::future::poll_fn(move |context| {
        // Polled no more once it has panicked: the answer is then ready.
        std::panic::catch_unwind(AssertUnwindSafe(|| work.as_mut().poll(context))).unwrap_or_else(
            |panic| {
                tracing::error!(panic = panic_message(&*panic), "MCP request panicked");
                Poll::Ready(Err(ErrorData::internal_error("internal error", None)))
            },
        )
    })
    .await
}
