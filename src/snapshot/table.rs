//! Snapshot stage, tables: reads one input table (`NAME.parquet` or `NAME.csv`)
//! with polars, with the cell access and the error naming file, row and
//! column that its typed columns (`columns.rs`) share, so the loader never
//! sees whether a cell came from CSV text or a Parquet type.

use std::fmt::Display;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use polars::prelude::{Column, CsvReadOptions, DataFrame, DataType, ParquetReader, SerReader};

use super::write::TableFormat;

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

/// Most rows decoded at once from a Parquet file: a quarter of polars'
/// default row group. Decoding a group in slices of this size costs a
/// little more CPU than whole, and the slice decoded ahead of the loader
/// ([`read_parquet_slices`]) holds a quarter of the memory a group would.
const SLICE_ROWS: usize = 1 << 16;

/// The first row of each slice of at most `most` of `rows` rows; one
/// slice when there are none, so that a file without rows is still read
/// once and its columns checked.
fn slice_starts(rows: usize, most: usize) -> impl Iterator<Item = usize> {
    (0..rows.max(1)).step_by(most)
}

/// Reads a Parquet file in slices of at most `most` rows, none across two
/// row groups, each made into a `T` by `make` (with the index of its first
/// row) on a reading thread and given to `run` in order; returns the
/// file's rows. A file without rows is read whole, so its columns are
/// still checked. The next slice is decoded and made while `run` takes
/// this one (reading `quotes` is decoding and converting, each a large
/// share, which ran one after the other). The channel holds
/// nothing: the reader waits with one made slice until `run` takes it, so
/// at most two slices are in memory. A failure, of reading or of `run`,
/// ends the reading.
fn read_parquet_slices<T: Send>(
    path: &Path,
    most: usize,
    make: &(impl Fn(DataFrame, usize) -> T + Sync),
    run: &mut impl FnMut(T) -> Result<()>,
) -> Result<usize> {
    let mut reader = ParquetReader::new(File::open(path)?);
    let metadata = reader.get_metadata()?.clone();
    let mut slices = Vec::new();
    let mut start = 0;
    for group in &metadata.row_groups {
        let end = start + group.num_rows();
        while start < end {
            let rows = most.min(end - start);
            slices.push((start, rows));
            start += rows;
        }
    }
    if slices.is_empty() {
        let frame = reader.finish()?;
        let rows = frame.height();
        run(make(frame, 0))?;
        return Ok(rows);
    }
    let read_slice = |slice: (usize, usize)| -> Result<T> {
        let mut reader = ParquetReader::new(File::open(path)?);
        reader.set_metadata(metadata.clone());
        Ok(make(reader.with_slice(Some(slice)).finish()?, slice.0))
    };
    std::thread::scope(|scope| {
        let (send, read) = std::sync::mpsc::sync_channel(0);
        scope.spawn(move || {
            for slice in slices {
                let made = read_slice(slice);
                let failed = made.is_err();
                // `run` failed (the receiver is gone) or this read did.
                if send.send(made).is_err() || failed {
                    break;
                }
            }
        });
        for made in read {
            run(made?)?;
        }
        Ok(start)
    })
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
    fn a_cell_error_names_the_row_of_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let csv = "stock\n1\n2\n3\nmany\n5\n";
        std::fs::write(dir.path().join("quotes.csv"), csv).expect("write");
        let table = Table::read(dir.path(), "quotes").expect("read");
        assert_eq!(table.height(), 5);
        let err = table.integers("stock", Need::Required).expect_err("row 4");
        assert_eq!(
            err.to_string(),
            "quotes.csv: row 4, column \"stock\": expected an integer, found \"many\""
        );
        assert_eq!(table.file_row(3), 3);
    }

    #[test]
    fn a_parquet_file_is_read_a_row_group_at_a_time_in_order_until_a_run_fails() {
        use polars::prelude::ParquetWriter;
        let dir = tempfile::tempdir().expect("tempdir");
        let csv = dir.path().join("rows.csv");
        let rows: String = (1..=10).map(|n| format!("{n}\n")).collect();
        std::fs::write(&csv, format!("stock\n{rows}")).expect("write");
        let mut frame = read_csv(&csv).expect("read");
        let file = File::create(dir.path().join("quotes.parquet")).expect("create");
        ParquetWriter::new(file)
            .with_row_group_size(Some(3))
            .finish(&mut frame)
            .expect("write");
        let mut seen = Vec::new();
        let names = Table::read_runs(
            dir.path(),
            "quotes",
            |run| (run.file_row(0), run.height()),
            |run, (first, rows)| {
                assert_eq!(first, run.file_row(0), "prepared from the same run");
                seen.push((run.file_row(0), rows));
                Ok(())
            },
        )
        .expect("read in runs");
        // polars' writer folds the short last group into the one before.
        assert_eq!(seen, [(0, 3), (3, 3), (6, 4)]);
        assert_eq!(names.file, "quotes.parquet");
        // A run that fails ends the reading, whatever was decoded ahead.
        let mut runs = 0;
        let err = Table::read_runs(
            dir.path(),
            "quotes",
            |_| (),
            |run, ()| {
                runs += 1;
                if run.file_row(0) == 3 {
                    bail!("row 4 is broken");
                }
                Ok(())
            },
        )
        .expect_err("the second run fails");
        assert_eq!(runs, 2);
        assert!(format!("{err:#}").contains("row 4 is broken"), "{err:#}");
        // Slices of at most two rows, none across two groups, each the
        // rows it says it starts at.
        let mut slices = Vec::new();
        let pair = |frame: DataFrame, at: usize| (frame, at);
        let rows = read_parquet_slices(
            &dir.path().join("quotes.parquet"),
            2,
            &pair,
            &mut |(frame, at)| {
                let column = frame.column("stock")?.str()?.clone();
                let values: Vec<&str> = column.iter().map(|cell| cell.unwrap_or("")).collect();
                slices.push((at, values.join(" ")));
                Ok(())
            },
        )
        .expect("read in slices");
        assert_eq!(rows, 10);
        let expected = [
            (0, "1 2"),
            (2, "3"),
            (3, "4 5"),
            (5, "6"),
            (6, "7 8"),
            (8, "9 10"),
        ];
        let expected: Vec<(usize, String)> = expected
            .iter()
            .map(|(at, values)| (*at, (*values).to_owned()))
            .collect();
        assert_eq!(slices, expected);
        // A file without rows is still read once, so that its columns are
        // checked.
        let mut empty = frame.head(Some(0));
        let path = dir.path().join("empty.parquet");
        ParquetWriter::new(File::create(&path).expect("create"))
            .finish(&mut empty)
            .expect("write");
        let mut runs = Vec::new();
        let rows = read_parquet_slices(&path, 2, &pair, &mut |(frame, at)| {
            runs.push((at, frame.height(), frame.width()));
            Ok(())
        })
        .expect("read empty");
        assert_eq!((rows, runs), (0, vec![(0, 0, 1)]));
    }

    #[test]
    fn runs_of_a_table_in_parts_name_the_rows_of_their_part() {
        let dir = tempfile::tempdir().expect("tempdir");
        let folder = dir.path().join("quotes");
        std::fs::create_dir(&folder).expect("folder");
        std::fs::write(folder.join("2026-10.csv"), "stock\n1\n2\n").expect("write");
        std::fs::write(folder.join("2026-11.csv"), "stock\n3\nmany\n").expect("write");
        let mut seen = Vec::new();
        let stock = |run: &Table| (run.height(), run.integers("stock", Need::Required));
        let names = Table::read_runs(dir.path(), "quotes", stock, |run, (rows, cells)| {
            seen.push((run.file_row(0), rows));
            if run.file_row(0) == 2 {
                let err = cells.expect_err("row 2 of the second part");
                assert_eq!(
                    err.to_string(),
                    "quotes/2026-11.csv: row 2, column \"stock\": expected an integer, found \"many\""
                );
            }
            Ok(())
        })
        .expect("read");
        assert_eq!(seen, [(0, 2), (2, 2)]);
        assert_eq!(names.file(), "quotes/");
        assert_eq!(names.row(1), "quotes/2026-10.csv: row 2");
        assert_eq!(names.row(2), "quotes/2026-11.csv: row 1");
    }

    #[test]
    fn slices_start_every_most_rows_and_an_empty_file_is_one_slice() {
        let starts = |rows, most| slice_starts(rows, most).collect::<Vec<_>>();
        assert_eq!(starts(5, 2), [0, 2, 4]);
        assert_eq!(starts(4, 2), [0, 2]);
        assert_eq!(starts(1, 2), [0]);
        assert_eq!(starts(0, 2), [0]);
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

/// The files of table `name` in `dir`: `NAME.parquet`, else `NAME.csv`,
/// else the parts in the folder `NAME/`.
fn locate(dir: &Path, name: &str) -> Result<Vec<(PathBuf, TableFormat)>> {
    let parquet = dir.join(format!("{name}.parquet"));
    let csv = dir.join(format!("{name}.csv"));
    Ok(if parquet.is_file() {
        vec![(parquet, TableFormat::Parquet)]
    } else if csv.is_file() {
        vec![(csv, TableFormat::Csv)]
    } else {
        parts_of(&dir.join(name))
            .with_context(|| format!("listing {name}/"))?
            .with_context(|| {
                format!("missing table {name}: neither {name}.parquet nor {name}.csv exists")
            })?
    })
}

/// How messages name a file of table `name`: its own name when it is the
/// table's one file beside the others, `NAME/part` when it is a part.
fn part_name(dir: &Path, name: &str, parts: &[(PathBuf, TableFormat)], path: &Path) -> String {
    match parts.len() {
        1 if path.parent() == Some(dir) => path_name(path),
        _ => format!("{name}/{}", path_name(path)),
    }
}

/// The parts of a table given as a folder: its `*.parquet` files, or
/// without any its `*.csv` files, by name; `None` when there is no folder
/// or no part in it.
fn parts_of(folder: &Path) -> Result<Option<Vec<(PathBuf, TableFormat)>>> {
    if !folder.is_dir() {
        return Ok(None);
    }
    let mut paths: Vec<PathBuf> = fs::read_dir(folder)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<std::io::Result<_>>()?;
    paths.sort();
    for format in [TableFormat::Parquet, TableFormat::Csv] {
        let parts: Vec<(PathBuf, TableFormat)> = paths
            .iter()
            .filter(|path| {
                path.is_file() && path.extension().is_some_and(|e| e == format.extension())
            })
            .map(|path| (path.clone(), format))
            .collect();
        if !parts.is_empty() {
            return Ok(Some(parts));
        }
    }
    Ok(None)
}

fn path_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}
