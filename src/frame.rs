//! Table encoding, shared by the snapshot writer and the data downloads: a
//! typed table built column by column and encoded as CSV, gzipped CSV or
//! Parquet, the same bytes for the same cells (fixed number formatting, row
//! groups and gzip members cut at fixed row counts, never by thread
//! scheduling), so a regenerated file is byte-identical.
//!
//! Parquet is written straight from the columns (`parquet.rs`), with the
//! types a tool expects: plain UTF-8 strings, times as UTC timestamps and
//! days as dates.

mod cells;
mod parquet;

pub use cells::{Cells, TextCells};

use std::fmt::Write;
use std::ops::Range;

use anyhow::Result;
use chrono::{DateTime, NaiveDate};
use rayon::prelude::*;

use crate::time::{Time, push_day, push_time};

/// What decides a frame's encoded bytes besides its cells: this code, the
/// gzip level, and the versions of the compressors. Part of
/// [`Frame::digest`], so a tree's download whose frame and encoding are
/// unchanged can be kept, not encoded again (`render::datos::reuse`).
/// Bump the number whenever a frame's bytes change; the test
/// `the_encoding_is_pinned` fails until then.
pub const ENCODING: &str = "autoprecios frame encoding 1";

/// Rows of one gzip member (and one CSV piece formatted on its own thread):
/// small enough that a big table is spread over every core and never held
/// whole as text, large enough that the restart of each member costs
/// nothing measurable in size.
const ROWS_PER_MEMBER: usize = 1 << 16;

/// Day 0 of [`Cells::Date`].
fn epoch_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).expect("invariant: 1970-01-01 is a date")
}

/// One table, column by column, in its documented order.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    name: &'static str,
    columns: Vec<(String, Cells)>,
}

impl Frame {
    /// An empty table called `name` (its file name without extension).
    pub fn new(name: &'static str) -> Self {
        Frame {
            name,
            columns: Vec::new(),
        }
    }

    /// Appends a column of any type.
    pub fn column(mut self, name: impl Into<String>, cells: Cells) -> Self {
        self.columns.push((name.into(), cells));
        self
    }

    /// Appends a text column.
    pub fn text<S: AsRef<str>>(self, name: &str, cells: impl Iterator<Item = Option<S>>) -> Self {
        self.column(name, Cells::Text(cells.collect()))
    }

    /// Appends an integer column.
    pub fn integer(self, name: &str, cells: impl Iterator<Item = Option<i64>>) -> Self {
        self.column(name, Cells::Integer(cells.collect()))
    }

    /// Appends a number column.
    pub fn number(self, name: &str, cells: impl Iterator<Item = Option<f64>>) -> Self {
        self.column(name, Cells::Number(cells.collect()))
    }

    /// Appends a boolean column.
    pub fn boolean(self, name: &str, cells: impl Iterator<Item = Option<bool>>) -> Self {
        self.column(name, Cells::Boolean(cells.collect()))
    }

    /// Appends a time column, kept to whole seconds as every output writes times.
    pub fn time(self, name: &str, cells: impl Iterator<Item = Option<Time>>) -> Self {
        let seconds = cells
            .map(|cell| cell.map(|time| time.timestamp()))
            .collect();
        self.column(name, Cells::Time(seconds))
    }

    /// Appends a date column.
    pub fn date(self, name: &str, cells: impl Iterator<Item = Option<NaiveDate>>) -> Self {
        let days = cells
            .map(|cell| cell.map(|day| (day - epoch_day()).num_days() as i32))
            .collect();
        self.column(name, Cells::Date(days))
    }

    /// The table's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The columns, in order.
    pub fn columns(&self) -> &[(String, Cells)] {
        &self.columns
    }

    /// Number of rows (that of the first column; every column has as many).
    pub fn height(&self) -> usize {
        self.columns.first().map_or(0, |(_, cells)| cells.len())
    }

