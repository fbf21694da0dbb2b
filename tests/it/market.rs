//! The market report end to end: its API answers are its files' bytes, a
//! month is checked (400 malformed, 404 uncovered), a final month's files
//! stay the same bytes in the next publication while the month in progress
//! changes, and `GET /api/v1/series` at the bounds of every parameter,
//! read against the national time-series API's meanings and the report's
//! own numbers. A run over the previous tree keeps its final months
//! (`market::kept`) and publishes what a fresh run does.

use std::fs;

use autoprecios::sample::{SampleOptions, as_of, generate_sample};
use autoprecios::time::parse_time;
use axum::http::StatusCode;
use serde_json::Value;

use crate::harness::{Fixture, fixture, get, get_json, options, read_tree};

/// The months the fixture's reports cover, newest first.
async fn months() -> Vec<(String, String)> {
    let list = get_json("/api/v1/reports").await;
    list["data"]["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|m| {
            (
                m["month"].as_str().expect("month").to_owned(),
                m["status"].as_str().expect("status").to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn each_report_is_its_file_and_only_the_last_month_is_provisional() {
    let months = months().await;
    assert!(months.len() >= 6, "{months:?}");
    let statuses: Vec<&str> = months.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(statuses[0], "provisional");
    assert!(statuses[1..].iter().all(|s| *s == "final"), "{statuses:?}");
    let mut labels: Vec<&String> = months.iter().map(|(m, _)| m).collect();
    let newest_first = labels.clone();
    labels.sort_by(|a, b| b.cmp(a));
    assert_eq!(labels, newest_first);
    for (month, _) in &months {
        let reply = get(&format!("/api/v1/reports/{month}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{month}");
        assert_eq!(reply.header("content-type"), "application/json");
        let file = fs::read(
            fixture()
                .public
                .join(format!("informes/{month}/informe.json")),
        )
        .expect("file");
        assert_eq!(reply.body, file, "{month}: the API answer is the file");
    }
}

#[tokio::test]
async fn a_malformed_month_is_400_and_a_month_outside_404() {
    for bad in [
        "2026-13",
        "2026-1",
        "26-10",
        "2026-10-01",
        "octubre",
        "2026%2F10",
    ] {
        let reply = get(&format!("/api/v1/reports/{bad}")).await;
        assert_eq!(reply.error_paths(), ["month"], "{bad}");
    }
    let reply = get("/api/v1/reports/1999-01").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
    assert_eq!(
        get(&format!("/api/v1/reports/{}?x=1", months().await[0].0))
            .await
            .error_paths(),
        ["x"]
    );
    assert_eq!(
        get("/api/v1/reports?month=2026-10").await.error_paths(),
        ["month"]
    );
}

/// A series request's JSON rows: (date, values).
async fn rows(query: &str) -> Vec<(String, Vec<Option<f64>>)> {
    let body = get_json(&format!("/api/v1/series?{query}")).await;
    body["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|row| {
            let row = row.as_array().expect("row");
            (
                row[0].as_str().expect("date").to_owned(),
                row[1..].iter().map(Value::as_f64).collect(),
            )
        })
        .collect()
}

/// The report of `month`'s all-versions index row in `currency`.
fn all_row(month: &str, currency: &str) -> Value {
    let text = fs::read_to_string(
        fixture()
            .public
            .join(format!("informes/{month}/informe.json")),
    )
    .expect("report");
    let report: Value = serde_json::from_str(&text).expect("JSON");
    report["data"]["index"]
        .as_array()
        .expect("index")
        .iter()
        .find(|row| row["group"]["kind"] == "all" && row["currency"] == currency)
        .cloned()
        .expect("the all-versions row")
}

#[tokio::test]
async fn an_index_series_says_what_the_reports_say() {
    let levels = rows("ids=indice.ars,indice.ars:percent_change,indice.usd:change").await;
    for (date, values) in &levels {
        let month = &date[..7];
        let row = all_row(month, "ARS");
        assert_eq!(values[0], row["level"].as_f64(), "{month}: the level");
        match (values[1], row["changePct"].as_f64()) {
            // The national API's unit: 0.0123 is 1.23 %.
            (Some(fraction), Some(percent)) => {
                assert!((fraction * 100.0 - percent).abs() < 0.005 + 1e-9, "{month}")
            }
            (none, other) => assert_eq!(none, other, "{month}"),
        }
    }
    let first = &levels[0];
    assert_eq!(first.1[0], Some(100.0), "the first month is 100");
    assert_eq!(first.1[1], None, "no change before the first month");
    assert_eq!(first.1[2], None);
}

#[tokio::test]
async fn a_change_a_year_ago_needs_twelve_months() {
    // The fixture covers about eight months: no year-ago change at all, but
    // a row per month all the same (the series has values).
    let rows = rows("ids=indice.ars:percent_change_a_year_ago,dolar:change_a_year_ago").await;
    assert!(rows.len() >= 6);
    assert!(
        rows.iter()
            .all(|(_, values)| values.iter().all(Option::is_none)),
        "{rows:?}"
    );
}

#[tokio::test]
async fn collapse_year_with_end_of_period_is_each_years_last_month() {
    let monthly = rows("ids=dolar,indice.usd").await;
    let yearly =
        rows("ids=dolar,indice.usd&collapse=year&collapse_aggregation=end_of_period").await;
    for (date, values) in &yearly {
        let year = &date[..4];
        assert!(date.ends_with("-01-01"), "{date}");
        let last = monthly
            .iter()
            .rev()
            .find(|(d, _)| d.starts_with(year))
            .expect("a month");
        assert_eq!(values, &last.1, "{year}");
    }
    let averages = rows("ids=dolar&collapse=quarter").await;
    for (date, values) in &averages {
        let (year, first): (i32, u32) = (
            date[..4].parse().expect("y"),
            date[5..7].parse().expect("m"),
        );
        let held: Vec<f64> = monthly
            .iter()
            .filter(|(d, _)| {
                d[..4].parse::<i32>().expect("y") == year
                    && (first..first + 3).contains(&d[5..7].parse().expect("m"))
            })
            .filter_map(|(_, v)| v[0])
            .collect();
        let mean = held.iter().sum::<f64>() / held.len() as f64;
        assert!(
            (values[0].expect("a value") - (mean * 100.0).round() / 100.0).abs() < 1e-9,
            "{date}"
        );
    }
}

#[tokio::test]
async fn a_spreadsheet_set_to_argentina_reads_the_csv_as_the_json_numbers() {
    let query = "ids=indice.ars,dolar,indice.usd:percent_change";
    let json = rows(query).await;
    let reply = get(&format!(
        "/api/v1/series?{query}&format=csv&decimal=,&sep=;&header=ids"
    ))
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), "text/csv; charset=utf-8");
    let text = String::from_utf8(reply.body).expect("UTF-8");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("indice_tiempo;indice.ars;dolar;indice.usd:percent_change")
    );
    let csv: Vec<(String, Vec<Option<f64>>)> = lines
        .map(|line| {
            let mut cells = line.split(';');
            let date = cells.next().expect("date").to_owned();
            let values = cells
                .map(|cell| {
                    (!cell.is_empty()).then(|| cell.replace(',', ".").parse().expect("a number"))
                })
                .collect();
            (date, values)
        })
        .collect();
    assert_eq!(csv, json);
    assert!(text.contains(','), "decimal commas");
    // Titles by default, and a dot and a comma otherwise.
    let plain = get(&format!("/api/v1/series?{query}&format=csv")).await;
    let plain = String::from_utf8(plain.body).expect("UTF-8");
    assert!(
        plain.starts_with("indice_tiempo,indice_0km_pesos,dolar_referencia,indice_0km_dolares\n"),
        "{plain}"
    );
}

