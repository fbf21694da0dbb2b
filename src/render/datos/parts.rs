//! Render stage, data downloads: the parts of each table. A table is
//! written whole, or as a history table one calendar month at a time, each
//! part built just before it is encoded (so only as many parts as there are
//! threads are held at once), kept from the previous tree when it can be
//! (`reuse.rs`), and checked against its documented columns.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, ensure};
use rayon::prelude::*;
use tracing::debug;

use super::fields::TableDoc;
use super::months::Month;
use super::package::GZIP_LEVEL;
use super::package::{Part, TableFiles};
use super::place::write_file;
use super::reuse::{Noted, Reuse};
use crate::frame::Frame;
use crate::headers::{GZIP, PARQUET};
use crate::output::TreeWriter;
use crate::snapshot::republish::HistoryMonths;
use crate::time::Time;

/// Builds a whole table's frame when it is written.
pub(super) type Builder<'a> = Box<dyn Fn() -> anyhow::Result<Frame> + Send + Sync + 'a>;

/// Builds the frame of a history table's rows in one period.
pub(super) type Monthly<'a> = Box<dyn Fn(Range<Time>) -> anyhow::Result<Frame> + Send + Sync + 'a>;

/// How a table's files are cut: one pair for the whole table, or one pair
/// per calendar month for a history table of `HistoryMonths` (which says
/// what each month is built from).
pub(super) enum Rows<'a> {
    Whole(Builder<'a>),
    Monthly(Monthly<'a>, &'a HistoryMonths<'a>),
}

/// A table to write: what it holds, and how to build it.
pub(super) type TableJob<'a> = (TableDoc, Rows<'a>);

/// Builds, encodes and writes each table as `<folder><name>.csv.gz` and
/// `<folder><name>.parquet`, or a history table as
/// `<folder><name>/<YYYY-MM>.csv.gz` and `.parquet` for each of `months`,
/// in parallel over every file pair, in the given order. Each frame is built
/// just before it is encoded and dropped after, so only as many parts as
/// there are threads are held at once; a month built from what the
/// previous tree's was is not built at all ([`Reuse::keep_unbuilt`]).
pub(super) fn write_tables(
    out: &TreeWriter,
    reuse: &Reuse,
    stop: &AtomicBool,
    folder: &'static str,
    tables: Vec<TableJob>,
    months: &[Month],
) -> anyhow::Result<Vec<TableFiles>> {
    let mut jobs: Vec<(usize, Option<&Month>)> = Vec::new();
    for (index, (_, rows)) in tables.iter().enumerate() {
        match rows {
            Rows::Whole(_) => jobs.push((index, None)),
            Rows::Monthly(..) => jobs.extend(months.iter().map(|month| (index, Some(month)))),
        }
    }
    let parts: Vec<(usize, Part)> = jobs
        .into_par_iter()
        .map(|(index, month)| {
            ensure!(
                !stop.load(Ordering::Relaxed),
                "stopped: a step beside it failed"
            );
            let (doc, rows) = &tables[index];
            let stem = match month {
                None => format!("{folder}{}", doc.name),
                Some(month) => format!("{folder}{}/{}", doc.name, month.label),
            };
            let part = match (rows, month) {
                (Rows::Monthly(build, history), Some(month)) => {
                    write_month(out, reuse, &stem, doc, month, build, history)?
                }
                (Rows::Whole(build), _) => {
                    write_part(out, reuse, &stem, doc, None, build()?, None)?
                }
                (Rows::Monthly(..), None) => {
                    anyhow::bail!("invariant: a job of the history table {stem} has its month")
                }
            };
            Ok((index, part))
        })
        .collect::<anyhow::Result<_>>()?;
    let mut files: Vec<TableFiles> = tables
        .into_iter()
        .map(|(doc, _)| TableFiles {
            doc,
            folder,
            parts: Vec::new(),
        })
        .collect();
    for (index, part) in parts {
        files[index].parts.push(part);
    }
    Ok(files)
}

/// Keeps the previous tree's part of a history table's `month` at `stem`
/// without building it when the month is built from what that part was
/// ([`Reuse::keep_unbuilt`]); builds, encodes and writes it otherwise.
fn write_month(
    out: &TreeWriter,
    reuse: &Reuse,
    stem: &str,
    doc: &TableDoc,
    month: &Month,
    build: &Monthly,
    history: &HistoryMonths,
) -> anyhow::Result<Part> {
    // Only a run over a previous tree asks what a month is built from: a
    // first run would pay for it and keep nothing by it. Its next run
    // builds every month once more and records it.
    let key = if reuse.follows_a_tree() {
        Reuse::sources_key(&history.sources(&month.range())?)
    } else {
        None
    };
    if let Some(key) = &key
        && let Some((csv, parquet, rows)) = reuse.keep_unbuilt(out, stem, key)?
    {
        return Ok(Part {
            month: Some(month.label.clone()),
            rows,
            csv,
            parquet,
        });
    }
    let frame = build(month.range())?;
    write_part(out, reuse, stem, doc, Some(month), frame, key)
}

/// Encodes and writes one file pair of a table, `stem` (the whole table,
/// or its rows of one month), or keeps the previous tree's when it was
/// encoded from the same frame; `sources` is the key of what a month's
/// frame was built from, recorded for the next run.
fn write_part(
    out: &TreeWriter,
    reuse: &Reuse,
    stem: &str,
    doc: &TableDoc,
    month: Option<&Month>,
    frame: Frame,
    sources: Option<String>,
) -> anyhow::Result<Part> {
    let start = Instant::now();
    check_columns(doc, &frame)?;
    let rows = frame.height();
    let digest = Reuse::digest(&frame);
    let (csv, parquet) = match reuse.keep(out, stem, &digest)? {
        Some(kept) => kept,
        None => {
            let csv = frame
                .to_csv_gz(GZIP_LEVEL)
                .with_context(|| format!("compressing {stem}.csv.gz"))?;
            let parquet = frame
                .into_parquet()
                .with_context(|| format!("encoding {stem}.parquet"))?;
            debug!(
                table = %stem,
                rows,
                elapsed_ms = start.elapsed().as_millis() as u64,
                "data download encoded"
            );
            (
                write_file(out, &format!("{stem}.csv.gz"), GZIP, &csv)?,
                write_file(out, &format!("{stem}.parquet"), PARQUET, &parquet)?,
            )
        }
    };
    reuse.note(
        stem,
        Noted {
            frame: digest,
            sources,
            rows,
            csv: &csv,
            parquet: &parquet,
        },
    )?;
    Ok(Part {
        month: month.map(|month| month.label.clone()),
        rows,
        csv,
        parquet,
    })
}

/// A table's columns are the documented ones, in order, of the documented types.
fn check_columns(doc: &TableDoc, frame: &Frame) -> anyhow::Result<()> {
    let names: Vec<&str> = frame.columns().iter().map(|(n, _)| n.as_str()).collect();
    let documented: Vec<&str> = doc.fields.iter().map(|f| f.name.as_str()).collect();
    ensure!(
        names == documented && doc.name == frame.name(),
        "invariant: table {} has columns {names:?}, documented as {} {documented:?}",
        frame.name(),
        doc.name
    );
    for (field, (_, cells)) in doc.fields.iter().zip(frame.columns()) {
        ensure!(
            field.kind.fits(cells),
            "invariant: column {}.{} does not hold {}",
            doc.name,
            field.name,
            field.kind.schema_type()
        );
    }
    Ok(())
}
