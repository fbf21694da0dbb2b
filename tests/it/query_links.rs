//! Queries are written, never edited as text: no code under `src/` spells a
//! query string itself (the parameter table and the one query writer do),
//! every API address a generated page shows parses back to the typed query
//! it was written from, and every link a query page builds reads back to
//! the query the page was sent, whatever rules the page applied on the way
//! (a budget typed in dollars or pesos, a deal list's kind, an order
//! replaced, blank fields and tracking parameters).

use std::fs;
use std::path::Path;

use autoprecios::api::params::{TypedQuery, parse_compare, parse_deals, parse_model, parse_search};
use autoprecios::composed::{PageQuery, compared_ids, picks};
use axum::http::StatusCode;

use crate::harness::{BASE, edge_vehicles, fixture, get};

/// `(line, text)` of every string literal under `src/` that writes a query
/// pair (`?name=`, `&name=`, `&amp;name=`), test modules left out.
fn query_literals(root: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for path in crate::harness::files_under(root) {
        if path.extension().is_none_or(|ext| ext != "rs")
            || path.file_name().is_some_and(|name| name == "tests.rs")
        {
            continue;
        }
        let text = fs::read_to_string(&path).expect("read module");
        // Unit tests spell queries on purpose: they come last in a file.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        for (at, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            for literal in line.split('"').skip(1).step_by(2) {
                if writes_a_pair(literal) {
                    found.push((format!("{}:{}", path.display(), at + 1), literal.to_owned()));
                }
            }
        }
    }
    found.sort();
    found
}

/// Whether `text` holds `?` or `&` (or `&amp;`), a name, then `=`.
fn writes_a_pair(text: &str) -> bool {
    let text = text.replace("&amp;", "&");
    text.match_indices(['?', '&']).any(|(at, _)| {
        let rest = &text[at + 1..];
        let name = rest
            .bytes()
            .take_while(|byte| byte.is_ascii_alphanumeric() || *byte == b'_')
            .count();
        name > 0 && rest[name..].starts_with('=')
    })
}

#[test]
fn no_code_writes_a_query_string_by_hand() {
    assert!(writes_a_pair("/buscar?kind={}&window={}"));
    assert!(writes_a_pair("{address}&amp;comparar={value}"));
    assert!(!writes_a_pair("{path}?{query}"));
    assert!(!writes_a_pair("a ? b = c"));
    // The scan finds a planted one, and not the same in a test module.
    let planted = tempfile::tempdir().expect("tempdir");
    let code = "fn link(k: &str) -> String {\n    format!(\"/buscar?kind={k}\")\n}\n\
        #[cfg(test)]\nmod tests {\n    const Q: &str = \"a=1&b=2\";\n}\n";
    fs::write(planted.path().join("planted.rs"), code).expect("plant");
    assert_eq!(query_literals(planted.path()).len(), 1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = query_literals(&root);
    assert!(
        found.is_empty(),
        "query strings written by hand (write them from a typed query or a \
         PageQuery): {found:#?}"
    );
}

/// Every `href` of `html`, its `&amp;` unescaped (the only escape a
/// written query needs), without its fragment.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.split('#').next().unwrap_or(href).replace("&amp;", "&"))
        .collect()
}

/// Every HTML page of the fixture's tree, with its path.
fn pages() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "html") {
                let text = fs::read_to_string(&path).expect("page");
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut pages = Vec::new();
    walk(&fixture().public, &mut pages);
    pages
}

/// The query `parse` reads from `query`, written back plainly or with its
/// choices spelt out, is `query` again.
fn reads_back<Q: TypedQuery>(
    query: &str,
    parse: impl Fn(&str) -> Result<Q, autoprecios::api::ApiError>,
) -> bool {
    parse(query).is_ok_and(|typed| typed.to_query() == query || typed.to_spelt_out_query() == query)
}

#[test]
fn every_api_address_a_page_shows_parses_back_to_its_query() {
    let mut seen = std::collections::BTreeSet::new();
    for (page, html) in pages() {
        for href in hrefs(&html) {
            let Some((path, query)) = href.split_once('?') else {
                continue;
            };
            let path = path.strip_prefix(BASE).unwrap_or(path);
            let read = match path {
                "/api/v1/vehicles" => reads_back(query, parse_search),
                "/api/v1/deals" => reads_back(query, parse_deals),
                "/api/v1/models/prices" => reads_back(query, parse_model),
                "/api/v1/compare" => reads_back(query, parse_compare),
                "/buscar" | "/buscar/feed.xml" => PageQuery::read(query).to_query() == query,
                _ => continue,
            };
            assert!(read, "{page}: {href}");
            seen.insert(path.to_owned());
        }
    }
    for path in [
        "/api/v1/deals",
        "/api/v1/models/prices",
        "/buscar",
        "/buscar/feed.xml",
    ] {
        assert!(seen.contains(path), "some page links {path} with a query");
    }
}