#[tokio::test]
async fn every_series_parameter_is_checked_at_its_bounds() {
    let many: Vec<String> = (0..21).map(|k| format!("version.x{k}.ars")).collect();
    for (query, path) in [
        ("", "ids"),
        ("ids=nope", "ids"),
        ("ids=indice.ars&collapse=week", "collapse"),
        ("ids=indice.ars&collapse=day", "collapse"),
        ("ids=indice.ars&collapse=decade", "collapse"),
        (
            "ids=indice.ars&representation_mode=log",
            "representation_mode",
        ),
        (
            "ids=indice.ars&collapse_aggregation=median",
            "collapse_aggregation",
        ),
        ("ids=indice.ars&start_date=2026-13", "start_date"),
        ("ids=indice.ars&end_date=20261", "end_date"),
        ("ids=indice.ars&limit=0", "limit"),
        ("ids=indice.ars&limit=1001", "limit"),
        ("ids=indice.ars&start=-1", "start"),
        ("ids=indice.ars&format=xlsx", "format"),
        ("ids=indice.ars&decimal=;", "decimal"),
        ("ids=indice.ars&sep=;;", "sep"),
        ("ids=indice.ars&format=csv&decimal=,&sep=,", "sep"),
        ("ids=indice.ars,indice.ars", "ids"),
        ("ids=indice.ars&ids=dolar", "ids"),
        ("ids=indice.ars&metadata=all", "metadata"),
        (&format!("ids={}", many.join(",")), "ids"),
    ] {
        assert_eq!(
            get(&format!("/api/v1/series?{query}")).await.error_paths(),
            [path],
            "{query}"
        );
    }
    // Twenty ids, a thousand rows.
    let twenty: Vec<String> = ["indice.ars", "indice.usd", "dolar"]
        .iter()
        .flat_map(|id| {
            [
                ":value",
                ":change",
                ":percent_change",
                ":change_a_year_ago",
                ":avg",
                ":max",
                ":min",
            ]
            .map(|suffix| format!("{id}{suffix}"))
        })
        .take(20)
        .collect();
    let ok = get(&format!(
        "/api/v1/series?ids={}&limit=1000",
        twenty.join(",")
    ))
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    let all = rows("ids=dolar").await;
    let page = get_json("/api/v1/series?ids=dolar&sort=desc&limit=2&start=1&metadata=none").await;
    assert_eq!(page["count"], all.len());
    assert!(page.get("meta").is_none());
    let dates: Vec<&str> = page["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|r| r[0].as_str().expect("d"))
        .collect();
    let newest: Vec<&str> = all
        .iter()
        .rev()
        .skip(1)
        .take(2)
        .map(|(d, _)| d.as_str())
        .collect();
    assert_eq!(dates, newest);
    let only = get_json("/api/v1/series?ids=dolar&metadata=only").await;
    assert!(only.get("data").is_none());
    assert_eq!(only["meta"][1]["field"]["id"], "dolar");
    // Dates bound the rows, both included; a year covers all its months.
    let from = &all[1].0[..7];
    let to = &all[all.len() - 2].0[..7];
    let bounded = rows(&format!("ids=dolar&start_date={from}&end_date={to}")).await;
    assert_eq!(bounded, all[1..all.len() - 1].to_vec());
    let year = &all[0].0[..4];
    let in_year = rows(&format!("ids=dolar&start_date={year}&end_date={year}")).await;
    assert!(in_year.iter().all(|(d, _)| d.starts_with(year)) && !in_year.is_empty());
}

#[tokio::test]
async fn make_and_version_series_are_found_by_their_names() {
    let report: Value = serde_json::from_slice(
        &fs::read(
            fixture()
                .public
                .join(format!("informes/{}/informe.json", months().await[1].0)),
        )
        .expect("report"),
    )
    .expect("JSON");
    let cheapest = &report["data"]["cheapest"][0];
    let id = cheapest["id"].as_str().expect("id");
    let make = cheapest["make"].as_str().expect("make");
    let version = rows(&format!(
        "ids=version.{id}.ars,indice.marca.{}.usd",
        make.to_uppercase()
    ))
    .await;
    assert!(version.iter().any(|(_, values)| values[0].is_some()));
}

/// The fixture's series published as of the catalogue check `end`.
fn snapshot_at(end: &str) -> Fixture {
    Fixture::generated(&series_at(end))
}

/// The fixture's series as of the catalogue check `end`.
fn series_at(end: &str) -> autoprecios::snapshot::Snapshot {
    let series = generate_sample(&SampleOptions {
        versions: 40,
        days: 220,
        ..SampleOptions::default()
    });
    as_of(series, parse_time(end).expect("time")).expect("as of")
}

/// The fixture's series as of `end`, written as CSV into `dir/data-{i}`.
fn write_series_at(dir: &std::path::Path, i: usize, end: &str) -> std::path::PathBuf {
    let data = dir.join(format!("data-{i}"));
    autoprecios::snapshot::write_snapshot(
        &series_at(end),
        &data,
        autoprecios::snapshot::TableFormat::Csv,
    )
    .expect("write");
    data
}

/// What a tree publishes of the market: its pages and files, the edge's
/// data and the record the next run keeps the final months by.
fn market_files(tree: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = read_tree(&tree.join("public/informes"))
        .into_iter()
        .collect();
    for file in ["_edge/market.msgpack", autoprecios::market::kept::RECORD] {
        files.push((file.to_owned(), fs::read(tree.join(file)).expect(file)));
    }
    files
}

#[test]
fn a_run_over_the_previous_tree_publishes_the_market_a_fresh_run_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let routine = dir.path().join("routine");
    // A month in progress that the next check finds final, then two
    // checks of one month: the first run over a tree keeps no month that
    // was in progress, the second keeps every final one.
    let checks = [
        "2026-10-31T20:00:00Z",
        "2026-11-21T20:00:00Z",
        "2026-11-21T23:00:00Z",
    ];
    for (i, end) in checks.into_iter().enumerate() {
        let data = write_series_at(dir.path(), i, end);
        autoprecios::generate::generate(&options(&data, &routine)).expect("routine run");
        let fresh = dir.path().join(format!("fresh-{i}"));
        autoprecios::generate::generate(&options(&data, &fresh)).expect("fresh run");
        let (kept, computed) = (market_files(&routine), market_files(&fresh));
        assert_eq!(kept.len(), computed.len(), "{end}");
        for ((name, bytes), (fresh_name, fresh_bytes)) in kept.iter().zip(&computed) {
            assert_eq!(name, fresh_name);
            assert!(
                bytes == fresh_bytes,
                "{end}: {name} differs from a fresh run's"
            );
        }
    }
}

