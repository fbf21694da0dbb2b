//! `generate` end to end on a small synthetic snapshot: the manifest, the
//! byte-identical rerun, the all-or-nothing swap, and insta snapshots of the
//! raw response text.

use std::collections::BTreeMap;
use std::fs;

use autoprecios::api::json::etag;
use autoprecios::generate::{GenerateOptions, generate};

use crate::harness::{fixture, manifest_tag, options, pinned, pinned_live, read_tree, text_of};

#[test]
fn every_manifest_url_has_a_file_whose_hash_is_its_tag() {
    let fixture = fixture();
    assert!(fixture.manifest.files.len() > 100);
    let mut edge_files = 0;
    for entry in &fixture.manifest.files {
        let bytes = fs::read(fixture.out.join(&entry.file)).expect("file exists");
        assert_eq!(
            manifest_tag(&entry.file, &bytes),
            entry.etag,
            "{}",
            entry.url
        );
        if entry.file.starts_with("public/") {
            assert_eq!(etag(&bytes), entry.etag, "a public file's tag is its ETag");
        } else {
            edge_files += 1;
        }
    }
    assert_eq!(edge_files, 5, "the edge's data files, tagged by XXH3-128");
    let tree = read_tree(&fixture.out);
    assert_eq!(
        tree.len(),
        fixture.manifest.files.len() + 4,
        "every file but the manifest and the downloads', pages' and market's records is listed"
    );
    assert!(tree.contains_key(autoprecios::render::datos::reuse::SOURCES));
    assert!(tree.contains_key(autoprecios::render::site::kept::RECORD));
    assert!(tree.contains_key(autoprecios::market::kept::RECORD));
}

/// Content types are decided in one place: every file the tree holds is
/// listed with the type `headers::content_type_of` gives its name, which
/// the CDN's `_headers` and the edge serve.
#[test]
fn every_file_has_the_content_type_of_its_name() {
    let drifted: Vec<String> = fixture()
        .manifest
        .files
        .iter()
        .filter(|entry| entry.file.starts_with("public/"))
        .filter(|entry| entry.content_type != autoprecios::headers::content_type_of(&entry.file))
        .map(|entry| format!("{} {}", entry.file, entry.content_type))
        .collect();
    assert!(drifted.is_empty(), "{drifted:#?}");
}

#[test]
fn generating_twice_gives_byte_identical_trees() {
    let fixture = fixture();
    let again = fixture.out.with_file_name("again");
    generate(&options(&fixture.data, &again)).expect("generate again");
    let tree = read_tree(&fixture.out);
    // The comparison covers every file, the data downloads (gzip, Parquet,
    // checksums) and each version's history CSV included.
    for file in [
        "datos/versiones.csv.gz",
        "datos/datapackage.json",
        "datos/SHA256SUMS",
        "versiones/bmw-x1-sdrive20i-xline-steptronic/historial.csv",
    ] {
        let file = format!("public/{file}");
        assert!(tree.contains_key(&file), "{file} is in the tree");
    }
    assert!(
        tree.keys()
            .any(|file| file.starts_with("public/datos/snapshot/quotes/")
                && file.ends_with(".parquet")),
        "a month of quotes is in the tree"
    );
    assert!(tree == read_tree(&again), "trees differ");
    // The quotes the loader spilled for /datos go with the run.
    for out in [&fixture.out, &again] {
        let scratch = autoprecios::output::scratch_for(out);
        assert!(!scratch.exists(), "{} is left behind", scratch.display());
    }
}

#[test]
fn a_failure_mid_generate_leaves_the_previous_tree_intact() {
    let fixture = fixture();
    let out = fixture.out.with_file_name("failing");
    generate(&options(&fixture.data, &out)).expect("first generate");
    let before = read_tree(&out);
    let failing = GenerateOptions {
        fail_after: Some(50),
        ..options(&fixture.data, &out)
    };
    let err = generate(&failing).expect_err("injected failure");
    assert!(format!("{err:#}").contains("injected failure"), "{err:#}");
    assert!(read_tree(&out) == before, "previous tree changed");
    assert!(
        !autoprecios::output::scratch_for(&out).exists(),
        "a failed run's spill is removed"
    );
}

#[test]
fn a_broken_snapshot_leaves_the_previous_tree_intact() {
    let fixture = fixture();
    let out = fixture.out.with_file_name("broken");
    generate(&options(&fixture.data, &out)).expect("first generate");
    let before = read_tree(&out);
    let empty = fixture.out.with_file_name("empty-data");
    fs::create_dir_all(&empty).expect("mkdir");
    let err = generate(&options(&empty, &out)).expect_err("no snapshot");
    assert!(format!("{err:#}").contains("snapshot.json"), "{err:#}");
    assert!(read_tree(&out) == before, "previous tree changed");
}

