//! Broken snapshots through `generate`: each case breaks the shared fixture's
//! snapshot in one way (truncated Parquet, wrong column types, empty tables,
//! no published version, times after `snapshotAt`) and runs `generate` over a
//! previously generated tree. It must fail naming the file and column, leave
//! that tree byte-identical, and the edge must keep serving it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use autoprecios::edge::AppState;
use autoprecios::generate::generate;
use autoprecios::snapshot::{Snapshot, TableFormat, load_snapshot, write_snapshot};
use axum::http::{Method, StatusCode};
use chrono::Duration;
use polars::prelude::{Column, DataFrame, DataType, ParquetReader, ParquetWriter, SerReader};

use crate::harness::send_to;
use crate::harness::{fixture, options};

/// One way to break a snapshot.
enum Break {
    /// Edit the snapshot before it is written.
    Model(fn(&mut Snapshot)),
    /// Edit the written files.
    Files(fn(&Path)),
}

struct Case {
    name: &'static str,
    format: TableFormat,
    how: Break,
    /// Texts the error chain must contain.
    expect: &'static [&'static str],
}

use Break::{Files, Model};
use TableFormat::{Csv, Parquet};

/// The fixture's snapshot as loaded, shared.
fn base() -> &'static Snapshot {
    static BASE: OnceLock<Snapshot> = OnceLock::new();
    BASE.get_or_init(|| load_snapshot(&fixture().data).expect("the fixture loads"))
}

fn truncate_to_half(path: &Path) {
    let bytes = fs::read(path).expect("read");
    fs::write(path, &bytes[..bytes.len() / 2]).expect("truncate");
}

/// Rewrites a Parquet table with every column but its times (which are
/// valid either way) cast to text.
fn all_text(path: &Path) {
    rewrite_columns(path, |column| match column.dtype() {
        DataType::Datetime(..) => column.clone(),
        _ => column.cast(&DataType::String).expect("cast to text"),
    });
}

/// Rewrites a Parquet table with its times as timestamps without a time zone.
fn naive_times(path: &Path) {
    rewrite_columns(path, |column| match column.dtype() {
        DataType::Datetime(unit, Some(_)) => column
            .cast(&DataType::Datetime(*unit, None))
            .expect("drop the time zone"),
        _ => column.clone(),
    });
}

/// Rewrites a Parquet table with each column mapped by `map`.
fn rewrite_columns(path: &Path, map: impl Fn(&Column) -> Column) {
    let file = fs::File::open(path).expect("open");
    let frame = ParquetReader::new(file).finish().expect("read");
    let columns = frame.columns().iter().map(map).collect();
    let mut frame = DataFrame::new(frame.height(), columns).expect("frame");
    let file = fs::File::create(path).expect("create");
    ParquetWriter::new(file).finish(&mut frame).expect("write");
}

/// The latest quote check of every version out of stock.
fn nothing_in_stock(snapshot: &mut Snapshot) {
    for version in &mut snapshot.versions {
        if let Some(check) = version.checks.last_mut() {
            check.in_stock = false;
        }
    }
}

