//! Edge stage, MCP tools: the eight tools (their names, descriptions, input
//! schemas and read-only annotations) and a call's answer. A tool's
//! arguments are its operation's rows of the API's parameter table, which
//! gives both its input schema and the checks of its JSON arguments (the
//! same as the HTTP parser's, typed values never written back as text).
//! The six API tools call the same `api::endpoints` function as their HTTP
//! endpoint and return its envelope, serialized by the same function, as
//! `structuredContent` and as the one text item; `search` and `fetch` are
//! in `connector`.

use std::sync::{Arc, OnceLock};

use rmcp::model::{CallToolResult, ContentBlock, MetaObject, Tool, ToolAnnotations};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// A JSON object (a schema).
type JsonObject = Map<String, Value>;

use crate::api::ApiError;
use crate::api::error::Missing;
use crate::api::json::to_json_bytes;
use crate::api::openapi::output_schema;
use crate::api::operations::Operation;
use crate::api::params::schema::input_schema;
use crate::api::params::table::params_of;
use crate::api::params::{
    Args, compare_query, deals_query, model_query, no_arguments, search_query, text_argument,
};
use crate::edge::answers::{Answer, Question};
use crate::edge::mcp::connector::{fetch, search};
use crate::edge::state::Site;

/// The arguments of a call (`None` when the client sent none).
pub type Arguments = Option<Map<String, Value>>;

/// One tool: its MCP description and the operation it answers.
#[derive(Debug)]
pub struct ToolSpec {
    /// What `tools/list` shows.
    pub tool: Tool,
    /// The operation whose parameters it takes and which it answers.
    pub operation: Operation,
}

/// Every tool, in the order `tools/list` gives them.
pub fn tools() -> &'static [ToolSpec] {
    static TOOLS: OnceLock<Vec<ToolSpec>> = OnceLock::new();
    TOOLS.get_or_init(build_tools)
}

/// The tool called `name`.
pub fn find_tool(name: &str) -> Option<&'static ToolSpec> {
    tools().iter().find(|spec| spec.tool.name == name)
}

fn build_tools() -> Vec<ToolSpec> {
    vec![
        spec(
            "find_deals",
            "Find deals",
            Operation::Deals,
            output_schema("DealsResponse"),
            "Find buying opportunities: versions priced at least 5% below their own usual price (kind=opportunities), \
             recent catalogue price cuts (kind=price_drops) or versions that newly qualify as opportunities \
             (kind=new_opportunities) within a 1d, 3d or 7d window. Accepts the same filters as search_vehicles. \
             Returns the same JSON as GET /api/v1/deals: an envelope whose data holds kind, window, vehicles and pagination. \
             Signals compare asking prices with their history; they are not manufacturer discounts.",
        ),
        spec(
            "get_model_prices",
            "Get a model's prices",
            Operation::ModelPrices,
            output_schema("ModelPricesResponse"),
            "Price range and every published version of one model (make and model, ignoring case and accents; \
             take the spelling from get_catalogue), cheapest first, with the model's opportunity count. \
             Returns the same JSON as GET /api/v1/models/prices. An unknown model is an error.",
        ),
        spec(
            "search_vehicles",
            "Search vehicles",
            Operation::Search,
            output_schema("SearchResponse"),
            "Search the published new-car versions in Argentina with filters (words, make, model, body type, fuel, \
             transmission, USD price range, seats, airbags, drivetrain, AEB, specifications, discount), a sort order \
             and paging. Returns the same JSON as GET /api/v1/vehicles: an envelope whose data holds vehicles \
             (summaries with current lowest dealer price in USD, usual-price comparison, recent changes, best quote) \
             and pagination.",
        ),
        spec(
            "get_vehicle",
            "Get a vehicle",
            Operation::Vehicle,
            output_schema("DetailResponse"),
            "The full record of one version by its ID: every current dealer quote (original currency and USD), the \
             exchange rate, the usual-price comparison, recent changes and the official specifications with their \
             sources and gaps. Returns the same JSON as GET /api/v1/vehicles/{id}. An ID that is not published is an error.",
        ),
        spec(
            "compare_vehicles",
            "Compare vehicles",
            Operation::Compare,
            output_schema("CompareResponse"),
            "Full records of 2 to 4 distinct versions side by side, in the order given, with the URL of a shareable \
             comparison page. Returns the same JSON as GET /api/v1/compare. Missing specifications stay unknown.",
        ),
        spec(
            "get_catalogue",
            "Get the catalogue",
            Operation::Catalogue,
            output_schema("CatalogueResponse"),
            "What is published: counts, every make, every make and model pair, and the values of each filter present \
             in the catalogue. Call it first to spell makes and models and to offer only filter values that can match. \
             Returns the same JSON as GET /api/v1/catalogue.",
        ),
        spec(
            "search",
            "Search",
            Operation::ConnectorSearch,
            search_output(),
            "Discover vehicle versions by make, model or version words. Returns {\"results\": [{\"id\", \"title\", \
             \"url\"}]}: up to 20 matching versions, cheapest first, each with its ID (for fetch, get_vehicle, \
             compare_vehicles) and the absolute URL of its page. Use search_vehicles for filters and paging.",
        ),
        spec(
            "fetch",
            "Fetch a vehicle record",
            Operation::ConnectorFetch,
            fetch_output(),
            "The sourced record of one version by the ID that search returned: {\"id\", \"title\", \"text\", \"url\", \
             \"metadata\"}, where text is the JSON of GET /api/v1/vehicles/{id} (quotes, prices, specifications and \
             their sources) and url is the version's page.",
        ),
    ]
}

