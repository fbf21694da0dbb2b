//! Edge stage, MCP tools: the nine tools (their names, descriptions, input
//! schemas and read-only annotations) and a call's answer. A tool's
//! arguments are its operation's rows of the API's parameter table, which
//! gives both its input schema and the checks of its JSON arguments (the
//! same as the HTTP parser's, typed values never written back as text).
//! The six API tools call the same `api::endpoints` function as their HTTP
//! endpoint and return its envelope, serialized by the same function, as
//! `structuredContent` and as the one text item; `search` and `fetch` are
//! in `connector`.

use std::sync::{Arc, OnceLock};

use axum::body::Bytes;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

/// A JSON object (a schema).
type JsonObject = Map<String, Value>;

use crate::api::ApiError;
use crate::api::error::Missing;
use crate::api::json::to_json_bytes;
use crate::api::openapi::output_schema;
use crate::api::operations::{McpTool, OPERATIONS, Operation, Spec};
use crate::api::params::schema::input_schema;
use crate::api::params::table::params_of;
use crate::api::params::{Args, text_argument};
use crate::edge::answers::{Answer, Question};
use crate::edge::mcp::connector::{fetch, search};
use crate::edge::mcp::headline::headline;
use crate::edge::mcp::{app, brief};
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

/// A tool per operation of the operations table that has one, in its order.
fn build_tools() -> Vec<ToolSpec> {
    OPERATIONS
        .iter()
        .filter_map(|spec| Some((spec, spec.tool?)))
        .map(|(spec, tool)| tool_spec(spec, &tool))
        .collect()
}

/// What a tool returns: its HTTP operation's response component, or the
/// connector shapes for `search` and `fetch`.
fn output(spec: &Spec) -> JsonObject {
    match (spec.operation, spec.http) {
        (Operation::ConnectorSearch, _) => search_output(),
        (Operation::ConnectorFetch, _) => fetch_output(),
        (_, Some(http)) => output_schema(http.body),
        (_, None) => unreachable!("invariant: a tool without HTTP is a connector tool"),
    }
}

fn tool_spec(spec: &Spec, tool: &McpTool) -> ToolSpec {
    // Every tool reads the published snapshot: no side effects and nothing
    // outside the service. (The destructive and idempotent hints only mean
    // something for tools that write, so they are left out; the title is the
    // tool's own.)
    let annotations = ToolAnnotations::new().read_only(true).open_world(false);
    let mut input = input_schema(params_of(spec.operation));
    if brief::TOOLS.contains(&spec.name)
        && let Some(Value::Object(properties)) = input.get_mut("properties")
    {
        properties.insert(brief::NAME.to_owned(), brief::property());
    }
    let mut tool = Tool::new(spec.name, tool.description, Arc::new(input))
        .with_raw_output_schema(Arc::new(output(spec)))
        .with_title(tool.title)
        .with_annotations(annotations);
    if app::TOOLS.contains(&spec.name) {
        tool.meta = Some(app::tool_meta());
    }
    ToolSpec {
        tool,
        operation: spec.operation,
    }
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
        } },
        "readAs": { "type": "string" } },
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
/// its answers, as HTTP does. Every result's first text item is its
/// [`headline`]; the second is the JSON, which a success also carries as
/// `structuredContent`. Bad arguments, unknown IDs and models are results
/// with `isError: true` and the spec's error body as text only: a client
/// that checks `structuredContent` against the tool's output schema must
/// not meet the error body there. Every result carries `_meta` with
/// `autoprecios/synthetic` (and, when true, `autoprecios/notice`).
pub fn call(site: &Site, spec: &ToolSpec, args: &Arguments) -> CallToolResult {
    let mut args = args.clone();
    let answered = match brief::TOOLS.contains(&spec.tool.name.as_ref()) {
        true => {
            brief::take(&mut args).and_then(|brief| Ok((answer_call(site, spec, &args)?, brief)))
        }
        false => answer_call(site, spec, &args).map(|bytes| (bytes, false)),
    };
    let (mut bytes, is_error, brief) = match answered {
        Ok((bytes, brief)) => (bytes, false, brief),
        Err(err) => (to_json_bytes(&err.body()).into(), true, false),
    };
    let meta = site.index().meta();
    let mut value: Value =
        serde_json::from_slice(&bytes).expect("invariant: to_json_bytes writes valid JSON");
    if brief {
        value = brief::shorten(value);
        bytes = to_json_bytes(&value).into();
    }
    let line = headline(&spec.tool.name, &value, meta, chrono::Utc::now());
    let text = String::from_utf8_lossy(bytes.strip_suffix(b"\n").unwrap_or(&bytes)).into_owned();
    let content = vec![ContentBlock::text(line), ContentBlock::text(text)];
    let mut result = if is_error {
        CallToolResult::error(content)
    } else {
        let mut result = CallToolResult::structured(value);
        result.content = content;
        result
    };
    let mut extra = serde_json::Map::new();
    extra.insert(
        "autoprecios/synthetic".to_owned(),
        Value::Bool(meta.synthetic),
    );
    if meta.synthetic {
        extra.insert("autoprecios/notice".to_owned(), SYNTHETIC_NOTICE.into());
    }
    result.meta = Some(MetaObject(extra));
    result
}

/// The JSON answer of a call, as HTTP sends it, or why it was refused.
fn answer_call(site: &Site, spec: &ToolSpec, args: &Arguments) -> Result<Bytes, ApiError> {
    let index = site.index();
    let answer = |question: Result<Question, ApiError>| {
        question
            .and_then(|question| site.answers().answer(index, &question))
            .map(|answer: Answer| answer.bytes)
    };
    let args = Args::from_json(spec.operation, args.as_ref());
    match spec.operation {
        // MCP's `ids` is an array of IDs exactly: no comma separates.
        Operation::Deals
        | Operation::ModelPrices
        | Operation::Search
        | Operation::Vehicle
        | Operation::Compare
        | Operation::Catalogue
        | Operation::Reports
        | Operation::Report
        | Operation::Series => answer(Question::of_args(spec.operation, args, false)),
        Operation::ConnectorSearch => text_argument(args)
            .and_then(|words| search(index, &words))
            .map(|found| to_json_bytes(&found).into()),
        Operation::ConnectorFetch => text_argument(args)
            .and_then(|id| fetch(index, &id))
            .map(|document| to_json_bytes(&document).into()),
        Operation::ApiInfo => {
            // No tool answers the entry point: MCP has its own discovery.
            let name = spec.tool.name.to_string();
            Err(ApiError::NotFound(Missing::Tool(name)))
        }
    }
}
