//! Render stage, data downloads: the byte-level parts of `/datos`: gzip with
//! a fixed header, sha256 sums, the Frictionless Data Package descriptor
//! (`datapackage.json`: every file with its schema, bytes and sha256) and
//! `SHA256SUMS` (the same sums in the format `sha256sum -c` reads).

use rayon::prelude::*;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::fields::{Field, TableDoc};

/// Level of the gzipped CSV files, chosen by measurement (BENCHMARKS.md,
/// "Data downloads"; with zlib-rs itself, bench/HISTORY.md, "Serial
/// stretches beside other work"): the levels around it traded much time
/// for little size, or little time for much size.
pub const GZIP_LEVEL: u32 = 5;

/// A file written under `/datos/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Path relative to `/datos/` (`snapshot/quotes.parquet`).
    pub path: String,
    /// Size in bytes.
    pub bytes: usize,
    /// Lowercase hex sha256 of the bytes.
    pub sha256: String,
}

impl Written {
    /// The record of `bytes` written at `path`.
    pub fn of(path: &str, bytes: &[u8]) -> Self {
        Written {
            path: path.to_owned(),
            bytes: bytes.len(),
            sha256: sha256_hex(bytes),
        }
    }
}

/// Lowercase hex sha256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

pub use crate::api::json::hex;

/// Bytes of input per gzip member of [`gzip`].
const BYTES_PER_MEMBER: usize = 4 << 20;

/// Gzip of a file that is not a table (the specifications): members of
/// `BYTES_PER_MEMBER` input bytes each, compressed in parallel at
/// [`GZIP_LEVEL`] with the fixed header of
/// [`crate::frame::gzip_member`]; one gzip file, the same bytes on any machine.
pub fn gzip(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    if bytes.is_empty() {
        return crate::frame::gzip_member(bytes, GZIP_LEVEL);
    }
    let members: Vec<Vec<u8>> = bytes
        .par_chunks(BYTES_PER_MEMBER)
        .map(|chunk| crate::frame::gzip_member(chunk, GZIP_LEVEL))
        .collect::<anyhow::Result<_>>()?;
    Ok(members.concat())
}

/// One file pair of a table as written: the whole table, or a history
/// table's rows of one month.
#[derive(Debug, Clone)]
pub struct Part {
    /// `2026-11` for a month's part; `None` for the whole table.
    pub month: Option<String>,
    /// Rows.
    pub rows: usize,
    /// The gzipped CSV.
    pub csv: Written,
    /// The Parquet file.
    pub parquet: Written,
}

impl Part {
    /// Resource name stem: the path without extension, `/` as `-`.
    fn stem(&self) -> String {
        self.csv.path.trim_end_matches(".csv.gz").replace('/', "-")
    }
}

/// A table's files as written.
#[derive(Debug, Clone)]
pub struct TableFiles {
    /// What the table holds.
    pub doc: TableDoc,
    /// Folder under `/datos/` (`""` or `snapshot/`).
    pub folder: &'static str,
    /// Its file pairs: one, or one per month in order.
    pub parts: Vec<Part>,
}

impl TableFiles {
    /// Rows in all its parts.
    pub fn rows(&self) -> usize {
        self.parts.iter().map(|part| part.rows).sum()
    }

    /// Whether it is cut by month.
    pub fn monthly(&self) -> bool {
        self.parts.iter().any(|part| part.month.is_some())
    }
}

/// The Table Schema of a table. `reference` is the (CSV resource, column)
/// of this package that its `versionId` column refers to, when it has one.
fn schema(doc: &TableDoc, reference: Option<(&str, &str)>) -> Value {
    let fields: Vec<Value> = doc.fields.iter().map(schema_field).collect();
    let mut schema = json!({
        "fields": fields,
        "missingValues": [""],
        "primaryKey": doc.primary_key,
    });
    if let Some((resource, column)) = reference {
        schema["foreignKeys"] = json!([{
            "fields": ["versionId"],
            "reference": {"resource": resource, "fields": [column]},
        }]);
    }
    schema
}

fn schema_field(field: &Field) -> Value {
    let mut value = json!({
        "name": field.name,
        "type": field.kind.schema_type(),
        "description": field.description,
    });
    let mut constraints = serde_json::Map::new();
    if field.required {
        constraints.insert("required".into(), json!(true));
    }
    if !field.values.is_empty() {
        constraints.insert("enum".into(), json!(field.values));
    }
    if !constraints.is_empty() {
        value["constraints"] = Value::Object(constraints);
    }
    value
}

