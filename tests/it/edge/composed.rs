//! The site's query pages through the edge: `/buscar?...` shows the API's
//! results as the generator's own cards, `/comparar?ids=...` its table, a
//! refused query the reasons in Spanish with the API's status; no script
//! is needed for any of it.

use std::fs;

use autoprecios::composed::PageFragments;
use axum::http::StatusCode;
use serde_json::Value;

use crate::harness::fixture;
use crate::harness::{edge_vehicles, get, get_json, ids};

fn fragments() -> PageFragments {
    let bytes = fs::read(fixture().out.join("_edge/pages.msgpack")).expect("pages.msgpack");
    autoprecios::msgpack::from_read(&bytes[..]).expect("fragments")
}

/// A version's card as a search page at `/buscar?query` shows it: its
/// "Agregar a la comparación" link keeps the page's query.
fn shown_card(fragments: &PageFragments, id: &str, query: &str) -> String {
    use autoprecios::composed::{PageQuery, picked};
    picked::apply(
        &fragments.vehicles[id].card,
        "/buscar",
        &PageQuery::read(query),
        &[],
        fragments,
    )
}

fn text(reply: &crate::harness::Reply) -> String {
    String::from_utf8(reply.body.clone()).expect("UTF-8 page")
}

#[tokio::test]
async fn a_search_shows_the_api_results_as_cards_with_paging() {
    let fragments = fragments();
    let query = "sort=price_asc&limit=3&offset=3";
    let api = get(&format!("/api/v1/vehicles?{query}")).await.json();
    let page = get(&format!("/buscar?{query}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header("content-type").starts_with("text/html"));
    assert!(!page.header("etag").is_empty(), "a page like any other");
    let html = text(&page);
    let mut at = 0;
    for id in ids(&api) {
        let card = shown_card(&fragments, &id, query);
        let found = html[at..].find(card.as_str()).expect("each card, in order");
        at += found + card.len();
    }
    let total = api["data"]["pagination"]["total"].as_u64().expect("total");
    assert!(html.contains(&format!(
        "{total} versiones encontradas (se muestran de la 4 a la 6)."
    )));
    assert!(html.contains("<a href=\"/buscar?sort=price_asc&amp;limit=3\">← Anteriores</a>"));
    assert!(
        html.contains(
            "<a href=\"/buscar?sort=price_asc&amp;limit=3&amp;offset=6\">Siguientes →</a>"
        )
    );
}

#[tokio::test]
async fn a_refused_search_says_why_in_spanish_with_the_api_status() {
    let page = get("/buscar?minPriceUsd=3&maxPriceUsd=1&minSeats=x").await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert_eq!(page.header("cache-control"), "no-store");
    let html = text(&page);
    assert!(html.contains("<li>Precio máximo (US$): no puede ser menor que el precio mínimo</li>"));
    assert!(html.contains("<li>Asientos, al menos: debe ser un número entero de 1 a 100</li>"));
    let hostile = get("/buscar?model=%3Cscript%3Ealert(1)%3C%2Fscript%3E").await;
    assert_eq!(hostile.status, StatusCode::OK);
    let html = text(&hostile);
    assert!(html.contains("Ninguna versión cumple todos los filtros."));
    assert!(
        !html.contains("<script>"),
        "nothing of the query is reflected raw"
    );
}

#[tokio::test]
async fn a_comparison_is_the_table_of_the_fragments() {
    let fragments = fragments();
    let chosen: Vec<&str> = edge_vehicles()
        .iter()
        .take(3)
        .map(|v| v["id"].as_str().expect("id"))
        .collect();
    let encoded: Vec<String> = chosen
        .iter()
        .map(|id| autoprecios::api::links::percent_encode(id))
        .collect();
    let page = get(&format!("/comparar?ids={}", encoded.join(","))).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = text(&page);
    assert!(html.contains("Comparación de 3 versiones."));
    assert_eq!(
        html.matches("<th scope=\"col\">").count(),
        4,
        "Dato and three versions"
    );
    assert_eq!(
        html.matches("<th scope=\"row\">").count(),
        fragments.compare_rows.len()
    );
    // Each row's cells in order, the best one marked (price: the cheapest).
    let unmarked = html.replace(
        " class=\"best\"><strong class=\"best-mark\">Mejor:</strong> ",
        ">",
    );
    for (row, heading) in fragments.compare_rows.iter().enumerate() {
        let cells: String = chosen
            .iter()
            .map(|id| fragments.vehicles[*id].cells[row].as_str())
            .collect();
        assert!(
            unmarked.contains(&format!("<tr>{heading}{cells}</tr>")),
            "{heading}"
        );
    }
    let cheapest = chosen
        .iter()
        .max_by(|a, b| {
            let score = |id: &&str| fragments.vehicles[*id].scores[0].expect("a price");
            score(a).total_cmp(&score(b))
        })
        .expect("three");
    let first_row = html
        .split("<tr>")
        .find(|row| row.starts_with(&fragments.compare_rows[0]))
        .expect("the price row");
    let cells: Vec<&str> = first_row.split("<td").skip(1).collect();
    let at = chosen.iter().position(|id| id == cheapest).expect("chosen");
    assert!(cells[at].starts_with(" class=\"best\">"), "{first_row}");
    assert_eq!(first_row.matches("best-mark").count(), 1);
    let unknown = get("/comparar?ids=no-such-version,nor-this").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let html = text(&unknown);
    for id in ["no-such-version", "nor-this"] {
        let message = format!("No hay ninguna versión publicada con el ID «{id}».");
        assert_eq!(html.matches(&message).count(), 1, "once per unknown ID");
    }
    assert_eq!(
        html.matches("no-such-version").count(),
        2,
        "and in its field"
    );
}

#[tokio::test]
async fn without_a_query_the_pages_are_the_static_files() {
    for (uri, file) in [
        ("/buscar", "buscar/index.html"),
        ("/comparar", "comparar/index.html"),
    ] {
        let page = get(uri).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body == fs::read(fixture().public.join(file)).expect("file"),
            "{uri}"
        );
    }
}

/// Every message the API writes (each kind of 400 detail, the 404 and the
/// 414) is said in Spanish on the page that asks the same query: none of
/// the API's English texts shows through. (Each problem's Spanish form is
/// one arm of an exhaustive match: `api::params::Problem::spanish`.)
#[tokio::test]
async fn refused_pages_say_every_api_error_in_spanish() {
    let id = edge_vehicles()[0]["id"].as_str().expect("id");
    let requests = [
        "/api/v1/vehicles?colour=red".to_owned(),
        "/api/v1/vehicles?make=a&make=b".to_owned(),
        "/api/v1/vehicles?make=".to_owned(),
        format!("/api/v1/vehicles?q={}", "a".repeat(201)),
        "/api/v1/vehicles?limit=0".to_owned(),
        "/api/v1/vehicles?minDiscountPct=101".to_owned(),
        "/api/v1/vehicles?minPriceUsd=-1".to_owned(),
        "/api/v1/vehicles?opportunitiesOnly=yes".to_owned(),
        "/api/v1/vehicles?sort=cheap&type=boat".to_owned(),
        "/api/v1/vehicles?minPriceUsd=2&maxPriceUsd=1".to_owned(),
        "/api/v1/vehicles?q=%FF".to_owned(),
        "/api/v1/models/prices?make=Toyota".to_owned(),
        "/api/v1/compare".to_owned(),
        format!("/api/v1/compare?ids={id}"),
        format!("/api/v1/compare?ids={id},{id}"),
        format!("/api/v1/compare?ids={id},nope"),
        "/api/v1/vehicles/nope".to_owned(),
        "/api/v1/vehicles/%FF".to_owned(),
        format!("/api/v1/vehicles?q={}", "a".repeat(5000)),
    ];
    let mut untranslated = Vec::new();
    let mut pages = 0;
    for uri in &requests {
        let reply = get(uri).await;
        assert!(reply.status.is_client_error(), "{uri}: {}", reply.status);
        let error: Value = reply.json()["error"].clone();
        let mut messages = vec![error["message"].as_str().expect("message").to_owned()];
        for detail in error["details"].as_array().into_iter().flatten() {
            messages.push(detail["message"].as_str().expect("detail").to_owned());
        }
        let page_uri = if let Some(query) = uri.strip_prefix("/api/v1/vehicles?") {
            format!("/buscar?{query}")
        } else if let Some(rest) = uri.strip_prefix("/api/v1/compare") {
            format!("/comparar{rest}")
        } else {
            continue;
        };
        let page = get(&page_uri).await;
        if !page.status.is_client_error() {
            continue; // the page drops parameters no form field has
        }
        pages += 1;
        let html = text(&page);
        for message in messages {
            let escaped = autoprecios::html::escape(&message);
            if html.contains(&format!(": {escaped}")) {
                untranslated.push(format!("{page_uri}: {message:?}"));
            }
        }
    }
    assert!(pages >= 10, "{pages} refused pages");
    assert!(untranslated.is_empty(), "{}", untranslated.join("\n"));
}

/// The labels that error messages give parameters are the search form's.
#[test]
fn error_labels_are_the_form_labels() {
    let form =
        fs::read_to_string(fixture().out.join("public/buscar/index.html")).expect("search page");
    let compare =
        fs::read_to_string(fixture().out.join("public/comparar/index.html")).expect("compare page");
    for (name, label) in autoprecios::api::params::form_labels() {
        if matches!(name, "limit" | "offset") {
            continue; // paging links carry them; the form has no field
        }
        let page = if name == "ids" { &compare } else { &form };
        assert!(
            page.contains(&format!("name=\"{name}\"")),
            "{name} is a field"
        );
        assert!(page.contains(&format!(">{label}")), "{name}: {label}");
    }
}

/// A form sent without the script carries every field, the empty ones too,
/// and a shared link may carry tracking parameters: the page treats both as
/// not set and shows the same results as the clean address.
#[tokio::test]
async fn empty_fields_and_unknown_parameters_are_not_set() {
    let form =
        fs::read_to_string(fixture().out.join("public/buscar/index.html")).expect("search page");
    let mut names: Vec<&str> = form
        .split(" name=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().expect("name"))
        .collect();
    names.dedup();
    assert!(names.len() > 10, "{names:?}");
    let sent: Vec<String> = names
        .iter()
        .map(|name| match *name {
            "make" => "make=Toyota".to_owned(),
            "sort" => "sort=price_asc".to_owned(),
            other => format!("{other}="),
        })
        .collect();
    let from_form = get(&format!("/buscar?{}&utm_source=boletin", sent.join("&"))).await;
    let clean = get("/buscar?make=Toyota&sort=price_asc").await;
    assert_eq!(from_form.status, StatusCode::OK, "{}", text(&from_form));
    assert!(from_form.body == clean.body, "the same page");
    assert!(text(&clean).contains("<li><article"));
}

/// A comparison asked by ticked boxes (one `ids` each) or by IDs typed into
/// the form (commas sent as `%2C`) is the same page as the shared address.
#[tokio::test]
async fn ticked_boxes_and_typed_ids_compare_like_the_shared_address() {
    let chosen: Vec<String> = edge_vehicles()
        .iter()
        .take(2)
        .map(|v| autoprecios::api::links::percent_encode(v["id"].as_str().expect("id")))
        .collect();
    let shared = get(&format!("/comparar?ids={},{}", chosen[0], chosen[1])).await;
    assert_eq!(shared.status, StatusCode::OK);
    for uri in [
        format!("/comparar?ids={}&ids={}", chosen[0], chosen[1]),
        format!("/comparar?ids={}%2C+{}", chosen[0], chosen[1]),
    ] {
        let page = get(&uri).await;
        assert_eq!(page.status, StatusCode::OK, "{uri}");
        assert!(page.body == shared.body, "{uri}");
    }
    let one = get(&format!("/comparar?ids={}", chosen[0])).await;
    assert_eq!(one.status, StatusCode::BAD_REQUEST);
    assert!(text(&one).contains("elegí de 2 a 4 versiones"));
}

#[tokio::test]
async fn a_peso_budget_is_exact_in_pesos_and_paging_keeps_it() {
    // As a buyer types it; the API's own maxPriceArs is the same search.
    let page = get("/buscar?maxPriceArs=40.000.000&sort=price_desc&limit=5").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = text(&page);
    let api = get_json("/api/v1/vehicles?maxPriceArs=40000000&sort=price_ars_desc&limit=5").await;
    let total = api["data"]["pagination"]["total"].as_u64().expect("total");
    assert!(total > 5, "a premise: more than one page ({total})");
    assert!(html.contains(&format!("{total} versiones encontradas")));
    assert!(
        html.contains("maxPriceArs=40.000.000&amp;sort=price_desc&amp;limit=5&amp;offset=5"),
        "paging keeps the budget as typed"
    );
    assert!(html.contains("value=\"40.000.000\""), "the field keeps it");
    // Every card is within the budget in pesos, dearest first.
    let pesos: Vec<f64> = api["data"]["vehicles"]
        .as_array()
        .expect("vehicles")
        .iter()
        .map(|summary| summary["priceArs"].as_f64().expect("priceArs"))
        .collect();
    assert!(pesos.iter().all(|price| *price <= 40_000_000.0));
    assert!(pesos.windows(2).all(|pair| pair[0] >= pair[1]));
}

#[tokio::test]
async fn a_refused_budget_stays_in_its_field_with_its_message() {
    for (query, field, label) in [
        ("maxPriceArs=-1000000", "maxPriceArs", "Precio máximo ($)"),
        ("maxPriceArs=60.000000", "maxPriceArs", "Precio máximo ($)"),
        ("minPriceUsd=-5", "minPriceUsd", "Precio mínimo (US$)"),
    ] {
        let page = get(&format!("/buscar?{query}")).await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST, "{query}");
        let html = text(&page);
        assert!(
            html.contains(&format!(
                "<li>{label}: debe ser un monto sin signo, escrito como 60.000.000 o 60000000</li>"
            )),
            "{html}"
        );
        assert!(html.contains(&format!("aria-describedby=\"error-{field} nota-precios\"")));
        assert!(html.contains(&format!(
            "<span class=\"field-error\" id=\"error-{field}\">"
        )));
    }
    // Reversed bounds typed in dollars are named by the dollar field.
    let page = get("/buscar?minPriceUsd=30000&maxPriceUsd=20000").await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert!(
        text(&page)
            .contains("<li>Precio máximo (US$): no puede ser menor que el precio mínimo</li>")
    );
}

#[tokio::test]
async fn an_unknown_id_is_named_while_the_known_versions_still_show() {
    let fragments = fragments();
    let known: Vec<String> = edge_vehicles()
        .iter()
        .take(2)
        .map(|v| v["id"].as_str().expect("id").to_owned())
        .collect();
    let encode = |id: &str| autoprecios::api::links::percent_encode(id);
    let path = format!(
        "/comparar?ids={},no-existe,{}",
        encode(&known[0]),
        encode(&known[1])
    );
    let page = get(&path).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND, "the API's status");
    let html = text(&page);
    assert!(html.contains(
        "<li>No hay ninguna versión publicada con el ID «no-existe».</li></ul><p>Estas son las que sí están.</p>"
    ));
    assert_eq!(html.matches("«no-existe»").count(), 1, "said once");
    let escape = autoprecios::html::escape;
    assert!(
        html.contains(&format!(
            "value=\"{}, no-existe, {}\"",
            escape(&known[0]),
            escape(&known[1])
        )),
        "the field keeps what was asked"
    );
    assert!(html.contains("compare-table compare-n2"));
    for id in &known {
        // Its heading links to its page (with the picks on) and removes it.
        assert!(html.contains(&format!(
            ">{}</a> <a class=\"remove\"",
            autoprecios::html::escape(&fragments.vehicles[id].name)
        )));
    }
    // The unknown ID comes back escaped.
    let hostile = get(&format!("/comparar?ids={},%3Cb%3Ex", encode(&known[0]))).await;
    let html = text(&hostile);
    assert!(html.contains("«&lt;b&gt;x»") && !html.contains("<b>x"));
    // One version alone: shown, with the API's reason.
    let alone = get(&format!("/comparar?ids={}", encode(&known[0]))).await;
    assert_eq!(alone.status, StatusCode::BAD_REQUEST);
    let html = text(&alone);
    assert!(
        html.contains("elegí de 2 a 4 versiones") && html.contains("elegí otra para compararla")
    );
    assert!(html.contains("compare-table compare-n1"));
}

