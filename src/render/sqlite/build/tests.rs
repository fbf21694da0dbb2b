//! The SQLite download's file: its cells as SQLite readers expect them,
//! every column described with its unit, the same bytes for the same rows,
//! and a frame unlike its documentation refused.

use super::*;
use crate::frame::Frame;
use crate::render::datos::fields::field;
use crate::render::sqlite::digest;

/// A table of every kind of cell, one row with values and one without.
fn table() -> Table {
    use FieldKind::{Boolean, Date, DateTime, Integer, Number, Text};
    let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 16).expect("a day");
    let at = chrono::DateTime::from_timestamp(1_763_766_000, 0).expect("a time");
    let frame = Frame::new("t")
        .text("make", [Some("Citroën"), Some("Fiat")].into_iter())
        .integer("n", [Some(3), None].into_iter())
        .number("priceUsd", [Some(19_990.5), None].into_iter())
        .boolean("flag", [Some(true), None].into_iter())
        .time("observedAt", [Some(at), None].into_iter())
        .date("weekStart", [Some(day), None].into_iter());
    Table {
        name: "t".to_owned(),
        title: "T".to_owned(),
        description: "Dos filas.".to_owned(),
        primary_key: vec!["make".to_owned()],
        fields: vec![
            field("month", Text, "Mes.").required(),
            field("make", Text, "Marca.").required(),
            field("n", Integer, "Cuántas."),
            field("priceUsd", Number, "Precio."),
            field("flag", Boolean, "Sí o no."),
            field("observedAt", DateTime, "Cuándo."),
            field("weekStart", Date, "Lunes."),
        ],
        parts: vec![(Some("2026-11".to_owned()), frame)],
    }
}

/// The file `build` gives of `tables`.
fn built(tables: &[Table]) -> anyhow::Result<Vec<u8>> {
    let mut db = build(tables, &[])?;
    Ok(file_bytes(&mut db)?.to_vec())
}

fn open(bytes: &[u8]) -> Connection {
    let mut db = Connection::open_in_memory().expect("sqlite");
    db.deserialize_read_exact(MAIN_DB, bytes, bytes.len(), true)
        .expect("sqlite");
    db
}

#[test]
fn cells_are_stored_as_sqlite_readers_expect_them() {
    let db = open(&built(&[table()]).expect("sqlite"));
    type Row = (
        String,
        String,
        Option<i64>,
        Option<f64>,
        Option<i64>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = db
        .prepare("SELECT * FROM t ORDER BY make")
        .expect("sqlite")
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .expect("sqlite")
        .map(|row| row.expect("row"))
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "2026-11".into(),
                "Citroën".into(),
                Some(3),
                Some(19_990.5),
                Some(1),
                Some("2025-11-21T23:00:00Z".into()),
                Some("2026-11-16".into())
            ),
            (
                "2026-11".into(),
                "Fiat".into(),
                None,
                None,
                None,
                None,
                None
            ),
        ]
    );
    let version: i64 = db
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("sqlite");
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn every_column_is_described_with_its_unit() {
    let db = open(&built(&[table()]).expect("sqlite"));
    let described: Vec<(String, String, Option<String>)> = db
        .prepare("SELECT columna, tipo, unidad FROM _metadata WHERE tabla = 't' ORDER BY columna")
        .expect("sqlite")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("sqlite")
        .map(|row| row.expect("row"))
        .collect();
    let unit_of = |name: &str| {
        described
            .iter()
            .find(|(column, _, _)| column == name)
            .unwrap_or_else(|| panic!("{name} undescribed"))
            .2
            .clone()
    };
    assert_eq!(described.len(), 8, "the table and its seven columns");
    assert_eq!(unit_of("priceUsd").as_deref(), Some("dólares (USD)"));
    assert_eq!(unit_of("observedAt").as_deref(), Some("UTC"));
    assert_eq!(unit_of("n"), None);
}

#[test]
fn units_follow_the_column_names() {
    use FieldKind::{Integer, Number, Text};
    assert_eq!(unit("arsPerUsd", Number), Some("pesos por dólar"));
    assert_eq!(unit("priceArs", Number), Some("pesos (ARS)"));
    assert_eq!(unit("discountPct", Number), Some("porcentaje"));
    assert_eq!(
        unit("bestQuotePrice", Number),
        Some("la moneda que da la fila")
    );
    assert_eq!(unit("quoteCount", Integer), None);
    assert_eq!(unit("currency", Text), None);
    assert_eq!(unit("n", Number), None);
}

#[test]
fn the_same_rows_give_the_same_bytes() {
    let first = built(&[table()]).expect("sqlite");
    assert_eq!(first, built(&[table()]).expect("sqlite"));
    assert_eq!(&first[..16], b"SQLite format 3\0");
    let mut other = table();
    other.parts[0].0 = Some("2026-12".to_owned());
    assert_ne!(first, built(&[other]).expect("sqlite"));
    assert_ne!(
        digest(&[table()]),
        digest(&[{
            let mut other = table();
            other.parts[0].0 = Some("2026-12".to_owned());
            other
        }])
    );
}

#[test]
fn a_frame_unlike_its_documentation_is_refused() {
    let mut wrong = table();
    wrong.fields.swap(2, 3);
    let err = built(&[wrong]).expect_err("refused").to_string();
    assert!(err.contains("SQLite table t has columns"), "{err}");
}
