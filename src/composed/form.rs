//! Site pages with a query, the form as it was sent: the search page comes
//! back with every field filled in with what the buyer asked (with or
//! without a script), and a refused value stays in its field, marked
//! `aria-invalid`, with its message beside it (`aria-describedby`). Works on
//! the static page's own form markup (`templates/search.html`: one tag per
//! control, double-quoted attributes, `name` before the end of the tag).

use crate::api::text::fold;
use crate::html::escape;

/// What a form was sent with, and what was wrong with it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormState {
    /// `(field name, value)` as the buyer sent them (blanks left out).
    pub values: Vec<(String, String)>,
    /// `(field name, message)` for each refused field.
    pub errors: Vec<(String, String)>,
}

impl FormState {
    fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    fn error(&self, name: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, message)| message.as_str())
    }
}

/// `page` with the form whose opening tag starts with `form_start` filled
/// in from `state`; the page as it is when it has no such form.
pub fn refill(page: &str, form_start: &str, state: &FormState) -> String {
    let Some(start) = page.find(form_start) else {
        return page.to_owned();
    };
    let end = page[start..]
        .find("</form>")
        .map_or(page.len(), |end| start + end);
    let mut out = String::with_capacity(page.len() + 256);
    out.push_str(&page[..start]);
    let form = open_details(&page[start..end], state);
    let mut rest = form.as_str();
    while let Some(at) = next_control(rest) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let tag_end = rest.find('>').map_or(rest.len(), |end| end + 1);
        let (tag, after) = rest.split_at(tag_end);
        let Some(name) = attribute(tag, "name") else {
            out.push_str(tag);
            rest = after;
            continue;
        };
        let error = state.error(&name);
        let tag = match error {
            Some(_) => mark_invalid(tag, &name),
            None => tag.to_owned(),
        };
        if tag.starts_with("<select") {
            let close = after.find("</select>").map_or(after.len(), |end| end + 9);
            out.push_str(&tag);
            out.push_str(&select_option(&after[..close], state.value(&name)));
            rest = &after[close..];
        } else {
            out.push_str(&fill_input(&tag, state.value(&name)));
            rest = after;
        }
        if let Some(message) = error {
            out.push_str(&format!(
                "<span class=\"field-error\" id=\"error-{}\">{}</span>",
                escape(&name),
                escape(message)
            ));
        }
    }
    out.push_str(rest);
    out.push_str(&page[end..]);
    out
}

/// The form with every `<details>` inside it that holds a field sent (or
/// refused) opened, so what was asked stays in sight. (Groups of fields do
/// not nest.)
fn open_details(form: &str, state: &FormState) -> String {
    let mut out = String::with_capacity(form.len() + 8);
    let mut rest = form;
    while let Some(at) = rest.find("<details") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let end = from.find("</details>").map_or(from.len(), |end| end);
        let inner = &from[..end];
        let sent =
            names(inner).any(|name| state.value(&name).is_some() || state.error(&name).is_some());
        let tag_end = from.find('>').map_or(from.len(), |end| end);
        out.push_str(&from[..tag_end]);
        if sent && !from[..tag_end].contains(" open") {
            out.push_str(" open");
        }
        out.push_str(&from[tag_end..end]);
        rest = &from[end..];
    }
    out.push_str(rest);
    out
}

/// The names of the controls in `html`.
fn names(html: &str) -> impl Iterator<Item = String> + '_ {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let at = next_control(rest)?;
            let tag_end = rest[at..].find('>').map_or(rest.len(), |end| at + end + 1);
            let tag = &rest[at..tag_end];
            rest = &rest[tag_end..];
            if let Some(name) = attribute(tag, "name") {
                return Some(name);
            }
        }
    })
}

/// Where the next `<input` or `<select` tag starts.
fn next_control(text: &str) -> Option<usize> {
    [text.find("<input "), text.find("<select ")]
        .into_iter()
        .flatten()
        .min()
}

