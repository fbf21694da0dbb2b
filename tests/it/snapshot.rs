//! Snapshot stage tests: a small snapshot built in code survives a write and
//! load in both formats, writes are byte-identical, and every broken snapshot
//! is rejected with a message naming the file, row and column.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use autoprecios::snapshot::{
    CatalogueRun, Money, QuoteCheck, Snapshot, SnapshotMeta, SpecSource, Specs, TableFormat,
    load_snapshot, write_snapshot,
};
use autoprecios::time::{Time, parse_time};
use autoprecios::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};
use polars::prelude::{CsvReadOptions, DataType, ParquetWriter, SerReader};
use serde_json::json;

use crate::harness::{bare_quote as quote, bare_version};

fn t(text: &str) -> Time {
    parse_time(text).expect("fixture time")
}

/// Catalogue checks: rows 1 to 4 of `catalogue_checks.csv`.
const CHECKS: [&str; 4] = [
    "2026-11-20T12:00:00Z",
    "2026-11-20T18:00:00Z",
    "2026-11-21T12:00:00Z",
    "2026-11-21T15:00:00Z",
];

fn ars(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Ars,
    }
}

fn usd(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Usd,
    }
}

fn run(first: usize, last: usize, price: Money) -> CatalogueRun {
    CatalogueRun {
        first_seen: t(CHECKS[first]),
        last_seen: t(CHECKS[last]),
        price,
    }
}

fn specs() -> Specs {
    let source = SpecSource {
        publisher: "Toyota Argentina".into(),
        title: "Ficha técnica Hilux".into(),
        url: "https://toyota.example/hilux.pdf".into(),
        kind: "official".into(),
        document_date: None,
        retrieved_at: "2026-11-01T10:00:00Z".into(),
    };
    Specs {
        collected_at: "2026-11-01T10:00:00Z".into(),
        source_label: Some("Toyota".into()),
        values: [
            ("lengthMm", json!(5325)),
            ("consumptionL100km", json!(8.4)),
            ("powerKw", json!(150)),
            ("aebLowSpeed", json!("optional")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect(),
        source_of: [("lengthMm".to_owned(), "brochure".to_owned())].into(),
        sources: [("brochure".to_owned(), source)].into(),
        gaps: [(
            "trunkL".to_owned(),
            json!({"reason": "missing", "note": "not published"}),
        )]
        .into(),
    }
}

/// Row numbers, as written (versions by ID, then by time, quotes by ID):
/// versions 1 `Hilux-SRV`, 2 `hilux-srv`, 3 `onix-lt`;
/// catalogue_prices 1-2 `Hilux-SRV`, 3 `hilux-srv`, 4 `onix-lt`;
/// quote_checks 1-2 `Hilux-SRV` (ARS), 3-4 `hilux-srv` (no rate), 5 `onix-lt`;
/// quotes 1-2 at check 1, 3 at check 2, 4-5 at check 3, 6 at check 5.
fn fixture() -> Snapshot {
    let mut hilux = bare_version("Hilux-SRV", "Toyota", "Hilux", "2.8 TDI SRV 4x4 AT");
    hilux.identity.trim_display = Some("2.8 TDI SRV 4x4 AT".into());
    hilux.identity.body_type = Some(BodyType::Pickup);
    hilux.identity.tier = Some("SRV".into());
    hilux.identity.tier_label = Some("SRV, \"top\" trim".into());
    hilux.identity.fuel = Some(Fuel::Diesel);
    hilux.identity.transmission = Some(Transmission::Automatic);
    hilux.drivetrain = Some(Drivetrain::FourByFourLowRange);
    hilux.identity.seats = Some(5);
    hilux.identity.airbags = Some(7);
    hilux.identity.fact_sources = std::sync::Arc::new(
        [
            ("fuel".to_owned(), "official".to_owned()),
            ("seats".to_owned(), "catalogue".to_owned()),
        ]
        .into(),
    );
    hilux.catalogue = vec![run(0, 1, ars(60_000_000.5)), run(3, 3, ars(61_250_000.0))];
    let mut full = quote("q1", ars(60_100_000.0));
    full.fees_included = Some(true);
    full.color = Some("Blanco, perlado".into());
    full.stock = Some(2);
    full.location = Some("Córdoba".into());
    full.seller_id = Some("dealer-7".into());
    hilux.checks = vec![
        QuoteCheck {
            observed_at: t(CHECKS[1]),
            ars_per_usd: Some(1450.25),
            in_stock: true,
            quotes: vec![full, quote("q2", ars(59_900_000.0))],
        },
        QuoteCheck {
            observed_at: t("2026-11-21T15:30:00Z"),
            ars_per_usd: Some(1460.0),
            in_stock: true,
            quotes: vec![quote("q3", ars(61_000_000.0))],
        },
    ];
    hilux.specs = Some(std::sync::Arc::new(specs()));

    let mut lower = bare_version("hilux-srv", "Toyota", "Hilux", "2.4 DX 4x2 MT");
    lower.catalogue = vec![run(0, 3, usd(31_500.75))];
    lower.checks = vec![
        QuoteCheck {
            observed_at: t(CHECKS[2]),
            ars_per_usd: None,
            in_stock: false,
            quotes: vec![quote("a", usd(31_000.0)), quote("b", usd(0.1 + 0.2))],
        },
        QuoteCheck {
            observed_at: t(CHECKS[3]),
            ars_per_usd: None,
            in_stock: true,
            quotes: Vec::new(),
        },
    ];

    let mut onix = bare_version("onix-lt", "Chevrolet", "Onix", "1.0T LT");
    onix.identity.body_type = Some(BodyType::Hatchback);
    onix.identity.fuel = Some(Fuel::Petrol);
    onix.identity.transmission = Some(Transmission::Manual);
    onix.drivetrain = Some(Drivetrain::Fwd);
    onix.identity.seats = Some(5);
    onix.identity.airbags = Some(2);
    onix.catalogue = vec![run(2, 3, usd(17_999.99))];
    let mut stocked = quote("x1", usd(18_100.5));
    stocked.stock = Some(3);
    stocked.fees_included = Some(false);
    onix.checks = vec![QuoteCheck {
        observed_at: t("2026-11-21T14:00:00Z"),
        ars_per_usd: Some(1455.5),
        in_stock: true,
        quotes: vec![stocked],
    }];

    Snapshot {
        spilled_in: None,
        cpi: Vec::new(),
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: t("2026-11-21T16:00:00Z"),
            catalogue_observed_at: t(CHECKS[3]),
            source: "https://autos.example".into(),
            site_name: "Autos Example".into(),
            synthetic: true,
            notice: Some("test fixture".into()),
            exchange_rate_source: None,
            data_license: None,
        },
        catalogue_checks: CHECKS.iter().map(|c| t(c)).collect(),
        versions: vec![hilux, lower, onix],
    }
}

fn written(format: TableFormat) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write_snapshot(&fixture(), dir.path(), format).expect("write fixture");
    dir
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .expect("read dir")
        .map(|entry| {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, fs::read(&path).expect("read file"))
        })
        .collect()
}

