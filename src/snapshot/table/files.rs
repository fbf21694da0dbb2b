//! Snapshot stage, tables, the files: where a table's files are (one file,
//! or a folder of parts), how messages name each of them, and how one is
//! read (a CSV file whole, as text; a Parquet file whole or in slices, the
//! next decoded while the one before is taken).

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use polars::prelude::{CsvReadOptions, DataFrame, ParquetReader, SerReader};

use crate::snapshot::write::TableFormat;

/// Most rows decoded at once from a Parquet file: a quarter of polars'
/// default row group. Decoding a group in slices of this size costs a
/// little more CPU than whole, and the slice decoded ahead of the loader
/// ([`read_parquet_slices`]) holds a quarter of the memory a group would.
pub(super) const SLICE_ROWS: usize = 1 << 16;

/// The first row of each slice of at most `most` of `rows` rows; one
/// slice when there are none, so that a file without rows is still read
/// once and its columns checked.
pub(super) fn slice_starts(rows: usize, most: usize) -> impl Iterator<Item = usize> {
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
pub(super) fn read_parquet_slices<T: Send>(
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

/// A Parquet file, whole.
pub(super) fn read_parquet(path: &Path) -> Result<DataFrame> {
    let file = File::open(path)?;
    Ok(ParquetReader::new(file).finish()?)
}

/// A CSV file, whole, every column as text.
pub(super) fn read_csv(path: &Path) -> Result<DataFrame> {
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

/// The files of table `name` in `dir`: `NAME.parquet`, else `NAME.csv`,
/// else the parts in the folder `NAME/`.
pub(super) fn locate(dir: &Path, name: &str) -> Result<Vec<(PathBuf, TableFormat)>> {
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
pub(super) fn part_name(
    dir: &Path,
    name: &str,
    parts: &[(PathBuf, TableFormat)],
    path: &Path,
) -> String {
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

/// The file name of `path`, for messages.
pub(super) fn path_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}
