//! Render stage, the SQLite download: `/datos/autoprecios.sqlite`, the
//! publication as one SQLite database for the tools data journalists open
//! first (Datasette, Datasette Lite, the `sqlite3` shell, DBeaver):
//!
//! - `versiones` and `semanas`, the downloads of the same name;
//! - `cotizaciones`, every current quote of each published version (the
//!   "Dónde" table of its page);
//! - `informe_*`, the market report's five tables, every month in one
//!   table each (with a `month` column);
//! - `versiones_fts`, a full-text index of make, model and trim (accents
//!   and case folded), which Datasette offers as the table's search box;
//! - two views a reader asks for first: `mas_barato_por_modelo` and
//!   `oportunidades`;
//! - `_metadata`, each table's and column's meaning, type and unit, in
//!   Spanish, as `/datos` and `datapackage.json` give them.
//!
//! The same snapshot gives the same bytes: the database is built in memory
//! by the SQLite compiled into this program (one version for every build),
//! rows are inserted in the frames' order, the full-text index is merged
//! into one segment, the file is compacted (`VACUUM`), and nothing in it
//! reads the clock. Values are stored as SQLite readers expect them: times
//! as RFC 3339 text (`2026-11-21T23:00:00Z`, which SQLite's date functions
//! read), days as `2026-11-16`, booleans as 0 and 1.
//!
//! A run over a previous tree keeps the file when every frame it is built
//! from is the same (`Reuse`, by the digest of the frames, this module's
//! schema and SQLite's version).

mod build;

use build::{SCHEMA_VERSION, Table, build, create_table, file_bytes};

use crate::catalogue::Vehicle;
use crate::frame::Frame;
use crate::market::MonthReport;
use crate::render::datos::fields::{FieldKind, cotizaciones, field};
use crate::render::datos::package::{Written, hex};
use crate::render::datos::reuse::Reuse;
use crate::render::datos::{tables, write_file};
use crate::render::informes::tables as report_tables;
use crate::render::site::Site;

/// File name under `/datos/`.
pub const SQLITE_FILE: &str = "autoprecios.sqlite";
/// Writes `/datos/autoprecios.sqlite`, or keeps the previous tree's when it
/// was built from the same frames.
pub fn write_sqlite(
    site: &Site,
    reports: &[MonthReport],
    reuse: &Reuse,
) -> anyhow::Result<Written> {
    let tables = database_tables(site, reports);
    let digest = digest(&tables);
    let stem = SQLITE_FILE.trim_end_matches(".sqlite");
    if let Some(kept) = reuse.keep_file(site.out, stem, "sqlite", &digest)? {
        return Ok(kept);
    }
    let mut db = build(&tables, &EXTRAS)?;
    // The frames are in the database now.
    drop(tables);
    let written = write_file(
        site.out,
        SQLITE_FILE,
        crate::headers::SQLITE,
        &file_bytes(&mut db)?,
    )?;
    reuse.note_file(stem, "sqlite", digest, &written)?;
    Ok(written)
}

/// The database's tables, with their rows.
fn database_tables(site: &Site, reports: &[MonthReport]) -> Vec<Table> {
    let vehicles = &site.catalogue.vehicles;
    let mut all = vec![
        Table::whole(
            crate::render::datos::fields::versiones(),
            tables::versiones(site.catalogue, site.index.links()),
        ),
        Table::whole(cotizaciones(), cotizaciones_frame(vehicles)),
        Table::whole(
            crate::render::datos::fields::semanas(),
            tables::semanas(vehicles),
        ),
    ];
    // Each month's five frames, by table, oldest month first.
    let mut parts: Vec<Vec<(String, Frame)>> = report_tables::TABLE_DOCS
        .iter()
        .map(|_| Vec::new())
        .collect();
    for month in reports {
        for (name, frame) in report_tables::tables(&month.report) {
            if let Some(at) = report_tables::TABLE_DOCS
                .iter()
                .position(|doc| doc.name == name)
            {
                parts[at].push((month.report.month.clone(), frame));
            }
        }
    }
    for (doc, months) in report_tables::TABLE_DOCS.iter().zip(parts) {
        let has_month = doc.columns.iter().any(|(name, _, _)| *name == "month");
        let mut fields = Vec::new();
        if !has_month {
            fields.push(field("month", FieldKind::Text, "Mes del informe (AAAA-MM).").required());
        }
        fields.extend(
            doc.columns
                .iter()
                .map(|(name, kind, description)| field(*name, report_kind(kind), *description)),
        );
        all.push(Table {
            name: format!("informe_{}", doc.name.replace('-', "_")),
            title: format!("Informe mensual: {}", doc.title),
            description: doc.rows.to_owned(),
            primary_key: Vec::new(),
            fields,
            parts: months
                .into_iter()
                .map(|(month, frame)| ((!has_month).then_some(month), frame))
                .collect(),
        });
    }
    all
}

