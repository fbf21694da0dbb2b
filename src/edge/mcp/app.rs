//! Edge stage, the MCP App of a version: `get_vehicle` and `fetch` name a
//! `ui://` resource (the MCP Apps extension, `io.modelcontextprotocol/ui`)
//! that hosts able to render apps show beside the result: the version's
//! price as quoted, its band and its weekly history drawn from the result
//! itself. Hosts without apps keep the text; the resource is read only by
//! URI (the extension lets a UI resource stay out of `resources/list`).

use rmcp::model::{MetaObject, ReadResourceResult, ResourceContents};
use serde_json::{Map, json};

/// The view's URI.
pub const URI: &str = "ui://autoprecios/vehicle.html";

/// The MCP Apps media type.
pub const MIME: &str = "text/html;profile=mcp-app";

/// The tools that offer the view.
pub const TOOLS: [&str; 2] = ["get_vehicle", "fetch"];

/// The view: plain HTML and script, no network access.
const HTML: &str = include_str!("vehicle_app.html");

/// A tool's `_meta` naming the view.
pub fn tool_meta() -> MetaObject {
    let mut meta = Map::new();
    meta.insert("ui".to_owned(), json!({ "resourceUri": URI }));
    MetaObject(meta)
}

/// `resources/read` of the view: its HTML, and a content security policy
/// that allows no connection (it draws from the tool result only).
pub fn read() -> ReadResourceResult {
    let mut meta = Map::new();
    meta.insert("ui".to_owned(), json!({ "csp": { "connectDomains": [] } }));
    let mut contents = ResourceContents::text(HTML, URI).with_mime_type(MIME);
    if let ResourceContents::TextResourceContents { meta: own, .. } = &mut contents {
        *own = Some(MetaObject(meta));
    }
    ReadResourceResult::new(vec![contents])
}

/// Whether a resource URI is the view's.
pub fn is_view(uri: &str) -> bool {
    uri == URI
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_view_sets_text_never_markup_and_asks_the_host_first() {
        assert!(!HTML.contains(".innerHTML") && !HTML.contains("insertAdjacentHTML"));
        assert!(HTML.contains("'ui/initialize'") && HTML.contains("ui/notifications/tool-result"));
        let read = serde_json::to_value(read()).expect("JSON");
        assert_eq!(read["contents"][0]["mimeType"], MIME);
        assert_eq!(read["contents"][0]["uri"], URI);
        assert_eq!(
            read["contents"][0]["_meta"]["ui"]["csp"]["connectDomains"],
            Value::Array(vec![])
        );
    }
}
