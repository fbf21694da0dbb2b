//! The picks on the templates' markup and on markup changed in ways a
//! browser reads alike.

use std::cell::RefCell;

use super::*;
use crate::composed::fragments::{PageFragments, VehicleFragments};
use crate::composed::picks::read;
use crate::composed::rewrite;

fn vehicles() -> PageFragments {
    let vehicles = ["a b", "c,d", "e", "f", "g", "50%", "Citroën/C3"]
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
        .collect();
    PageFragments {
        vehicles,
        ..PageFragments::default()
    }
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

const PAGE: &str = "<a href=\"/modelos\">M</a><a href=\"/buscar?kind=x&amp;window=3d#r\">B</a>\
    <a href=\"/comparar\">C</a><a href=\"/assets/site.css\">s</a><a href=\"/api/v1\">api</a>\
    <a href=\"//example.org/modelos\">x</a>\
    <form class=\"home-search\" action=\"/buscar\" method=\"get\"><input name=\"q\"></form>\
    <p class=\"pick\"><a class=\"pick-add\" href=\"?comparar=e#elegir-e\" id=\"elegir-e\" data-pick=\"e\">Agregar a la comparación<span class=\"visually-hidden\">: Auto e</span></a></p>\
    <a class=\"pick-add\" href=\"?comparar=c%2Cd#elegir-cd\" id=\"elegir-cd\" data-pick=\"c,d\">Agregar a la comparación<span>x</span></a>\
    <div id=\"barra-comparar\" class=\"compare-bar\"></div>";

/// The values of a page's hidden `comparar` fields, as a browser reads
/// them.
fn hidden_picks(page: &str) -> Vec<String> {
    let values = RefCell::new(Vec::new());
    rewrite::read(
        page,
        vec![element!("input[type=hidden][name=comparar]", |el| {
            values.borrow_mut().push(rewrite::attribute(el, "value"));
            Ok(())
        })],
    );
    values.into_inner()
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

/// What a browser sends for the search form's hidden fields (one per
/// pick, each value form-encoded: commas, `%` and spaces included)
/// reads back as the picks the page carried.
#[test]
fn a_search_form_sends_the_picks_it_carried() {
    let picks = ids(&["c,d", "a b", "50%", "Citroën/C3"]);
    let page = apply(
        "<form class=\"search-form\" action=\"/buscar\" method=\"get\"></form>",
        "/modelos",
        &PageQuery::default(),
        &picks,
        &vehicles(),
    );
    let sent: Vec<String> = hidden_picks(&page)
        .iter()
        .map(|id| format!("comparar={}", url_encode_form(id)))
        .collect();
    assert_eq!(sent.len(), picks.len(), "{page}");
    assert_eq!(read(&format!("q=x&{}", sent.join("&"))), picks);
}

#[test]
fn controls_add_and_remove_links_carry_and_the_bar_counts() {
    let picks = ids(&["c,d", "a b", "nope"]);
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
    assert!(page.contains("<a href=\"/buscar?kind=x&amp;window=3d&amp;comparar=c%2Cd,a%20b#r\">"));
    assert!(page.contains("<a href=\"/comparar?ids=c%2Cd,a%20b\">C</a>"));
    assert!(
        page.contains("<a href=\"/assets/site.css\">") && page.contains("<a href=\"/api/v1\">")
    );
    // A link without a scheme to another host is not the site's.
    assert!(page.contains("<a href=\"//example.org/modelos\">x</a>"));
    assert!(page.contains(
        "action=\"/buscar\" method=\"get\"><input type=\"hidden\" name=\"comparar\" value=\"c,d\"><input type=\"hidden\" name=\"comparar\" value=\"a b\">"
    ));
    assert!(page.ends_with(
        "<div id=\"barra-comparar\" role=\"region\" aria-label=\"Versiones elegidas para comparar\" class=\"compare-bar\">\
         <div class=\"wrap\"><p class=\"compare-bar-line\">\
         <a class=\"compare-go\" href=\"/comparar?ids=c%2Cd,a%20b\">Comparar (2)</a> \
         <a class=\"compare-clear\" href=\"/versiones/e?q=1\">Vaciar</a></p>\
         <ul class=\"picked\"><li>Auto c,d</li><li>Auto a b</li></ul></div></div>"
    ));
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
    assert!(page.contains("<div id=\"barra-comparar\" class=\"compare-bar\"></div>"));
}

/// The same page as a template might write it: attributes in another
/// order, single-quoted or bare, a control over several lines with more
/// classes and attributes, the bar's class first.
const CHANGED: &str = "<nav><a\n  title='Modelos' href='/modelos' >M</a>\
    <link href=/assets/site.css rel=stylesheet></nav>\
    <form method=get action='/buscar' class=home-search><input name=q></form>\
    <p class=pick><a data-pick='c,d'\n   id=elegir-cd\n   href='?comparar=c%2Cd#elegir-cd' class='pick-add big' rel=nofollow>\n\
    Agregar a la comparación<span class='visually-hidden'>: Auto c,d</span></a>\
    <a id='elegir-e' data-pick=e class=pick-add href='?comparar=e#elegir-e'>Agregar<b>e</b></a></p>\
    <div class='compare-bar' id='barra-comparar'\n></div>";

#[test]
fn picks_apply_alike_to_markup_written_another_way() {
    let page = apply(
        CHANGED,
        "/buscar",
        &PageQuery::read("q=x"),
        &ids(&["c,d"]),
        &vehicles(),
    );
    assert_eq!(
        page,
        "<nav><a title='Modelos' href=\"/modelos?comparar=c%2Cd\">M</a>\
         <link href=/assets/site.css rel=stylesheet></nav>\
         <form method=get action='/buscar' class=home-search>\
         <input type=\"hidden\" name=\"comparar\" value=\"c,d\"><input name=q></form>\
         <p class=pick><a data-pick='c,d' id=elegir-cd href=\"/buscar?q=x#elegir-cd\" \
         class=\"pick-add big is-picked\" rel=nofollow>Quitar de la comparación\
         <span class='visually-hidden'>: Auto c,d</span></a>\
         <a id='elegir-e' data-pick=e class=pick-add \
         href=\"/buscar?q=x&amp;comparar=c%2Cd,e#elegir-e\">Agregar<b>e</b></a></p>\
         <div id='barra-comparar' role=\"region\" aria-label=\"Versiones elegidas para comparar\" \
         class=\"compare-bar\"><div class=\"wrap\"><p class=\"compare-bar-line\">\
         <a class=\"compare-go\" href=\"/comparar?ids=c%2Cd\">Comparar (1)</a> \
         <span class=\"meta\">elegí otra para comparar</span> \
         <a class=\"compare-clear\" href=\"/buscar?q=x\">Vaciar</a></p>\
         <ul class=\"picked\"><li>Auto c,d</li></ul></div></div>"
    );
}
