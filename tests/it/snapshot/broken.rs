//! Snapshot stage, broken snapshots: each case writes the valid fixture as
//! CSV, corrupts one thing, and checks that loading fails with a message naming
//! the file, the column and (where there is one) the row. Row numbers are the
//! fixture's, listed on `fixture()`.

use std::fs;
use std::path::Path;

use autoprecios::snapshot::{InBrief, TableFormat, load_snapshot, load_snapshot_for_signals};
use autoprecios::vocab::Currency;
use polars::prelude::{CsvReadOptions, ParquetWriter, SerReader};

use super::{CHECKS, keep_header_only, read_csv, set_cell, write_csv, written};

/// What the error message must contain.
enum Expect {
    /// `FILE: row N, column "NAME"`.
    Cell(&'static str, usize, &'static str),
    /// Each of these texts.
    Names(&'static [&'static str]),
}

use Expect::{Cell, Names};

struct Case {
    name: &'static str,
    corrupt: fn(&Path),
    expect: Expect,
}

fn set_meta(dir: &Path, field: &str, value: serde_json::Value) {
    let path = dir.join("snapshot.json");
    let mut meta: serde_json::Value =
        serde_json::from_slice(&fs::read(&path).expect("read")).expect("json");
    meta[field] = value;
    fs::write(&path, serde_json::to_string_pretty(&meta).expect("json")).expect("write");
}

fn rename_column(dir: &Path, table: &str, from: &str, to: &str) {
    let path = dir.join(format!("{table}.csv"));
    let mut rows = read_csv(&path);
    for name in &mut rows[0] {
        if name == from {
            *name = to.to_owned();
        }
    }
    write_csv(&path, &rows);
}

/// Replaces `quotes.csv` by a Parquet file whose columns are all strings.
fn quotes_as_string_parquet(dir: &Path) {
    let csv = dir.join("quotes.csv");
    let mut frame = CsvReadOptions::default()
        .with_infer_schema_length(Some(0))
        .try_into_reader_with_file_path(Some(csv.clone()))
        .expect("open")
        .finish()
        .expect("read");
    let file = fs::File::create(dir.join("quotes.parquet")).expect("create");
    ParquetWriter::new(file).finish(&mut frame).expect("write");
    fs::remove_file(csv).expect("remove csv");
}

fn edit_specs(dir: &Path, edit: impl FnOnce(String) -> String) {
    let path = dir.join("specs.jsonl");
    let text = fs::read_to_string(&path).expect("read specs");
    fs::write(&path, edit(text)).expect("write specs");
}

