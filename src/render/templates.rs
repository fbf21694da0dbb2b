//! Render stage, templates: the one minijinja environment every page,
//! document, feed and sitemap renders with (its functions, and the query
//! pages' paths as `pages.search` and `pages.compare`), and how it
//! escapes: templates are compiled in and escaped by their name's
//! extension, so no catalogue string (untrusted input) reaches a page, feed
//! or sitemap unescaped.

use std::collections::BTreeMap;

use minijinja::{AutoEscape, Environment, State, Value};

use crate::api::params::choices;
use crate::api::params::table::{Kind, param_of};
use crate::api::query::Operation;
use crate::api::site_pages;
use crate::html::{escape_into, escape_xml};

/// How a template named `*.xml` or `*.svg` is escaped: as HTML, plus the
/// control characters XML 1.0 forbids left out (a feed reader rejects the
/// whole document for one of them).
const XML: &str = "xml";

/// The template environment: every file of `templates/` (the pages, the
/// documents, the feeds, the sitemaps and `robots.txt`) by its name,
/// compiled in by the build script, so a new template is a new file and
/// nothing else; `*.html` escaped as HTML, `*.xml` and `*.svg` as XML,
/// anything else (`robots.txt`) as it is.
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    minijinja_embed::load_templates!(&mut env);
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".xml") || name.ends_with(".svg") {
            AutoEscape::Custom(XML.into())
        } else {
            minijinja::default_auto_escape_callback(name)
        }
    });
    env.set_formatter(format_value);
    env.add_function("param", search_param);
    env.add_function("choices", form_choices);
    env.add_function("sort_groups", || {
        Value::from(minijinja::value::Serde(choices::sort_groups()))
    });
    // The query pages' paths, as the edge routes them, by name.
    let pages: BTreeMap<&str, &str> = site_pages::ALL
        .iter()
        .map(|page| (page.name, page.path))
        .collect();
    env.add_global("pages", Value::from(minijinja::value::Serde(pages)));
    env
}

/// `param("minSeats")` in a template: a search parameter's form label and
/// bounds from the parameter table (`label`, `min`, `max`, and `maxlength`
/// for text), so the search form says what the API checks. An unknown name
/// fails the render: a renamed parameter cannot leave a dead field behind.
fn search_param(name: &str) -> Result<Value, minijinja::Error> {
    let param = param_of(Operation::Search, name).ok_or_else(|| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("no search parameter {name:?}"),
        )
    })?;
    // Whole bounds as integers, so an attribute reads `min="0"`, not `0.0`.
    let number = |value: f64| {
        if value.fract() == 0.0 && value.abs() < 1e15 {
            Value::from(value as i64)
        } else {
            Value::from(value)
        }
    };
    let (min, max, maxlength) = match param.kind {
        Kind::Text { max, .. } => (None, None, Some(max)),
        Kind::Integer { min, max, .. } => (Some(Value::from(min)), Some(Value::from(max)), None),
        Kind::Number { min, max } => (Some(number(min)), max.map(number), None),
        Kind::Boolean | Kind::Choice { .. } | Kind::Ids { .. } => (None, None, None),
    };
    Ok(minijinja::context! { label => param.label, min, max, maxlength })
}

/// `choices("window")` in a template: the values of `kind` or `window`
/// with their Spanish labels (`api::params::choices`), in the forms' order.
fn form_choices(name: &str) -> Result<Value, minijinja::Error> {
    let choices = choices::choices(name).ok_or_else(|| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("no labelled choices of {name:?}"),
        )
    })?;
    Ok(Value::from(minijinja::value::Serde(choices)))
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
            AutoEscape::Html => return Ok(escape_into(out, text)?),
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

    #[test]
    fn every_file_of_the_templates_folder_is_a_template() {
        let mut folder: Vec<String> =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/templates"))
                .expect("templates/")
                .map(|entry| {
                    entry
                        .expect("entry")
                        .file_name()
                        .into_string()
                        .expect("UTF-8")
                })
                .collect();
        folder.sort();
        let env = environment();
        let mut loaded: Vec<&str> = env.templates().map(|(name, _)| name).collect();
        loaded.sort();
        assert_eq!(loaded, folder);
        for name in folder {
            let source =
                std::fs::read_to_string(format!("{}/templates/{name}", env!("CARGO_MANIFEST_DIR")))
                    .expect("template");
            let template = env.get_template(&name).expect("loaded");
            assert_eq!(template.source(), source, "{name} as it is in the folder");
        }
    }
    use minijinja::context;

    #[test]
    fn templates_link_the_query_pages_by_the_table() {
        let env = environment();
        for (name, template) in env.templates() {
            let source = template.source();
            for page in site_pages::ALL {
                for quoted in [format!("\"{}\"", page.path), format!("'{}'", page.path)] {
                    assert!(!source.contains(&quoted), "{name} spells {quoted}");
                }
            }
        }
        let links = env
            .render_str("{{ pages.search }} {{ pages.compare }}", ())
            .expect("render");
        assert_eq!(links, "/buscar /comparar");
    }

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

    #[test]
    fn the_search_form_reads_labels_and_bounds_from_the_parameter_table() {
        let env = environment();
        let field = |source: &str| env.render_str(source, ()).expect("renders");
        assert_eq!(
            field(r#"{% set p = param("minSeats") %}{{ p.label }} {{ p.min }}-{{ p.max }}"#),
            "Asientos, al menos 1-100"
        );
        assert_eq!(field(r#"{{ param("minPriceUsd").min }}"#), "0");
        assert_eq!(field(r#"{{ param("minDiscountPct").max }}"#), "100");
        assert_eq!(field(r#"{{ param("q").maxlength }}"#), "200");
        assert!(
            env.render_str(r#"{{ param("colour").label }}"#, ())
                .is_err(),
            "an unknown parameter fails the render"
        );
    }
}