/// The (unescaped) value of a double-quoted attribute of a tag.
pub(crate) fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(
        tag[start..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

/// The tag before its closing `>`, and the closing.
fn split_close(tag: &str) -> (&str, &str) {
    let body = tag.trim_end_matches('>');
    (body, &tag[body.len()..])
}

/// `aria-invalid` and the error's ID first among the tag's descriptions.
fn mark_invalid(tag: &str, name: &str) -> String {
    let id = format!("error-{}", escape(name));
    let tag = match tag.find(" aria-describedby=\"") {
        Some(at) => {
            let value = at + " aria-describedby=\"".len();
            format!("{}{id} {}", &tag[..value], &tag[value..])
        }
        None => {
            let (body, close) = split_close(tag);
            format!("{body} aria-describedby=\"{id}\"{close}")
        }
    };
    let (body, close) = split_close(&tag);
    format!("{body} aria-invalid=\"true\"{close}")
}

/// An input with the value sent: a text field gets it as its value, a
/// checkbox is checked when it was sent with its own value.
fn fill_input(tag: &str, value: Option<&str>) -> String {
    let Some(value) = value else {
        return tag.to_owned();
    };
    let (body, close) = split_close(tag);
    if tag.contains(" type=\"checkbox\"") {
        return match attribute(tag, "value") {
            Some(own) if own == value => format!("{body} checked{close}"),
            _ => tag.to_owned(),
        };
    }
    format!("{body} value=\"{}\"{close}", escape(value))
}

/// A select's options with the one sent selected: the option of that
/// value, else the one it names ignoring case and accents (`cordoba` is
/// Córdoba, as the filters read names); none when no option matches (the
/// select then shows its first).
fn select_option(options: &str, value: Option<&str>) -> String {
    let Some(value) = value else {
        return options.to_owned();
    };
    let option = |value: &str| format!("<option value=\"{}\">", escape(value));
    let sent = if options.contains(&option(value)) {
        value.to_owned()
    } else {
        let folded = fold(value);
        let named = options
            .split("<option")
            .skip(1)
            .filter_map(|tag| attribute(&format!("<option{tag}"), "value"))
            .find(|own| !own.is_empty() && fold(own) == folded);
        match named {
            Some(own) => own,
            None => return options.to_owned(),
        }
    };
    options.replacen(
        &option(&sent),
        &format!("<option value=\"{}\" selected>", escape(&sent)),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<p>x</p><form class=\"search-form\" action=\"/buscar\">\
        <input id=\"f-q\" name=\"q\" type=\"search\" maxlength=\"200\">\
        <select id=\"f-make\" name=\"make\"><option value=\"\">Todas</option>\
        <option value=\"Citroën\">Citroën</option><option value=\"Fiat\">Fiat</option></select>\
        <input id=\"f-max\" name=\"maxPriceArs\" type=\"text\" aria-describedby=\"nota\">\
        <input id=\"f-opp\" name=\"opportunitiesOnly\" type=\"checkbox\" value=\"true\">\
        </form><input name=\"q\">";

    fn state(values: &[(&str, &str)], errors: &[(&str, &str)]) -> FormState {
        let owned = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        FormState {
            values: owned(values),
            errors: owned(errors),
        }
    }

    #[test]
    fn the_form_comes_back_filled_in() {
        let page = refill(
            PAGE,
            "<form class=\"search-form\"",
            &state(
                &[
                    ("q", "hilux \"srv\""),
                    ("make", "Fiat"),
                    ("opportunitiesOnly", "true"),
                ],
                &[],
            ),
        );
        assert!(page.contains(
            "<input id=\"f-q\" name=\"q\" type=\"search\" maxlength=\"200\" value=\"hilux &quot;srv&quot;\">"
        ));
        assert!(page.contains("<option value=\"Fiat\" selected>Fiat</option>"));
        assert!(page.contains("value=\"true\" checked>"));
        assert!(page.ends_with("</form><input name=\"q\">"), "only the form");
    }

    #[test]
    fn a_refused_value_stays_with_its_message_beside_it() {
        let page = refill(
            PAGE,
            "<form class=\"search-form\"",
            &state(
                &[("maxPriceArs", "60.000000")],
                &[("maxPriceArs", "debe ser un número <mayor>")],
            ),
        );
        assert!(page.contains(
            "<input id=\"f-max\" name=\"maxPriceArs\" type=\"text\" \
             aria-describedby=\"error-maxPriceArs nota\" aria-invalid=\"true\" value=\"60.000000\">\
             <span class=\"field-error\" id=\"error-maxPriceArs\">debe ser un número &lt;mayor&gt;</span>"
        ));
    }

    #[test]
    fn a_folded_group_with_a_field_sent_opens() {
        let page = "<form class=\"f\"><details class=\"more\"><summary>Más</summary>\
            <input name=\"minSeats\" type=\"number\"></details>\
            <details class=\"other\"><input name=\"aeb\"></details></form>";
        let page = refill(page, "<form class=\"f\"", &state(&[("minSeats", "7")], &[]));
        assert!(page.contains("<details class=\"more\" open>"));
        assert!(page.contains("<details class=\"other\">"));
        assert!(page.contains("name=\"minSeats\" type=\"number\" value=\"7\">"));
    }

    #[test]
    fn a_name_sent_without_its_accents_selects_its_option() {
        let page = refill(
            PAGE,
            "<form class=\"search-form\"",
            &state(&[("make", "CITROEN")], &[]),
        );
        assert!(page.contains("<option value=\"Citroën\" selected>Citroën</option>"));
        assert_eq!(page.matches("selected").count(), 1);
    }

    #[test]
    fn a_value_no_option_has_selects_nothing() {
        let page = refill(
            PAGE,
            "<form class=\"search-form\"",
            &state(&[("make", "Nada")], &[]),
        );
        assert!(!page.contains("selected"));
        assert_eq!(
            refill("<p>no form</p>", "<form", &FormState::default()),
            "<p>no form</p>"
        );
    }
}
