//! Site pages with a query, what the edge changes in a static page: the
//! words it composed for each slot (found by selector, see [`slots`]), and
//! the form as it was sent (`form.rs`), applied in one pass of the rewriter.

use lol_html::element;
use lol_html::html_content::ContentType;

use super::form::{FormShape, FormState, Refill};
use super::picked::Picking;
use super::rewrite::{Handler, rewrite};
use crate::api::ApiError;
use crate::api::params::label;
use crate::html::escape;

/// Where the edge puts what it composes: the elements of the static pages
/// (`templates/search.html`, `templates/compare.html`) that these CSS
/// selectors find; the compare bar of every page is `picks::BAR`.
pub mod slots {
    /// The status line of both pages.
    pub const STATUS: &str = "#estado";
    /// The search results.
    pub const RESULTS: &str = "#lista";
    /// The search paging links.
    pub const PAGER: &str = "#paginas";
    /// The search's price alert form, after the results.
    pub const ALERT: &str = "#aviso-busqueda";
    /// The comparison table.
    pub const COMPARISON: &str = "#comparacion";
    /// A page's head, whose end takes a feed's `<link rel="alternate">`.
    pub const HEAD: &str = "head";
    /// The search filters' fold, open on the static page; a page with
    /// results has it closed.
    pub const FILTERS: &str = "details#filtros";
}

/// One change to a static page, its element found by a selector of
/// [`slots`].
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// The element's content replaced with this HTML.
    Fill(&'static str, String),
    /// This HTML added at the end of the element's content.
    Append(&'static str, String),
    /// The element's `open` attribute taken away (a fold shown closed).
    Close(&'static str),
}

/// The composed parts of a page: each slot's new content, and whether the
/// request was refused (the page is then sent with the error's status).
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    /// The changes, in any order (each finds its own element).
    pub parts: Vec<Edit>,
    /// The API error that refused the query, if any.
    pub error: Option<ApiError>,
    /// The page's form as it was sent, to fill back in.
    pub form: Option<FormState>,
}

/// A static page the edge composes: its markup, and its forms as read once
/// when the tree is loaded (`form::FormShape`), not for every query.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticPage {
    html: String,
    form: FormShape,
}

impl StaticPage {
    /// The page of `html`, its forms read.
    pub fn new(html: String) -> StaticPage {
        let form = FormShape::read(&html);
        StaticPage { html, form }
    }
}

impl Composed {
    /// The page with its slots and its form filled.
    pub fn fill(&self, page: &StaticPage) -> String {
        self.fill_picked(page, None)
    }

    /// The page with its slots and its form filled and `picking` applied,
    /// in one pass over the static page: what each slot receives has the
    /// picks applied first (the rewriter does not read what it inserts).
    pub fn fill_picked(&self, page: &StaticPage, picking: Option<&Picking>) -> String {
        let refill = self
            .form
            .as_ref()
            .map(|state| Refill::new(&page.form, state));
        let parts: Vec<Edit> = match picking {
            Some(picking) => self.parts.iter().map(|part| part.picked(picking)).collect(),
            None => self.parts.clone(),
        };
        let mut handlers: Vec<Handler<'_>> = parts.iter().map(edit).collect();
        if let Some(refill) = &refill {
            handlers.extend(refill.handlers());
        }
        if let Some(picking) = picking {
            handlers.extend(picking.handlers());
        }
        rewrite(&page.html, handlers)
    }
}

impl Edit {
    /// The edit with `picking` applied to the HTML it inserts.
    fn picked(&self, picking: &Picking) -> Edit {
        match self {
            Edit::Fill(slot, html) => Edit::Fill(slot, picking.apply(html)),
            Edit::Append(slot, html) => Edit::Append(slot, picking.apply(html)),
            Edit::Close(slot) => Edit::Close(slot),
        }
    }
}

/// The rewriter's handler of one edit.
fn edit(edit: &Edit) -> Handler<'_> {
    match edit {
        Edit::Fill(slot, html) => element!(*slot, move |el| {
            el.set_inner_content(html, ContentType::Html);
            Ok(())
        }),
        Edit::Append(slot, html) => element!(*slot, move |el| {
            el.append(html, ContentType::Html);
            Ok(())
        }),
        Edit::Close(slot) => element!(*slot, |el| {
            el.remove_attribute("open");
            Ok(())
        }),
    }
}

/// The status line of a refused query: what was wrong, in Spanish, each
/// parameter by its form label.
pub(crate) fn refused(error: ApiError) -> Composed {
    refused_as(error, |_| None)
}

/// As [`refused`], with `relabel` naming a parameter the page's own way
/// first (a budget typed in pesos is refused as its dollar parameter).
pub(crate) fn refused_as(
    error: ApiError,
    relabel: impl Fn(&str) -> Option<&'static str>,
) -> Composed {
    let lead = match error {
        ApiError::NotFound(_) => "No encontrado",
        _ => "La consulta no es válida",
    };
    let mut status = format!("<strong>{lead}: {}</strong>", escape(&error.spanish()));
    if let ApiError::InvalidParameters(details) = &error {
        status.push_str("<ul>");
        for detail in details {
            let field = relabel(&detail.path)
                .or_else(|| label(&detail.path))
                .unwrap_or(&detail.path);
            status.push_str(&format!(
                "<li>{}: {}</li>",
                escape(field),
                escape(&detail.problem.spanish())
            ));
        }
        status.push_str("</ul>");
    }
    Composed {
        parts: vec![Edit::Fill(slots::STATUS, status)],
        error: Some(error),
        form: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(page: &str, parts: Vec<Edit>) -> String {
        Composed {
            parts,
            error: None,
            form: None,
        }
        .fill(&StaticPage::new(page.to_owned()))
    }

    #[test]
    fn each_slot_is_found_by_its_selector() {
        let page = "<html><head><title>t</title>\n</head><body>\
            <details class=\"filters\" id=\"filtros\" open><summary>F</summary></details>\
            <div class='status'\n   id=estado role=\"status\"><!-- x --></div>\
            <ol id=\"lista\"></ol><div id=\"comparacion\"></div></body></html>";
        let page = filled(
            page,
            vec![
                Edit::Append(slots::HEAD, "<link rel=\"alternate\" href=\"/f\">\n".into()),
                Edit::Fill(slots::STATUS, "<p>2 versiones</p>".into()),
                Edit::Fill(slots::RESULTS, "<li>a</li>".into()),
                Edit::Close(slots::FILTERS),
            ],
        );
        assert_eq!(
            page,
            "<html><head><title>t</title>\n<link rel=\"alternate\" href=\"/f\">\n</head><body>\
             <details class=\"filters\" id=\"filtros\"><summary>F</summary></details>\
             <div class='status'\n   id=estado role=\"status\"><p>2 versiones</p></div>\
             <ol id=\"lista\"><li>a</li></ol><div id=\"comparacion\"></div></body></html>"
        );
    }

    #[test]
    fn a_page_without_the_slot_is_left_as_it_is() {
        let page = "<p>nada</p>";
        assert_eq!(
            filled(page, vec![Edit::Fill(slots::COMPARISON, "x".into())]),
            page
        );
    }

    #[test]
    fn the_filters_fold_closes_however_it_is_written() {
        let page = "<details open\n id='filtros' class=filters><summary>F</summary></details>";
        assert_eq!(
            filled(page, vec![Edit::Close(slots::FILTERS)]),
            "<details id='filtros' class=filters><summary>F</summary></details>"
        );
    }
}
