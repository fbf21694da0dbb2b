//! The generated `_redirects` routes as intended: a small first-match matcher
//! (exact paths and a trailing splat, `!` forcing over existing files, a
//! query condition `name=:value` matching when the query has `name`, and
//! passing the query on as sent to a target without one) run
//! over a table of URLs against the fixture tree.

use std::fs;

use autoprecios::api::links::percent_encode;

use crate::harness::{EDGE, fixture};

struct Rule {
    from: String,
    /// The query parameter the rule needs, if any.
    query: Option<String>,
    to: String,
    status: String,
}

fn rules() -> Vec<Rule> {
    let text = fs::read_to_string(fixture().public.join("_redirects")).expect("_redirects");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut parts: Vec<&str> = line.split_whitespace().collect();
            let query = match parts.as_slice() {
                [_, condition, _, _] => {
                    let (name, value) = condition.split_once('=').expect("name=:value");
                    assert_eq!(value, format!(":{name}"), "{line}");
                    Some(parts.remove(1).split('=').next().expect("name").to_owned())
                }
                _ => None,
            };
            assert_eq!(parts.len(), 3, "{line}");
            Rule {
                from: parts[0].into(),
                query,
                to: parts[1].into(),
                status: parts[2].into(),
            }
        })
        .collect()
}

/// Where a path ends up: `(status, target)`; a plain file when no rule applies.
fn route(path: &str) -> (String, String) {
    route_query(path, "")
}

/// Where a path with a query ends up: the query's `name=value` fill a
/// rule's `:name` placeholders.
fn route_query(path: &str, query: &str) -> (String, String) {
    let value = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
    };
    // As on the CDN, a directory's `index.html` is the file of its path.
    let file = fixture().public.join(path.trim_start_matches('/'));
    let file_exists = file.is_file() || file.join("index.html").is_file();
    for rule in rules() {
        let splat = match rule.from.strip_suffix('*') {
            Some(prefix) => path.strip_prefix(prefix),
            None => (path == rule.from).then_some(""),
        };
        let Some(splat) = splat else { continue };
        let mut to = rule.to.replace(":splat", splat);
        if let Some(name) = &rule.query {
            let Some(value) = value(name) else { continue };
            to = to.replace(&format!(":{name}"), value);
            // A target without a query of its own gets the request's, as sent.
            if !to.contains('?') {
                to = format!("{to}?{query}");
            }
        }
        if file_exists && !rule.status.ends_with('!') {
            break;
        }
        return (rule.status.trim_end_matches('!').to_owned(), to);
    }
    ("200".into(), path.into())
}

