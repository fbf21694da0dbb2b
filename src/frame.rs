//! Table encoding, shared by the snapshot writer and the data downloads: a
//! typed table built column by column and encoded as CSV or Parquet, the
//! same bytes for the same cells (serial Parquet encoding, fixed number
//! formatting), so a regenerated file is byte-identical.

use std::fmt::Write;

use anyhow::Result;
use polars::prelude::{
    Column, DataFrame, IntoColumn, NewChunkedArray, ParquetWriter, StringChunked,
};

/// Text cells in one buffer: a table of millions of short texts (IDs,
/// times, colours) holds their bytes and one offset each, not a heap
/// allocation per cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextCells {
    bytes: String,
    /// End of each cell in `bytes`; `None` for a missing value.
    ends: Vec<Option<usize>>,
}

impl TextCells {
    /// Appends a cell.
    pub fn push(&mut self, cell: Option<&str>) {
        self.ends.push(cell.map(|text| {
            self.bytes.push_str(text);
            self.bytes.len()
        }));
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every cell, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<&str>> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |end| {
            end.map(|end| {
                let text = &self.bytes[start..end];
                start = end;
                text
            })
        })
    }
}

impl<S: AsRef<str>> FromIterator<Option<S>> for TextCells {
    fn from_iter<I: IntoIterator<Item = Option<S>>>(cells: I) -> Self {
        let mut text = TextCells::default();
        for cell in cells {
            text.push(cell.as_ref().map(AsRef::as_ref));
        }
        text
    }
}

/// The cells of one column, by logical type; `None` is an empty cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// UTF-8 text (also times and dates, written as RFC 3339 text).
    Text(TextCells),
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
                Cells::Text(v) => {
                    StringChunked::from_iter_options(name.as_str().into(), v.iter()).into_column()
                }
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
        let mut out = String::with_capacity((self.height() + 1) * self.columns.len() * 12);
        for (index, (name, _)) in self.columns.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            push_csv_text(&mut out, name);
        }
        out.push('\n');
        // One cursor per text column, so each cell is found in order.
        let mut texts: Vec<Option<_>> = self
            .columns
            .iter()
            .map(|(_, cells)| match cells {
                Cells::Text(v) => Some(v.iter()),
                _ => None,
            })
            .collect();
        for row in 0..self.height() {
            for (index, (_, cells)) in self.columns.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                // Writing into a String cannot fail.
                let _ = match cells {
                    Cells::Text(_) => {
                        if let Some(Some(text)) = texts[index].as_mut().and_then(Iterator::next) {
                            push_csv_text(&mut out, text);
                        }
                        Ok(())
                    }
                    Cells::Integer(v) => v[row].map_or(Ok(()), |x| write!(out, "{x}")),
                    Cells::Number(v) => v[row].map_or(Ok(()), |x| write!(out, "{x}")),
                    Cells::Boolean(v) => v[row].map_or(Ok(()), |x| write!(out, "{x}")),
                };
            }
            out.push('\n');
        }
        out
    }
}

/// Appends a CSV cell, quoted when it holds a separator, quote or line break.
fn push_csv_text(out: &mut String, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
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