fn spec(
    name: &'static str,
    title: &str,
    operation: Operation,
    output: JsonObject,
    description: &'static str,
) -> ToolSpec {
    // Every tool reads the published snapshot: no side effects, same answer
    // for the same arguments within a snapshot, nothing outside the service.
    let annotations = ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    let tool = Tool::new(
        name,
        description,
        Arc::new(input_schema(params_of(operation))),
    )
    .with_raw_output_schema(Arc::new(output))
    .with_title(title)
    .with_annotations(annotations);
    ToolSpec { tool, operation }
}

/// The object schema of a hand-written `json!` value.
fn object_schema(schema: Value) -> JsonObject {
    match schema {
        Value::Object(object) => object,
        _ => unreachable!("invariant: a tool's output schema is an object"),
    }
}

/// `search`'s result: the connector shape.
fn search_output() -> JsonObject {
    object_schema(json!({
        "type": "object",
        "required": ["results"],
        "properties": { "results": { "type": "array", "items": {
            "type": "object",
            "required": ["id", "title", "url"],
            "properties": {
                "id": { "type": "string" },
                "title": { "type": "string" },
                "url": { "type": "string", "format": "uri" },
            },
        } } },
    }))
}

/// `fetch`'s result: the connector shape.
fn fetch_output() -> JsonObject {
    object_schema(json!({
        "type": "object",
        "required": ["id", "title", "text", "url", "metadata"],
        "properties": {
            "id": { "type": "string" },
            "title": { "type": "string" },
            "text": { "type": "string", "description": "The JSON of GET /api/v1/vehicles/{id}." },
            "url": { "type": "string", "format": "uri" },
            "metadata": { "type": "object" },
        },
    }))
}

/// What every tool result of a synthetic snapshot says, in its `_meta`
/// (the envelope the spec fixes has no room for it) and in the server's
/// instructions: an agent must not present invented prices as real ones.
pub const SYNTHETIC_NOTICE: &str = "The published snapshot is synthetic: realistic makes, models and \
    versions with invented prices, for demonstration. Do not present these prices, quotes or \
    signals as real market data.";

/// Answers a call of `spec` over the loaded tree: the six API tools from
/// its answers, as HTTP does. Bad arguments, unknown IDs and models are
/// results with `isError: true` carrying the spec's error body. Every
/// result carries `_meta` with `autoprecios/synthetic` (and, when true,
/// `autoprecios/notice`).
pub fn call(site: &Site, spec: &ToolSpec, args: &Arguments) -> CallToolResult {
    let mut result = answer_call(site, spec, args);
    let synthetic = site.index().meta().synthetic;
    let mut meta = serde_json::Map::new();
    meta.insert("autoprecios/synthetic".to_owned(), Value::Bool(synthetic));
    if synthetic {
        meta.insert("autoprecios/notice".to_owned(), SYNTHETIC_NOTICE.into());
    }
    result.meta = Some(MetaObject(meta));
    result
}

fn answer_call(site: &Site, spec: &ToolSpec, args: &Arguments) -> CallToolResult {
    let index = site.index();
    let answer = |question: Result<Question, ApiError>| {
        answer_result(question.and_then(|question| site.answers().answer(index, &question)))
    };
    let args = Args::from_json(spec.operation, args.as_ref());
    match spec.operation {
        Operation::Deals => answer(deals_query(args).map(Question::Deals)),
        Operation::ModelPrices => answer(model_query(args).map(Question::Model)),
        Operation::Search => answer(search_query(args).map(Question::Search)),
        Operation::Vehicle => answer(text_argument(args, "id").map(Question::Vehicle)),
        Operation::Compare => answer(compare_query(args, false).map(Question::Compare)),
        Operation::Catalogue => answer(no_arguments(args).map(|()| Question::Catalogue)),
        Operation::ConnectorSearch => {
            result(text_argument(args, "query").and_then(|words| search(index, &words)))
        }
        Operation::ConnectorFetch => {
            result(text_argument(args, "id").and_then(|id| fetch(index, &id)))
        }
        Operation::ApiInfo => {
            // No tool answers the entry point: MCP has its own discovery.
            let name = spec.tool.name.to_string();
            result::<()>(Err(ApiError::NotFound(Missing::Tool(name))))
        }
    }
}

/// A payload as the HTTP response's JSON: the same bytes (less the final
/// newline) as text, and their value as structured content; an error as the
/// spec's error body with `isError: true`.
pub fn result<T: Serialize>(outcome: Result<T, ApiError>) -> CallToolResult {
    match outcome {
        Ok(payload) => json_result(&to_json_bytes(&payload), false),
        Err(err) => json_result(&to_json_bytes(&err.body()), true),
    }
}

/// An API answer as a tool result: its bytes, the same as HTTP sends.
fn answer_result(outcome: Result<Answer, ApiError>) -> CallToolResult {
    match outcome {
        Ok(answer) => json_result(&answer.bytes, false),
        Err(err) => json_result(&to_json_bytes(&err.body()), true),
    }
}

/// JSON bytes as structured content and as the one text item.
fn json_result(bytes: &[u8], is_error: bool) -> CallToolResult {
    let value: Value =
        serde_json::from_slice(bytes).expect("invariant: to_json_bytes writes valid JSON");
    let text = String::from_utf8_lossy(bytes.strip_suffix(b"\n").unwrap_or(bytes)).into_owned();
    let mut result = if is_error {
        CallToolResult::structured_error(value)
    } else {
        CallToolResult::structured(value)
    };
    result.content = vec![ContentBlock::text(text)];
    result
}
