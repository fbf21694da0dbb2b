//! The data downloads of `/datos/` on the fixture tree: every file's
//! checksum verifies (SHA256SUMS and datapackage.json), row counts agree
//! with the API, each Parquet file reads back with polars equal to its CSV
//! twin, the snapshot folder loads back as the snapshot the tree was built
//! from, and the page explains every file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{Cursor, Read};
use std::path::Path;
use std::sync::Arc;

use autoprecios::headers::content_type_of;
use autoprecios::render::datos::package::sha256_hex;
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::load_snapshot;
use autoprecios::time::parse_time;
use polars::prelude::{
    Column, CsvReadOptions, DataFrame, DataType, ParquetReader, SerReader, TimeUnit,
};

use crate::harness::{BASE, fixture, text_of};

fn datos() -> std::path::PathBuf {
    fixture().out.join("public/datos")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
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

/// Rows of a table under `/datos/`: its one Parquet file, or its monthly parts.
fn rows_of(table: &str) -> usize {
    let whole = datos().join(format!("{table}.parquet"));
    if whole.is_file() {
        return read_parquet(&whole).height();
    }
    let parts: Vec<_> = fs::read_dir(datos().join(table))
        .unwrap_or_else(|_| panic!("{table} is a file or a folder"))
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "parquet"))
        .collect();
    assert!(parts.len() > 1, "{table} is cut by month");
    parts.iter().map(|path| read_parquet(path).height()).sum()
}

