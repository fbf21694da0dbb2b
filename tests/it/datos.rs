//! The data downloads of `/datos/` on the fixture tree: every file's
//! checksum verifies (SHA256SUMS and datapackage.json), row counts agree
//! with the API, each Parquet file reads back with polars equal to its CSV
//! twin, the snapshot folder loads back as the snapshot the tree was built
//! from, and the page explains every file.

use std::collections::BTreeMap;
use std::fs;
use std::io::{Cursor, Read};
use std::path::Path;
use std::sync::Arc;

use autoprecios::render::datos::package::sha256_hex;
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::load_snapshot;
use polars::prelude::{CsvReadOptions, DataFrame, DataType, ParquetReader, SerReader};

use crate::harness::{BASE, fixture, text_of};

fn datos() -> std::path::PathBuf {
    fixture().out.join("public/datos")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}

fn package() -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(datos().join("datapackage.json")).expect("read"))
        .expect("datapackage.json is JSON")
}

/// A column's name and Table Schema type.
type Fields = Vec<(String, String)>;

/// Every table resource of datapackage.json: (CSV path, Parquet path, fields).
fn table_pairs() -> Vec<(String, String, Fields)> {
    let package = package();
    let resources = package["resources"].as_array().expect("resources");
    resources
        .iter()
        .filter(|r| r["format"] == "csv")
        .map(|csv| {
            let parquet = csv["path"]
                .as_str()
                .expect("path")
                .replace(".csv.gz", ".parquet");
            assert!(
                resources.iter().any(|r| r["path"] == parquet.as_str()),
                "{parquet} is described"
            );
            let fields = csv["schema"]["fields"]
                .as_array()
                .expect("fields")
                .iter()
                .map(|f| {
                    (
                        f["name"].as_str().expect("name").to_owned(),
                        f["type"].as_str().expect("type").to_owned(),
                    )
                })
                .collect();
            (
                csv["path"].as_str().expect("path").to_owned(),
                parquet,
                fields,
            )
        })
        .collect()
}

fn read_parquet(path: &Path) -> DataFrame {
    let bytes = fs::read(path).expect("read parquet");
    ParquetReader::new(Cursor::new(bytes))
        .finish()
        .expect("polars reads the Parquet file")
}

/// The gzipped CSV read with `like`'s schema (every column typed as it is).
fn read_csv_like(path: &Path, like: &DataFrame) -> DataFrame {
    let bytes = gunzip(&fs::read(path).expect("read csv.gz"));
    CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(Arc::new(like.schema().as_ref().clone())))
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .expect("polars reads the CSV")
}

#[test]
fn every_file_verifies_against_sha256sums_and_datapackage_json() {
    let fixture = fixture();
    let dir = datos();
    let sums = fs::read_to_string(dir.join("SHA256SUMS")).expect("SHA256SUMS");
    let mut listed = BTreeMap::new();
    for line in sums.lines() {
        let (sum, path) = line.split_once("  ").expect("sha256sum format");
        let bytes = fs::read(dir.join(path)).unwrap_or_else(|_| panic!("{path} exists"));
        assert_eq!(sha256_hex(&bytes), sum, "{path}");
        listed.insert(path.to_owned(), bytes.len());
    }
    for resource in package()["resources"].as_array().expect("resources") {
        let path = resource["path"].as_str().expect("path");
        let bytes = fs::read(dir.join(path)).expect("resource exists");
        assert_eq!(resource["bytes"], bytes.len(), "{path}");
        assert_eq!(
            resource["hash"],
            format!("sha256:{}", sha256_hex(&bytes)),
            "{path}"
        );
        assert!(listed.contains_key(path), "{path} in SHA256SUMS");
    }
    assert!(listed.contains_key("datapackage.json"));
    // Every file under /datos/ but the page and the sums themselves is summed,
    // and the manifest gives each its content type.
    let mut files = 0;
    for entry in &fixture.manifest.files {
        let Some(path) = entry.url.strip_prefix("/datos/") else {
            continue;
        };
        files += 1;
        if path != "SHA256SUMS" {
            assert!(listed.contains_key(path), "{path} is not in SHA256SUMS");
        }
        let expected = match path.rsplit('.').next() {
            Some("gz") => "application/gzip",
            Some("parquet") => "application/vnd.apache.parquet",
            Some("json") => "application/json",
            _ => "text/plain; charset=utf-8",
        };
        assert_eq!(entry.content_type, expected, "{path}");
    }
    assert_eq!(files, listed.len() + 1);
    let csv = fixture
        .manifest
        .files
        .iter()
        .find(|e| e.url.ends_with("/historial.csv"))
        .expect("a version's history CSV");
    assert_eq!(csv.content_type, "text/csv; charset=utf-8");
}