fn cases() -> Vec<Case> {
    const NONE_PUBLISHED: &[&str] = &["no published version", "quote_checks", "catalogue_prices"];
    vec![
        Case {
            name: "truncated Parquet",
            format: Parquet,
            how: Files(|d| truncate_to_half(&d.join("quotes.parquet"))),
            expect: &["quotes.parquet"],
        },
        Case {
            name: "empty Parquet file",
            format: Parquet,
            how: Files(|d| fs::write(d.join("versions.parquet"), b"").expect("write")),
            expect: &["versions.parquet"],
        },
        Case {
            name: "prices as text",
            format: Parquet,
            how: Files(|d| all_text(&d.join("catalogue_prices.parquet"))),
            expect: &["catalogue_prices.parquet", "column \"price\"", "wrong type"],
        },
        Case {
            name: "exchange rates as text",
            format: Parquet,
            how: Files(|d| all_text(&d.join("quote_checks.parquet"))),
            expect: &["quote_checks.parquet", "column \"arsPerUsd\"", "wrong type"],
        },
        Case {
            name: "check times without a time zone",
            format: Parquet,
            how: Files(|d| naive_times(&d.join("quote_checks.parquet"))),
            expect: &[
                "quote_checks.parquet",
                "column \"observedAt\"",
                "without one",
            ],
        },
        Case {
            name: "no versions",
            format: Csv,
            how: Model(|s| s.versions.clear()),
            expect: &["versions.csv", "no rows"],
        },
        Case {
            name: "empty catalogue_prices",
            format: Csv,
            how: Model(|s| s.versions.iter_mut().for_each(|v| v.catalogue.clear())),
            expect: NONE_PUBLISHED,
        },
        Case {
            name: "empty quote_checks and quotes",
            format: Parquet,
            how: Model(|s| s.versions.iter_mut().for_each(|v| v.checks.clear())),
            expect: NONE_PUBLISHED,
        },
        Case {
            name: "empty quotes",
            format: Csv,
            how: Model(|s| {
                for version in &mut s.versions {
                    version.checks.iter_mut().for_each(|c| c.quotes.clear());
                }
            }),
            expect: NONE_PUBLISHED,
        },
        Case {
            name: "nothing in stock",
            format: Csv,
            how: Model(nothing_in_stock),
            expect: NONE_PUBLISHED,
        },
        Case {
            name: "a quote check after snapshotAt",
            format: Csv,
            how: Model(|s| {
                let later = s.meta.snapshot_at + Duration::minutes(1);
                let check = s.versions[3].checks.last_mut().expect("checks");
                check.observed_at = later;
            }),
            expect: &[
                "quote_checks.csv",
                "column \"observedAt\"",
                "after snapshotAt",
            ],
        },
        Case {
            name: "a catalogue check after snapshotAt",
            format: Parquet,
            how: Model(|s| {
                let later = s.meta.snapshot_at + Duration::hours(1);
                s.catalogue_checks.push(later);
            }),
            expect: &["catalogue_checks.parquet", "column \"observedAt\""],
        },
        Case {
            name: "snapshotAt before catalogueObservedAt",
            format: Csv,
            how: Model(|s| s.meta.snapshot_at = s.meta.catalogue_observed_at - Duration::hours(1)),
            expect: &["snapshot.json", "snapshotAt"],
        },
    ]
}

/// Every file under `root` with its bytes, by path.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.insert(path.clone(), fs::read(&path).expect("read"));
            }
        }
    }
    files
}

/// The snapshot of `case`, written into `dir`.
fn write_case(case: &Case, dir: &Path) {
    let mut snapshot = base().clone();
    if let Model(edit) = case.how {
        edit(&mut snapshot);
    }
    write_snapshot(&snapshot, dir, case.format).expect("write the broken snapshot");
    if let Files(edit) = case.how {
        edit(dir);
    }
}

async fn assert_serves(state: &AppState, context: &str) {
    for uri in ["/api/v1", "/api/v1/vehicles?limit=1", "/developers"] {
        let reply = send_to(state.clone(), Method::GET, uri, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{context}: {uri}");
    }
}

#[tokio::test]
async fn broken_snapshots_fail_generate_and_leave_the_served_tree_alone() {
    let work = tempfile::tempdir().expect("tempdir");
    let out = work.path().join("output");
    generate(&options(&fixture().data, &out)).expect("the good tree");
    let before = tree(&out);
    let serving = AppState::load(&out).expect("serve the good tree");
    let mut failures = Vec::new();
    for case in cases() {
        let data = work.path().join(case.name.replace(' ', "-"));
        write_case(&case, &data);
        let message = match generate(&options(&data, &out)) {
            Ok(_) => panic!("{}: generated without error", case.name),
            Err(err) => format!("{err:#}"),
        };
        if let Some(missing) = case.expect.iter().find(|text| !message.contains(*text)) {
            failures.push(format!("{}: {missing:?} not in: {message}", case.name));
        }
        assert!(tree(&out) == before, "{}: the tree changed", case.name);
        assert!(
            !work.path().join("output.staging").exists(),
            "{}: staging left behind",
            case.name
        );
        let reloaded = serving.reload_if_changed().expect("no reload error");
        assert!(!reloaded, "{}: the edge saw a new tree", case.name);
        assert_serves(&serving, case.name).await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let fresh = AppState::load(&out).expect("the kept tree still loads");
    assert_serves(&fresh, "a fresh edge").await;
}
