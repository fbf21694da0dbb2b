//! The website end to end: one version page pinned with insta, every internal
//! link of every page resolving inside the tree, the es-AR formats, the
//! structured data, and catalogue text that tries to inject markup coming
//! out escaped on every page and feed that shows it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use autoprecios::output::Manifest;
use autoprecios::sample::{SampleOptions, generate_sample};
use autoprecios::snapshot::TableFormat;

use crate::harness::{BASE, Case, fixture};

/// Every file under `root`, relative and `/`-separated.
fn files_under(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(root, &mut paths);
    let mut files: Vec<String> = paths
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    files.sort();
    files
}

/// Hashed asset names vary with every stylesheet edit; the snapshot pins the page.
fn without_asset_hashes(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("/assets/") {
        let (before, after) = rest.split_at(at + "/assets/".len());
        out.push_str(before);
        let name_end = after.find('.').map_or(0, |i| i + 1);
        let hash = &after[name_end..];
        if hash.len() > 8 && hash.as_bytes()[..8].iter().all(u8::is_ascii_hexdigit) {
            out.push_str(&after[..name_end]);
            out.push_str("HASH");
            rest = &hash[8..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn a_version_page_is_pinned() {
    let fixture = fixture();
    let html = fs::read_to_string(
        fixture
            .public
            .join("versiones/bmw-x1-sdrive20i-xline-steptronic/index.html"),
    )
    .expect("the version page");
    insta::assert_snapshot!("version_page", without_asset_hashes(&html));
}

/// Decodes the character references the templates produce.
fn decode_entities(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(';').unwrap_or(0);
        let entity = &tail[1..end.max(1)];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) if end > 0 => {
                out.push(c);
                rest = &tail[end + 1..];
            }
            _ => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every `href` and `src` attribute value of a page.
fn link_targets(html: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for attribute in [" href=\"", " src=\""] {
        let mut rest = html;
        while let Some(at) = rest.find(attribute) {
            rest = &rest[at + attribute.len()..];
            let end = rest.find('"').expect("closed attribute");
            targets.push(decode_entities(&rest[..end]));
            rest = &rest[end..];
        }
    }
    targets
}

/// Routes the edge answers with any query string.
const API_ROUTES: [&str; 7] = [
    autoprecios::composed::follow::FEED_PATH,
    "/api/v1",
    "/api/v1/deals",
    "/api/v1/models/prices",
    "/api/v1/vehicles",
    "/api/v1/compare",
    "/api/v1/catalogue",
];

/// Whether a site-relative target resolves in the tree.
fn resolves(target: &str, manifest: &Manifest, files: &BTreeSet<String>) -> bool {
    let target = target.split('#').next().unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let listed = |url: &str| manifest.files.iter().any(|e| e.url == url);
    if !query.is_empty() && (listed(target) || API_ROUTES.contains(&path)) {
        return true;
    }
    // A detail the CDN has no file for is the edge's (`render::cdn`).
    if let Some(id) = path.strip_prefix("/api/v1/vehicles/")
        && let Some(id) = autoprecios::api::text::percent_decode(id)
    {
        return crate::harness::edge_vehicles()
            .iter()
            .any(|vehicle| vehicle["id"] == id.as_str());
    }
    let relative = path.trim_start_matches('/');
    let directory = relative.trim_end_matches('/');
    let index = if directory.is_empty() {
        "index.html".to_owned()
    } else {
        format!("{directory}/index.html")
    };
    listed(path) || files.contains(relative) || files.contains(&index)
}

#[test]
fn every_internal_link_of_every_page_resolves() {
    let fixture = fixture();
    let files: BTreeSet<String> = files_under(&fixture.public).into_iter().collect();
    let pages: Vec<&String> = files.iter().filter(|f| f.ends_with(".html")).collect();
    assert!(pages.len() > 40, "{} pages", pages.len());
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages {
        let html = fs::read_to_string(fixture.public.join(page)).expect("read page");
        for target in link_targets(&html) {
            let local = match target.strip_prefix(BASE) {
                Some("") => "/".to_owned(),
                Some(rest) if rest.starts_with('/') => rest.to_owned(),
                _ => target.clone(),
            };
            // `?comparar=ID#...`: the page itself with a comparison pick.
            let picks = local.starts_with("?comparar=");
            if picks || local.starts_with('#') || (local.contains("://") && !local.starts_with('/'))
            {
                continue;
            }
            assert!(local.starts_with('/'), "{page}: relative link {target}");
            checked += 1;
            if !resolves(&local, &fixture.manifest, &files) {
                broken.push(format!("{page}: {target}"));
            }
        }
    }
    assert!(checked > 1000, "only {checked} links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn pages_feeds_and_crawler_files_are_listed_in_the_manifest() {
    let manifest = &fixture().manifest;
    let url_of = |url: &str| {
        manifest
            .files
            .iter()
            .find(|e| e.url == url)
            .unwrap_or_else(|| panic!("{url} not in the manifest"))
    };
    for url in [
        "/",
        "/modelos",
        "/buscar",
        "/comparar",
        "/404.html",
        "/sitemap.xml",
        "/robots.txt",
        "/feeds/ofertas.xml",
        "/versiones/bmw-x1-sdrive20i-xline-steptronic",
        "/versiones/bmw-x1-sdrive20i-xline-steptronic/feed.xml",
        "/versiones/peugeot-208-16-allure-at~u0.15.22.23",
        "/modelos/bmw/x1",
        "/modelos/bmw",
    ] {
        url_of(url);
    }
    assert!(url_of("/").content_type.starts_with("text/html"));
    assert!(
        url_of("/feeds/ofertas.xml")
            .content_type
            .starts_with("application/atom+xml")
    );
    let assets: Vec<&str> = manifest
        .files
        .iter()
        .map(|e| e.url.as_str())
        .filter(|u| u.starts_with("/assets/"))
        .collect();
    // Each file of `assets/` once, under its content-hashed name, and the
    // mark drawn as a PNG.
    let mut sources: Vec<String> = fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"))
        .expect("assets/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .chain(["favicon.png".to_owned()])
        .collect();
    sources.sort();
    let mut published: Vec<String> = assets
        .iter()
        .map(|url| {
            let name = url.trim_start_matches("/assets/");
            let (stem, rest) = name.split_once('.').expect("name.hash.ext");
            let (hash, ext) = rest.split_once('.').expect("hash.ext");
            assert!(
                hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
                "{url}"
            );
            format!("{stem}.{ext}")
        })
        .collect();
    published.sort();
    assert_eq!(published, sources, "{assets:?}");
    let robots = fs::read_to_string(fixture().public.join("robots.txt")).expect("robots");
    assert!(robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")));
    let sitemap = fs::read_to_string(fixture().public.join("sitemap.xml")).expect("sitemap");
    assert!(sitemap.contains(&format!(
        "<loc>{BASE}/versiones/bmw-x1-sdrive20i-xline-steptronic</loc>"
    )));
    assert!(!sitemap.contains("404"));
}

#[test]
fn real_prices_are_offers_and_the_named_dollar_is_said() {
    let mut snapshot = generate_sample(&SampleOptions {
        versions: 1,
        days: 220,
        ..SampleOptions::default()
    });
    snapshot.meta.synthetic = false;
    snapshot.meta.exchange_rate_source = Some("Banco Nación, vendedor".into());
    let real = crate::harness::Fixture::generated(&snapshot);
    let html = fs::read_to_string(
        real.public
            .join("versiones/toyota-hilux-28-tdi-srv-4x4-at/index.html"),
    )
    .expect("page");
    let product = json_ld(&html);
    assert_eq!(product["offers"]["@type"], "Offer");
    assert_eq!(
        product["offers"]["availability"],
        "https://schema.org/InStock"
    );
    assert_eq!(product["offers"]["priceCurrency"], "ARS");
    assert!(product["offers"]["price"].is_number());
    assert!(!html.contains("Datos de ejemplo"));
    // The dollar is named by `/dolar` and `/dolar.json`, which the page's
    // script reads; the page itself names no rate.
    assert!(!html.contains("por dólar"));
    assert!(html.contains("<a href=\"/dolar\">dólar de referencia</a>"));
    let named = fs::read_to_string(real.public.join("dolar/index.html")).expect("/dolar");
    assert!(named.contains("del 21/11/2026 (Banco Nación, vendedor)."));
    let file: serde_json::Value =
        serde_json::from_slice(&fs::read(real.public.join("dolar.json")).expect("/dolar.json"))
            .expect("JSON");
    assert_eq!(file["source"], "Banco Nación, vendedor");
    assert!(
        file["line"]
            .as_str()
            .is_some_and(|line| line.contains("(Banco Nación, vendedor)."))
    );
}

/// The JSON-LD of a page.
fn json_ld(html: &str) -> serde_json::Value {
    let start = html
        .find("<script type=\"application/ld+json\">")
        .expect("JSON-LD")
        + "<script type=\"application/ld+json\">".len();
    let end = start + html[start..].find("</script>").expect("closed");
    serde_json::from_str(&html[start..end]).expect("valid JSON")
}

#[test]
fn version_pages_of_invented_prices_carry_no_offer_and_a_labelled_chart() {
    let fixture = fixture();
    let html = fs::read_to_string(
        fixture
            .public
            .join("versiones/toyota-hilux-28-tdi-srv-4x4-at/index.html"),
    )
    .expect("page");
    let product = json_ld(&html);
    assert_eq!(product["@type"], "Product");
    assert!(
        product.get("offers").is_none(),
        "synthetic prices are no offers"
    );
    assert!(html.contains("<p class=\"synthetic-notice\"><strong>Datos de ejemplo:</strong>"));
    assert!(html.contains(
        "<meta property=\"og:description\" content=\"Datos de ejemplo (precios inventados). "
    ));
    for size in ["wide", "narrow"] {
        assert!(html.contains(&format!("<svg class=\"chart chart-{size}\"")));
        assert!(
            html.contains(&format!("<title id=\"grafico-titulo-{size}\">"))
                && html.contains(&format!("<desc id=\"grafico-desc-{size}\">"))
        );
    }
    // Quoted in pesos: the chart is in pesos, with the usual price and the low marked.
    assert!(html.contains("Historial de precios de los últimos 180 días, en pesos"));
    assert!(html.contains("<line class=\"typical\"") && html.contains("<line class=\"lowest\""));
    assert!(
        html.contains("Precio habitual en pesos: $ ") && html.contains("Más bajo en 180 días: $ ")
    );
    assert!(html.contains("Bajó su precio en el catálogo del sitio"));
    assert!(
        html.contains("Últimos 1, 3 y 7 días"),
        "a drop in 1d is said once"
    );
    assert!(html.contains("<link rel=\"canonical\" href=\"https://autoprecios.example/versiones/toyota-hilux-28-tdi-srv-4x4-at\">"));
    assert!(html.contains("<meta property=\"og:title\""));
}

const SCRIPT: &str = "<script>alert(1)</script>";
const MARKUP: &str = "\"quotes\" & <b>";

#[test]
fn catalogue_text_is_escaped_on_every_page_and_feed() {
    let mut snapshot = generate_sample(&SampleOptions {
        versions: 1,
        days: 220,
        ..SampleOptions::default()
    });
    let target = "volkswagen-taos-14-tsi-highline-tiptronic";
    let version = snapshot
        .versions
        .iter_mut()
        .find(|v| v.id == target)
        .expect("the opportunity case");
    version.identity.trim = SCRIPT.to_owned();
    version.identity.trim_display = Some(SCRIPT.to_owned());
    version.identity.make = MARKUP.to_owned();
    version.identity.model = MARKUP.to_owned();
    let case = Case::new("site", "escaped").with_snapshot(&snapshot, TableFormat::Csv);
    case.generate(|_| {}).expect("generate");
    let out = case.out().join("public");

    let escaped_script = "&lt;script&gt;alert(1)&lt;/script&gt;";
    let escaped_markup = "&quot;quotes&quot; &amp; &lt;b&gt;";
    let mut showing = Vec::new();
    for file in files_under(&out) {
        if !(file.ends_with(".html") || file.ends_with(".xml")) {
            continue;
        }
        let text = fs::read_to_string(out.join(&file)).expect("read");
        assert!(!text.contains(SCRIPT), "{file} holds the raw script");
        assert!(!text.contains(MARKUP), "{file} holds the raw markup");
        assert!(!text.contains("<b>"), "{file} holds a raw <b>");
        if text.contains(&format!("/versiones/{target}\"")) || file.contains(target) {
            assert!(
                text.contains(escaped_script),
                "{file} lacks the escaped trim"
            );
            showing.push(file);
        }
    }
    let page = format!("versiones/{target}/index.html");
    assert!(showing.contains(&page), "{showing:?}");
    let model_page = "modelos/quotes-b/quotes-b/index.html";
    let make_page = "modelos/quotes-b/index.html";
    for file in [&page, model_page, make_page] {
        let text = fs::read_to_string(out.join(file)).expect(file);
        assert!(
            text.contains(escaped_markup),
            "{file} lacks the escaped make and model"
        );
    }
    let model = fs::read_to_string(out.join(model_page)).expect("model page");
    assert!(
        model.contains(escaped_script),
        "the model page lists the escaped trim"
    );
    let home = fs::read_to_string(out.join("index.html")).expect("home");
    if home.contains(&format!("/versiones/{target}\"")) {
        assert!(home.contains(escaped_script) && home.contains(escaped_markup));
    }
    let feed = fs::read_to_string(out.join(format!("versiones/{target}/feed.xml"))).expect("feed");
    assert!(feed.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let page = fs::read_to_string(out.join(&page)).expect("page");
    assert!(
        page.contains("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"),
        "JSON-LD escapes <"
    );
}

/// The version page paths of the cards on a list page, in order.
fn card_paths(html: &str) -> Vec<String> {
    html.split("<h3 class=\"card-title\"><a href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().expect("href").to_owned())
        .collect()
}

/// Each deal list page shows exactly the API's list, in its order, and the
/// home page links to it instead of to a search that needs JavaScript.
#[tokio::test]
async fn the_deal_pages_list_what_the_api_lists_and_need_no_script() {
    let out = &fixture().public;
    for (path, kind) in [
        ("ofertas", "opportunities"),
        ("ofertas/bajas", "price_drops"),
        ("ofertas/nuevas", "new_opportunities"),
    ] {
        let html = fs::read_to_string(out.join(path).join("index.html")).expect(path);
        let api = crate::harness::get(&format!(
            "/api/v1/deals?kind={kind}&window=7d&sort=recommended&limit=100"
        ))
        .await
        .json();
        let mut vehicles: Vec<&serde_json::Value> = api["data"]["vehicles"]
            .as_array()
            .expect("vehicles")
            .iter()
            .collect();
        // The site lists a drop back to a price of the 30 days before after
        // the cuts, otherwise in the API's order.
        vehicles.sort_by_key(|v| v["recentChanges"]["7d"]["returnsToEarlierPrice"] == true);
        let expected: Vec<String> = vehicles
            .iter()
            .map(|v| v["url"].as_str().expect("url").replace(BASE, ""))
            .collect();
        assert!(!expected.is_empty(), "the fixture has {kind}");
        assert_eq!(card_paths(&html), expected, "{path}");
        // The list is in the page itself: the script only adds conveniences.
        assert!(
            html.contains(&format!("{} versi", expected.len())),
            "{path}"
        );
    }
    let home = fs::read_to_string(out.join("index.html")).expect("home");
    assert!(
        !home.contains("href=\"/buscar?"),
        "home lists lead to pages"
    );
    assert!(
        home.contains("id=\"nuevas\""),
        "home shows new opportunities"
    );
}

/// A model page's lead counts its opportunities as opportunities, and says a
/// price or a date once when both ends of its range are the same.
#[test]
fn model_page_leads_count_opportunities_and_repeat_nothing() {
    let out = &fixture().public;
    let pages: Vec<String> = files_under(&out.join("modelos"))
        .into_iter()
        .filter(|file| file.matches('/').count() == 2 && file.ends_with("/index.html"))
        .collect();
    let mut single = 0;
    for page in &pages {
        let html = fs::read_to_string(out.join("modelos").join(page)).expect(page);
        let start = html.find("<p class=\"lead\">").expect("a lead");
        let lead = &html[start..start + html[start..].find("</p>").expect("lead end")];
        let prices: Vec<&str> = lead
            .split("<strong>")
            .skip(1)
            .map(|rest| rest.split("</strong>").next().expect("price"))
            .collect();
        assert!(
            prices.len() == 1 || prices.len() == 2 && prices[0] != prices[1],
            "{page}: {lead}"
        );
        single += usize::from(lead.contains("1 versión a <strong>"));
        if let Some(range) = lead.split("entre el ").nth(1) {
            let (from, to) = range.split_once(" y el ").expect("a date range");
            assert_ne!(from, to.trim_end_matches('.'), "{page}: {lead}");
        }
        let opportunities = html.matches("<tr class=\"is-opportunity\">").count();
        let counted = match opportunities {
            0 => !lead.contains("oportunidad"),
            1 => lead.contains(", 1 oportunidad."),
            n => lead.contains(&format!(", {n} oportunidades.")),
        };
        assert!(counted, "{page}: {opportunities} opportunities, {lead}");
        assert!(!lead.contains("por debajo"), "{page}: {lead}");
    }
    assert!(single > 0, "the fixture has a model with one version");
}

#[test]
fn the_docs_show_the_origin_the_tree_was_generated_for() {
    let out = &crate::harness::fixture().public;
    for file in ["developers/index.html", "developers.md"] {
        let text = std::fs::read_to_string(out.join(file)).expect(file);
        assert!(!text.contains("http://127.0.0.1:8080"), "{file}");
        assert!(
            text.contains("curl -s 'https://autoprecios.example/api/v1'"),
            "{file}"
        );
    }
}

#[test]
fn every_version_page_path_names_its_version_and_no_two_fold_alike() {
    let out = &fixture().public;
    let mut folded = BTreeSet::new();
    let mut pages = 0;
    for entry in fs::read_dir(out.join("versiones")).expect("versiones") {
        let name = entry
            .expect("entry")
            .file_name()
            .into_string()
            .expect("UTF-8");
        assert!(!name.bytes().any(|b| b.is_ascii_uppercase()), "{name}");
        assert!(
            folded.insert(name.to_lowercase()),
            "{name} folds like another"
        );
        let id = autoprecios::api::page_id::decode_page_path(&name)
            .unwrap_or_else(|| panic!("{name} names no ID"));
        let record = crate::harness::edge_vehicles()
            .iter()
            .find(|vehicle| vehicle["id"] == id.as_str())
            .expect("the version's API record");
        assert_eq!(
            record["url"],
            format!("{BASE}/versiones/{name}").as_str(),
            "the Summary's url is this page"
        );
        pages += 1;
    }
    assert!(
        pages > 30,
        "a premise: the fixture has version pages ({pages})"
    );
    assert!(
        folded.contains("peugeot-208-16-allure-at~u0.15.22.23"),
        "a premise: an ID with capitals"
    );
}

/// The order of a page's rivals, written here from its definition:
/// SplitMix64's finalizer of the own ID's FNV-1a (64-bit) XOR the rival's
/// times the 64-bit golden ratio.
fn pair_order(own: &str, rival: &str) -> u64 {
    let fnv = |id: &str| {
        id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let z = fnv(own) ^ fnv(rival).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// "Con la misma plata" on every version page: up to three versions of
/// other models with the same body type, within 5 % of its price in pesos
/// (inclusive), one per model, in the order fixed by the pair of IDs, with
/// no price of their own and a link comparing the four; every version that
/// has such a rival shows the section.
#[test]
fn version_pages_show_rivals_at_the_same_money() {
    let vehicles = crate::harness::edge_vehicles();
    let pesos = |v: &serde_json::Value| v["priceArs"].as_f64();
    let mut shown = 0;
    for vehicle in vehicles {
        let url = vehicle["url"].as_str().expect("url");
        let path = url.strip_prefix(BASE).expect("own page");
        let html = fs::read_to_string(fixture().public.join(&path[1..]).join("index.html"))
            .expect("version page");
        let (Some(own), Some(body)) = (pesos(vehicle), vehicle["type"].as_str()) else {
            assert!(!html.contains("misma-plata"));
            continue;
        };
        let own_id = vehicle["id"].as_str().expect("id");
        let mut candidates: Vec<(u64, &serde_json::Value)> = vehicles
            .iter()
            .filter(|other| other["type"] == body)
            .filter(|other| other["make"] != vehicle["make"] || other["model"] != vehicle["model"])
            .filter(|other| pesos(other).is_some_and(|price| (price - own).abs() * 20.0 <= own))
            .map(|other| (pair_order(own_id, other["id"].as_str().expect("id")), other))
            .collect();
        candidates.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| a.1["id"].as_str().cmp(&b.1["id"].as_str()))
        });
        let mut models = Vec::new();
        let mut expected: Vec<(&str, &str)> = Vec::new();
        for (_, other) in candidates {
            let model = (&other["make"], &other["model"]);
            if expected.len() == 3 || models.contains(&model) {
                continue;
            }
            models.push(model);
            let path = other["url"]
                .as_str()
                .expect("url")
                .strip_prefix(BASE)
                .expect("own");
            expected.push((other["id"].as_str().expect("id"), path));
        }
        let section = html
            .split("<ul class=\"rivals\">")
            .nth(1)
            .map(|rest| &rest[..rest.find("</section>").expect("closed")]);
        let listed: Vec<String> = section
            .into_iter()
            .flat_map(|section| section.split("<li><a href=\"").skip(1))
            .map(|item| item[..item.find('"').expect("quoted")].to_owned())
            .collect();
        let wanted: Vec<String> = expected
            .iter()
            .map(|(_, path)| (*path).to_owned())
            .collect();
        assert_eq!(listed, wanted, "{url}");
        if let Some(section) = section.filter(|_| !listed.is_empty()) {
            shown += 1;
            assert!(section.contains("Control de estabilidad: "));
            assert!(!section.contains("$"), "no rival's price: {url}");
            let ids: Vec<String> = std::iter::once(own_id)
                .chain(expected.iter().map(|(id, _)| *id))
                .map(autoprecios::api::links::percent_encode)
                .collect();
            let compare = format!("<a href=\"/comparar?ids={}\">", ids.join(","));
            assert!(section.contains(&compare), "{url}: {compare}");
        }
    }
    assert!(shown > 3, "{shown} pages with rivals");
}
