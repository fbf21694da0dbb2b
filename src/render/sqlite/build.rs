//! Render stage, the SQLite download: builds the database of [`Table`]s in
//! memory and returns the file's bytes (see the parent module for what it
//! holds and why its bytes are the same for the same rows).

use anyhow::{Context, ensure};
use rusqlite::{Connection, MAIN_DB, params};

use crate::frame::Frame;
use crate::frame::{Cells, format_day, format_seconds};
use crate::render::datos::fields::{Field, FieldKind, TableDoc};

/// `PRAGMA user_version` of the file: raised when a table or a column
/// changes meaning (with an entry in `changes.rs`).
pub const SCHEMA_VERSION: i64 = 1;

/// One table of the database: its documentation and its rows, one frame
/// or, for the report's tables, one frame a month.
pub(super) struct Table {
    pub(super) name: String,
    pub(super) title: String,
    pub(super) description: String,
    pub(super) primary_key: Vec<String>,
    /// Every column, in order; with `month` first when each frame is one
    /// month's and lacks it.
    pub(super) fields: Vec<Field>,
    /// The frames, with the month each adds as its first column.
    pub(super) parts: Vec<(Option<String>, Frame)>,
}

impl Table {
    pub(super) fn whole(doc: TableDoc, frame: Frame) -> Self {
        Table {
            name: doc.name.to_owned(),
            title: doc.title.to_owned(),
            description: doc.description.to_owned(),
            primary_key: doc
                .primary_key
                .iter()
                .map(|key| (*key).to_owned())
                .collect(),
            fields: doc.fields,
            parts: vec![(None, frame)],
        }
    }
}
/// Builds the database in memory, compacted: its file is
/// `serialize(MAIN_DB)`, read in place ([`file_bytes`]). Without a
/// rollback journal: a failed build is dropped whole, so the copy of every
/// page a transaction changes would never be read.
pub(super) fn build(tables: &[Table], extras: &[(&str, &str, &str)]) -> anyhow::Result<Connection> {
    let mut db = Connection::open_in_memory().context("opening an in-memory SQLite database")?;
    db.execute_batch(&format!(
        "PRAGMA page_size = 4096; PRAGMA user_version = {SCHEMA_VERSION}; PRAGMA encoding = 'UTF-8'; \
         PRAGMA journal_mode = OFF;"
    ))?;
    let transaction = db.transaction()?;
    transaction.execute_batch(
        r#"CREATE TABLE "_metadata" (
  "tabla" TEXT NOT NULL, "columna" TEXT NOT NULL, "tipo" TEXT NOT NULL,
  "unidad" TEXT, "descripcion" TEXT NOT NULL, "valores" TEXT,
  PRIMARY KEY ("tabla", "columna"));"#,
    )?;
    for table in tables {
        transaction
            .execute_batch(&create_table(table))
            .with_context(|| format!("creating the SQLite table {}", table.name))?;
        insert(&transaction, table)?;
        document(&transaction, table)?;
    }
    for (name, description, sql) in extras {
        transaction
            .execute_batch(sql)
            .with_context(|| format!("creating {name} in the SQLite database"))?;
        transaction.execute(
            r#"INSERT INTO "_metadata" VALUES (?1, '', 'tabla', NULL, ?2, NULL)"#,
            params![name, description],
        )?;
    }
    transaction.commit()?;
    db.execute_batch("VACUUM;")?;
    Ok(db)
}

/// The database's file, as SQLite holds it in memory (no copy).
pub(super) fn file_bytes(db: &mut Connection) -> anyhow::Result<rusqlite::serialize::Data<'_>> {
    db.serialize(MAIN_DB)
        .context("serializing the SQLite database")
}

/// `CREATE TABLE` of `table`, with its SQLite column types, its key, and
/// `versionId` as a reference to `versiones` (Datasette links it).
pub(super) fn create_table(table: &Table) -> String {
    let mut columns: Vec<String> = table
        .fields
        .iter()
        .map(|f| {
            let not_null = if f.required { " NOT NULL" } else { "" };
            format!("\"{}\" {}{not_null}", f.name, sqlite_type(f.kind))
        })
        .collect();
    if !table.primary_key.is_empty() {
        let key: Vec<String> = table
            .primary_key
            .iter()
            .map(|k| format!("\"{k}\""))
            .collect();
        columns.push(format!("PRIMARY KEY ({})", key.join(", ")));
    }
    if table.name != "versiones" && table.fields.iter().any(|f| f.name == "versionId") {
        columns.push(r#"FOREIGN KEY ("versionId") REFERENCES "versiones" ("id")"#.to_owned());
    }
    // A table keyed by its columns is stored in its key's order, without
    // a rowid and a second copy of the key in an index (BENCHMARKS.md, "The
    // SQLite download"); `versiones` keeps its rowid, which the full-text
    // index refers to.
    let without_rowid = if table.primary_key.is_empty() || table.name == "versiones" {
        ""
    } else {
        " WITHOUT ROWID"
    };
    format!(
        "CREATE TABLE \"{}\" (\n  {}\n){without_rowid};\n",
        table.name,
        columns.join(",\n  ")
    )
}

/// The SQLite type of a column (times and days as text, booleans as 0/1).
fn sqlite_type(kind: FieldKind) -> &'static str {
    match kind {
        FieldKind::Text | FieldKind::Url | FieldKind::DateTime | FieldKind::Date => "TEXT",
        FieldKind::Integer | FieldKind::Boolean => "INTEGER",
        FieldKind::Number => "REAL",
    }
}

