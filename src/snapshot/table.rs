//! Snapshot stage, tables: reads one input table (`NAME.parquet` or `NAME.csv`)
//! with polars, with the cell access and the error naming file, row and
//! column that its typed columns (`columns.rs`) share, so the loader never
//! sees whether a cell came from CSV text or a Parquet type.

use std::fmt::Display;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use polars::prelude::{Column, DataFrame, DataType};

mod files;

use super::write::TableFormat;
use files::{
    SLICE_ROWS, locate, part_name, path_name, read_csv, read_parquet, read_parquet_slices,
    slice_starts,
};

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
    /// The file (`quotes.parquet`), or the folder of its parts (`quotes/`).
    pub(super) file: String,
    /// Each file the rows came from, with the index of its first row in
    /// the table, in order (one for a table read from one file).
    parts: Vec<(String, usize)>,
    pub(super) format: TableFormat,
    frame: DataFrame,
    /// Index in the whole table of this table's first row (0 unless it is
    /// a run of rows from [`Table::read_runs`]), so messages name the
    /// file's row.
    first_row: usize,
}

impl Table {
    /// Reads `dir/NAME.parquet`, or `dir/NAME.csv` when there is no Parquet
    /// file, or else the parts of the table in the folder `dir/NAME/` (one
    /// per month, as `/datos/snapshot/` publishes its history tables): every
    /// `*.parquet` file in it, or without any every `*.csv` file, in file-name
    /// order, one table whose messages name each row's own part and row.
    pub(crate) fn read(dir: &Path, name: &str) -> Result<Self> {
        let parts = locate(dir, name)?;
        let format = parts[0].1;
        let mut frame: Option<DataFrame> = None;
        let mut files = Vec::with_capacity(parts.len());
        for (path, _) in &parts {
            let file = part_name(dir, name, &parts, path);
            let part = match format {
                TableFormat::Parquet => read_parquet(path),
                TableFormat::Csv => read_csv(path),
            }
            .with_context(|| format!("reading {file}"))?;
            let start = frame.as_ref().map_or(0, DataFrame::height);
            frame = Some(match frame {
                None => part,
                Some(mut whole) => {
                    whole.vstack_mut(&part).with_context(|| {
                        format!("reading {file}: its columns differ from the first part's")
                    })?;
                    whole
                }
            });
            files.push((file, start));
        }
        let frame = frame.context("invariant: a table has at least one file")?;
        let file = match files.as_slice() {
            [(file, _)] => file.clone(),
            _ => format!("{name}/"),
        };
        Ok(Table {
            file,
            parts: files,
            format,
            frame,
            first_row: 0,
        })
    }

    /// Reads the table as [`Table::read`] does, but a run of rows at a
    /// time: slices of at most [`SLICE_ROWS`] rows (of a Parquet file's row
    /// groups, none across two; of a CSV file read whole). `each` gets the
    /// runs in order, each as the names of its rows ([`Run`]: a run's data
    /// is dropped once prepared) with what `prepare` made of it. A Parquet
    /// file's next slice is decoded and prepared on a reading thread while
    /// `each` takes this one; a CSV file's slices are prepared one after
    /// the other.
    /// Returns the names of the whole table's rows. For the largest table
    /// (`quotes`, millions of rows), which otherwise sat whole in memory
    /// beside the model built from it, and whose reading was one core's
    /// work after another's.
    pub(crate) fn read_runs<P: Send>(
        dir: &Path,
        name: &str,
        prepare: impl Fn(&Table) -> P + Sync,
        mut each: impl FnMut(&Run, P) -> Result<()>,
    ) -> Result<RowNames> {
        let parts = locate(dir, name)?;
        let format = parts[0].1;
        let file = match parts.as_slice() {
            [(path, _)] if path.parent() == Some(dir) => path_name(path),
            _ => format!("{name}/"),
        };
        let mut files: Vec<(String, usize)> = Vec::with_capacity(parts.len());
        let mut start = 0;
        for (path, _) in &parts {
            let part = part_name(dir, name, &parts, path);
            files.push((part.clone(), start));
            let make = |frame: DataFrame, offset: usize| {
                let table = Table {
                    file: file.clone(),
                    parts: files.clone(),
                    format,
                    frame,
                    first_row: start + offset,
                };
                let prepared = prepare(&table);
                let run = Run {
                    names: table.names(),
                    first_row: table.first_row,
                };
                (run, prepared)
            };
            let mut run = |(run, prepared): (Run, P)| each(&run, prepared);
            let read = match format {
                TableFormat::Parquet => read_parquet_slices(path, SLICE_ROWS, &make, &mut run),
                TableFormat::Csv => read_csv(path).and_then(|frame| {
                    let rows = frame.height();
                    for offset in slice_starts(rows, SLICE_ROWS) {
                        run(make(frame.slice(offset as i64, SLICE_ROWS), offset))?;
                    }
                    Ok(rows)
                }),
            };
            start += read.with_context(|| format!("reading {part}"))?;
        }
        Ok(RowNames { file, parts: files })
    }