    /// BLAKE3 digest of everything that decides the frame's files at gzip
    /// `level`: [`ENCODING`], the level, the rows per gzip member and per
    /// row group, the table's name, and each column's name, type and cells. Two frames with the same digest are
    /// the same table and encode to the same bytes.
    pub fn digest(&self, level: u32) -> [u8; 32] {
        let mut hash = blake3::Hasher::new();
        let mut put = |bytes: &[u8]| {
            hash.update(&(bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        };
        put(ENCODING.as_bytes());
        put(&level.to_le_bytes());
        // Where gzip members and row groups are cut (the pinned test is
        // smaller than either).
        put(&(ROWS_PER_MEMBER as u64).to_le_bytes());
        put(&(parquet::ROWS_PER_GROUP as u64).to_le_bytes());
        put(self.name.as_bytes());
        for (name, cells) in &self.columns {
            put(name.as_bytes());
            let mut buffer = Vec::with_capacity(cells.len() * 9);
            let kind: &[u8] = match cells {
                Cells::Text(v) => {
                    // The bytes once, then each cell's end offset.
                    put(v.bytes.as_bytes());
                    for index in 0..v.len() {
                        let end = v.offsets[index + 1].to_le_bytes();
                        push_cell(&mut buffer, v.present[index].then_some(end));
                    }
                    b"text"
                }
                Cells::Integer(v) => {
                    v.iter()
                        .for_each(|x| push_cell(&mut buffer, x.map(i64::to_le_bytes)));
                    b"integer"
                }
                Cells::Time(v) => {
                    v.iter()
                        .for_each(|x| push_cell(&mut buffer, x.map(i64::to_le_bytes)));
                    b"time"
                }
                Cells::Number(v) => {
                    v.iter()
                        .for_each(|x| push_cell(&mut buffer, x.map(|x| x.to_bits().to_le_bytes())));
                    b"number"
                }
                Cells::Boolean(v) => {
                    v.iter()
                        .for_each(|x| push_cell(&mut buffer, x.map(|x| [u8::from(x)])));
                    b"boolean"
                }
                Cells::Date(v) => {
                    v.iter()
                        .for_each(|x| push_cell(&mut buffer, x.map(i32::to_le_bytes)));
                    b"date"
                }
            };
            put(kind);
            put(&buffer);
        }
        hash.finalize().into()
    }

    /// The table as a Parquet file (see `parquet.rs`).
    pub fn into_parquet(self) -> Result<Vec<u8>> {
        parquet::encode(self.columns)
    }

    /// RFC 4180 CSV with a header row and `\n` line ends; numbers in Rust's
    /// shortest round-trip decimal form (never an exponent), so they load
    /// back equal; booleans `true` and `false`; times as RFC 3339 UTC with
    /// whole seconds, dates as `YYYY-MM-DD`; a missing value is empty.
    pub fn to_csv(&self) -> String {
        let mut out = self.csv_header();
        self.push_csv_rows(&mut out, 0..self.height());
        out
    }

    /// The CSV of [`Frame::to_csv`], gzipped as one member per
    /// `ROWS_PER_MEMBER` rows, formatted and compressed in parallel. A
    /// series of gzip members is one gzip file (RFC 1952, 2.2), and the cut
    /// depends only on the row count, so the bytes are the same on any machine.
    pub fn to_csv_gz(&self, level: u32) -> Result<Vec<u8>> {
        let height = self.height();
        let starts: Vec<usize> = (0..height.max(1)).step_by(ROWS_PER_MEMBER).collect();
        let members: Vec<Vec<u8>> = starts
            .into_par_iter()
            .map(|start| {
                let mut text = if start == 0 {
                    self.csv_header()
                } else {
                    String::new()
                };
                self.push_csv_rows(&mut text, start..height.min(start + ROWS_PER_MEMBER));
                gzip_member(text.as_bytes(), level)
            })
            .collect::<Result<_>>()?;
        Ok(members.concat())
    }

    fn csv_header(&self) -> String {
        let mut out = String::new();
        for (index, (name, _)) in self.columns.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            push_csv_text(&mut out, name);
        }
        out.push('\n');
        out
    }

    fn push_csv_rows(&self, out: &mut String, rows: Range<usize>) {
        out.reserve(self.csv_len_estimate(&rows));
        // Rows of one check repeat its time, and of one week its day: the
        // last one formatted is reused.
        let mut last: Vec<(i64, String)> = vec![(i64::MIN, String::new()); self.columns.len()];
        let mut digits = itoa::Buffer::new();
        for row in rows {
            for (index, (_, cells)) in self.columns.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                match cells {
                    Cells::Text(v) => {
                        if let Some(text) = v.get(row) {
                            push_csv_text(out, text);
                        }
                    }
                    Cells::Integer(v) => {
                        if let Some(x) = v[row] {
                            out.push_str(digits.format(x));
                        }
                    }
                    Cells::Number(v) => {
                        if let Some(x) = v[row] {
                            push_number(out, &mut digits, x);
                        }
                    }
                    Cells::Boolean(v) => {
                        if let Some(x) = v[row] {
                            out.push_str(if x { "true" } else { "false" });
                        }
                    }
                    Cells::Time(v) => {
                        if let Some(seconds) = v[row] {
                            out.push_str(reused(&mut last[index], seconds, format_seconds));
                        }
                    }
                    Cells::Date(v) => {
                        if let Some(days) = v[row] {
                            out.push_str(reused(&mut last[index], days.into(), format_day));
                        }
                    }
                }
            }
            out.push('\n');
        }
    }

