//! Edge stage, MCP tools: the nine tools (their names, descriptions, input
//! schemas and read-only annotations) and a call's answer. A tool's
//! arguments are its operation's rows of the API's parameter table, which
//! gives both its input schema and the checks of its JSON arguments (the
//! same as the HTTP parser's, typed values never written back as text).
//! The seven API tools are the operations of `api::ops` that have one: a
//! call asks the same question as its HTTP request, answered from the same
//! cache, and returns its envelope as `structuredContent` and as the second
//! text item, the operation's own headline first; `search` and `fetch` are
//! in `connector`.

use std::sync::{Arc, OnceLock};

use axum::body::Bytes;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

/// A JSON object (a schema).
type JsonObject = Map<String, Value>;

use crate::api::ApiError;
use crate::api::json::to_json_bytes;
use crate::api::openapi::output_schema;
use crate::api::operations::{McpTool, Spec};
use crate::api::ops::{Op, operations};
use crate::api::params::schema::input_schema;
use crate::api::params::table::params_of;
use crate::api::params::{Args, text_argument};
use crate::api::query::Operation;
use crate::edge::mcp::connector::{self, fetch, search};
use crate::edge::mcp::headline::{headline, refused};
use crate::edge::mcp::{app, brief};
use crate::edge::state::Site;

/// The arguments of a call (`None` when the client sent none).
pub type Arguments = Option<Map<String, Value>>;

/// One tool: its MCP description and the operation it answers.
pub struct ToolSpec {
    /// What `tools/list` shows.
    pub tool: Tool,
    /// The operation whose parameters it takes and which it answers.
    pub operation: Operation,
    /// The API operation that answers it; `None` for the connector's
    /// `search` and `fetch`.
    op: Option<&'static dyn Op>,
}

impl std::fmt::Debug for ToolSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSpec")
            .field("tool", &self.tool.name)
            .field("operation", &self.operation)
            .finish()
    }
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

/// A tool per API operation that has one, in the operations' order, then
/// the connector's two.
fn build_tools() -> Vec<ToolSpec> {
    let api = operations().filter_map(|op| {
        let spec = op.spec();
        Some(tool_spec(spec, &spec.tool?, Some(op)))
    });
    let connector = [
        (&connector::SEARCH, search_output()),
        (&connector::FETCH, fetch_output()),
    ]
    .into_iter()
    .filter_map(|(spec, output)| {
        let mut tool = tool_spec(spec, &spec.tool?, None);
        tool.tool = tool.tool.with_raw_output_schema(Arc::new(output));
        Some(tool)
    });
    api.chain(connector).collect()
}

/// What a tool returns: its HTTP operation's response component (a
/// connector tool's shape is set by [`build_tools`]).
fn output(spec: &Spec) -> JsonObject {
    spec.http
        .map(|http| output_schema(http.body))
        .unwrap_or_default()
}

fn tool_spec(spec: &Spec, tool: &McpTool, op: Option<&'static dyn Op>) -> ToolSpec {
    // Every tool reads the published snapshot: no side effects and nothing
    // outside the service. (The destructive and idempotent hints only mean
    // something for tools that write, so they are left out; the title is the
    // tool's own.)
    let annotations = ToolAnnotations::new().read_only(true).open_world(false);
    let mut input = input_schema(params_of(spec.operation));
    if op.is_some_and(|op| op.briefs())
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
        op,
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
    let answered = match spec.op {
        Some(op) => answer_op(site, op, args),
        None => answer_connector(site, spec, args),
    };
    let (bytes, is_error, what) = match answered {
        Ok((bytes, what)) => (bytes, false, what),
        Err(err) => (
            to_json_bytes(&err.body()).into(),
            true,
            refused(&spec.tool.name, &err),
        ),
    };
    let meta = site.index().meta();
    let value: Value =
        serde_json::from_slice(&bytes).expect("invariant: to_json_bytes writes valid JSON");
    let line = headline(&what, meta, chrono::Utc::now());
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

/// The JSON answer of an API tool's call, as HTTP sends it (in brief when
/// asked), with what it answered; or why it was refused. MCP's `ids` is an
/// array of IDs exactly: no comma separates.
fn answer_op(site: &Site, op: &dyn Op, args: &Arguments) -> Result<(Bytes, String), ApiError> {
    let mut args = args.clone();
    let brief = match op.briefs() {
        true => brief::take(&mut args)?,
        false => false,
    };
    let args = Args::from_json(op.spec().operation, args.as_ref());
    let question = op.ask(args, false)?.in_brief(brief);
    let answer = site.answers().answer(site.index(), &question, None)?;
    let what = answer
        .headline
        .as_deref()
        .map(|headline| headline.text(site.index()))
        .unwrap_or_default();
    Ok((answer.bytes, what))
}

/// The answer of the connector's `search` or `fetch`, with what it
/// answered.
fn answer_connector(
    site: &Site,
    spec: &ToolSpec,
    args: &Arguments,
) -> Result<(Bytes, String), ApiError> {
    let index = site.index();
    let text = text_argument(Args::from_json(spec.operation, args.as_ref()))?;
    let name = &spec.tool.name;
    match spec.operation {
        Operation::ConnectorFetch => {
            let document = fetch(index, &text)?;
            let what = format!("{name}: {}.", document.title);
            Ok((to_json_bytes(&document).into(), what))
        }
        _ => {
            let found = search(index, &text)?;
            let what = format!("{name}: {} matching versions.", found.results.len());
            Ok((to_json_bytes(&found).into(), what))
        }
    }
}