fn cases() -> Vec<Case> {
    vec![
        // Files, columns and types.
        Case {
            name: "missing file",
            corrupt: |d| fs::remove_file(d.join("quotes.csv")).expect("rm"),
            expect: Names(&["quotes.parquet", "quotes.csv"]),
        },
        Case {
            name: "missing snapshot.json",
            corrupt: |d| fs::remove_file(d.join("snapshot.json")).expect("rm"),
            expect: Names(&["snapshot.json"]),
        },
        Case {
            name: "missing column",
            corrupt: |d| rename_column(d, "quotes", "currency", "curr"),
            expect: Names(&["quotes.csv", "missing column \"currency\""]),
        },
        Case {
            name: "wrong type in parquet",
            corrupt: quotes_as_string_parquet,
            expect: Names(&[
                "quotes.parquet",
                "column \"price\"",
                "wrong type",
                "found str",
            ]),
        },
        Case {
            name: "unparseable time",
            corrupt: |d| set_cell(d, "quote_checks", 3, "observedAt", "yesterday"),
            expect: Cell("quote_checks.csv", 3, "observedAt"),
        },
        Case {
            name: "time without zone",
            corrupt: |d| set_cell(d, "catalogue_prices", 2, "lastSeen", "2026-11-21 15:00"),
            expect: Cell("catalogue_prices.csv", 2, "lastSeen"),
        },
        Case {
            name: "price not a number",
            corrupt: |d| set_cell(d, "catalogue_prices", 4, "price", "17.999,99"),
            expect: Cell("catalogue_prices.csv", 4, "price"),
        },
        Case {
            name: "seats not an integer",
            corrupt: |d| set_cell(d, "versions", 1, "seats", "five"),
            expect: Cell("versions.csv", 1, "seats"),
        },
        Case {
            name: "negative airbags",
            corrupt: |d| set_cell(d, "versions", 3, "airbags", "-2"),
            expect: Cell("versions.csv", 3, "airbags"),
        },
        Case {
            name: "boolean not true/false",
            corrupt: |d| set_cell(d, "quote_checks", 2, "inStock", "yes"),
            expect: Cell("quote_checks.csv", 2, "inStock"),
        },
        Case {
            name: "empty required cell",
            corrupt: |d| set_cell(d, "versions", 2, "make", ""),
            expect: Cell("versions.csv", 2, "make"),
        },
        // Values.
        Case {
            name: "unknown currency",
            corrupt: |d| set_cell(d, "quotes", 5, "currency", "EUR"),
            expect: Cell("quotes.csv", 5, "currency"),
        },
        Case {
            name: "non-positive quote price",
            corrupt: |d| set_cell(d, "quotes", 2, "price", "-5"),
            expect: Cell("quotes.csv", 2, "price"),
        },
        Case {
            name: "zero catalogue price",
            corrupt: |d| set_cell(d, "catalogue_prices", 3, "price", "0"),
            expect: Cell("catalogue_prices.csv", 3, "price"),
        },
        Case {
            name: "non-positive exchange rate",
            corrupt: |d| set_cell(d, "quote_checks", 5, "arsPerUsd", "-1"),
            expect: Cell("quote_checks.csv", 5, "arsPerUsd"),
        },
        Case {
            name: "unknown fuel",
            corrupt: |d| set_cell(d, "versions", 3, "fuel", "Gasoline"),
            expect: Cell("versions.csv", 3, "fuel"),
        },
        Case {
            name: "body type in wrong case",
            corrupt: |d| set_cell(d, "versions", 1, "type", "pickup"),
            expect: Cell("versions.csv", 1, "type"),
        },
        Case {
            name: "unknown transmission",
            corrupt: |d| set_cell(d, "versions", 3, "transmission", "CVT"),
            expect: Cell("versions.csv", 3, "transmission"),
        },
        Case {
            name: "unknown drivetrain",
            corrupt: |d| set_cell(d, "versions", 3, "drivetrain", "FWD"),
            expect: Cell("versions.csv", 3, "drivetrain"),
        },
        Case {
            name: "id too long",
            corrupt: |d| set_cell(d, "versions", 2, "id", &"x".repeat(161)),
            expect: Cell("versions.csv", 2, "id"),
        },
        Case {
            name: "make too long",
            corrupt: |d| set_cell(d, "versions", 3, "make", &"M".repeat(101)),
            expect: Cell("versions.csv", 3, "make"),
        },
        Case {
            name: "model too long",
            corrupt: |d| set_cell(d, "versions", 1, "model", &"é".repeat(101)),
            expect: Cell("versions.csv", 1, "model"),
        },
        Case {
            name: "invalid factSources",
            corrupt: |d| set_cell(d, "versions", 1, "factSources", "{fuel"),
            expect: Cell("versions.csv", 1, "factSources"),
        },
        // Keys and references.
        Case {
            name: "duplicate version id",
            corrupt: |d| set_cell(d, "versions", 3, "id", "Hilux-SRV"),
            expect: Cell("versions.csv", 3, "id"),
        },
        Case {
            name: "quote for an unknown version",
            corrupt: |d| set_cell(d, "quotes", 6, "versionId", "onix-ltz"),
            expect: Cell("quotes.csv", 6, "versionId"),
        },
        Case {
            name: "catalogue price for an unknown version",
            corrupt: |d| set_cell(d, "catalogue_prices", 4, "versionId", "Onix-LT"),
            expect: Cell("catalogue_prices.csv", 4, "versionId"),
        },
        Case {
            name: "quote check for an unknown version",
            corrupt: |d| set_cell(d, "quote_checks", 5, "versionId", "ONIX-LT"),
            expect: Cell("quote_checks.csv", 5, "versionId"),
        },
        Case {
            name: "specs for an unknown version",
            corrupt: |d| edit_specs(d, |s| s.replace("\"Hilux-SRV\"", "\"hilux-SRV\"")),
            expect: Names(&["specs.jsonl: line 1", "versionId", "hilux-SRV"]),
        },
        Case {
            name: "specs bad line",
            corrupt: |d| edit_specs(d, |s| s + "{\"versionId\": \"onix-lt\"\n"),
            expect: Names(&["specs.jsonl: line 2"]),
        },
        Case {
            name: "specs for an unknown version before a bad line",
            corrupt: |d| edit_specs(d, |s| s.replace("\"Hilux-SRV\"", "\"hilux-SRV\"") + "{\n"),
            expect: Names(&["specs.jsonl: line 1", "versionId", "hilux-SRV"]),
        },
        Case {
            name: "specs bad line before an unknown version",
            corrupt: |d| {
                edit_specs(d, |s| {
                    "{\n".to_owned() + &s.replace("\"Hilux-SRV\"", "\"hilux-SRV\"")
                })
            },
            expect: Names(&["specs.jsonl: line 1: invalid record"]),
        },
        Case {
            name: "second specs record",
            corrupt: |d| edit_specs(d, |s| s.clone() + &s),
            expect: Names(&["specs.jsonl: line 2", "versionId"]),
        },
        Case {
            name: "exchange rate missing",
            corrupt: |d| set_cell(d, "quote_checks", 1, "arsPerUsd", ""),
            expect: Names(&[
                "quote_checks.csv: row 1, column \"arsPerUsd\"",
                "exchange rate missing",
                "quotes.csv: row 1",
            ]),
        },
        Case {
            name: "quote without a check",
            corrupt: |d| set_cell(d, "quotes", 3, "checkedAt", "2026-11-21T15:31:00Z"),
            expect: Cell("quotes.csv", 3, "checkedAt"),
        },
        Case {
            name: "duplicate quote check",
            corrupt: |d| set_cell(d, "quote_checks", 4, "observedAt", CHECKS[2]),
            expect: Cell("quote_checks.csv", 4, "observedAt"),
        },
        Case {
            // Hilux-SRV (the first version) repeats rows 1 and 5, hilux-srv
            // rows 3 and 4: reading in row order meets row 4 first.
            name: "two duplicate quote checks, the first in row order",
            corrupt: |d| {
                set_cell(d, "quote_checks", 5, "versionId", "Hilux-SRV");
                set_cell(d, "quote_checks", 5, "observedAt", CHECKS[1]);
                set_cell(d, "quote_checks", 4, "observedAt", CHECKS[2]);
            },
            expect: Cell("quote_checks.csv", 4, "observedAt"),
        },
        Case {
            name: "duplicate quote id",
            corrupt: |d| set_cell(d, "quotes", 5, "quoteId", "a"),
            expect: Names(&[
                "quotes.csv: row 5, column \"quoteId\": duplicate quote id \"a\"",
                "(first at row 4)",
            ]),
        },
        Case {
            // Versions are checked in parallel; the first in order is named.
            name: "duplicate quote ids in two versions",
            corrupt: |d| {
                set_cell(d, "quotes", 5, "quoteId", "a");
                set_cell(d, "quotes", 2, "quoteId", "q1");
            },
            expect: Names(&[
                "quotes.csv: row 2, column \"quoteId\": duplicate quote id \"q1\"",
                "(first at row 1)",
            ]),
        },
        // Catalogue runs.
        Case {
            name: "firstSeen after lastSeen",
            corrupt: |d| {
                set_cell(d, "catalogue_prices", 3, "firstSeen", CHECKS[3]);
                set_cell(d, "catalogue_prices", 3, "lastSeen", CHECKS[0]);
            },
            expect: Cell("catalogue_prices.csv", 3, "lastSeen"),
        },
        Case {
            name: "firstSeen not a check",
            corrupt: |d| {
                set_cell(
                    d,
                    "catalogue_prices",
                    1,
                    "firstSeen",
                    "2026-11-20T12:01:00Z",
                )
            },
            expect: Cell("catalogue_prices.csv", 1, "firstSeen"),
        },
        Case {
            name: "lastSeen not a check",
            corrupt: |d| {
                set_cell(
                    d,
                    "catalogue_prices",
                    4,
                    "lastSeen",
                    "2026-11-21T15:00:00-03:00",
                )
            },
            expect: Cell("catalogue_prices.csv", 4, "lastSeen"),
        },
        Case {
            name: "overlapping runs",
            corrupt: |d| set_cell(d, "catalogue_prices", 2, "firstSeen", CHECKS[1]),
            expect: Cell("catalogue_prices.csv", 2, "firstSeen"),
        },
        Case {
            name: "duplicate catalogue check",
            corrupt: |d| set_cell(d, "catalogue_checks", 2, "observedAt", CHECKS[0]),
            expect: Cell("catalogue_checks.csv", 2, "observedAt"),
        },
        // Snapshot times.
        Case {
            name: "format version",
            corrupt: |d| set_meta(d, "formatVersion", 2.into()),
            expect: Names(&["snapshot.json", "formatVersion"]),
        },
        Case {
            name: "a data licence without an https text",
            corrupt: |d| {
                let license = serde_json::json!({
                    "spdx": "ODbL-1.0", "name": "ODbL 1.0",
                    "url": "http://opendatacommons.org/licenses/odbl/1-0/",
                });
                set_meta(d, "dataLicense", license)
            },
            expect: Names(&["snapshot.json", "dataLicense.url", "https"]),
        },
        Case {
            name: "a data licence without an SPDX identifier",
            corrupt: |d| {
                let license = serde_json::json!({
                    "spdx": "Open Database License", "name": "ODbL",
                    "url": "https://opendatacommons.org/licenses/odbl/1-0/",
                });
                set_meta(d, "dataLicense", license)
            },
            expect: Names(&["snapshot.json", "dataLicense.spdx"]),
        },
        Case {
            name: "catalogueObservedAt not the latest check",
            corrupt: |d| set_meta(d, "catalogueObservedAt", CHECKS[2].into()),
            expect: Names(&[
                "snapshot.json",
                "catalogueObservedAt",
                "catalogue_checks.csv: row 4, column \"observedAt\"",
            ]),
        },
        Case {
            name: "snapshotAt before catalogueObservedAt",
            corrupt: |d| set_meta(d, "snapshotAt", "2026-11-21T14:59:00Z".into()),
            expect: Names(&["snapshot.json", "snapshotAt"]),
        },
        Case {
            name: "quote check after snapshotAt",
            corrupt: |d| set_cell(d, "quote_checks", 2, "observedAt", "2026-11-21T16:00:01Z"),
            expect: Cell("quote_checks.csv", 2, "observedAt"),
        },
        // Empty tables.
        Case {
            name: "no catalogue checks",
            corrupt: |d| keep_header_only(d, "catalogue_checks"),
            expect: Names(&["catalogue_checks.csv", "no rows"]),
        },
        Case {
            name: "no versions",
            corrupt: |d| keep_header_only(d, "versions"),
            expect: Names(&["versions.csv", "no rows"]),
        },
    ]
}