#[test]
fn the_file_list_is_pinned() {
    // Asset names carry a content hash that every stylesheet edit changes;
    // sorted after masking, so a new hash cannot reorder the list either.
    let mut files: Vec<String> = fixture()
        .manifest
        .files
        .iter()
        .map(|e| format!("{} -> {}", e.url, e.file))
        .map(|line| {
            if line.contains("/assets/") {
                mask_hashes(&line)
            } else {
                line
            }
        })
        .collect();
    files.sort();
    insta::assert_snapshot!(files.join("\n"));
}

/// Replaces every `.<8 hex digits>.` (an asset's content hash) with `.HASH.`.
fn mask_hashes(line: &str) -> String {
    let parts: Vec<&str> = line.split('.').collect();
    let hashed = |part: &&str| part.len() == 8 && part.bytes().all(|b| b.is_ascii_hexdigit());
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i > 0 && i + 1 < parts.len() && hashed(part) {
                "HASH"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

#[test]
fn api_info_and_catalogue_are_pinned() {
    insta::assert_snapshot!("api_info", pinned("/api/v1"));
    insta::assert_snapshot!("catalogue", pinned("/api/v1/catalogue"));
}

/// The first vehicle detail whose record satisfies `pick`, [`pinned`].
async fn detail_where(pick: impl Fn(&serde_json::Value) -> bool) -> String {
    // In URL order, as the details were listed when every one was a file.
    let mut urls: Vec<String> = crate::harness::edge_vehicles()
        .iter()
        .filter(|vehicle| pick(vehicle))
        .map(|vehicle| {
            let id = vehicle["id"].as_str().expect("an id");
            format!(
                "/api/v1/vehicles/{}",
                autoprecios::api::links::percent_encode(id)
            )
        })
        .collect();
    urls.sort();
    pinned_live(urls.first().expect("a matching vehicle")).await
}

#[tokio::test]
async fn vehicles_with_and_without_specs_are_pinned() {
    let with_gaps = detail_where(|v| {
        v["specs"]["gaps"]
            .as_object()
            .is_some_and(|gaps| !gaps.is_empty())
    })
    .await;
    insta::assert_snapshot!("vehicle_with_specs_and_gaps", with_gaps);
    insta::assert_snapshot!(
        "vehicle_without_specs",
        detail_where(|v| v["specs"].is_null()).await
    );
}

/// Answers the edge computes (the CDN serves no list), pinned as they were
/// when they were files of the tree.
#[tokio::test]
async fn one_deals_page_per_kind_and_one_model_page_are_pinned() {
    for kind in ["opportunities", "price_drops", "new_opportunities"] {
        let url = format!("/api/v1/deals?kind={kind}&window=7d&sort=recommended");
        insta::assert_snapshot!(format!("deals_{kind}"), pinned_live(&url).await);
    }
    insta::assert_snapshot!("model_prices", pinned_live(&model_prices_url()).await);
}

/// The first model's prices, as the catalogue lists models.
fn model_prices_url() -> String {
    let catalogue: serde_json::Value =
        serde_json::from_str(&text_of("/api/v1/catalogue")).expect("catalogue JSON");
    let model = &catalogue["data"]["models"][0];
    let encode = |field: &str| {
        autoprecios::api::links::percent_encode(model[field].as_str().expect("a name"))
    };
    format!(
        "/api/v1/models/prices?make={}&model={}",
        encode("make"),
        encode("model")
    )
}

#[test]
fn the_published_components_are_the_derived_schemas() {
    let fixture = fixture();
    let openapi: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(fixture.out.join("public/openapi.json")).expect("openapi.json"),
    )
    .expect("json");
    assert_eq!(
        openapi["components"]["schemas"],
        autoprecios::api::openapi::component_schemas()
    );
}

/// Each JSON answer's path (a path ending in `/`: every path under it)
/// and its response schema.
const SCHEMAS: [(&str, &str); 7] = [
    ("/api/v1", "ApiInfo"),
    ("/api/v1/catalogue", "CatalogueResponse"),
    ("/api/v1/vehicles", "SearchResponse"),
    ("/api/v1/deals", "DealsResponse"),
    ("/api/v1/models/prices", "ModelPricesResponse"),
    ("/api/404.json", "Error"),
    ("/api/v1/vehicles/", "DetailResponse"),
];

/// The response schema of a precomputed URL, by its path.
fn schema_for(url: &str) -> Option<&'static str> {
    let path = url.split('?').next().unwrap_or(url);
    SCHEMAS
        .iter()
        .find(|(own, _)| match own.strip_suffix('/') {
            Some(_) => path.len() > own.len() && path.starts_with(own),
            None => path == *own,
        })
        .map(|(_, schema)| *schema)
}