/// `frame` with its time and date columns as the CSV writes them (RFC 3339
/// in UTC with whole seconds, `YYYY-MM-DD`), to compare with the CSV.
fn as_csv_text(frame: &DataFrame) -> DataFrame {
    let columns = frame
        .columns()
        .iter()
        .map(|column| {
            let name = column.name().clone();
            match column.dtype() {
                DataType::Datetime(TimeUnit::Milliseconds, Some(_)) => {
                    let text: Vec<Option<String>> = column
                        .datetime()
                        .expect("datetime")
                        .physical()
                        .iter()
                        .map(|ms| {
                            ms.and_then(chrono::DateTime::from_timestamp_millis)
                                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
                        })
                        .collect();
                    Column::new(name, text)
                }
                DataType::Date => {
                    let epoch = chrono::NaiveDate::from_ymd_opt(1970, 1, 1).expect("date");
                    let text: Vec<Option<String>> = column
                        .date()
                        .expect("date")
                        .physical()
                        .iter()
                        .map(|days| days.map(|d| (epoch + chrono::Days::new(d as u64)).to_string()))
                        .collect();
                    Column::new(name, text)
                }
                _ => column.clone(),
            }
        })
        .collect();
    DataFrame::new(frame.height(), columns).expect("a frame")
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

/// `2026-11.csv.gz`: a month's part of a history table.
fn is_month_file(file: &str) -> bool {
    let month = file.trim_end_matches(".csv.gz");
    month.len() == 7 && month.as_bytes()[4] == b'-' && month.replace('-', "").parse::<u32>().is_ok()
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
    // Every file under /datos/ but the page, the sums themselves and the two
    // documents about the data (how to cite it, what changed) is summed, and
    // the manifest gives each its content type.
    let documents = ["CITATION.cff", "CAMBIOS.md"];
    let mut files = 0;
    for entry in &fixture.manifest.files {
        let Some(path) = entry.url.strip_prefix("/datos/") else {
            continue;
        };
        if documents.contains(&path) {
            assert_eq!(entry.content_type, content_type_of(path), "{path}");
            continue;
        }
        files += 1;
        if path != "SHA256SUMS" {
            assert!(listed.contains_key(path), "{path} is not in SHA256SUMS");
        }
        let expected = match path.rsplit('.').next() {
            Some("gz") => "application/gzip",
            Some("parquet") => "application/vnd.apache.parquet",
            Some("json") => "application/json",
            Some("sqlite") => "application/vnd.sqlite3",
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
    let mut tables = std::collections::BTreeSet::new();
    let mut monthly = std::collections::BTreeSet::new();
    for (csv, _, _) in &pairs {
        match csv.rsplit_once('/') {
            Some((folder, file)) if is_month_file(file) => {
                tables.insert(folder.to_owned());
                monthly.insert(folder.to_owned());
            }
            _ => {
                tables.insert(csv.trim_end_matches(".csv.gz").to_owned());
            }
        }
    }
    // Every documented table is published: ours, then the snapshot's under
    // `snapshot/`; the history ones (`controles` and the snapshot's quote
    // tables) a month a file.
    use autoprecios::render::datos::{fields, snapshot_fields};
    use autoprecios::snapshot::SnapshotTable;
    let ours = [
        fields::versiones(),
        fields::controles(),
        fields::semanas(),
        fields::catalogo(),
    ]
    .map(|doc| doc.name.to_owned());
    let theirs = snapshot_fields::snapshot_tables().map(|doc| format!("snapshot/{}", doc.name));
    let documented: std::collections::BTreeSet<String> =
        ours.iter().chain(&theirs).cloned().collect();
    assert_eq!(tables, documented);
    let history = SnapshotTable::ALL
        .iter()
        .zip(&theirs)
        .filter(|(table, _)| table.is_history())
        .map(|(_, name)| name.clone());
    let expected: std::collections::BTreeSet<String> = std::iter::once("controles".to_owned())
        .chain(history)
        .collect();
    assert_eq!(monthly, expected, "the history tables are cut by month");
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
                "datetime" => matches!(
                    column.dtype(),
                    DataType::Datetime(TimeUnit::Milliseconds, Some(zone)) if zone.as_str() == "UTC"
                ),
                "date" => column.dtype() == &DataType::Date,
                _ => column.dtype() == &DataType::String,
            };
            assert!(
                fits,
                "{parquet}: {name} is {:?}, documented {kind}",
                column.dtype()
            );
        }
        let from_parquet = as_csv_text(&from_parquet);
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
    for (table, rows) in [
        ("snapshot/versions", snapshot.versions.len()),
        ("snapshot/quotes", quotes),
        ("snapshot/catalogue_prices", runs),
        ("catalogo", runs),
        ("controles", checks_with_quotes),
    ] {
        assert_eq!(rows_of(table), rows, "{table}");
    }
}

/// Every version's `historial.csv` of the fixture's tree: its URL and text.
fn history_csvs() -> impl Iterator<Item = (&'static str, String)> {
    let fixture = fixture();
    fixture
        .manifest
        .files
        .iter()
        .filter(|e| e.url.ends_with("/historial.csv"))
        .map(|e| {
            let csv = fs::read_to_string(fixture.out.join(&e.file)).expect("read");
            (e.url.as_str(), csv)
        })
}

#[test]
fn a_version_history_csv_is_its_completed_weeks_of_semanas() {
    let all = gunzip(&fs::read(datos().join("semanas.csv.gz")).expect("semanas"));
    let all = String::from_utf8(all).expect("UTF-8");
    assert!(all.contains(",2026-11-16,"), "a premise: weeks still going");
    let mut checked = 0;
    for (url, csv) in history_csvs() {
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("versionId,weekStart,averageUsd,currency,average")
        );
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
        assert_eq!(rows, expected, "{url}");
        checked += 1;
    }
    assert!(checked > 10);
}

