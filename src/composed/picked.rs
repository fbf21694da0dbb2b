//! Site pages with a query, the picks applied to a page (`picks.rs` reads
//! and writes them): its
//! "Agregar a la comparación" controls, its links and search forms and its
//! compare bar, each found by selector in one pass of the rewriter.

use std::cell::Cell;

use lol_html::html_content::ContentType;
use lol_html::{element, text};

use super::fragments::Fragments;
use super::picks::{BAR, NAME, newest};
use super::query::PageQuery;
use super::rewrite::{Handler, attribute, rewrite, with_class};
use crate::api::params::typed::{COMPARE_PAGE, compare_page};
use crate::html::escape;

/// The controls, as `templates/macros.html` writes them: a link with the
/// version's ID and its own anchor, whose static `href` is `?comparar=ID`.
const CONTROL: &str = "a.pick-add[data-pick][id]";

/// The links to the site's own pages and files. Named by tag: a selector
/// with a tag name lets the rewriter skip the attributes of every other
/// tag, which any element with an `href` made it read.
const LINKS: &str = "a[href^='/'], link[href^='/'], area[href^='/']";

/// What the picks of one request make of any markup: the picks (unknown
/// IDs dropped), the page's own query to link back to, the search forms'
/// hidden fields and the bar. Its handlers run in the same pass as a
/// composed page's slots and form (`page.rs`); the HTML that pass inserts
/// goes through [`Picking::apply`] first, since a rewriter does not read
/// what its own handlers insert.
pub struct Picking {
    picks: Vec<String>,
    path: String,
    own: PageQuery,
    hidden: String,
    bar: String,
    relabel: Cell<bool>,
}

impl Picking {
    /// The picks of a page (`path`, its query as the page read it: `sent`).
    pub fn new(
        path: &str,
        sent: &PageQuery,
        picks: &[String],
        vehicles: &dyn Fragments,
    ) -> Picking {
        let picks: Vec<String> = picks
            .iter()
            .filter(|id| vehicles.publishes(id.as_str()))
            .cloned()
            .collect();
        // The compare page's own IDs are its picks: emptying them is `/comparar`.
        let own = match path == COMPARE_PAGE {
            true => sent.clone().without("ids"),
            false => sent.clone(),
        };
        let mut picking = Picking {
            hidden: hidden_fields(&picks),
            picks,
            path: path.to_owned(),
            own,
            bar: String::new(),
            relabel: Cell::new(false),
        };
        picking.bar = bar(&picking.picks, vehicles, &picking.here(&[]));
        picking
    }

    /// The page with `ids` picked.
    fn here(&self, ids: &[String]) -> String {
        self.own.clone().with_picks(ids).href(&self.path)
    }

    /// The handlers: controls, links, search forms and the bar.
    pub fn handlers(&self) -> Vec<Handler<'_>> {
        let mut handlers = controls(self);
        if !self.picks.is_empty() {
            handlers.extend(carry(self));
        }
        handlers
    }

    /// `html` with the picks applied.
    pub fn apply(&self, html: &str) -> String {
        rewrite(html, self.handlers())
    }
}

/// A page (`path`, its query as the page read it: `sent`) with `picks`
/// applied: controls, links, search forms and the bar. Unknown IDs are
/// dropped first.
pub fn apply(
    html: &str,
    path: &str,
    sent: &PageQuery,
    picks: &[String],
    vehicles: &dyn Fragments,
) -> String {
    Picking::new(path, sent, picks, vehicles).apply(html)
}

/// Each control as a link that adds its version to the picks, or removes
/// it when picked ("Quitar de la comparación", in place of its label's own
/// words; the hidden name after them stays).
fn controls(picking: &Picking) -> Vec<Handler<'_>> {
    let (picks, relabel) = (&picking.picks, &picking.relabel);
    vec![
        element!(CONTROL, move |el| {
            let (id, anchor) = (attribute(el, "data-pick"), attribute(el, "id"));
            let picked = picks.contains(&id);
            let ids: Vec<String> = match picked {
                true => picks.iter().filter(|pick| **pick != id).cloned().collect(),
                false => newest(picks.iter().cloned().chain([id]).collect()),
            };
            if picked {
                el.set_attribute("class", &with_class(el.get_attribute("class"), "is-picked"))?;
                el.prepend("Quitar de la comparación", ContentType::Text);
            }
            el.set_attribute("href", &escape(&format!("{}#{anchor}", picking.here(&ids))))?;
            relabel.set(picked);
            Ok(())
        }),
        element!(format!("{CONTROL} *"), move |_| {
            relabel.set(false);
            Ok(())
        }),
        text!(CONTROL, move |chunk| {
            if relabel.get() {
                chunk.remove();
            }
            Ok(())
        }),
    ]
}