/// The `/buscar` and feed links of a page, as their queries.
fn search_links(html: &str) -> Vec<String> {
    hrefs(html)
        .into_iter()
        .filter_map(|href| {
            let (path, query) = href.split_once('?')?;
            ["/buscar", "/buscar/feed.xml"]
                .contains(&path)
                .then(|| query.to_owned())
        })
        .collect()
}

#[tokio::test]
async fn every_link_a_search_page_builds_reads_back_to_what_was_sent() {
    for sent in [
        // A budget typed in dollars goes to the API in pesos; its links
        // keep it in dollars, as typed.
        "maxPriceUsd=1.000.000&limit=2",
        "maxPriceArs=9.000.000.000&minPriceUsd=0&sort=price_desc&limit=2",
        "kind=opportunities&maxPriceUsd=900.000&limit=2",
        "kind=price_drops&window=7d&sort=name&limit=2",
        "q=%C3%A1&limit=2",
        "q=a&make=&utm_source=boletin&sort=name&limit=2",
    ] {
        let page = get(&format!("/buscar?{sent}&offset=0")).await;
        assert_eq!(page.status, StatusCode::OK, "{sent}");
        let html = String::from_utf8(page.body.clone()).expect("UTF-8");
        let links = search_links(&html);
        assert!(!links.is_empty(), "{sent}: links");
        let asked = PageQuery::read(sent);
        for link in links {
            let read = PageQuery::read(&link);
            assert_eq!(read.clone().without("offset"), asked, "{sent}: {link}");
            let written = read.with_picks(&picks::read(&link)).to_query();
            assert_eq!(written, link, "{sent}: written once");
        }
    }
}

#[tokio::test]
async fn the_next_page_of_a_dollar_budget_keeps_it_in_dollars() {
    // The bug class this guards against: a page that edits the query it
    // asked the API with, so "Siguientes" on a budget typed in dollars
    // carried the peso bound the page had converted it to.
    let page = get("/buscar?maxPriceUsd=1.000.000&limit=2").await;
    let html = String::from_utf8(page.body.clone()).expect("UTF-8");
    assert!(
        html.contains(
            "<a href=\"/buscar?maxPriceUsd=1.000.000&amp;limit=2&amp;offset=2\">Siguientes →</a>"
        ),
        "{}",
        search_links(&html).join("\n")
    );
    assert!(!html.contains("maxPriceArs="), "no peso bound leaks");
}

#[tokio::test]
async fn every_link_a_compare_page_builds_names_ids_it_was_sent() {
    let ids: Vec<String> = edge_vehicles()
        .iter()
        .take(3)
        .map(|v| v["id"].as_str().expect("id").to_owned())
        .collect();
    let sent = autoprecios::api::params::typed::compare_page(&ids);
    let page = get(&sent).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = String::from_utf8(page.body.clone()).expect("UTF-8");
    let mut removals = 0;
    for href in hrefs(&html) {
        let Some(query) = href.strip_prefix("/comparar?") else {
            continue;
        };
        let named = compared_ids(query);
        assert!(named.iter().all(|id| ids.contains(id)), "{href}");
        assert_eq!(
            autoprecios::api::params::typed::compare_page(&named),
            href,
            "written once"
        );
        removals += usize::from(named.len() == ids.len() - 1);
    }
    assert_eq!(removals, ids.len(), "one removal link per version");
    // Picks carried to another page read back as the IDs picked (the
    // controls, which add or remove one, aside).
    let picked = get(&format!("/modelos?comparar={}", picks::value(&ids[..2]))).await;
    let html = String::from_utf8(picked.body.clone()).expect("UTF-8");
    let mut carried = 0;
    for segment in html.split("<a ").skip(1) {
        if segment.starts_with("class=\"pick-add") {
            continue;
        }
        for href in hrefs(&format!(" {segment}")).iter().take(1) {
            let Some((_, query)) = href.split_once('?') else {
                continue;
            };
            if query.contains("comparar=") {
                assert_eq!(picks::read(query), ids[..2], "{href}");
                carried += 1;
            }
        }
    }
    assert!(carried > 0, "links carry the picks");
}