#[tokio::test]
async fn a_search_page_with_a_kind_is_that_deal_list_with_its_filters() {
    for (kind, window, title) in [
        ("price_drops", "3d", "Bajas de precio de los últimos 3 días"),
        (
            "new_opportunities",
            "1d",
            "Nuevas oportunidades del último día",
        ),
        ("opportunities", "7d", "Oportunidades actuales"),
    ] {
        let query = format!("kind={kind}&window={window}");
        let api = get(&format!("/api/v1/deals?{query}")).await.json();
        // A form sends every field, empty ones too.
        let page = get(&format!("/buscar?{query}&make=&maxPriceArs=")).await;
        assert_eq!(page.status, StatusCode::OK);
        let html = text(&page);
        assert!(html.contains(&format!("{title}: ")), "{title}");
        let fragments = fragments();
        let mut at = 0;
        for id in ids(&api) {
            let card = shown_card(&fragments, &id, &query);
            let found = html[at..].find(card.as_str()).expect("each card, in order");
            at += found + card.len();
        }
    }
    let opportunities = get("/api/v1/deals?kind=opportunities").await.json();
    let first = &opportunities["data"]["vehicles"][0];
    let make = first["make"].as_str().expect("make");
    let filtered = get(&format!("/api/v1/deals?kind=opportunities&make={make}"))
        .await
        .json();
    let page = text(&get(&format!("/buscar?kind=opportunities&make={make}")).await);
    let total = filtered["data"]["pagination"]["total"]
        .as_u64()
        .expect("total");
    assert!(page.contains(&format!("Oportunidades actuales: {total} versi")));
}

