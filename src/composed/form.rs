//! Site pages with a query, the form as it was sent: the search page comes
//! back with every field filled in with what the buyer asked (with or
//! without a script), and a refused value stays in its field, marked
//! `aria-invalid`, with its message beside it (`aria-describedby`). Works on
//! the static page's forms as a browser parses them (`form.search-form` in
//! `templates/search.html`, `form.compare-form` in `templates/compare.html`):
//! its controls are found by selector, whatever the order, quoting or line
//! breaks of their attributes.

use std::cell::{Cell, RefCell};

use lol_html::element;
use lol_html::html_content::{ContentType, Element};

use super::rewrite::{Handler, add_flag, attribute, read};
use crate::api::text::fold;
use crate::html::escape;

/// The forms a composed page fills in.
const FORMS: [&str; 2] = ["form.search-form", "form.compare-form"];

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

/// The selector of `parts` inside either form.
fn inside(parts: &[&str]) -> String {
    let all: Vec<String> = FORMS
        .iter()
        .flat_map(|form| parts.iter().map(move |part| format!("{form} {part}")))
        .collect();
    all.join(", ")
}

/// A form's controls: its named inputs and lists.
const CONTROLS: [&str; 2] = ["input[name]", "select[name]"];

/// What a page's forms hold, read once per static page (a streaming
/// rewriter writes a tag before it sees what follows, so what decides a
/// tag's change is known before the pass that writes it): the names of the
/// controls in each fold (`<details>`), and each list's name and options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormShape {
    /// Per fold inside the forms, in page order: its controls' names.
    folds: Vec<Vec<String>>,
    /// Per list, in page order: its name and its options' values.
    lists: Vec<(String, Vec<String>)>,
}

impl FormShape {
    /// Reads the forms of `page`.
    pub fn read(page: &str) -> FormShape {
        let folds: RefCell<Vec<Vec<String>>> = RefCell::new(Vec::new());
        let lists: RefCell<Vec<(String, Vec<String>)>> = RefCell::new(Vec::new());
        let grouped: Vec<String> = CONTROLS.iter().map(|c| format!("details {c}")).collect();
        let grouped: Vec<&str> = grouped.iter().map(String::as_str).collect();
        read(
            page,
            vec![
                element!(inside(&["details"]), |_| {
                    folds.borrow_mut().push(Vec::new());
                    Ok(())
                }),
                // Folds do not nest: a control is in the last one opened.
                element!(inside(&grouped), |el| {
                    if let Some(names) = folds.borrow_mut().last_mut() {
                        names.push(attribute(el, "name"));
                    }
                    Ok(())
                }),
                element!(inside(&["select[name]"]), |el| {
                    lists.borrow_mut().push((attribute(el, "name"), Vec::new()));
                    Ok(())
                }),
                element!(inside(&["select[name] option[value]"]), |el| {
                    if let Some((_, options)) = lists.borrow_mut().last_mut() {
                        options.push(attribute(el, "value"));
                    }
                    Ok(())
                }),
            ],
        );
        FormShape {
            folds: folds.into_inner(),
            lists: lists.into_inner(),
        }
    }
}

/// A form's refill: which folds open (those holding a field sent or
/// refused) and which option each list selects, then written in one pass.
pub(crate) struct Refill<'s> {
    state: &'s FormState,
    /// Per fold, in page order: whether it opens.
    opens: Vec<bool>,
    /// Per list, in page order: the value of the option it selects.
    choices: Vec<Option<String>>,
    /// Folds and lists written so far.
    folds: Cell<usize>,
    lists: Cell<usize>,
    /// The open list's choice, until its option is written.
    choice: RefCell<Option<String>>,
}

impl<'s> Refill<'s> {
    /// What `state` changes in the forms of `shape`.
    pub(crate) fn new(shape: &FormShape, state: &'s FormState) -> Refill<'s> {
        let sent = |name: &String| state.value(name).is_some() || state.error(name).is_some();
        Refill {
            state,
            opens: shape
                .folds
                .iter()
                .map(|names| names.iter().any(sent))
                .collect(),
            choices: shape
                .lists
                .iter()
                .map(|(name, options)| choose(options, state.value(name)?))
                .collect(),
            folds: Cell::new(0),
            lists: Cell::new(0),
            choice: RefCell::new(None),
        }
    }

    /// The rewriter's handlers that write the form as it was sent.
    pub(crate) fn handlers(&self) -> Vec<Handler<'_>> {
        vec![
            element!(inside(&["details"]), |el| {
                if self.opens.get(next(&self.folds)) == Some(&true) {
                    add_flag(el, "open");
                }
                Ok(())
            }),
            element!(inside(&CONTROLS), |el| self.control(el)),
            element!(inside(&["select[name] option[value]"]), |el| {
                let mut choice = self.choice.borrow_mut();
                if choice.as_deref() == Some(attribute(el, "value").as_str()) {
                    add_flag(el, "selected");
                    *choice = None;
                }
                Ok(())
            }),
        ]
    }

    /// One control: marked when refused, filled with what was sent, its
    /// message after it.
    fn control(&self, el: &mut Element<'_, '_>) -> lol_html::HandlerResult {
        let name = attribute(el, "name");
        let error = self.state.error(&name);
        let id = format!("error-{}", escape(&name));
        if error.is_some() {
            let described = match el.get_attribute("aria-describedby") {
                Some(own) => format!("{id} {own}"),
                None => id.clone(),
            };
            el.set_attribute("aria-describedby", &described)?;
            el.set_attribute("aria-invalid", "true")?;
        }
        if el.tag_name() == "select" {
            let choice = self.choices.get(next(&self.lists)).cloned().flatten();
            *self.choice.borrow_mut() = choice;
        } else if let Some(value) = self.state.value(&name) {
            fill_input(el, value)?;
        }
        if let Some(message) = error {
            el.after(
                &format!(
                    "<span class=\"field-error\" id=\"{id}\">{}</span>",
                    escape(message)
                ),
                ContentType::Html,
            );
        }
        Ok(())
    }
}

/// The counter's value, then counted up.
fn next(counter: &Cell<usize>) -> usize {
    let at = counter.get();
    counter.set(at + 1);
    at
}

/// An input with the value sent: a text field gets it as its value, a
/// checkbox is checked when it was sent with its own value.
fn fill_input(el: &mut Element<'_, '_>, value: &str) -> lol_html::HandlerResult {
    let checkbox = el
        .get_attribute("type")
        .is_some_and(|kind| kind.eq_ignore_ascii_case("checkbox"));
    if !checkbox {
        el.set_attribute("value", &escape(value))?;
    } else if attribute(el, "value") == value {
        add_flag(el, "checked");
    }
    Ok(())
}

/// The option a list selects for the value sent: the option of that
/// value, else the one it names ignoring case and accents (`cordoba` is
/// Córdoba, as the filters read names); none when no option matches (the
/// list then shows its first).
fn choose(options: &[String], value: &str) -> Option<String> {
    if options.iter().any(|own| own == value) {
        return Some(value.to_owned());
    }
    let folded = fold(value);
    options
        .iter()
        .find(|own| !own.is_empty() && fold(own) == folded)
        .cloned()
}

#[cfg(test)]
mod tests;
