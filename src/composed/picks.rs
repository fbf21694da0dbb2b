//! Site pages with a query, the comparison picks: the versions a buyer has
//! chosen to compare travel in the page's URL (`?comparar=a,b`, each ID
//! percent-encoded as in `/comparar?ids=`), so they survive from page to
//! page without a script or an account, and a link shares them. The edge
//! applies them to any page it sends with a query:
//!
//! - each "Agregar a la comparación" control (`<a class="pick-add"
//!   data-pick="ID">`, whose static `href` is the relative `?comparar=ID`)
//!   becomes a link to the same page with that ID added, or, when already
//!   picked, removed ("Quitar de la comparación");
//! - every link to another page of the site, and every search form, carries
//!   the picks on;
//! - the compare bar (`slots::BAR`) shows "Comparar (n)" with the names.
//!
//! At most four versions are compared: a fifth pick drops the oldest.
//! IDs that name no published version are dropped.

use std::collections::BTreeMap;

use super::form::attribute;
use super::{PageQuery, VehicleFragments};
use crate::api::params::typed::{COMPARE_PAGE, compare_page, ids_value};
use crate::api::query::COMPARE_IDS;
use crate::api::text::form_decode;
use crate::html::escape;

/// The URL parameter that carries the picks.
pub const NAME: &str = "comparar";

/// The compare bar's empty slot, at the end of every page
/// (`templates/base.html`).
pub const BAR: &str = r#"<div id="barra-comparar" class="compare-bar"></div>"#;

/// The control's opening, as `templates/macros.html` writes it.
const CONTROL: &str = "<a class=\"pick-add\"";

/// The IDs picked in a query (`comparar=a,b`): decoded, without blanks or
/// repeats, the newest four.
///
/// One `comparar` pair is a list, as links carry it: commas separate IDs and
/// a comma inside an ID is `%2C`, as in `/comparar?ids=`. A value with no
/// comma as such came through a proxy that encodes every comma (a CDN
/// rule's query condition does) and is split where its commas are, as the
/// compare page splits IDs typed into its form. Several pairs are one ID
/// each, whole: a search form sends one hidden field per pick (a form
/// encodes every comma and `%` of a value, so one field holding the list
/// would reach the edge as a different list when an ID has any character a
/// URL encodes).
pub fn read(query: &str) -> Vec<String> {
    let values: Vec<&str> = query
        .split('&')
        .filter_map(|pair| pair.strip_prefix("comparar="))
        .collect();
    let pieces: Vec<String> = match values.as_slice() {
        [value] if value.contains(',') => value.split(',').filter_map(form_decode).collect(),
        [value] => form_decode(value)
            .map(|decoded| decoded.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        several => several
            .iter()
            .filter_map(|value| form_decode(value))
            .collect(),
    };
    let mut ids: Vec<String> = Vec::new();
    for id in pieces {
        let id = id.trim().to_owned();
        if !id.is_empty() && !ids.contains(&id) {
            ids.push(id);
        }
    }
    newest(ids)
}

/// The last four of `ids`.
fn newest(mut ids: Vec<String>) -> Vec<String> {
    let most = *COMPARE_IDS.end();
    if ids.len() > most {
        ids.drain(..ids.len() - most);
    }
    ids
}

/// The value of a `comparar` parameter for `ids`.
pub fn value(ids: &[String]) -> String {
    ids_value(ids)
}

/// A page (`path`, its query as the page read it: `sent`) with `picks`
/// applied: controls, links, search forms and the bar. Unknown IDs are
/// dropped first.
pub fn apply(
    html: &str,
    path: &str,
    sent: &PageQuery,
    picks: &[String],
    vehicles: &BTreeMap<String, VehicleFragments>,
) -> String {
    let picks: Vec<String> = picks
        .iter()
        .filter(|id| vehicles.contains_key(id.as_str()))
        .cloned()
        .collect();
    // The compare page's own IDs are its picks: emptying them is `/comparar`.
    let own = match path == COMPARE_PAGE {
        true => sent.clone().without("ids"),
        false => sent.clone(),
    };
    let here = |ids: &[String]| own.clone().with_picks(ids).href(path);
    let html = controls(html, &picks, &here);
    let html = match picks.is_empty() {
        true => html,
        false => carry(&html, &picks),
    };
    html.replacen(BAR, &bar(&picks, vehicles, &here(&[])), 1)
}

/// Each control as a link that adds its version to the picks, or removes
/// it when picked.
fn controls(html: &str, picks: &[String], here: &dyn Fn(&[String]) -> String) -> String {
    let mut out = String::with_capacity(html.len() + 512);
    let mut rest = html;
    while let Some(at) = rest.find(CONTROL) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find('>').map_or(rest.len(), |end| end + 1);
        let tag = &rest[..end];
        rest = &rest[end..];
        let (Some(id), Some(anchor)) = (attribute(tag, "data-pick"), attribute(tag, "id")) else {
            out.push_str(tag);
            continue;
        };
        let picked = picks.contains(&id);
        let ids: Vec<String> = match picked {
            true => picks.iter().filter(|pick| **pick != id).cloned().collect(),
            false => newest(picks.iter().cloned().chain([id.clone()]).collect()),
        };
        let href = format!("{}#{anchor}", here(&ids));
        let class = if picked {
            "pick-add is-picked"
        } else {
            "pick-add"
        };
        out.push_str(&format!(
            "<a class=\"{class}\" href=\"{}\" id=\"{}\" data-pick=\"{}\">",
            escape(&href),
            escape(&anchor),
            escape(&id)
        ));
        if picked && let Some(label_end) = rest.find("<span") {
            out.push_str("Quitar de la comparación");
            rest = &rest[label_end..];
        }
    }
    out.push_str(rest);
    out
}