/// A deal list's page keeps its list: its kind and period selected in the
/// form, the order shown the order applied, and an order only searches
/// have replaced by the list's own, in words.
#[tokio::test]
async fn a_deal_list_page_shows_its_kind_and_the_order_applied() {
    let deals = get("/api/v1/deals?kind=price_drops&window=7d").await.json();
    let page = get("/buscar?kind=price_drops&window=7d&sort=name").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = text(&page);
    assert!(html.contains("<option value=\"price_drops\" selected>"));
    assert!(html.contains("<option value=\"7d\" selected>"));
    assert!(html.contains("<option value=\"recommended\" selected>"));
    assert!(html.contains("El orden «Nombre» es sólo para todas las versiones"));
    let total = deals["data"]["pagination"]["total"]
        .as_u64()
        .expect("total");
    assert!(html.contains(&format!(
        "Bajas de precio de los últimos 7 días: {total} versi"
    )));
    // A search without an order says it lists the cheapest first.
    let search = text(&get("/buscar?make=Toyota").await);
    assert!(search.contains("<option value=\"price_asc\" selected>"));
}

/// The IDs of the cards a search page shows, in order.
fn card_ids(html: &str) -> Vec<String> {
    html.split("data-pick=\"")
        .skip(1)
        .map(|rest| {
            rest[..rest.find('"').expect("quoted")]
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

/// Words that find nothing are read another way on the site (a
/// misspelling by edit distance, a body type), while the API's `q` keeps
/// its contract and still finds nothing.
#[tokio::test]
async fn a_search_that_finds_nothing_is_read_another_way() {
    // A model name with two neighbouring letters swapped: one edit away.
    let (typed, model) = edge_vehicles()
        .iter()
        .filter_map(|v| {
            let model = autoprecios::api::text::fold(v["model"].as_str()?);
            let letters: Vec<char> = model.chars().collect();
            let ok = letters.len() >= 6
                && letters.iter().all(char::is_ascii_lowercase)
                && letters[2] != letters[3];
            ok.then(|| {
                let mut swapped = letters.clone();
                swapped.swap(2, 3);
                (swapped.into_iter().collect::<String>(), model)
            })
        })
        .find(|(typed, _)| {
            !edge_vehicles().iter().any(|v| {
                let text = format!("{} {} {}", v["make"], v["model"], v["trim"]);
                autoprecios::api::text::fold(&text).contains(typed.as_str())
            })
        })
        .expect("a model name to misspell");
    let api = get(&format!("/api/v1/vehicles?q={typed}")).await.json();
    assert_eq!(
        api["data"]["pagination"]["total"], 0,
        "the API's q is exact"
    );
    let html = text(&get(&format!("/buscar?q={typed}")).await);
    assert!(
        html.contains(&format!(
            "Ninguna versión coincide con «{typed}». ¿Quisiste decir <a href=\"/buscar?q={model}\">«{model}»</a>?"
        )),
        "{typed} -> {model}"
    );
    let meant = get(&format!("/api/v1/vehicles?q={model}&sort=price_ars_asc"))
        .await
        .json();
    assert_eq!(card_ids(&html), ids(&meant));
    assert!(
        html.contains(&format!("value=\"{typed}\"")),
        "the field keeps what was typed"
    );
    // A body type: "camioneta" is a pick-up or an SUV.
    let html = text(&get("/buscar?q=camioneta").await);
    let pickups = get("/api/v1/vehicles?type=Pickup&sort=price_ars_asc")
        .await
        .json();
    let suvs = get("/api/v1/vehicles?type=SUV&sort=price_ars_asc")
        .await
        .json();
    let shown = card_ids(&html);
    assert!(!shown.is_empty());
    assert!(shown == ids(&pickups) || shown == ids(&suvs), "{shown:?}");
    assert!(html.contains("¿Quisiste decir <a href=\"/buscar?type="));
    // Nothing to read: nothing suggested.
    let html = text(&get("/buscar?q=qqqqqq").await);
    assert!(
        html.contains("Ninguna versión cumple todos los filtros.") && !html.contains("Quisiste")
    );
}

/// "Seguir esta búsqueda": the Atom feed of a search page's query, linked
/// from the page and its head, one entry per matching version (its page as
/// its ID, so a newly matching version is a new entry) and one per price
/// drop of the week (a new drop, a new entry), as cacheable as any answer;
/// a query the page refuses is refused.
#[tokio::test]
async fn a_search_can_be_followed_as_a_feed() {
    let query = "sort=price_asc&maxPriceArs=200.000.000";
    let html = text(&get(&format!("/buscar?{query}&utm=x")).await);
    let feed_path = "/buscar/feed.xml?sort=price_asc&amp;maxPriceArs=200.000.000";
    assert!(html.contains(&format!(
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Seguir esta búsqueda\" href=\"{feed_path}\">\n</head>"
    )));
    assert!(html.contains(&format!("<a class=\"follow\" href=\"{feed_path}\"")));
    let feed = get(&format!("/buscar/feed.xml?{query}")).await;
    assert_eq!(feed.status, StatusCode::OK);
    assert!(
        feed.header("content-type")
            .starts_with("application/atom+xml")
    );
    assert!(!feed.header("etag").is_empty());
    let xml = text(&feed);
    let api = get("/api/v1/vehicles?maxPriceArs=200000000&limit=100")
        .await
        .json();
    let matching = ids(&api);
    assert!(!matching.is_empty());
    let page = |id: &str| {
        autoprecios::html::escape_xml(
            api["data"]["vehicles"]
                .as_array()
                .expect("vehicles")
                .iter()
                .find(|v| v["id"] == id)
                .expect("listed")["url"]
                .as_str()
                .expect("url"),
        )
    };
    for id in &matching {
        assert_eq!(
            xml.matches(&format!("<id>{}</id>", page(id))).count(),
            1,
            "{id}"
        );
    }
    let drops = api["data"]["vehicles"]
        .as_array()
        .expect("vehicles")
        .iter()
        .filter(|v| v["recentChanges"]["7d"]["kind"] == "price_drop")
        .count();
    assert_eq!(xml.matches("#baja-").count(), drops, "one entry per drop");
    assert_eq!(xml.matches("<entry>").count(), matching.len() + drops);
    assert!(!xml.contains("pick-add"), "no compare control in a feed");
    // The same bytes from the cache, and for the same query spelled with
    // blanks and tags.
    let again = get(&format!("/buscar/feed.xml?{query}&make=&utm=y")).await;
    assert!(again.body == feed.body);
    let refused = get("/buscar/feed.xml?maxPriceArs=-5").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
}

/// Comparison picks in any page's URL: the edge applies them to the static
/// page (the bar, the controls, the links), the same bytes each time; an
/// unknown ID is dropped and a page without picks is the file itself.
#[tokio::test]
async fn picks_travel_with_any_page() {
    let chosen: Vec<String> = edge_vehicles()
        .iter()
        .take(2)
        .map(|v| v["id"].as_str().expect("id").to_owned())
        .collect();
    let value = autoprecios::composed::picks::value(&chosen);
    let uri = format!("/modelos?comparar={value},no-existe");
    let page = get(&uri).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.header("etag").is_empty());
    let html = text(&page);
    let escaped = autoprecios::html::escape(&value);
    assert!(html.contains(&format!(
        "<a class=\"compare-go\" href=\"/comparar?ids={escaped}\">Comparar (2)</a>"
    )));
    assert!(html.contains(&format!("<a href=\"/buscar?comparar={escaped}\">")));
    assert!(!html.contains("no-existe"));
    assert!(get(&uri).await.body == page.body, "the same page again");
    let plain = get("/modelos").await;
    assert!(plain.body == fs::read(fixture().public.join("modelos/index.html")).expect("file"));
}