/// The Table Schema type of a report column as a field kind.
fn report_kind(kind: &str) -> FieldKind {
    match kind {
        "integer" => FieldKind::Integer,
        "number" => FieldKind::Number,
        "boolean" => FieldKind::Boolean,
        _ => FieldKind::Text,
    }
}

fn cotizaciones_frame(vehicles: &[Vehicle]) -> Frame {
    let rows: Vec<(&Vehicle, usize, &crate::catalogue::Quote)> = vehicles
        .iter()
        .flat_map(|v| v.quotes.iter().enumerate().map(move |(k, q)| (v, k + 1, q)))
        .collect();
    let r = &rows;
    Frame::new("cotizaciones")
        .text("versionId", r.iter().map(|(v, _, _)| Some(v.id.as_str())))
        .time("observedAt", r.iter().map(|(v, _, _)| Some(v.observed_at)))
        .integer("rank", r.iter().map(|(_, k, _)| Some(*k as i64)))
        .text("quoteId", r.iter().map(|(_, _, q)| Some(q.id.as_str())))
        .number("price", r.iter().map(|(_, _, q)| Some(q.price)))
        .text(
            "currency",
            r.iter().map(|(_, _, q)| Some(q.currency.as_str())),
        )
        .number(
            "priceUsd",
            r.iter()
                .map(|(_, _, q)| Some(q.price_usd).filter(|usd| usd.is_finite())),
        )
        .boolean("feesIncluded", r.iter().map(|(_, _, q)| q.fees_included))
        .text("color", r.iter().map(|(_, _, q)| q.color.as_deref()))
        .integer("stock", r.iter().map(|(_, _, q)| q.stock))
        .text("location", r.iter().map(|(_, _, q)| q.location.as_deref()))
        .text("sellerId", r.iter().map(|(_, _, q)| q.seller_id.as_deref()))
}

/// What the file is built from: this module's schema, SQLite's version
/// and every frame.
fn digest(tables: &[Table]) -> String {
    let mut hash = blake3::Hasher::new();
    hash.update(&SCHEMA_VERSION.to_le_bytes());
    hash.update(rusqlite::version().as_bytes());
    for table in tables {
        hash.update(create_table(table).as_bytes());
        for (month, frame) in &table.parts {
            hash.update(month.as_deref().unwrap_or("-").as_bytes());
            hash.update(&frame.digest(0));
        }
    }
    for (_, description, sql) in EXTRAS {
        hash.update(description.as_bytes());
        hash.update(sql.as_bytes());
    }
    hex(hash.finalize().as_bytes())
}

/// What the database adds to its tables, each with its `_metadata`
/// description: the views (the cheapest version of each model; the current
/// opportunities, largest discount first) and the full-text index, in the
/// shape Datasette finds (`content=[table]`) and offers as the table's
/// search. They read `versiones`.
const EXTRAS: [(&str, &str, &str); 3] = [
    (
        "mas_barato_por_modelo",
        "Vista: la versión más barata de cada modelo, por su precio actual en dólares.",
        r#"CREATE VIEW "mas_barato_por_modelo" AS
SELECT "make", "model", "id", "trim", "currentPriceUsd", "bestQuotePrice", "bestQuoteCurrency", "url"
FROM (
  SELECT *, row_number() OVER (PARTITION BY "make", "model" ORDER BY "currentPriceUsd", "id") AS "puesto"
  FROM "versiones"
)
WHERE "puesto" = 1
ORDER BY "make", "model";"#,
    ),
    (
        "oportunidades",
        "Vista: las oportunidades actuales, de mayor a menor descuento.",
        r#"CREATE VIEW "oportunidades" AS
SELECT "id", "make", "model", "trim", "currentPriceUsd", "typicalPriceUsd", "discountPct", "priceDrop", "newOpportunity", "url"
FROM "versiones"
WHERE "opportunity" = 1
ORDER BY "discountPct" DESC, "id";"#,
    ),
    (
        "versiones_fts",
        "Índice de texto completo de marca, modelo y versión (sin distinguir mayúsculas ni acentos).",
        r#"CREATE VIRTUAL TABLE "versiones_fts" USING fts5("make", "model", "trim", content=[versiones], tokenize='unicode61 remove_diacritics 2');
INSERT INTO "versiones_fts" ("rowid", "make", "model", "trim") SELECT "rowid", "make", "model", "trim" FROM "versiones";
INSERT INTO "versiones_fts" ("versiones_fts") VALUES ('optimize');"#,
    ),
];