#[test]
fn broken_snapshots_are_rejected_naming_file_row_and_column() {
    let mut failures = Vec::new();
    for case in cases() {
        let dir = written(TableFormat::Csv);
        (case.corrupt)(dir.path());
        let message = match load_snapshot(dir.path()) {
            Ok(_) => {
                failures.push(format!("{}: loaded without error", case.name));
                continue;
            }
            Err(err) => format!("{err:#}"),
        };
        let wanted: Vec<String> = match case.expect {
            Cell(file, row, column) => vec![format!("{file}: row {row}, column \"{column}\"")],
            Names(texts) => texts.iter().map(|text| (*text).to_owned()).collect(),
        };
        if let Some(missing) = wanted.iter().find(|text| !message.contains(text.as_str())) {
            failures.push(format!("{}: {missing:?} not in: {message}", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_160_character_id_is_accepted() {
    let dir = written(TableFormat::Csv);
    let id = "é".repeat(160);
    set_cell(dir.path(), "versions", 3, "id", &id);
    for table in ["catalogue_prices", "quote_checks", "quotes"] {
        let path = dir.path().join(format!("{table}.csv"));
        let mut rows = read_csv(&path);
        for row in &mut rows[1..] {
            if row[0] == "onix-lt" {
                row[0] = id.clone();
            }
        }
        write_csv(&path, &rows);
    }
    let loaded = load_snapshot(dir.path()).unwrap_or_else(|err| panic!("{err:#}"));
    assert!(
        loaded
            .versions
            .iter()
            .any(|v| v.id == id && v.checks.len() == 1)
    );
}

/// The error of loading `dir` for the signals with every check but each
/// version's latest kept in brief.
fn brief_load_error(dir: &std::path::Path) -> String {
    match load_snapshot_for_signals(dir, InBrief::Before(chrono::Duration::zero()), None) {
        Ok(_) => panic!("loaded without error"),
        Err(err) => format!("{err:#}"),
    }
}

/// A check the loader keeps in brief for the signals (older than their reach, not
/// its version's latest) keeps no list of its quotes, yet a repeated quote
/// ID in it is the same error, naming both rows.
#[test]
fn a_check_in_brief_still_rejects_a_repeated_quote_id() {
    let dir = written(TableFormat::Csv);
    // Rows 4 and 5 of quotes are the two quotes of check 3, not its
    // version's latest: with no reach, it is kept in brief.
    set_cell(dir.path(), "quotes", 5, "quoteId", "a");
    let message = brief_load_error(dir.path());
    for wanted in [
        "quotes.csv: row 5, column \"quoteId\": duplicate quote id \"a\"",
        "(first at row 4)",
    ] {
        assert!(message.contains(wanted), "{wanted:?} not in: {message}");
    }
}

/// The quotes of an earlier check need not come in consecutive rows nor
/// by ID: reversed, the table loads as written (a second reading looks for
/// repeats, and finds none).
#[test]
fn a_quotes_table_in_any_order_loads_as_the_sorted_one() {
    let dir = written(TableFormat::Csv);
    let sorted =
        load_snapshot_for_signals(dir.path(), InBrief::Before(chrono::Duration::zero()), None)
            .unwrap_or_else(|err| panic!("{err:#}"));
    assert!(
        sorted
            .versions
            .iter()
            .any(|v| v.earlier.iter().any(|c| c.quote_count > 1)),
        "a premise: an earlier check with two quotes"
    );
    let path = dir.path().join("quotes.csv");
    let mut rows = read_csv(&path);
    rows[1..].reverse();
    write_csv(&path, &rows);
    let reversed =
        load_snapshot_for_signals(dir.path(), InBrief::Before(chrono::Duration::zero()), None)
            .unwrap_or_else(|err| panic!("{err:#}"));
    assert_eq!(reversed, sorted);
}

/// A repeated quote ID in an earlier check whose quotes are apart in the
/// table is still an error naming both rows. `hilux-srv`'s first check
/// (rows 4 and 5, quotes `a` and `b`) gets `b` renamed `a` and moved to
/// the top, so that `Hilux-SRV`'s earlier check (rows 1 and 2, now 2 and
/// 3) comes between the two: each stretch of the check's rows is in order
/// by itself.
#[test]
fn a_repeat_in_an_earlier_check_is_found_with_its_rows_apart() {
    let dir = written(TableFormat::Csv);
    let path = dir.path().join("quotes.csv");
    let mut rows = read_csv(&path);
    assert_eq!(
        (
            rows[4][0].as_str(),
            rows[4][2].as_str(),
            rows[5][2].as_str()
        ),
        ("hilux-srv", "a", "b"),
        "a premise: the fixture's rows"
    );
    let mut moved = rows.remove(5);
    moved[2] = "a".to_owned();
    rows.insert(1, moved);
    write_csv(&path, &rows);
    let message = brief_load_error(dir.path());
    for wanted in [
        "quotes.csv: row 5, column \"quoteId\": duplicate quote id \"a\"",
        "(first at row 1)",
    ] {
        assert!(message.contains(wanted), "{wanted:?} not in: {message}");
    }
}

/// Loaded for the signals, a snapshot keeps of each check older than they
/// read (except a version's latest) what they and the downloads read: its
/// time, rate, stock, count of quotes, and for a version's first and last
/// such check its cheapest quote in each currency; every other check is
/// whole, the latest included.
#[test]
fn a_snapshot_for_the_signals_keeps_earlier_checks_in_brief() {
    let dir = written(TableFormat::Csv);
    let full = load_snapshot(dir.path()).unwrap_or_else(|err| panic!("{err:#}"));
    let compact =
        load_snapshot_for_signals(dir.path(), InBrief::Before(chrono::Duration::zero()), None)
            .unwrap_or_else(|err| panic!("{err:#}"));
    assert_eq!(full.spilled_in, None);
    assert!(full.versions.iter().all(|v| v.earlier.is_empty()));
    let mut in_brief = 0;
    for (whole, kept) in full.versions.iter().zip(&compact.versions) {
        assert_eq!(whole.checks.len(), kept.earlier.len() + kept.checks.len());
        let (older, latest) = whole.checks.split_at(kept.earlier.len());
        assert_eq!(
            latest, kept.checks,
            "{}: the latest check is whole",
            whole.id
        );
        let last = kept.earlier.len().saturating_sub(1);
        for (k, (a, b)) in older.iter().zip(&kept.earlier).enumerate() {
            assert_eq!(
                (a.observed_at, a.ars_per_usd, a.in_stock, a.quotes.len()),
                (
                    b.observed_at,
                    b.ars_per_usd,
                    b.in_stock,
                    b.quote_count as usize
                )
            );
            // Only a version's first and last earlier check keep their
            // cheapest quotes; the spill has the others'.
            let Some(kept) = &b.cheapest else {
                assert!(0 < k && k < last, "{} at {}", whole.id, a.observed_at);
                continue;
            };
            assert!(k == 0 || k == last, "{} at {}", whole.id, a.observed_at);
            for (currency, slot) in [(Currency::Ars, &kept.ars), (Currency::Usd, &kept.usd)] {
                let cheapest = a
                    .quotes
                    .iter()
                    .filter(|q| q.price.currency == currency)
                    .min_by(|x, y| {
                        x.price
                            .amount
                            .total_cmp(&y.price.amount)
                            .then_with(|| x.id.cmp(&y.id))
                    })
                    .map(|q| (q.id.to_string(), q.price.amount));
                let kept = slot.as_ref().map(|q| (q.id.to_string(), q.amount));
                assert_eq!(cheapest, kept, "{} at {}", whole.id, a.observed_at);
            }
            in_brief += 1;
        }
    }
    assert!(in_brief > 0, "a premise: some check is kept in brief");
}

/// The loader's reach at its boundary: a check exactly `reach` before `T`
/// is kept in brief (the signals read only checks after it), one a second
/// inside the reach keeps every quote. `hilux-srv`'s first check, at
/// 12:00 with two dollar quotes, is three hours before `T` (15:00).
#[test]
fn a_check_exactly_at_the_reach_is_in_brief_and_one_inside_is_whole() {
    let dir = written(TableFormat::Csv);
    let first_check = |reach: chrono::Duration| {
        let snapshot = load_snapshot_for_signals(dir.path(), InBrief::Before(reach), None)
            .unwrap_or_else(|err| panic!("{err:#}"));
        let version = snapshot
            .versions
            .into_iter()
            .find(|v| v.id == "hilux-srv")
            .expect("hilux-srv");
        (version.earlier, version.checks)
    };
    let (earlier, _) = first_check(chrono::Duration::hours(3));
    let at = earlier.first().expect("the first check, in brief");
    assert_eq!(at.quote_count, 2);
    let cheapest = at
        .cheapest
        .as_ref()
        .expect("a first check keeps its cheapest");
    assert_eq!(
        (cheapest.usd.is_some(), cheapest.ars.is_some()),
        (true, false)
    );
    let (earlier, checks) = first_check(chrono::Duration::hours(3) + chrono::Duration::seconds(1));
    assert!(earlier.is_empty());
    assert_eq!(checks.first().expect("the first check").quotes.len(), 2);
}
