//! Snapshot stage, tables: reads one input table (`NAME.parquet` or `NAME.csv`)
//! with polars and hands out typed columns, so the loader never sees whether a
//! cell came from CSV text or a Parquet type.

use std::fmt::Display;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use compact_str::CompactString;
use polars::prelude::{Column, CsvReadOptions, DataFrame, DataType, ParquetReader, SerReader};

use super::write::TableFormat;
use crate::time::{Time, parse_time};
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};

/// Whether a column may hold empty cells (nulls).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// Every cell must have a value.
    Required,
    /// Empty cells are allowed and read as `None`.
    Nullable,
}

/// One loaded table, or a run of its rows: its file name (for messages),
/// format and data.
pub(crate) struct Table {
    file: String,
    format: TableFormat,
    frame: DataFrame,
    /// Index in the whole table of this table's first row (0 unless it is
    /// a run of rows from [`Table::rows`]), so messages name the file's row.
    first_row: usize,
}

impl Table {
    /// Reads `dir/NAME.parquet`, or `dir/NAME.csv` when there is no Parquet file.
    pub(crate) fn read(dir: &Path, name: &str) -> Result<Self> {
        let parquet = dir.join(format!("{name}.parquet"));
        let csv = dir.join(format!("{name}.csv"));
        let (path, format) = if parquet.is_file() {
            (parquet, TableFormat::Parquet)
        } else if csv.is_file() {
            (csv, TableFormat::Csv)
        } else {
            bail!("missing table {name}: neither {name}.parquet nor {name}.csv exists");
        };
        let file = format!("{name}.{}", format.extension());
        let frame = match format {
            TableFormat::Parquet => read_parquet(&path),
            TableFormat::Csv => read_csv(&path),
        }
        .with_context(|| format!("reading {file}"))?;
        Ok(Table {
            file,
            format,
            frame,
            first_row: 0,
        })
    }

    /// At most `len` rows from `start`, without copying the data. Converting
    /// a large table a run of rows at a time keeps only that run's converted
    /// columns in memory next to the table.
    pub(crate) fn rows(&self, start: usize, len: usize) -> Table {
        let offset = i64::try_from(start).expect("invariant: a row index fits in i64");
        Table {
            file: self.file.clone(),
            format: self.format,
            frame: self.frame.slice(offset, len),
            first_row: self.first_row + start,
        }
    }

    /// The index in the whole file of this table's row `index`.
    pub(crate) fn file_row(&self, index: usize) -> usize {
        self.first_row + index
    }

    /// The file name, such as `quotes.csv`.
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// Number of data rows.
    pub(crate) fn height(&self) -> usize {
        self.frame.height()
    }

    /// An error about one cell; `index` counts from 0, messages count rows from 1.
    pub(crate) fn cell_error(
        &self,
        index: usize,
        column: &str,
        message: impl Display,
    ) -> anyhow::Error {
        anyhow!(
            "{}: row {}, column \"{column}\": {message}",
            self.file,
            self.file_row(index) + 1
        )
    }

    /// A text column. Empty strings count as empty cells in both formats, so
    /// that CSV and Parquet snapshots of the same data load the same.
    pub(crate) fn strings(&self, name: &str, need: Need) -> Result<Vec<Option<String>>> {
        let cells = self.text(name)?;
        self.check_need(name, need, cells)
    }

    /// A text column of short values (quote IDs, colours), like
    /// [`Table::strings`] but kept inline where they fit.
    pub(crate) fn short_strings(
        &self,
        name: &str,
        need: Need,
    ) -> Result<Vec<Option<CompactString>>> {
        let cells = match self.native(name, "a string", |dtype| *dtype == DataType::String)? {
            None => vec![None; self.height()],
            Some(column) => column
                .str()?
                .iter()
                .map(|cell| {
                    cell.filter(|text| !text.is_empty())
                        .map(CompactString::from)
                })
                .collect(),
        };
        self.check_need(name, need, cells)
    }