    /// About the length of `rows` as CSV text: the text cells' exact bytes
    /// (quoting aside), a time's 20 and a dozen for any other cell, and a
    /// separator each, so a member's text is allocated once.
    fn csv_len_estimate(&self, rows: &Range<usize>) -> usize {
        let (count, mut bytes) = (rows.len(), 0);
        for (_, cells) in &self.columns {
            bytes += count
                + match cells {
                    Cells::Text(v) => (v.offsets[rows.end] - v.offsets[rows.start]) as usize,
                    Cells::Time(_) => 20 * count,
                    _ => 12 * count,
                };
        }
        bytes
    }
}

/// `last`'s text when it was formatted from `value`, else `value` written
/// by `format` in its place (the buffer reused), kept for the next row.
fn reused(last: &mut (i64, String), value: i64, format: fn(&mut String, i64)) -> &str {
    if last.0 != value {
        last.0 = value;
        last.1.clear();
        format(&mut last.1, value);
    }
    &last.1
}

/// Appends `x` as `{x}` writes it (Rust's shortest round-trip decimal, never
/// an exponent); a whole number below 2^53, most prices, through the faster
/// integer formatting, which gives the same digits.
fn push_number(out: &mut String, digits: &mut itoa::Buffer, x: f64) {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if x.fract() == 0.0 && x.abs() < EXACT && !(x == 0.0 && x.is_sign_negative()) {
        out.push_str(digits.format(x as i64));
    } else {
        // Writing into a String cannot fail.
        let _ = write!(out, "{x}");
    }
}

/// Appends a cell to a digest's buffer: a presence byte, then the value's
/// bytes (a column's values are all `N` bytes long, so no cell can be
/// read as another).
fn push_cell<const N: usize>(buffer: &mut Vec<u8>, value: Option<[u8; N]>) {
    buffer.push(u8::from(value.is_some()));
    if let Some(bytes) = value {
        buffer.extend_from_slice(&bytes);
    }
}

/// Appends a time in whole seconds since 1970 as every output writes times.
pub(crate) fn format_seconds(out: &mut String, seconds: i64) {
    if let Some(time) = DateTime::from_timestamp(seconds, 0) {
        push_time(out, time);
    }
}

/// Appends a day counted from 1970-01-01 as `YYYY-MM-DD`.
pub(crate) fn format_day(out: &mut String, days: i64) {
    push_day(out, epoch_day() + chrono::Days::new(days as u64));
}

/// One gzip member with a fixed header (no modification time, no file
/// name, operating system "unknown") at `level`, so the same input always
/// gives the same bytes, on any machine.
pub fn gzip_member(bytes: &[u8], level: u32) -> Result<Vec<u8>> {
    use std::io::Write as _;
    let mut encoder = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(
            Vec::with_capacity(bytes.len() / 4),
            flate2::Compression::new(level),
        );
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

/// Appends a CSV cell, quoted when it holds a separator, quote or line break.
fn push_csv_text(out: &mut String, text: &str) {
    if text
        .bytes()
        .any(|byte| matches!(byte, b',' | b'"' | b'\n' | b'\r'))
    {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

#[cfg(test)]
mod tests;