/// Every link to another page of the site, and every search form, with the
/// picks carried on.
fn carry(html: &str, picks: &[String]) -> String {
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some(at) = rest.find("href=\"/") {
        let start = at + "href=\"".len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find('"').unwrap_or(rest.len());
        let href = &rest[..end];
        rest = &rest[end..];
        out.push_str(&carried_href(href, picks));
    }
    out.push_str(rest);
    // One field a pick, each the ID as it is (see `read`).
    let hidden: String = picks
        .iter()
        .map(|id| {
            format!(
                "<input type=\"hidden\" name=\"{NAME}\" value=\"{}\">",
                escape(id)
            )
        })
        .collect();
    let mut forms = String::with_capacity(out.len() + 256);
    let mut rest = out.as_str();
    while let Some(at) = rest.find("<form ") {
        let end = rest[at..].find('>').map_or(rest.len(), |end| at + end + 1);
        forms.push_str(&rest[..end]);
        if rest[at..end].contains("action=\"/buscar\"") {
            forms.push_str(&hidden);
        }
        rest = &rest[end..];
    }
    forms.push_str(rest);
    forms
}

/// An escaped site-absolute `href` with the picks added, when it names a
/// page (not a file, a feed, the API or the comparison, which has its own
/// IDs); the compare page's own link opens the picks. The static page's
/// own query is kept as written; the picks' pair is written after it.
fn carried_href(href: &str, picks: &[String]) -> String {
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
        "/comparar",
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

/// The compare bar: how many are picked, their names, the comparison and a
/// way to empty it (`clear`: the page without picks).
fn bar(picks: &[String], vehicles: &BTreeMap<String, VehicleFragments>, clear: &str) -> String {
    if picks.is_empty() {
        return BAR.to_owned();
    }
    let names: Vec<String> = picks
        .iter()
        .filter_map(|id| vehicles.get(id))
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
    let inner = format!(
        "<div class=\"wrap\"><p class=\"compare-bar-line\">{go} <a class=\"compare-clear\" href=\"{}\">Vaciar</a></p><ul class=\"picked\">{}</ul></div>",
        escape(clear),
        names.concat()
    );
    super::with_content(BAR, &inner).replacen(
        "<div id=\"barra-comparar\"",
        "<div id=\"barra-comparar\" role=\"region\" aria-label=\"Versiones elegidas para comparar\"",
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vehicles() -> BTreeMap<String, VehicleFragments> {
        ["a b", "c,d", "e", "f", "g"]
            .iter()
            .map(|id| {
                (
                    (*id).to_owned(),
                    VehicleFragments {
                        name: format!("Auto {id}"),
                        ..VehicleFragments::default()
                    },
                )
            })
            .collect()
    }

    const PAGE: &str = "<a href=\"/modelos\">M</a><a href=\"/buscar?kind=x&amp;window=3d#r\">B</a>\
        <a href=\"/comparar\">C</a><a href=\"/assets/site.css\">s</a><a href=\"/api/v1\">api</a>\
        <form class=\"home-search\" action=\"/buscar\" method=\"get\"><input name=\"q\"></form>\
        <p class=\"pick\"><a class=\"pick-add\" href=\"?comparar=e#elegir-e\" id=\"elegir-e\" data-pick=\"e\">Agregar a la comparación<span class=\"visually-hidden\">: Auto e</span></a></p>\
        <a class=\"pick-add\" href=\"?comparar=c%2Cd#elegir-cd\" id=\"elegir-cd\" data-pick=\"c,d\">Agregar a la comparación<span>x</span></a>\
        <div id=\"barra-comparar\" class=\"compare-bar\"></div>";

    #[test]
    fn picks_are_read_decoded_without_repeats_the_newest_four() {
        assert_eq!(read("q=x&comparar=a%20b,c%2Cd,a%20b"), ["a b", "c,d"]);
        assert_eq!(read("comparar=a,b,c,d,e"), ["b", "c", "d", "e"]);
        assert_eq!(
            read("comparar=a%2Cb%20c"),
            ["a", "b c"],
            "every comma encoded"
        );
        assert!(read("q=comparar").is_empty());
        assert_eq!(value(&["a b".to_owned(), "c,d".to_owned()]), "a%20b,c%2Cd");
    }

    /// What a browser sends for the search form's hidden fields (one per
    /// pick, each value form-encoded: commas, `%` and spaces included)
    /// reads back as the picks the page carried.
    #[test]
    fn a_search_form_sends_the_picks_it_carried() {
        let picks: Vec<String> = ["c,d", "a b", "50%", "Citroën/C3"]
            .map(str::to_owned)
            .to_vec();
        let page = carry(
            "<form class=\"search-form\" action=\"/buscar\" method=\"get\"></form>",
            &picks,
        );
        let sent: Vec<String> = page
            .split("<input type=\"hidden\" name=\"comparar\" value=\"")
            .skip(1)
            // No ID here has a character HTML escapes.
            .map(|field| {
                format!(
                    "comparar={}",
                    url_encode_form(&field[..field.find('"').expect("quoted")])
                )
            })
            .collect();
        assert_eq!(sent.len(), picks.len(), "{page}");
        assert_eq!(read(&format!("q=x&{}", sent.join("&"))), picks);
    }

    /// `application/x-www-form-urlencoded` as a browser writes a value.
    fn url_encode_form(value: &str) -> String {
        value
            .bytes()
            .map(|b| match b {
                b'*' | b'-' | b'.' | b'_' => (b as char).to_string(),
                b' ' => "+".to_owned(),
                b if b.is_ascii_alphanumeric() => (b as char).to_string(),
                b => format!("%{b:02X}"),
            })
            .collect()
    }

    #[test]
    fn controls_add_and_remove_links_carry_and_the_bar_counts() {
        let picks = vec!["c,d".to_owned(), "a b".to_owned(), "nope".to_owned()];
        let page = apply(
            PAGE,
            "/versiones/e",
            &PageQuery::read("q=1&comparar=c%2Cd,a%20b&x=2"),
            &picks,
            &vehicles(),
        );
        // Adding e keeps the page's own query and the picks, back at the card.
        assert!(page.contains(
            "<a class=\"pick-add\" href=\"/versiones/e?q=1&amp;comparar=c%2Cd,a%20b,e#elegir-e\" id=\"elegir-e\" data-pick=\"e\">Agregar a la comparación"
        ), "{page}");
        // A picked one says so and removes itself.
        assert!(page.contains(
            "<a class=\"pick-add is-picked\" href=\"/versiones/e?q=1&amp;comparar=a%20b#elegir-cd\" id=\"elegir-cd\" data-pick=\"c,d\">Quitar de la comparación<span>x</span>"
        ));
        assert!(page.contains("<a href=\"/modelos?comparar=c%2Cd,a%20b\">"));
        assert!(
            page.contains("<a href=\"/buscar?kind=x&amp;window=3d&amp;comparar=c%2Cd,a%20b#r\">")
        );
        assert!(page.contains("<a href=\"/comparar?ids=c%2Cd,a%20b\">C</a>"));
        assert!(
            page.contains("<a href=\"/assets/site.css\">") && page.contains("<a href=\"/api/v1\">")
        );
        assert!(page.contains(
            "action=\"/buscar\" method=\"get\"><input type=\"hidden\" name=\"comparar\" value=\"c,d\"><input type=\"hidden\" name=\"comparar\" value=\"a b\">"
        ));
        assert!(page.contains(
            "<a class=\"compare-go\" href=\"/comparar?ids=c%2Cd,a%20b\">Comparar (2)</a>"
        ));
        assert!(page.contains("<li>Auto c,d</li><li>Auto a b</li>"));
        assert!(page.contains("<a class=\"compare-clear\" href=\"/versiones/e?q=1\">Vaciar</a>"));
        assert!(!page.contains("nope"), "an unknown ID is dropped");
    }

    #[test]
    fn without_picks_controls_keep_the_query_and_nothing_else_changes() {
        let page = apply(
            PAGE,
            "/buscar",
            &PageQuery::read("q=hilux"),
            &[],
            &vehicles(),
        );
        assert!(page.contains("href=\"/buscar?q=hilux&amp;comparar=e#elegir-e\""));
        assert!(page.contains("<a href=\"/modelos\">M</a>"));
        assert!(page.contains(BAR));
    }
}