#[test]
fn a_final_month_is_taken_from_the_record_while_its_key_holds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let write = |i: usize, end: &str| write_series_at(dir.path(), i, end);
    let first = write(0, "2026-11-21T20:00:00Z");
    autoprecios::generate::generate(&options(&first, &out)).expect("first run");
    // A headline planted in the record's first month: a run that keeps the
    // month publishes it, one that computes the month does not.
    let record = out.join(autoprecios::market::kept::RECORD);
    let mut value: Value = rmp_serde::from_slice(&fs::read(&record).expect("record"))
        .expect("the record is MessagePack");
    let month = value["months"][0]["computed"]["month"]
        .as_str()
        .expect("a final month")
        .to_owned();
    value["months"][0]["computed"]["report"]["headline"]["text"] = "planted".into();
    let planted = rmp_serde::to_vec_named(&value).expect("encode");
    // The tree's files are hard links shared with the next tree: replaced,
    // not written in place.
    fs::remove_file(&record).expect("remove");
    fs::write(&record, &planted).expect("plant");
    let headline = |out: &std::path::Path| -> Value {
        let file = out.join(format!("public/informes/{month}/informe.json"));
        serde_json::from_slice::<Value>(&fs::read(file).expect("report"))
            .expect("JSON")["data"]["headline"]["text"]
            .clone()
    };
    let next = write(1, "2026-11-21T23:00:00Z");
    autoprecios::generate::generate(&options(&next, &out)).expect("next run");
    assert_eq!(headline(&out), "planted", "{month} kept from the record");
    // Another base URL changes every key: the month is computed again.
    let mut moved = options(&next, &out);
    moved.base_url = "https://elsewhere.example".to_owned();
    fs::remove_file(&record).expect("remove");
    fs::write(&record, &planted).expect("plant again");
    autoprecios::generate::generate(&moved).expect("moved run");
    assert_ne!(headline(&out), "planted", "{month} computed again");
}