#[test]
fn api_urls_route_to_files_the_edge_or_the_json_404() {
    let edge = |path: &str| ("200".to_owned(), format!("{EDGE}{path}"));
    let file = |path: &str| ("200".to_owned(), path.to_owned());
    assert_eq!(route("/api/v1"), file("/api/v1/index.json"));
    assert_eq!(route("/api/v1/catalogue"), file("/api/v1/catalogue.json"));
    assert_eq!(route("/api/v1/vehicles"), edge("/api/v1/vehicles"));
    assert_eq!(route("/api/v1/deals"), edge("/api/v1/deals"));
    assert_eq!(
        route("/api/v1/models/prices"),
        edge("/api/v1/models/prices")
    );
    assert_eq!(route("/api/v1/compare"), edge("/api/v1/compare"));
    assert_eq!(route("/mcp"), edge("/mcp"));
    assert_eq!(route("/buscar"), edge("/buscar"));
    assert_eq!(route("/comparar"), edge("/comparar"));
    // A page carrying comparison picks is the edge's, with the picks.
    assert_eq!(
        route_query("/modelos/ford/ranger", "comparar=a%2Cb,c"),
        edge("/modelos/ford/ranger?comparar=a%2Cb,c")
    );
    assert_eq!(route_query("/modelos", "utm=x").1, "/modelos");
    assert_eq!(
        route("/api/v1/vehicles/Some%2FOdd%20ID"),
        edge("/api/v1/vehicles/Some%2FOdd%20ID")
    );
    assert_eq!(
        route("/api/v2/anything"),
        ("404".to_owned(), "/api/404.json".to_owned())
    );
    // The edge's files and the manifest are beside the public directory,
    // not in it.
    for path in ["/_edge/catalogue.msgpack", "/manifest.json"] {
        assert!(!fixture().public.join(&path[1..]).exists(), "{path}");
    }
    let not_found = ("404".to_owned(), "/api/404.json".to_owned());
    for path in [
        "/api/v1/index.json",
        "/api/v1/catalogue.json",
        "/api/404.json",
    ] {
        assert!(fixture().public.join(&path[1..]).is_file(), "{path} exists");
        assert_eq!(route(path), not_found, "a file name is not an API URL");
    }
    assert_eq!(route("/developers.md"), file("/developers.md"));
    // A version page that exists is its file; any other version address
    // asks the edge, which moves old addresses to their page ids.
    let hilux = "/versiones/toyota-hilux-28-tdi-srv-4x4-at";
    assert_eq!(route(hilux), file(hilux));
    assert_eq!(
        route(&format!("{hilux}/feed.xml")),
        file(&format!("{hilux}/feed.xml"))
    );
    let old = "/versiones/~50eugeot-208-16-~41llure-~41~54";
    assert_eq!(route(old), edge(old));
    // The same feed with a price bound is the edge's alerts, in either
    // currency; another query is the file.
    let feed = format!("{hilux}/feed.xml");
    for query in ["hasta=62000000", "hastaUsd=45000", "utm=x&hasta=1"] {
        assert_eq!(
            route_query(&feed, query),
            edge(&format!("{feed}?{query}")),
            "{query}"
        );
    }
    assert_eq!(route_query(&feed, "utm=x"), file(&feed));
}

#[test]
fn every_rewrite_lands_on_a_file_and_every_detail_asks_the_edge() {
    let out = &fixture().public;
    for rule in rules()
        .iter()
        .filter(|rule| rule.to.starts_with('/'))
        .filter(|rule| rule.status == "200" || rule.status.trim_end_matches('!') == "404")
    {
        assert!(
            out.join(rule.to.trim_start_matches('/')).is_file(),
            "{} -> {}",
            rule.from,
            rule.to
        );
    }
    // A detail carries the envelope's `snapshotAt`: as a file it would be
    // uploaded again at every catalogue check, so there is none, and every
    // ID (a plain one, a case twin, one a CDN path cannot carry) is proxied.
    assert!(!out.join("api/v1/vehicles").exists(), "no detail files");
    let ids: Vec<&str> = crate::harness::edge_vehicles()
        .iter()
        .filter_map(|v| v["id"].as_str())
        .collect();
    assert!(ids.len() > 30, "the fixture's catalogue");
    let edge = |path: &str| ("200".to_owned(), format!("{EDGE}{path}"));
    for id in ids {
        let url = format!("/api/v1/vehicles/{}", percent_encode(id));
        assert_eq!(route(&url), edge(&url), "{id}");
    }
}

/// The routing is the same few rules at any catalogue size: a tree of
/// another size has the same `_redirects`, byte for byte.
#[test]
fn the_rules_do_not_grow_with_the_catalogue() {
    use autoprecios::sample::{SampleOptions, generate_sample};
    let other = crate::harness::Fixture::generated(&generate_sample(&SampleOptions {
        versions: 120,
        days: 200,
        ..SampleOptions::default()
    }));
    assert_ne!(other.manifest.files.len(), fixture().manifest.files.len());
    let redirects = |root: &std::path::Path| fs::read(root.join("_redirects")).expect("_redirects");
    assert_eq!(redirects(&other.public), redirects(&fixture().public));
    assert!(rules().len() <= 50, "{} rules", rules().len());
}
