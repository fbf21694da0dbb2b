//! Render stage, Markdown: the one place that sets the pulldown-cmark options
//! for the developer guide and the methodology.

use pulldown_cmark::{Options, Parser, html};

/// Renders CommonMark with tables, strikethrough and heading IDs. Raw HTML in
/// the source passes through: the documents are ours, not catalogue data.
pub fn render_markdown(source: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(source.len() * 3 / 2);
    html::push_html(&mut out, Parser::new_ext(source, options));
    out
}

/// The text of the first level-one heading, for the page title.
pub fn title_of(source: &str) -> Option<&str> {
    source
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(str::trim)
}
