//! Render stage, data downloads: the byte-level parts of `/datos`: gzip with
//! a fixed header, sha256 sums, the Frictionless Data Package descriptor
//! (`datapackage.json`: every file with its schema, bytes and sha256) and
//! `SHA256SUMS` (the same sums in the format `sha256sum -c` reads).

use std::io::Write;

use anyhow::Context;
use flate2::{Compression, GzBuilder};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::fields::{Field, TableDoc};

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
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Gzip with a fixed header (no modification time, no file name, operating
/// system "unknown") and a fixed level, so the same input always gives the
/// same bytes, on any machine.
pub fn gzip(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut encoder = GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), Compression::default());
    encoder.write_all(bytes).context("compressing")?;
    encoder.finish().context("compressing")
}

/// A table's two files as written.
#[derive(Debug, Clone)]
pub struct TableFiles {
    /// What the table holds.
    pub doc: TableDoc,
    /// Folder under `/datos/` (`""` or `snapshot/`).
    pub folder: &'static str,
    /// Rows.
    pub rows: usize,
    /// The gzipped CSV.
    pub csv: Written,
    /// The Parquet file.
    pub parquet: Written,
}

impl TableFiles {
    /// Resource name stem: the path without extension, `/` as `-`.
    fn stem(&self) -> String {
        format!("{}{}", self.folder, self.doc.name).replace('/', "-")
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

/// The two resources of a table: the CSV, validated row by row against its
/// schema, and the Parquet file, described with the same schema as a file
/// whose size and checksum are checked (frictionless reads Parquet around
/// its byte stream, so it could check either the rows or the checksum, and
/// its pandas conversion turns a missing integer into NaN).
pub fn table_resources(table: &TableFiles) -> [Value; 2] {
    let stem = table.stem();
    let schema = schema(&table.doc, reference_of(table));
    let csv = json!({
        "name": format!("{stem}-csv"),
        "type": "table",
        "title": format!("{} (CSV)", table.doc.title),
        "description": table.doc.description,
        "path": table.csv.path,
        "format": "csv",
        "compression": "gz",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "bytes": table.csv.bytes,
        "hash": format!("sha256:{}", table.csv.sha256),
        "dialect": {"delimiter": ",", "quoteChar": "\"", "doubleQuote": true, "header": true},
        "schema": schema,
    });
    let parquet = json!({
        "name": format!("{stem}-parquet"),
        "type": "file",
        "title": format!("{} (Parquet)", table.doc.title),
        "description": table.doc.description,
        "path": table.parquet.path,
        "format": "parquet",
        "mediatype": "application/vnd.apache.parquet",
        "bytes": table.parquet.bytes,
        "hash": format!("sha256:{}", table.parquet.sha256),
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