#[tokio::test]
async fn every_generated_json_response_validates_against_openapi_json() {
    let fixture = fixture();
    let openapi: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(fixture.out.join("public/openapi.json")).expect("openapi.json"),
    )
    .expect("json");
    let mut validators = BTreeMap::new();
    let mut checked = 0;
    // The API's files, and the answers the edge computes once per tree.
    let mut answers = Vec::new();
    for entry in fixture
        .manifest
        .files
        .iter()
        .filter(|e| e.content_type == "application/json")
    {
        let bytes = fs::read(fixture.out.join(&entry.file)).expect("read");
        answers.push((entry.url.clone(), bytes));
    }
    // Every version's detail, which only the edge answers.
    let details = crate::harness::edge_vehicles().iter().map(|vehicle| {
        let id = vehicle["id"].as_str().expect("id");
        format!(
            "/api/v1/vehicles/{}",
            autoprecios::api::links::percent_encode(id)
        )
    });
    for url in autoprecios::api::precomputed::urls()
        .into_iter()
        .chain([model_prices_url()])
        .chain(details)
    {
        answers.push((url.clone(), crate::harness::get(&url).await.body.to_vec()));
    }
    for (url, bytes) in answers {
        let Some(schema) = schema_for(&url) else {
            continue;
        };
        let validator = validators.entry(schema).or_insert_with(|| {
            let mut root = openapi.clone();
            let object = root.as_object_mut().expect("object");
            object.insert(
                "$schema".into(),
                "https://json-schema.org/draft/2020-12/schema".into(),
            );
            object.insert(
                "$ref".into(),
                format!("#/components/schemas/{schema}").into(),
            );
            jsonschema::draft202012::options()
                .should_validate_formats(true)
                .build(&root)
                .expect("schema compiles")
        });
        let instance: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| format!("{} {e}", e.instance_path().as_str()))
            .collect();
        assert!(errors.is_empty(), "{url} against {schema}: {errors:?}");
        checked += 1;
    }
    let exercised: Vec<&str> = validators.keys().copied().collect();
    let every: std::collections::BTreeSet<&str> =
        SCHEMAS.iter().map(|(_, schema)| *schema).collect();
    assert_eq!(
        exercised,
        every.into_iter().collect::<Vec<_>>(),
        "every response schema is exercised"
    );
    assert!(checked > 60, "{checked} answers");
}

#[test]
fn a_public_sites_registry_entry_the_registry_would_refuse_is_refused_under_strict() {
    let fixture = fixture();
    let out = fixture.out.with_file_name("registry");
    let public = |base: &str, name: Option<&str>, strict: bool| GenerateOptions {
        base_url: base.to_owned(),
        edge_origin: "https://edge.precios.example.com".to_owned(),
        mcp_name: name.map(str::to_owned),
        strict,
        ..options(&fixture.data, &out)
    };
    for (base, name, refused) in [
        ("http://precios.example.com", None, "is not https"),
        (
            "https://precios.example.com",
            Some("autoprecios"),
            "reverse-DNS",
        ),
        ("https://10.0.0.5", None, "loopback or private"),
    ] {
        let err = generate(&public(base, name, true)).expect_err(base);
        let text = format!("{err:#}");
        assert!(
            text.contains("/server.json") && text.contains(refused) && text.contains("--strict"),
            "{base}: {text}"
        );
        assert!(!out.exists(), "{base}: nothing written");
    }
    // Without --strict it is a warning, and the entry is written.
    generate(&public("http://precios.example.com", None, false)).expect("a warning only");
    let entry: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("public/server.json")).expect("written"))
            .expect("JSON");
    assert_eq!(entry["name"], "com.example.precios/autoprecios");
    assert_eq!(entry["remotes"][0]["url"], "http://precios.example.com/mcp");
    // An https site with a proved name is published, icon included.
    let name = "io.github.someone/autoprecios";
    generate(&public("https://precios.example.com", Some(name), true)).expect("accepted");
    let entry: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("public/server.json")).expect("written"))
            .expect("JSON");
    assert_eq!(entry["name"], name);
    let icon = entry["icons"][0]["src"].as_str().expect("an icon");
    assert!(
        icon.starts_with("https://precios.example.com/assets/favicon."),
        "{icon}"
    );
    assert!(
        out.join(icon["https://precios.example.com/".len()..].replace("assets/", "public/assets/"))
            .is_file()
    );
}