/// Every link to another page of the site, and every search form, with the
/// picks carried on; the bar filled in.
fn carry(picking: &Picking) -> Vec<Handler<'_>> {
    let (picks, hidden, bar) = (&picking.picks, &picking.hidden, &picking.bar);
    vec![
        element!(LINKS, move |el| {
            if let Some(href) = el.get_attribute("href") {
                let carried = carried_href(&href, picks);
                if carried != href {
                    el.set_attribute("href", &carried)?;
                }
            }
            Ok(())
        }),
        element!("form[action='/buscar']", move |el| {
            el.prepend(hidden, ContentType::Html);
            Ok(())
        }),
        element!(BAR, move |el| {
            // Its role and name before its class, as the bar has always
            // been sent.
            let class = el.get_attribute("class");
            el.remove_attribute("class");
            el.set_attribute("role", "region")?;
            el.set_attribute("aria-label", "Versiones elegidas para comparar")?;
            if let Some(class) = class {
                el.set_attribute("class", &class)?;
            }
            el.set_inner_content(bar, ContentType::Html);
            Ok(())
        }),
    ]
}

/// A search form's picks: one field a pick, each the ID as it is (see
/// `read`).
fn hidden_fields(picks: &[String]) -> String {
    picks
        .iter()
        .map(|id| {
            format!(
                "<input type=\"hidden\" name=\"{NAME}\" value=\"{}\">",
                escape(id)
            )
        })
        .collect()
}

/// An escaped site-absolute `href` with the picks added, when it names a
/// page (not a file, a feed, the API or the comparison, which has its own
/// IDs); the compare page's own link opens the picks. The static page's
/// own query is kept as written; the picks' pair is written after it. A
/// network-path reference (`//host/...`) names another site: kept as it is.
fn carried_href(href: &str, picks: &[String]) -> String {
    if href.starts_with("//") {
        return href.to_owned();
    }
    let (address, fragment) = href.split_once('#').map_or((href, ""), |(a, f)| (a, f));
    let path = address.split('?').next().unwrap_or(address);
    if path == COMPARE_PAGE && !address.contains('?') {
        return format!("{}{}", compare_page(picks), hash(fragment));
    }
    let file = path
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'));
    let other = [
        "/assets/",
        "/api",
        "/feeds/",
        "/datos/",
        COMPARE_PAGE,
        "/mcp",
    ]
    .iter()
    .any(|prefix| path.starts_with(prefix));
    if file || other || address.contains("comparar=") {
        return href.to_owned();
    }
    let joint = if address.contains('?') { "&amp;" } else { "?" };
    let carried = PageQuery::default().with_picks(picks).to_query();
    format!("{address}{joint}{carried}{}", hash(fragment))
}

fn hash(fragment: &str) -> String {
    match fragment.is_empty() {
        true => String::new(),
        false => format!("#{fragment}"),
    }
}

/// The compare bar's content: how many are picked, their names, the
/// comparison and a way to empty it (`clear`: the page without picks).
fn bar(picks: &[String], vehicles: &dyn Fragments, clear: &str) -> String {
    let names: Vec<String> = picks
        .iter()
        .filter_map(|id| vehicles.vehicle(id))
        .map(|vehicle| format!("<li>{}</li>", escape(&vehicle.name)))
        .collect();
    let hint = match picks.len() {
        1 => " <span class=\"meta\">elegí otra para comparar</span>",
        _ => "",
    };
    let go = format!(
        "<a class=\"compare-go\" href=\"{}\">Comparar ({})</a>{hint}",
        escape(&compare_page(picks)),
        picks.len()
    );
    format!(
        "<div class=\"wrap\"><p class=\"compare-bar-line\">{go} <a class=\"compare-clear\" href=\"{}\">Vaciar</a></p><ul class=\"picked\">{}</ul></div>",
        escape(clear),
        names.concat()
    )
}

#[cfg(test)]
mod tests;