    /// The index in the whole table of this table's row `index`.
    pub(crate) fn file_row(&self, index: usize) -> usize {
        self.first_row + index
    }

    /// `file: row N` of this table's row `index`, as messages name a row.
    pub(crate) fn row_name(&self, index: usize) -> String {
        row_name(&self.file, &self.parts, self.file_row(index))
    }

    /// `row N` of this table's row `index`, led by its part's name when
    /// the table is read from several files (for a second row a message
    /// names beside the one it is about).
    pub(crate) fn row_label(&self, index: usize) -> String {
        match self.parts.len() {
            0 | 1 => format!("row {}", self.file_row(index) + 1),
            _ => self.row_name(index),
        }
    }

    /// How to name the whole table's rows once its data is dropped.
    pub(crate) fn names(&self) -> RowNames {
        RowNames {
            file: self.file.clone(),
            parts: self.parts.clone(),
        }
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
        cell_error(&self.row_name(index), column, message)
    }

    /// The column called `name`, or an error naming the file and column.
    pub(super) fn column(&self, name: &str) -> Result<&Column> {
        self.frame
            .column(name)
            .map_err(|_| anyhow!("{}: missing column \"{name}\"", self.file))
    }

    /// A Parquet column whose type passes `accepts`; `None` for an all-null
    /// column of type Null, which some writers produce for empty columns.
    pub(super) fn native(
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
    pub(super) fn text(&self, name: &str) -> Result<Vec<Option<String>>> {
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
    pub(super) fn parse_text<T>(
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
    pub(super) fn check_need<T>(
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

/// The names of a table's rows, kept for messages about them after the
/// table itself is dropped.
#[derive(Debug, Clone)]
pub(crate) struct RowNames {
    file: String,
    parts: Vec<(String, usize)>,
}

impl RowNames {
    /// The file, or the folder of the parts.
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// `file: row N` of the whole table's row `row` (from 0).
    pub(crate) fn row(&self, row: usize) -> String {
        row_name(&self.file, &self.parts, row)
    }
}

/// A run of a table's rows as [`Table::read_runs`] gives it once
/// prepared: how to name its rows, its data dropped.
pub(crate) struct Run {
    names: RowNames,
    /// Index in the whole table of the run's first row.
    first_row: usize,
}

impl Run {
    /// The index in the whole table of the run's row `index`.
    pub(crate) fn file_row(&self, index: usize) -> usize {
        self.first_row + index
    }

    /// `file: row N` of the run's row `index`, as [`Table::row_name`].
    pub(crate) fn row_name(&self, index: usize) -> String {
        self.names.row(self.file_row(index))
    }

    /// An error about a cell of the run, as [`Table::cell_error`].
    pub(crate) fn cell_error(
        &self,
        index: usize,
        column: &str,
        message: impl Display,
    ) -> anyhow::Error {
        cell_error(&self.row_name(index), column, message)
    }
}

/// `ROW, column "COLUMN": MESSAGE`, the form of every cell's error.
fn cell_error(row: &str, column: &str, message: impl Display) -> anyhow::Error {
    anyhow!("{row}, column \"{column}\": {message}")
}

/// `file: row N` of the whole table's row `row`, in the part that holds it.
fn row_name(file: &str, parts: &[(String, usize)], row: usize) -> String {
    let part = parts
        .partition_point(|(_, first)| *first <= row)
        .saturating_sub(1);
    match parts.get(part) {
        Some((name, first)) => format!("{name}: row {}", row - first + 1),
        None => format!("{file}: row {}", row + 1),
    }
}

#[cfg(test)]
mod tests;