/// The CSV resource a table's `versionId` refers to: published versions for
/// the weekly averages, the snapshot's versions for every other table.
fn reference_of(table: &TableFiles) -> Option<(&'static str, &'static str)> {
    let has_version_id = table.doc.fields.iter().any(|f| f.name == "versionId");
    match table.doc.name {
        _ if !has_version_id => None,
        "semanas" => Some(("versiones-csv", "id")),
        _ => Some(("snapshot-versions-csv", "id")),
    }
}

/// The resources of a table, two per file pair: the CSV, validated row by
/// row against its schema, and the Parquet file, described with the same
/// schema as a file whose size and checksum are checked (frictionless reads
/// Parquet around its byte stream, so it could check either the rows or the
/// checksum, and its pandas conversion turns a missing integer into NaN).
/// A month's pair is two resources of its own, each file whole with its
/// header, so every file verifies by itself.
pub fn table_resources(table: &TableFiles) -> Vec<Value> {
    let schema = schema(&table.doc, reference_of(table));
    table
        .parts
        .iter()
        .flat_map(|part| part_resources(table, part, &schema))
        .collect()
}

fn part_resources(table: &TableFiles, part: &Part, schema: &Value) -> [Value; 2] {
    let stem = part.stem();
    let title = match &part.month {
        None => table.doc.title.to_owned(),
        Some(month) => format!("{}, {month}", table.doc.title),
    };
    let description = match &part.month {
        None => table.doc.description.to_owned(),
        Some(month) => format!(
            "{} Este archivo tiene las filas de {month} (mes calendario en UTC); un mes cerrado no cambia en publicaciones siguientes.",
            table.doc.description
        ),
    };
    let csv = json!({
        "name": format!("{stem}-csv"),
        "type": "table",
        "title": format!("{title} (CSV)"),
        "description": description,
        "path": part.csv.path,
        "format": "csv",
        "compression": "gz",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "bytes": part.csv.bytes,
        "hash": format!("sha256:{}", part.csv.sha256),
        "dialect": {"delimiter": ",", "quoteChar": "\"", "doubleQuote": true, "header": true},
        "schema": schema,
    });
    let parquet = json!({
        "name": format!("{stem}-parquet"),
        "type": "file",
        "title": format!("{title} (Parquet)"),
        "description": description,
        "path": part.parquet.path,
        "format": "parquet",
        "mediatype": "application/vnd.apache.parquet",
        "bytes": part.parquet.bytes,
        "hash": format!("sha256:{}", part.parquet.sha256),
        "schema": schema,
    });
    [csv, parquet]
}

/// A file resource without a table schema (`snapshot.json`, the specs).
pub fn file_resource(
    name: &str,
    title: &str,
    description: &str,
    format: &str,
    file: &Written,
) -> Value {
    let mut value = json!({
        "name": name,
        "type": if format == "json" { "json" } else { "file" },
        "title": title,
        "description": description,
        "path": file.path,
        "format": format,
    });
    if file.path.ends_with(".gz") {
        value["compression"] = json!("gz");
    }
    value["bytes"] = json!(file.bytes);
    value["hash"] = json!(format!("sha256:{}", file.sha256));
    value
}

/// `SHA256SUMS`: one `<sha256>  <path>` line per file, sorted by path.
pub fn sha256sums(files: &[Written]) -> String {
    let mut lines: Vec<String> = files
        .iter()
        .map(|file| format!("{}  {}\n", file.sha256, file.path))
        .collect();
    lines.sort_by(|a, b| a[66..].cmp(&b[66..]));
    lines.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_output_has_a_fixed_header_and_is_the_same_every_time() {
        let once = gzip(b"a,b\n1,2\n").expect("gzip");
        assert_eq!(once, gzip(b"a,b\n1,2\n").expect("gzip"));
        // Magic, deflate, no flags, mtime 0, then OS 255 (unknown).
        assert_eq!(&once[..8], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
        assert_eq!(once[9], 255);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&once[..]), &mut text)
            .expect("gunzip");
        assert_eq!(text, "a,b\n1,2\n");
    }

    #[test]
    fn sums_read_as_sha256sum_writes_them() {
        let files = [Written::of("b.csv.gz", b"b"), Written::of("a.parquet", b"")];
        assert_eq!(
            sha256sums(&files),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.parquet\n\
             3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.csv.gz\n"
        );
    }
}
