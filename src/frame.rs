//! Table encoding, shared by the snapshot writer and the data downloads: a
//! typed table built column by column and encoded as CSV or Parquet, the
//! same bytes for the same cells (serial Parquet encoding, fixed number
//! formatting), so a regenerated file is byte-identical.

use anyhow::Result;
use polars::prelude::{Column, DataFrame, ParquetWriter};

/// The cells of one column, by logical type; `None` is an empty cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// UTF-8 text (also times and dates, written as RFC 3339 text).
    Text(Vec<Option<String>>),
    /// Signed integers.
    Integer(Vec<Option<i64>>),
    /// Floating-point numbers.
    Number(Vec<Option<f64>>),
    /// Booleans.
    Boolean(Vec<Option<bool>>),
}

impl Cells {
    /// Number of cells.
    pub fn len(&self) -> usize {
        match self {
            Cells::Text(v) => v.len(),
            Cells::Integer(v) => v.len(),
            Cells::Number(v) => v.len(),
            Cells::Boolean(v) => v.len(),
        }
    }

    /// Whether the column has no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell at `row` as CSV text (empty for a missing value).
    fn csv_cell(&self, row: usize) -> String {
        match self {
            Cells::Text(v) => v[row].as_deref().map(csv_text),
            Cells::Integer(v) => v[row].map(|x| x.to_string()),
            Cells::Number(v) => v[row].map(|x| x.to_string()),
            Cells::Boolean(v) => v[row].map(|x| x.to_string()),
        }
        .unwrap_or_default()
    }
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
    pub fn text(self, name: &str, cells: impl Iterator<Item = Option<String>>) -> Self {
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

    /// The table as a Parquet file (polars' default Zstandard compression),
    /// encoded serially: the bytes must not depend on thread scheduling.
    pub fn to_parquet(&self) -> Result<Vec<u8>> {
        let columns = self
            .columns
            .iter()
            .map(|(name, cells)| match cells {
                Cells::Text(v) => Column::new(name.as_str().into(), v),
                Cells::Integer(v) => Column::new(name.as_str().into(), v),
                Cells::Number(v) => Column::new(name.as_str().into(), v),
                Cells::Boolean(v) => Column::new(name.as_str().into(), v),
            })
            .collect();
        let mut frame = DataFrame::new(self.height(), columns)?;
        let mut bytes = Vec::new();
        ParquetWriter::new(&mut bytes)
            .set_parallel(false)
            .finish(&mut frame)?;
        Ok(bytes)
    }

    /// RFC 4180 CSV with a header row and `\n` line ends; numbers in Rust's
    /// shortest round-trip decimal form (never an exponent), so they load
    /// back equal; booleans `true` and `false`; a missing value is empty.
    pub fn to_csv(&self) -> String {
        let header: Vec<String> = self
            .columns
            .iter()
            .map(|(name, _)| csv_text(name))
            .collect();
        let mut out = header.join(",");
        out.push('\n');
        for row in 0..self.height() {
            let cells: Vec<String> = self
                .columns
                .iter()
                .map(|(_, cells)| cells.csv_cell(row))
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }
}

/// Quotes a CSV cell when it holds a separator, quote or line break.
fn csv_text(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_only_what_needs_it_and_leaves_missing_cells_empty() {
        let frame = Frame::new("t")
            .text(
                "a",
                [Some("x,y".to_owned()), None, Some("say \"hi\"".to_owned())].into_iter(),
            )
            .number("b", [Some(25_300.0), Some(1445.6), None].into_iter())
            .boolean("c", [Some(true), None, Some(false)].into_iter());
        assert_eq!(
            frame.to_csv(),
            "a,b,c\n\"x,y\",25300,true\n,1445.6,\n\"say \"\"hi\"\"\",,false\n"
        );
        assert_eq!(frame.height(), 3);
    }
}
