//! Render stage, templates: the one minijinja environment every page,
//! document, feed and sitemap renders with, and how it escapes: templates
//! are compiled in and escaped by their name's extension, so no catalogue
//! string (untrusted input) reaches a page, feed or sitemap unescaped.

use minijinja::{AutoEscape, Environment, State, Value};

use crate::html::{escape as escape_html, escape_xml};

/// How a template named `*.xml` or `*.svg` is escaped: as HTML, plus the
/// control characters XML 1.0 forbids left out (a feed reader rejects the
/// whole document for one of them).
const XML: &str = "xml";

/// The templates that are not the site's pages (`render::site` adds those).
const TEMPLATES: [(&str, &str); 6] = [
    ("base.html", include_str!("../../templates/base.html")),
    ("doc.html", include_str!("../../templates/doc.html")),
    ("feed.xml", include_str!("../../templates/feed.xml")),
    ("sitemap.xml", include_str!("../../templates/sitemap.xml")),
    (
        "sitemap-index.xml",
        include_str!("../../templates/sitemap-index.xml"),
    ),
    ("robots.txt", include_str!("../../templates/robots.txt")),
];

/// The template environment: `*.html` escaped as HTML, `*.xml` and `*.svg`
/// as XML, anything else (`robots.txt`) as it is.
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .expect("invariant: bundled templates parse");
    }
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".xml") || name.ends_with(".svg") {
            AutoEscape::Custom(XML.into())
        } else {
            minijinja::default_auto_escape_callback(name)
        }
    });
    env.set_formatter(format_value);
    crate::render::site::configure(&mut env);
    env
}

/// Writes a value into a template. Unsafe strings get `& < > " '` escaped;
/// minijinja's own HTML escaping also escapes `/`, which text and quoted
/// attributes never need (all our attributes are quoted): leaving it keeps
/// URLs and dates readable. Other values are formatted by minijinja's default.
fn format_value(
    out: &mut minijinja::Output,
    state: &mut State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    if !value.is_safe()
        && let Some(text) = value.as_str()
    {
        match state.auto_escape() {
            AutoEscape::Html => return Ok(out.write_str(&escape_html(text))?),
            AutoEscape::Custom(name) if name == XML => {
                return Ok(out.write_str(&escape_xml(text))?);
            }
            _ => {}
        }
    }
    minijinja::escape_formatter(out, state, value)
}

/// Renders an XML or text template: minijinja drops a template's last line
/// break, which a file ends with.
pub fn render_file(
    env: &Environment,
    name: &str,
    context: minijinja::Value,
) -> anyhow::Result<String> {
    let mut text = env.get_template(name)?.render(context)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::context;

    #[test]
    fn each_kind_of_template_escapes_as_its_name_says() {
        let mut env = environment();
        let value = "a<b & 'c'\u{1}/";
        for (name, expected) in [
            ("t.html", "a&lt;b &amp; &#39;c&#39;\u{1}/"),
            ("t.xml", "a&lt;b &amp; &#39;c&#39;/"),
            ("t.svg", "a&lt;b &amp; &#39;c&#39;/"),
            ("t.txt", "a<b & 'c'\u{1}/"),
        ] {
            env.add_template_owned(name.to_owned(), "{{ v }}".to_owned())
                .expect("parses");
            let text = env
                .get_template(name)
                .and_then(|t| t.render(context! { v => value }))
                .expect("renders");
            assert_eq!(text, expected, "{name}");
        }
    }
}