#[tokio::test]
async fn a_version_history_csv_holds_the_weeks_its_chart_draws_in_their_currency() {
    let (mut pesos, mut dollars) = (0, 0);
    for (_, csv) in history_csvs() {
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let Some(id) = rows.first().map(|row| row[0]) else {
            continue;
        };
        let record = crate::harness::get(&format!(
            "/api/v1/vehicles/{}",
            autoprecios::api::text::percent_encode(id)
        ))
        .await
        .json();
        let history = &record["data"]["vehicle"]["history"];
        let currency = history["currency"].as_str().unwrap_or("");
        for row in &rows {
            let week = history["weeks"]
                .as_array()
                .expect("weeks")
                .iter()
                .find(|w| w["weekStart"] == row[1])
                .expect("the week is in the record");
            assert_eq!(row[3], currency, "{id} {}", row[1]);
            let price = week["price"].as_f64();
            assert_eq!(row[4].parse::<f64>().ok(), price, "{id} {}", row[1]);
        }
        match currency {
            "ARS" => pesos += 1,
            "USD" => dollars += 1,
            _ => {}
        }
    }
    assert!(
        pesos > 3 && dollars > 3,
        "{pesos} in pesos, {dollars} in dollars"
    );
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
        if path.is_dir() {
            // A history table's monthly parts: the Parquet ones, as a folder.
            fs::create_dir(dir.path().join(&name)).expect("mkdir");
            for part in fs::read_dir(&path).expect("parts") {
                let part = part.expect("entry").path();
                if part.extension().is_some_and(|e| e == "parquet") {
                    let file = part.file_name().expect("name");
                    fs::copy(&part, dir.path().join(&name).join(file)).expect("copy");
                }
            }
            continue;
        }
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
    for link in [
        "/datos/datapackage.json",
        "/datos/SHA256SUMS",
        "/datos/autoprecios.sqlite",
    ] {
        assert!(html.contains(&format!("href=\"{link}\"")), "{link}");
    }
    // Datasette Lite opens the database by its absolute address, encoded.
    let lite = format!(
        "href=\"https://lite.datasette.io/?url={}\"",
        BASE.replace(':', "%3A").replace('/', "%2F") + "%2Fdatos%2Fautoprecios.sqlite"
    );
    assert!(html.contains(&lite), "{lite}");
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
    // What Google's Dataset documentation requires (name; a description of
    // 50 to 5,000 characters) and what it reads when present: a license
    // URL, a creator with a type and a name, an ISO 8601 interval of time
    // covered, and each download's address and format.
    assert!(!dataset["name"].as_str().expect("a name").is_empty());
    let described = dataset["description"]
        .as_str()
        .expect("a description")
        .chars()
        .count();
    assert!((50..=5000).contains(&described), "{described} characters");
    assert_eq!(
        dataset["license"],
        "https://creativecommons.org/licenses/by/4.0/"
    );
    assert_eq!(dataset["creator"]["@type"], "Organization");
    assert!(dataset["creator"]["name"].is_string());
    let covered = dataset["temporalCoverage"]
        .as_str()
        .expect("temporalCoverage");
    let (from, to) = covered.split_once('/').expect("an interval");
    assert!(
        parse_time(from).is_some() && parse_time(to).is_some(),
        "{covered}"
    );
    for download in dataset["distribution"].as_array().expect("distribution") {
        assert_eq!(download["@type"], "DataDownload");
        assert!(
            download["contentUrl"]
                .as_str()
                .is_some_and(|url| url.starts_with(BASE)),
            "{download}"
        );
        assert!(download["encodingFormat"].is_string(), "{download}");
    }
    // Two downloads per file pair, the SQLite database and datapackage.json.
    let pairs = table_pairs().len();
    let distribution = dataset["distribution"].as_array().expect("files");
    assert_eq!(distribution.len(), 2 * pairs + 2);
    assert!(
        distribution
            .iter()
            .any(|d| d["encodingFormat"] == "application/vnd.sqlite3"
                && d["contentUrl"] == format!("{BASE}/datos/autoprecios.sqlite")),
        "the SQLite database is a download"
    );
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

/// The snapshot's downloads are written beside the signals and the site;
/// once a step beside them has failed, they begin no further part.
#[test]
fn the_snapshot_tables_stop_once_a_step_beside_them_failed() {
    use std::sync::atomic::AtomicBool;

    use autoprecios::output::TreeWriter;
    use autoprecios::render::datos::reuse::Reuse;
    use autoprecios::render::datos::write_snapshot_downloads;
    use autoprecios::snapshot::SnapshotTable;
    use autoprecios::snapshot::republish::HistoryMonths;

    let fixture = fixture();
    let snapshot = load_snapshot(&fixture.data).expect("load");
    let history = HistoryMonths::of(&snapshot).expect("months");
    let work = tempfile::tempdir().expect("tempdir");
    let out = TreeWriter::create(&work.path().join("out"), None, true).expect("staging");
    let reuse = Reuse::open(&out);
    let written = |stop: bool| {
        let stop = AtomicBool::new(stop);
        write_snapshot_downloads(&snapshot, &history, &out, &reuse, &stop).map(|written| {
            written
                .tables
                .iter()
                .map(|table| table.parts.len())
                .sum::<usize>()
        })
    };
    let err = written(true).expect_err("a stopped run fails");
    assert!(format!("{err:#}").contains("stopped"), "{err:#}");
    let staged = out.staged("datos/snapshot");
    assert!(
        !staged.exists(),
        "no part was written: {}",
        staged.display()
    );
    let parts = written(false).expect("written");
    assert!(parts >= SnapshotTable::ALL.len(), "{parts} parts");
    assert!(staged.join("versions.parquet").exists());
    assert!(staged.join("snapshot.json").exists() && staged.join("specs.jsonl.gz").exists());
    out.abandon();
    assert!(!work.path().join("out.staging").exists(), "abandoned");
}

/// Today's spread recomputed from each record's own published quotes by
/// plain code: dealers (a quote without `sellerId` its own), those with
/// stock, lowest, median and highest, and per location.
#[test]
fn each_records_dealers_are_its_quotes_counted_again() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut checked = 0;
    for vehicle in crate::harness::edge_vehicles() {
        let quotes = vehicle["quotes"].as_array().expect("quotes");
        let spread = &vehicle["dealers"];
        let rate = vehicle["exchangeRate"]["arsPerUsd"].as_f64();
        let dealer = |q: &serde_json::Value| match q["sellerId"].as_str() {
            Some(seller) => format!("s:{seller}"),
            None => format!("q:{}", q["id"].as_str().expect("id")),
        };
        let dealers: BTreeSet<String> = quotes.iter().map(dealer).collect();
        let stocked: BTreeSet<String> = quotes
            .iter()
            .filter(|q| q["stock"].as_i64().is_some_and(|s| s > 0))
            .map(dealer)
            .collect();
        assert_eq!(spread["count"], dealers.len(), "{}", vehicle["id"]);
        assert_eq!(spread["withStock"], stocked.len(), "{}", vehicle["id"]);
        let mut usd: Vec<f64> = quotes
            .iter()
            .filter_map(|q| q["priceUsd"].as_f64())
            .collect();
        usd.sort_by(f64::total_cmp);
        let n = usd.len();
        let middle = if n % 2 == 1 {
            usd[n / 2]
        } else {
            (usd[n / 2 - 1] + usd[n / 2]) / 2.0
        };
        assert_eq!(spread["lowestUsd"].as_f64(), usd.first().copied());
        assert_eq!(spread["highestUsd"].as_f64(), usd.last().copied());
        // The published quotes are rounded to the cent; the median is not
        // computed from the rounded ones.
        assert!((spread["medianUsd"].as_f64().expect("median") - middle).abs() <= 0.01);
        let ars = |q: &serde_json::Value| match q["currency"].as_str() {
            Some("ARS") => q["price"].as_f64(),
            _ => Some(q["price"].as_f64()? * rate?),
        };
        let lowest_ars = quotes.iter().filter_map(ars).min_by(f64::total_cmp);
        match (spread["lowestArs"].as_f64(), lowest_ars) {
            (Some(published), Some(own)) => assert!((published - own).abs() <= 0.01),
            (published, own) => assert_eq!(published, own),
        }
        let mut places: BTreeMap<&str, (BTreeSet<String>, f64)> = BTreeMap::new();
        for q in quotes {
            let place = q["location"].as_str().unwrap_or("sin dato");
            let entry = places
                .entry(place)
                .or_insert((BTreeSet::new(), f64::INFINITY));
            entry.0.insert(dealer(q));
            entry.1 = entry.1.min(q["priceUsd"].as_f64().expect("priceUsd"));
        }
        let published: BTreeMap<&str, (usize, f64)> = spread["byLocation"]
            .as_array()
            .expect("byLocation")
            .iter()
            .map(|p| {
                let dealers = p["dealers"].as_u64().expect("dealers") as usize;
                (
                    p["location"].as_str().expect("location"),
                    (dealers, p["lowestUsd"].as_f64().expect("lowest")),
                )
            })
            .collect();
        let own: BTreeMap<&str, (usize, f64)> = places
            .iter()
            .map(|(place, (d, low))| (*place, (d.len(), *low)))
            .collect();
        assert_eq!(published, own, "{}", vehicle["id"]);
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn the_maintainers_data_licence_is_the_one_every_description_names() {
    let case = crate::harness::Case::new("datos", "licence")
        .with_fixture_data()
        .edit("snapshot.json", |text| {
            let mut meta: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            meta["dataLicense"] = serde_json::json!({
                "spdx": "ODbL-1.0",
                "name": "ODbL 1.0",
                "url": "https://opendatacommons.org/licenses/odbl/1-0/",
            });
            meta.to_string()
        });
    case.generate(|_| {}).expect("generate");
    let public = case.out().join("public");
    let read = |path: &str| fs::read_to_string(public.join(path)).expect(path);
    let package: serde_json::Value =
        serde_json::from_str(&read("datos/datapackage.json")).expect("JSON");
    assert_eq!(package["licenses"][0]["name"], "ODbL-1.0");
    assert_eq!(
        package["licenses"][0]["path"],
        "https://opendatacommons.org/licenses/odbl/1-0/"
    );
    let reports: serde_json::Value =
        serde_json::from_str(&read("informes/datapackage.json")).expect("JSON");
    assert_eq!(reports["licenses"][0]["name"], "ODbL-1.0");
    assert!(read("datos/CITATION.cff").contains("\nlicense: ODbL-1.0\n"));
    let page = read("datos/index.html");
    assert!(page.contains("href=\"https://opendatacommons.org/licenses/odbl/1-0/\" rel=\"license noopener\">ODbL 1.0</a>"));
    assert!(
        !page.contains("Creative Commons"),
        "the default's words are not said of another licence"
    );
    assert!(page.contains("\"license\":\"https://opendatacommons.org/licenses/odbl/1-0/\""));
}

/// `/dolar.json` recomputed from the published quote checks alone: the
/// reference dollar is the rate of the latest detailed check that observed
/// one (every month's `snapshot/quote_checks` part read, none assumed),
/// with that check's time.
#[test]
fn the_reference_dollar_is_the_latest_rate_of_the_published_checks() {
    let mut latest: Option<(String, String)> = None;
    let mut rates_at_latest = BTreeSet::new();
    let mut parts = 0;
    for entry in fs::read_dir(datos().join("snapshot/quote_checks")).expect("quote_checks") {
        let path = entry.expect("entry").path();
        if !path.to_string_lossy().ends_with(".csv.gz") {
            continue;
        }
        parts += 1;
        let csv = String::from_utf8(gunzip(&fs::read(&path).expect("read"))).expect("UTF-8");
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("versionId,observedAt,arsPerUsd,inStock"),
            "{path:?}"
        );
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            let (at, rate) = (cells[1], cells[2]);
            if rate.is_empty() {
                continue;
            }
            match latest.as_ref().map(|(time, _)| at.cmp(time.as_str())) {
                Some(std::cmp::Ordering::Less) => {}
                Some(std::cmp::Ordering::Equal) => {
                    rates_at_latest.insert(rate.to_owned());
                }
                _ => {
                    latest = Some((at.to_owned(), rate.to_owned()));
                    rates_at_latest = BTreeSet::from([rate.to_owned()]);
                }
            }
        }
    }
    assert!(parts > 1, "a premise: several months of checks");
    let (at, _) = latest.expect("a check with a rate");
    assert_eq!(
        rates_at_latest.len(),
        1,
        "one rate at {at}: {rates_at_latest:?}"
    );
    let dollar: serde_json::Value = serde_json::from_slice(
        &fs::read(fixture().out.join("public/dolar.json")).expect("/dolar.json"),
    )
    .expect("JSON");
    assert_eq!(dollar["observedAt"], at.as_str());
    // The rate as the CSV writes it and as the JSON does: the same decimal.
    let rate = rates_at_latest.into_iter().next().expect("the rate");
    assert_eq!(dollar["arsPerUsd"].to_string(), rate);
}
