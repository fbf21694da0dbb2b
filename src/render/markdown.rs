//! Render stage, Markdown: the one place that sets the pulldown-cmark options
//! for the developer guide and the methodology, and builds their tables of
//! contents.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

use crate::api::text::slug;
use crate::html::escape;

/// Renders CommonMark with tables, strikethrough and heading IDs (raw HTML in
/// the source passes through: the documents are ours, not catalogue data),
/// with a table of contents titled `contents`, when given, right after the
/// first heading: one link per second-level heading, each heading
/// given an ID from its text when the source sets none (`## Title {#id}`),
/// so a reader on a phone reaches any section without scrolling through
/// the others.
pub fn render_with_contents(source: &str, contents: Option<&str>) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut events: Vec<Event> = Parser::new_ext(source, options).collect();
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut at = 0;
    while at < events.len() {
        if let Event::Start(Tag::Heading {
            level: HeadingLevel::H2,
            id,
            ..
        }) = &events[at]
        {
            let end = events[at..]
                .iter()
                .position(|event| matches!(event, Event::End(TagEnd::Heading(_))))
                .map_or(events.len(), |end| at + end);
            let text: String = events[at + 1..end]
                .iter()
                .filter_map(|event| match event {
                    Event::Text(text) | Event::Code(text) => Some(text.as_ref()),
                    _ => None,
                })
                .collect();
            let anchor = match id {
                Some(id) => id.to_string(),
                None => unique(slug(&text), &sections),
            };
            if let Event::Start(Tag::Heading { id, .. }) = &mut events[at] {
                *id = Some(CowStr::from(anchor.clone()));
            }
            sections.push((anchor, text));
            at = end;
        }
        at += 1;
    }
    let mut out = String::with_capacity(source.len() * 3 / 2);
    let (Some(title), false) = (contents, sections.is_empty()) else {
        html::push_html(&mut out, events.into_iter());
        return out;
    };
    // After the document's title, or first when it has none.
    let split = events
        .iter()
        .position(|event| matches!(event, Event::End(TagEnd::Heading(HeadingLevel::H1))))
        .map_or(0, |end| end + 1);
    let rest = events.split_off(split);
    html::push_html(&mut out, events.into_iter());
    out.push_str(&format!(
        "\n<nav class=\"toc\" aria-labelledby=\"indice\"><h2 id=\"indice\">{}</h2><ol>",
        escape(title)
    ));
    for (anchor, text) in &sections {
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>",
            escape(anchor),
            escape(text)
        ));
    }
    out.push_str("</ol></nav>\n");
    html::push_html(&mut out, rest.into_iter());
    out
}

/// `anchor`, or with a number after it when a section already has it.
fn unique(anchor: String, sections: &[(String, String)]) -> String {
    let taken = |candidate: &str| sections.iter().any(|(other, _)| other == candidate);
    if !taken(&anchor) {
        return anchor;
    }
    (2..)
        .map(|n| format!("{anchor}-{n}"))
        .find(|candidate| !taken(candidate))
        .expect("invariant: some number is free")
}

/// The text of the first level-one heading, for the page title.
pub fn title_of(source: &str) -> Option<&str> {
    source
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contents_link_every_section_after_the_title() {
        let html = render_with_contents(
            "# Doc\n\nIntro.\n\n## El dólar {#dolar}\n\nx\n\n## Qué `q` hace\n\n## Qué q hace\n",
            Some("Contenido"),
        );
        assert!(
            html.starts_with("<h1>Doc</h1>\n\n<nav class=\"toc\""),
            "{html}"
        );
        assert!(html.contains(
            "<ol><li><a href=\"#dolar\">El dólar</a></li><li><a href=\"#que-q-hace\">Qué q hace</a></li>\
             <li><a href=\"#que-q-hace-2\">Qué q hace</a></li></ol>"
        ), "{html}");
        assert!(html.contains("<h2 id=\"que-q-hace\">Qué <code>q</code> hace</h2>"));
        assert!(html.contains("<h2 id=\"que-q-hace-2\">"));
        assert!(!render_with_contents("# Doc\n\n## A\n", None).contains("toc"));
    }
}
