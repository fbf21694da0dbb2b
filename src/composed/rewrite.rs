//! Site pages with a query, the rewriting: every change the edge makes to
//! markup (a page's slots, its form and picks, a comparison's best cells, a
//! feed's cards) goes through `lol_html`, the streaming rewriter behind
//! Cloudflare's HTMLRewriter, each element found by a CSS selector and
//! parsed as a browser parses it, never by searching the text.

use std::borrow::Cow;

use lol_html::html_content::Element;
use lol_html::{
    ElementContentHandlers, HtmlRewriter, RewriteStrSettings, Selector, Settings, rewrite_str,
};

use crate::html::unescape;

/// A selector and what it does, as `lol_html::element!` and `text!` make
/// them.
pub(crate) type Handler<'h> = (Cow<'static, Selector>, ElementContentHandlers<'h>);

/// `html` with `handlers` applied. Markup the rewriter will not parse
/// (an ambiguity it refuses rather than guess at, which no template
/// writes) is sent as it was, with a warning, as a page whose slots are
/// missing always was.
pub(crate) fn rewrite(html: &str, handlers: Vec<Handler<'_>>) -> String {
    let settings = handlers
        .into_iter()
        .fold(RewriteStrSettings::new(), |settings, handler| {
            settings.append_element_content_handler(handler)
        });
    rewrite_str(html, settings).unwrap_or_else(|error| {
        tracing::warn!(%error, "markup left as it was");
        html.to_owned()
    })
}

/// Runs `handlers` over `html` for what they note, writing nothing: what a
/// later pass needs to know before the tags it changes.
pub(crate) fn read(html: &str, handlers: Vec<Handler<'_>>) {
    let settings = handlers
        .into_iter()
        .fold(Settings::new(), |settings, handler| {
            settings.append_element_content_handler(handler)
        });
    let mut reader = HtmlRewriter::new(settings, |_: &[u8]| {});
    let read = reader.write(html.as_bytes());
    if let Err(error) = read.and_then(|()| reader.end()) {
        tracing::warn!(%error, "markup not read");
    }
}

/// Adds a boolean attribute (`checked`, `selected`, `open`) written bare,
/// as the templates write theirs. The rewriter's own `set_attribute` writes
/// `checked=""`; the start tag is written again instead, with every other
/// attribute as it was (its value as written, each in double quotes), so
/// the pages keep the bytes they always had. Call it after the element's
/// other attribute changes, which it includes.
pub(crate) fn add_flag(element: &mut Element<'_, '_>, flag: &str) {
    if element.has_attribute(flag) {
        return;
    }
    let mut tag = format!("<{}", element.tag_name_preserve_case());
    for attribute in element.attributes() {
        let value = attribute.value();
        let bare = value.is_empty() && attribute.value_source_location().is_none();
        tag.push(' ');
        tag.push_str(&attribute.name_preserve_case());
        if !bare {
            tag.push_str(&format!("=\"{}\"", value.replace('"', "&quot;")));
        }
    }
    tag.push(' ');
    tag.push_str(flag);
    tag.push_str(if element.is_self_closing() {
        " />"
    } else {
        ">"
    });
    element
        .start_tag()
        .replace(&tag, lol_html::html_content::ContentType::Html);
}

/// The text of an element's attribute (its entities read), empty when it
/// has none.
pub(crate) fn attribute(element: &Element<'_, '_>, name: &str) -> String {
    element
        .get_attribute(name)
        .map(|value| unescape(&value).into_owned())
        .unwrap_or_default()
}

/// The class list `class` with `name` added (once).
pub(crate) fn with_class(class: Option<String>, name: &str) -> String {
    match class {
        Some(class) if class.split_ascii_whitespace().any(|own| own == name) => class,
        Some(class) if !class.trim().is_empty() => format!("{class} {name}"),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use lol_html::element;

    use super::*;

    #[test]
    fn a_flag_is_written_bare_and_the_tag_keeps_its_attributes() {
        let page = "<p><input name='a\"b' value=\"1\" hidden\n  type=checkbox></p>";
        let out = rewrite(
            page,
            vec![element!("input", |el| {
                el.set_attribute("aria-invalid", "true")?;
                add_flag(el, "checked");
                Ok(())
            })],
        );
        assert_eq!(
            out,
            "<p><input name=\"a&quot;b\" value=\"1\" hidden type=\"checkbox\" aria-invalid=\"true\" checked></p>"
        );
        let out = rewrite(
            "<details open><br/>",
            vec![
                element!("details", |el| {
                    add_flag(el, "open");
                    Ok(())
                }),
                element!("br", |el| {
                    add_flag(el, "x");
                    Ok(())
                }),
            ],
        );
        assert_eq!(out, "<details open><br x />");
    }

    #[test]
    fn a_class_is_added_once() {
        assert_eq!(with_class(None, "best"), "best");
        assert_eq!(with_class(Some("a".into()), "best"), "a best");
        assert_eq!(with_class(Some("a best".into()), "best"), "a best");
    }
}