/// Inserts every row of `table`, checking each frame's columns against its
/// documentation.
fn insert(db: &Connection, table: &Table) -> anyhow::Result<()> {
    let marks: Vec<String> = (1..=table.fields.len()).map(|k| format!("?{k}")).collect();
    let mut statement = db.prepare(&format!(
        "INSERT INTO \"{}\" VALUES ({})",
        table.name,
        marks.join(", ")
    ))?;
    let mut text = String::new();
    for (month, frame) in &table.parts {
        let lead = usize::from(month.is_some());
        let names: Vec<&str> = frame.columns().iter().map(|(n, _)| n.as_str()).collect();
        let documented: Vec<&str> = table.fields[lead..]
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        ensure!(
            names == documented,
            "invariant: SQLite table {} has columns {documented:?}, its frame {names:?}",
            table.name
        );
        for row in 0..frame.height() {
            if let Some(month) = month {
                statement.raw_bind_parameter(1, month.as_str())?;
            }
            for (at, (_, cells)) in frame.columns().iter().enumerate() {
                let index = at + lead + 1;
                match cells {
                    Cells::Text(v) => statement.raw_bind_parameter(index, v.get(row))?,
                    Cells::Integer(v) => statement.raw_bind_parameter(index, v[row])?,
                    Cells::Number(v) => statement.raw_bind_parameter(index, v[row])?,
                    Cells::Boolean(v) => statement.raw_bind_parameter(index, v[row])?,
                    Cells::Time(v) => {
                        let cell = v[row].map(|seconds| {
                            text.clear();
                            format_seconds(&mut text, seconds);
                            text.as_str()
                        });
                        statement.raw_bind_parameter(index, cell)?
                    }
                    Cells::Date(v) => {
                        let cell = v[row].map(|days| {
                            text.clear();
                            format_day(&mut text, days.into());
                            text.as_str()
                        });
                        statement.raw_bind_parameter(index, cell)?
                    }
                }
            }
            statement.raw_execute().with_context(|| {
                format!("inserting row {row} of the SQLite table {}", table.name)
            })?;
        }
    }
    Ok(())
}

/// `_metadata` rows of `table`: one for the table (an empty `columna`),
/// one a column.
fn document(db: &Connection, table: &Table) -> anyhow::Result<()> {
    let mut statement = db.prepare(r#"INSERT INTO "_metadata" VALUES (?1, ?2, ?3, ?4, ?5, ?6)"#)?;
    let about = format!("{}. {}", table.title, table.description);
    statement.execute(params![
        table.name,
        "",
        "tabla",
        None::<&str>,
        about,
        None::<&str>
    ])?;
    for f in &table.fields {
        let values = (!f.values.is_empty()).then(|| f.values.join(", "));
        statement.execute(params![
            table.name,
            f.name,
            f.kind.label(),
            unit(&f.name, f.kind),
            f.description,
            values
        ])?;
    }
    Ok(())
}

/// A column's unit, read from the name conventions every table follows
/// (`…Usd` dollars, `…Ars` pesos, `…Pct` percent, `arsPerUsd` the rate;
/// a bare price is in its row's currency); `None` for counts, text and
/// flags.
pub fn unit(name: &str, kind: FieldKind) -> Option<&'static str> {
    match kind {
        FieldKind::DateTime => return Some("UTC"),
        FieldKind::Date => return Some("día (hora de Argentina)"),
        FieldKind::Number => {}
        _ => return None,
    }
    if name == "arsPerUsd" {
        Some("pesos por dólar")
    } else if name.ends_with("Usd") {
        Some("dólares (USD)")
    } else if name.ends_with("Ars") {
        Some("pesos (ARS)")
    } else if name.ends_with("Pct") {
        Some("porcentaje")
    } else if name == "level" {
        Some("índice (100 en el primer mes de los datos)")
    } else if name.ends_with("rice") || name == "average" {
        Some("la moneda que da la fila")
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