#[test]
fn round_trip_preserves_the_snapshot_in_both_formats() {
    for format in [TableFormat::Csv, TableFormat::Parquet] {
        let dir = written(format);
        let loaded = load_snapshot(dir.path()).unwrap_or_else(|err| panic!("{format:?}: {err:#}"));
        assert_eq!(loaded, fixture(), "{format:?}");
    }
}

#[test]
fn writing_twice_gives_identical_bytes() {
    for format in [TableFormat::Csv, TableFormat::Parquet] {
        let (first, second) = (written(format), written(format));
        let first = files(first.path());
        assert_eq!(first.len(), 8, "{format:?}: {:?}", first.keys());
        assert_eq!(first, files(second.path()), "{format:?}");
    }
}

#[test]
fn parquet_wins_over_csv_and_accepts_integer_prices() {
    let mut snapshot = fixture();
    for check in snapshot
        .versions
        .iter_mut()
        .flat_map(|v| v.checks.iter_mut())
    {
        for quote in &mut check.quotes {
            quote.price.amount = quote.price.amount.ceil();
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write_snapshot(&snapshot, dir.path(), TableFormat::Csv).expect("write");
    // Inferred types turn the whole-number prices into i64, which `number` accepts.
    let mut frame = CsvReadOptions::default()
        .with_infer_schema_length(None)
        .try_into_reader_with_file_path(Some(dir.path().join("quotes.csv")))
        .expect("open csv")
        .finish()
        .expect("read csv");
    assert_eq!(
        frame.column("price").expect("price").dtype(),
        &DataType::Int64
    );
    let file = fs::File::create(dir.path().join("quotes.parquet")).expect("create");
    ParquetWriter::new(file)
        .finish(&mut frame)
        .expect("write parquet");
    fs::write(dir.path().join("quotes.csv"), "garbage\n").expect("spoil csv");
    let loaded = load_snapshot(dir.path()).unwrap_or_else(|err| panic!("{err:#}"));
    assert_eq!(loaded, snapshot);
}

#[test]
fn empty_quote_tables_and_no_specs_are_allowed() {
    let dir = written(TableFormat::Csv);
    keep_header_only(dir.path(), "quotes");
    keep_header_only(dir.path(), "quote_checks");
    fs::remove_file(dir.path().join("specs.jsonl")).expect("remove specs");
    let loaded = load_snapshot(dir.path()).unwrap_or_else(|err| panic!("{err:#}"));
    assert!(
        loaded
            .versions
            .iter()
            .all(|v| v.checks.is_empty() && v.specs.is_none())
    );
}

#[test]
fn ids_differing_only_in_case_are_distinct_versions() {
    let loaded = load_snapshot(written(TableFormat::Csv).path()).expect("load");
    let ids: Vec<&str> = loaded.versions.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["Hilux-SRV", "hilux-srv", "onix-lt"]);
}

mod broken;

/// Reads a CSV written by the fixture into rows of cells (RFC 4180 quoting).
fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).expect("read csv");
    let (mut rows, mut row, mut cell, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\n', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            _ => cell.push(c),
        }
    }
    rows
}

fn write_csv(path: &Path, rows: &[Vec<String>]) {
    let quote = |cell: &String| {
        if cell.contains([',', '"', '\n']) {
            format!("\"{}\"", cell.replace('"', "\"\""))
        } else {
            cell.clone()
        }
    };
    let text: String = rows
        .iter()
        .map(|row| row.iter().map(quote).collect::<Vec<_>>().join(",") + "\n")
        .collect();
    fs::write(path, text).expect("write csv");
}

/// Sets one cell of `TABLE.csv`; `row` counts data rows from 1.
fn set_cell(dir: &Path, table: &str, row: usize, column: &str, value: &str) {
    let path = dir.join(format!("{table}.csv"));
    let mut rows = read_csv(&path);
    let index = rows[0]
        .iter()
        .position(|name| name == column)
        .expect("column in fixture");
    rows[row][index] = value.to_owned();
    write_csv(&path, &rows);
}

fn keep_header_only(dir: &Path, table: &str) {
    let path = dir.join(format!("{table}.csv"));
    let rows = read_csv(&path);
    write_csv(&path, &rows[..1]);
}
