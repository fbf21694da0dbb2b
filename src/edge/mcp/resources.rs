//! Edge stage, MCP resources: the developer guide and the methodology as
//! Markdown, read from the loaded tree (the raw `.md` files `generate`
//! publishes), so that a reload serves the new text. A resource's URI is the
//! absolute URL of that raw file on the site.

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};

use crate::edge::state::Site;

/// Media type of both documents.
pub const MARKDOWN: &str = "text/markdown";

/// One published document.
#[derive(Debug, Clone, Copy)]
struct Doc {
    /// Site path of the raw Markdown (the manifest's URL).
    raw_path: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
}

const DOCS: [Doc; 2] = [
    Doc {
        raw_path: "/developers.md",
        name: "developers",
        title: "Developer guide",
        description: "How to use the JSON API and this MCP endpoint: parameters, fields, errors, limits, examples (English).",
    },
    Doc {
        raw_path: "/metodologia.md",
        name: "metodologia",
        title: "Metodología",
        description: "How prices are collected and how the usual price, opportunities, price drops and new opportunities are computed (Spanish).",
    },
];

/// The resources of `site`, for `resources/list`.
pub fn list(site: &Site) -> Vec<Resource> {
    DOCS.iter()
        .map(|doc| {
            Resource::new(uri(site, doc), doc.name)
                .with_title(doc.title)
                .with_description(doc.description)
                .with_mime_type(MARKDOWN)
        })
        .collect()
}

/// The text of the resource at `uri`; an unknown URI is the protocol's
/// resource-not-found error, a file missing from the tree an internal one.
pub async fn read(site: &Site, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    if crate::edge::mcp::app::is_view(uri) {
        return Ok(crate::edge::mcp::app::read());
    }
    let Some(doc) = DOCS.iter().find(|doc| self::uri(site, doc) == uri) else {
        let known: Vec<String> = DOCS.iter().map(|doc| self::uri(site, doc)).collect();
        return Err(ErrorData::resource_not_found(
            format!("no resource {uri:?}; resources: {}", known.join(", ")),
            None,
        ));
    };
    let internal = |what: String| {
        tracing::error!(uri, "{what}");
        ErrorData::internal_error("the document is not available", None)
    };
    let entry = site
        .by_url(doc.raw_path)
        .ok_or_else(|| internal(format!("the manifest lists no {}", doc.raw_path)))?;
    let path = site.root().join(entry.file);
    let text = tokio::fs::read_to_string(&path)
        .await
        .map_err(|err| internal(format!("reading {}: {err}", path.display())))?;
    let contents = ResourceContents::text(text, uri).with_mime_type(MARKDOWN);
    Ok(ReadResourceResult::new(vec![contents]))
}

/// The absolute URL of the raw Markdown.
fn uri(site: &Site, doc: &Doc) -> String {
    site.index().links().absolute(doc.raw_path)
}