#[test]
fn every_parquet_file_reads_back_with_polars_equal_to_its_csv() {
    let dir = datos();
    let pairs = table_pairs();
    assert_eq!(pairs.len(), 9, "four tables of ours, five of the snapshot");
    for (csv, parquet, fields) in pairs {
        let from_parquet = read_parquet(&dir.join(&parquet));
        let names: Vec<String> = from_parquet
            .get_column_names()
            .iter()
            .map(|n| n.to_string())
            .collect();
        let documented: Vec<String> = fields.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(names, documented, "{parquet}: the documented columns");
        for (column, (name, kind)) in from_parquet.columns().iter().zip(&fields) {
            let fits = match kind.as_str() {
                "integer" => column.dtype() == &DataType::Int64,
                "number" => column.dtype() == &DataType::Float64,
                "boolean" => column.dtype() == &DataType::Boolean,
                _ => column.dtype() == &DataType::String,
            };
            assert!(
                fits,
                "{parquet}: {name} is {:?}, documented {kind}",
                column.dtype()
            );
        }
        let from_csv = read_csv_like(&dir.join(&csv), &from_parquet);
        assert!(
            from_csv.equals_missing(&from_parquet),
            "{csv} and {parquet} differ"
        );
    }
}

#[test]
fn row_counts_agree_with_the_api_and_the_snapshot() {
    let dir = datos();
    let catalogue: serde_json::Value =
        serde_json::from_str(&text_of("/api/v1/catalogue")).expect("json");
    let versiones = read_parquet(&dir.join("versiones.parquet"));
    assert_eq!(
        versiones.height() as u64,
        catalogue["data"]["vehicleCount"].as_u64().expect("count")
    );
    let ids: Vec<String> = versiones
        .column("id")
        .expect("id")
        .str()
        .expect("text")
        .iter()
        .map(|id| id.expect("an id").to_owned())
        .collect();
    for id in &ids {
        assert!(
            crate::harness::edge_vehicles()
                .iter()
                .any(|vehicle| vehicle["id"] == id.as_str()),
            "{id} is published"
        );
    }
    let opportunities = versiones
        .column("opportunity")
        .expect("opportunity")
        .bool()
        .expect("boolean")
        .iter()
        .filter(|o| *o == Some(true))
        .count();
    assert_eq!(
        opportunities as u64,
        catalogue["data"]["opportunityCount"]
            .as_u64()
            .expect("count")
    );
    let snapshot = load_snapshot(&fixture().data).expect("the fixture snapshot");
    let quotes: usize = snapshot
        .versions
        .iter()
        .flat_map(|v| &v.checks)
        .map(|c| c.quotes.len())
        .sum();
    let checks_with_quotes = snapshot
        .versions
        .iter()
        .flat_map(|v| &v.checks)
        .filter(|c| !c.quotes.is_empty())
        .count();
    let runs: usize = snapshot.versions.iter().map(|v| v.catalogue.len()).sum();
    for (file, rows) in [
        ("snapshot/versions.parquet", snapshot.versions.len()),
        ("snapshot/quotes.parquet", quotes),
        ("snapshot/catalogue_prices.parquet", runs),
        ("catalogo.parquet", runs),
        ("controles.parquet", checks_with_quotes),
    ] {
        assert_eq!(read_parquet(&dir.join(file)).height(), rows, "{file}");
    }
}