    /// A time column: RFC 3339 text converted to UTC. Rows of one check
    /// repeat the same text, so the last parse is reused.
    pub(crate) fn times(&self, name: &str, need: Need) -> Result<Vec<Option<Time>>> {
        let last: std::cell::RefCell<Option<(String, Option<Time>)>> = Default::default();
        let cells = self.parse_text(name, "an RFC 3339 time", |text| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some((previous, time)) if previous == text => *time,
                _ => {
                    let time = parse_time(text);
                    *last = Some((text.to_owned(), time));
                    time
                }
            }
        })?;
        self.check_need(name, need, cells)
    }

    /// Maps every cell of a required text column through `lookup` (such as a
    /// version ID to its position) without copying the text; a cell that
    /// `lookup` rejects is an error naming its row.
    pub(crate) fn lookups(
        &self,
        name: &str,
        mut lookup: impl FnMut(&str) -> Option<usize>,
        rejected: impl Fn(&str) -> String,
    ) -> Result<Vec<usize>> {
        let column = self.column(name)?;
        if *column.dtype() != DataType::String {
            bail!(
                "{}: column \"{name}\": wrong type: expected a string, found {}",
                self.file,
                column.dtype()
            );
        }
        let mut last: Option<(&str, usize)> = None;
        let mut out = Vec::with_capacity(self.height());
        for (index, cell) in column.str()?.iter().enumerate() {
            let text = cell.filter(|text| !text.is_empty());
            let Some(text) = text else {
                return Err(self.cell_error(index, name, "empty cell in a required column"));
            };
            let found = match last {
                Some((previous, position)) if previous == text => Some(position),
                _ => lookup(text),
            };
            let Some(position) = found else {
                return Err(self.cell_error(index, name, rejected(text)));
            };
            last = Some((text, position));
            out.push(position);
        }
        Ok(out)
    }

    /// An integer column: any Parquet integer type, or decimal digits in CSV.
    pub(crate) fn integers(&self, name: &str, need: Need) -> Result<Vec<Option<i64>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "an integer", |text| text.parse().ok())?,
            TableFormat::Parquet => {
                match self.native(name, "an integer type", DataType::is_integer)? {
                    None => vec![None; self.height()],
                    Some(column) => {
                        let column = column.strict_cast(&DataType::Int64).map_err(|err| {
                            anyhow!(
                                "{}: column \"{name}\": integer out of range: {err}",
                                self.file
                            )
                        })?;
                        column.i64()?.iter().collect()
                    }
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A number column: any Parquet integer or floating type, or `.`-decimal
    /// text in CSV. Infinities and NaN are rejected in both formats.
    pub(crate) fn numbers(&self, name: &str, need: Need) -> Result<Vec<Option<f64>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "a number", |text| {
                text.parse::<f64>().ok().filter(|v| v.is_finite())
            })?,
            TableFormat::Parquet => {
                match self.native(name, "an integer or floating type", is_number)? {
                    None => vec![None; self.height()],
                    Some(column) => {
                        let column = column.cast(&DataType::Float64)?;
                        let cells: Vec<Option<f64>> = column.f64()?.iter().collect();
                        if let Some(index) =
                            cells.iter().position(|v| v.is_some_and(|v| !v.is_finite()))
                        {
                            return Err(self.cell_error(index, name, "expected a finite number"));
                        }
                        cells
                    }
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A boolean column: Parquet boolean, or `true` / `false` in CSV.
    pub(crate) fn booleans(&self, name: &str, need: Need) -> Result<Vec<Option<bool>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "true or false", |text| match text {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            })?,
            TableFormat::Parquet => {
                match self.native(name, "boolean", |dtype| *dtype == DataType::Boolean)? {
                    None => vec![None; self.height()],
                    Some(column) => column.bool()?.iter().collect(),
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A column of one closed vocabulary (currency, fuel, ...), spelled exactly.
    pub(crate) fn vocab<E: Vocab>(&self, name: &str, need: Need) -> Result<Vec<Option<E>>> {
        let column = self.native(name, "a string", |dtype| *dtype == DataType::String)?;
        let Some(column) = column else {
            return self.check_need(name, need, (0..self.height()).map(|_| None).collect());
        };
        let mut cells = Vec::with_capacity(self.height());
        for (index, cell) in column.str()?.iter().enumerate() {
            let value = match cell.filter(|text| !text.is_empty()) {
                None => None,
                Some(text) => Some(E::parse(text).ok_or_else(|| {
                    let expected = E::names().join(", ");
                    self.cell_error(
                        index,
                        name,
                        format!("unknown value {text:?}, expected one of {expected}"),
                    )
                })?),
            };
            cells.push(value);
        }
        self.check_need(name, need, cells)
    }

    /// A text column of at most `max` characters (not bytes: any character is allowed).
    pub(crate) fn bounded_strings(
        &self,
        name: &str,
        need: Need,
        max: usize,
    ) -> Result<Vec<Option<String>>> {
        let cells = self.strings(name, need)?;
        self.convert(name, cells, |text| match text.chars().count() {
            chars if chars > max => Err(format!("{chars} characters, at most {max} allowed")),
            _ => Ok(text),
        })
    }

    /// A number column whose values must be positive (prices, exchange rates).
    pub(crate) fn positives(&self, name: &str, need: Need) -> Result<Vec<Option<f64>>> {
        let cells = self.numbers(name, need)?;
        self.convert(name, cells, |value| {
            if value > 0.0 {
                Ok(value)
            } else {
                Err(format!("expected a positive number, found \"{value}\""))
            }
        })
    }

    /// An integer column of counts (seats, airbags): non-negative.
    pub(crate) fn counts(&self, name: &str, need: Need) -> Result<Vec<Option<u32>>> {
        let cells = self.integers(name, need)?;
        self.convert(name, cells, |value| {
            u32::try_from(value)
                .map_err(|_| format!("expected a non-negative integer, found \"{value}\""))
        })
    }

    /// Converts every non-empty cell, naming the row of the first rejection.
    pub(crate) fn convert<T, U>(
        &self,
        name: &str,
        cells: Vec<Option<T>>,
        convert: impl Fn(T) -> Result<U, String>,
    ) -> Result<Vec<Option<U>>> {
        cells
            .into_iter()
            .enumerate()
            .map(|(index, cell)| {
                cell.map(&convert)
                    .transpose()
                    .map_err(|message| self.cell_error(index, name, message))
            })
            .collect()
    }

    /// The column called `name`, or an error naming the file and column.
    fn column(&self, name: &str) -> Result<&Column> {
        self.frame
            .column(name)
            .map_err(|_| anyhow!("{}: missing column \"{name}\"", self.file))
    }

    /// A Parquet column whose type passes `accepts`; `None` for an all-null
    /// column of type Null, which some writers produce for empty columns.
    fn native(
        &self,
        name: &str,
        expected: &str,
        accepts: fn(&DataType) -> bool,
    ) -> Result<Option<&Column>> {
        let column = self.column(name)?;
        let dtype = column.dtype();
        if *dtype == DataType::Null {
            return Ok(None);
        }
        if !accepts(dtype) {
            bail!(
                "{}: column \"{name}\": wrong type: expected {expected}, found {dtype}",
                self.file
            );
        }
        Ok(Some(column))
    }

    /// The cells of a text column (every CSV column, Parquet strings), with
    /// empty strings turned into `None`.
    fn text(&self, name: &str) -> Result<Vec<Option<String>>> {
        // CSV columns are read as strings (no inference), so one path serves both formats.
        let Some(column) = self.native(name, "a string", |dtype| *dtype == DataType::String)?
        else {
            return Ok(vec![None; self.height()]);
        };
        Ok(column
            .str()?
            .iter()
            .map(|cell| cell.filter(|text| !text.is_empty()).map(str::to_owned))
            .collect())
    }

    /// Parses every non-empty cell of a text column, naming the row of the first failure.
    fn parse_text<T>(
        &self,
        name: &str,
        expected: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Vec<Option<T>>> {
        // Borrowed cells: no copy of the text, which matters on million-row tables.
        let Some(column) = self.native(name, "a string", |dtype| *dtype == DataType::String)?
        else {
            return Ok((0..self.height()).map(|_| None).collect());
        };
        let mut cells = Vec::with_capacity(self.height());
        for (index, cell) in column.str()?.iter().enumerate() {
            let value = match cell.filter(|text| !text.is_empty()) {
                None => None,
                Some(text) => Some(parse(text).ok_or_else(|| {
                    self.cell_error(index, name, format!("expected {expected}, found {text:?}"))
                })?),
            };
            cells.push(value);
        }
        Ok(cells)
    }

    /// Fails at the first empty cell of a required column.
    fn check_need<T>(
        &self,
        name: &str,
        need: Need,
        cells: Vec<Option<T>>,
    ) -> Result<Vec<Option<T>>> {
        if need == Need::Required
            && let Some(index) = cells.iter().position(Option::is_none)
        {
            return Err(self.cell_error(index, name, "empty cell in a required column"));
        }
        Ok(cells)
    }
}

/// A closed vocabulary of `crate::vocab`, for [`Table::vocab`].
pub(crate) trait Vocab: Sized {
    /// Parses the canonical spelling exactly.
    fn parse(text: &str) -> Option<Self>;
    /// The canonical spellings, for messages.
    fn names() -> Vec<&'static str>;
}

macro_rules! vocab {
    ($($name:ty),+) => {$(
        impl Vocab for $name {
            fn parse(text: &str) -> Option<Self> {
                <$name>::parse(text)
            }
            fn names() -> Vec<&'static str> {
                <$name>::names()
            }
        }
    )+};
}

vocab!(Currency, BodyType, Fuel, Transmission, Drivetrain);

/// The values of a column read with [`Need::Required`], which has no empty cell.
pub(crate) fn filled<T>(cells: Vec<Option<T>>) -> Vec<T> {
    debug_assert!(
        cells.iter().all(Option::is_some),
        "filled() on a nullable column"
    );
    cells.into_iter().flatten().collect()
}

/// Parquet `number`: any integer or floating type.
fn is_number(dtype: &DataType) -> bool {
    dtype.is_integer() || dtype.is_float()
}

fn read_parquet(path: &Path) -> Result<DataFrame> {
    let file = File::open(path)?;
    Ok(ParquetReader::new(file).finish()?)
}

fn read_csv(path: &Path) -> Result<DataFrame> {
    // Schema inference off: every column is text and the loader parses cells
    // itself, so errors can name the row and the found text.
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .with_raise_if_empty(false)
        .try_into_reader_with_file_path(Some(path.to_path_buf()))?
        .finish()?;
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_rows_names_the_row_of_the_whole_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let csv = "stock\n1\n2\n3\nmany\n5\n";
        std::fs::write(dir.path().join("quotes.csv"), csv).expect("write");
        let table = Table::read(dir.path(), "quotes").expect("read");
        assert_eq!(table.height(), 5);

        let head = table.rows(0, 3);
        let cells = head.integers("stock", Need::Required).expect("rows 1 to 3");
        assert_eq!(cells, [Some(1), Some(2), Some(3)]);

        let tail = table.rows(3, 3);
        assert_eq!(tail.height(), 2, "the last run is short");
        let err = tail.integers("stock", Need::Required).expect_err("row 4");
        assert_eq!(
            err.to_string(),
            "quotes.csv: row 4, column \"stock\": expected an integer, found \"many\""
        );
        let nested = tail.rows(1, 1);
        assert_eq!(nested.file_row(0), 4);
    }
}