#[test]
fn a_final_month_is_the_same_bytes_in_the_next_publication() {
    // Two consecutive catalogue checks of one series.
    let earlier = snapshot_at("2026-11-21T20:00:00Z");
    let later = snapshot_at("2026-11-21T23:00:00Z");
    let list: Value = serde_json::from_slice(
        &fs::read(later.public.join("informes/informes.json")).expect("list"),
    )
    .expect("JSON");
    let mut closed = 0;
    for month in list["data"]["reports"].as_array().expect("reports") {
        let label = month["month"].as_str().expect("month");
        let dir = format!("informes/{label}");
        let files: Vec<String> = fs::read_dir(later.public.join(&dir))
            .expect("the month's files")
            .map(|entry| {
                format!(
                    "{dir}/{}",
                    entry.expect("entry").file_name().to_string_lossy()
                )
            })
            .collect();
        // The page, its JSON, five CSVs, and from the second month on its
        // charts (a line needs two months).
        let oldest = list["data"]["reports"].as_array().and_then(|m| m.last());
        let first = oldest.and_then(|m| m["month"].as_str()) == Some(label);
        assert!(files.len() >= 7, "{files:?}");
        let charted = files.iter().any(|file| file.ends_with("/indice.svg"));
        assert_eq!(charted, !first, "{files:?}");
        let same = files.iter().all(|file| {
            fs::read(earlier.public.join(file)).ok() == fs::read(later.public.join(file)).ok()
        });
        match month["status"].as_str() {
            Some("final") => {
                let differ: Vec<&String> = files
                    .iter()
                    .filter(|file| {
                        fs::read(earlier.public.join(file)).ok()
                            != fs::read(later.public.join(file)).ok()
                    })
                    .collect();
                assert!(
                    same,
                    "{label} is final: its files do not change: {differ:?}"
                );
                closed += 1;
            }
            _ => assert!(!same, "{label} is in progress: its numbers move"),
        }
    }
    assert!(closed >= 5);
}