#[test]
fn a_version_history_csv_is_its_completed_weeks_of_semanas() {
    let fixture = fixture();
    let all = gunzip(&fs::read(datos().join("semanas.csv.gz")).expect("semanas"));
    let all = String::from_utf8(all).expect("UTF-8");
    assert!(all.contains(",2026-11-16,"), "a premise: weeks still going");
    let mut checked = 0;
    for entry in fixture
        .manifest
        .files
        .iter()
        .filter(|e| e.url.ends_with("/historial.csv"))
    {
        let csv = fs::read_to_string(fixture.out.join(&entry.file)).expect("read");
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("versionId,weekStart,averageUsd"));
        let rows: Vec<&str> = lines.collect();
        let Some(first) = rows.first() else { continue };
        let id = first.split(',').next().expect("id");
        // The completed weeks: the fixture's last check is Saturday
        // 2026-11-21 (20:00 in Argentina), so its week, from Monday the
        // 16th, is still going and is left out.
        let expected: Vec<&str> = all
            .lines()
            .filter(|line| line.split(',').next() == Some(id))
            .filter(|line| line.split(',').nth(1) < Some("2026-11-16"))
            .collect();
        assert_eq!(rows, expected, "{}", entry.url);
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn the_snapshot_folder_loads_back_as_the_snapshot_of_the_tree() {
    let fixture = fixture();
    let dir = tempfile::tempdir().expect("tempdir");
    let from = datos().join("snapshot");
    for entry in fs::read_dir(&from).expect("snapshot folder") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let bytes = fs::read(&path).expect("read");
        if name.ends_with(".parquet") || name == "snapshot.json" {
            fs::write(dir.path().join(&name), bytes).expect("write");
        } else if name == "specs.jsonl.gz" {
            fs::write(dir.path().join("specs.jsonl"), gunzip(&bytes)).expect("write");
        }
    }
    let published = load_snapshot(dir.path()).expect("the published snapshot loads");
    let original = load_snapshot(&fixture.data).expect("the fixture snapshot");
    assert_eq!(published, original);
    assert_eq!(compute_catalogue(&published), compute_catalogue(&original));
}

#[test]
fn the_datos_page_explains_every_file_with_a_dataset_and_is_in_the_sitemap() {
    let fixture = fixture();
    let html = fs::read_to_string(datos().join("index.html")).expect("the page");
    for (csv, parquet, fields) in table_pairs() {
        for file in [&csv, &parquet] {
            assert!(html.contains(&format!("href=\"/datos/{file}\"")), "{file}");
        }
        for (name, _) in fields {
            assert!(
                html.contains(&format!("<code>{name}</code>")),
                "{csv}: {name}"
            );
        }
    }
    for link in ["/datos/datapackage.json", "/datos/SHA256SUMS"] {
        assert!(html.contains(&format!("href=\"{link}\"")), "{link}");
    }
    assert!(
        html.contains("Datos sintéticos"),
        "the fixture is synthetic"
    );
    assert!(html.contains("CC BY 4.0") && html.contains("Cómo citarlos"));
    let start = html
        .find("<script type=\"application/ld+json\">")
        .expect("JSON-LD")
        + "<script type=\"application/ld+json\">".len();
    let end = start + html[start..].find("</script>").expect("closed");
    let dataset: serde_json::Value = serde_json::from_str(&html[start..end]).expect("JSON");
    assert_eq!(dataset["@type"], "Dataset");
    assert_eq!(dataset["url"], format!("{BASE}/datos"));
    assert_eq!(dataset["distribution"].as_array().expect("files").len(), 19);
    assert!(
        dataset["description"]
            .as_str()
            .expect("text")
            .contains("sintéticos")
    );
    let package = package();
    assert_eq!(package["synthetic"], true);
    assert_eq!(package["licenses"][0]["name"], "CC-BY-4.0");
    assert_eq!(package["created"], package["snapshotAt"]);
    assert!(
        package["description"]
            .as_str()
            .expect("text")
            .contains("sintéticos")
    );
    let sitemap = fs::read_to_string(fixture.out.join("public/sitemap.xml")).expect("sitemap");
    assert!(sitemap.contains(&format!("<loc>{BASE}/datos</loc>")));
}
