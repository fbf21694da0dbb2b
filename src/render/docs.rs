//! Render stage, docs: the developer guide and the methodology from
//! `content/*.md`, published as HTML pages and as raw Markdown (the MCP
//! resources read the same text).

use minijinja::{Environment, context};

use crate::api::Index;
use crate::output::TreeWriter;
use crate::render::markdown::{render_with_contents, title_of};

/// A published document.
#[derive(Debug, Clone, Copy)]
pub struct Doc {
    /// Site path of the HTML page (`/developers`).
    pub path: &'static str,
    /// Site path of the raw Markdown.
    pub raw_path: &'static str,
    /// The Markdown source.
    pub source: &'static str,
    /// Meta description.
    pub description: &'static str,
    /// The heading of its table of contents, in its own language.
    pub contents: &'static str,
}

/// The developer guide.
pub const DEVELOPERS: Doc = Doc {
    path: "/developers",
    raw_path: "/developers.md",
    source: include_str!("../../content/developers.md"),
    description: "Guía de la API JSON y del endpoint MCP de autoprecios.",
    contents: "Contents",
};

/// The methodology.
pub const METHODOLOGY: Doc = Doc {
    path: "/metodologia",
    raw_path: "/metodologia.md",
    source: include_str!("../../content/methodology.md"),
    description: "Cómo calcula autoprecios el precio habitual, las oportunidades y las bajas de precio.",
    contents: "Contenido",
};

/// Both documents.
pub const DOCS: [Doc; 2] = [DEVELOPERS, METHODOLOGY];

/// The origin the documents' examples are written with (a local edge's).
const EXAMPLE_ORIGIN: &str = "http://127.0.0.1:8080";

/// Writes both documents, as `<path>/index.html` and raw Markdown. They say
/// nothing of the snapshot's time (they are not data), so they change only
/// when their text or the reference dollar does.
pub fn write_docs(index: &Index, env: &Environment, out: &TreeWriter) -> anyhow::Result<()> {
    let links = index.links();
    for doc in DOCS {
        // The examples are written for the local server's origin; a tree
        // generated for another origin shows its own.
        let source = &doc.source.replace(EXAMPLE_ORIGIN, links.base());
        let html = env.get_template("doc.html")?.render(context! {
            title => title_of(doc.source).unwrap_or("autoprecios"),
            description => doc.description,
            canonical => links.absolute(doc.path),
            base => links.base(),
            raw_url => links.absolute(doc.raw_path),
            body => render_with_contents(source, Some(doc.contents)),
        })?;
        let file = format!("{}/index.html", doc.path.trim_start_matches('/'));
        out.write(doc.path, &file, crate::headers::HTML, html.as_bytes())?;
        out.write(
            doc.raw_path,
            doc.raw_path.trim_start_matches('/'),
            crate::headers::MARKDOWN,
            source.as_bytes(),
        )?;
    }
    Ok(())
}
