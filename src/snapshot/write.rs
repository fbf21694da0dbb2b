//! Snapshot stage, writer: turns a [`Snapshot`] back into the files of
//! `data/README.md` (`snapshot.json`, five tables as Parquet or CSV,
//! `specs.jsonl`), byte for byte the same for the same snapshot.

use std::fs;
use std::io::ErrorKind;
use std::ops::Range;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::model::{CatalogueRun, Identity, QuoteCheck, Snapshot, SourceQuote, Specs, Version};
use crate::frame::Frame;
use crate::time::Time;
use crate::vocab::Drivetrain;

/// File format of the written tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// `NAME.parquet`.
    Parquet,
    /// `NAME.csv`.
    Csv,
}

impl TableFormat {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Parquet => "parquet",
            TableFormat::Csv => "csv",
        }
    }

    fn other(self) -> TableFormat {
        match self {
            TableFormat::Parquet => TableFormat::Csv,
            TableFormat::Csv => TableFormat::Parquet,
        }
    }
}

/// Writes every file of a snapshot into `dir` (created if needed), tables in
/// `format`; `specs.jsonl` is always written, empty when no version has specs.
/// A table file of the other format left in `dir` is removed, since the loader
/// would prefer a stale Parquet file over the fresh CSV one. Times are written
/// with whole seconds, as the format allows.
pub fn write_snapshot(snapshot: &Snapshot, dir: &Path, format: TableFormat) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut meta =
        serde_json::to_string_pretty(&snapshot.meta).context("serializing snapshot.json")?;
    meta.push('\n');
    write_file(&dir.join("snapshot.json"), meta.as_bytes())?;

    for table in SnapshotTable::ALL {
        write_frame(table.frame(snapshot), dir, format)?;
    }
    write_file(&dir.join("specs.jsonl"), specs_jsonl(snapshot)?.as_bytes())
}

/// The five tables of a snapshot, in the order of `data/README.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotTable {
    /// `catalogue_checks`.
    CatalogueChecks,
    /// `versions`.
    Versions,
    /// `catalogue_prices`.
    CataloguePrices,
    /// `quote_checks`.
    QuoteChecks,
    /// `quotes`.
    Quotes,
    /// `cpi` (optional on reading: an empty table is none).
    Cpi,
}

impl SnapshotTable {
    /// Every table, in the order of `data/README.md`.
    pub const ALL: [SnapshotTable; 6] = [
        SnapshotTable::CatalogueChecks,
        SnapshotTable::Versions,
        SnapshotTable::CataloguePrices,
        SnapshotTable::QuoteChecks,
        SnapshotTable::Quotes,
        SnapshotTable::Cpi,
    ];

    /// The table of `snapshot`, with the columns of `data/README.md`;
    /// versions by ID, rows by time. Built on demand: the quotes of a large
    /// snapshot are millions of cells, so a caller holds one table at a time.
    pub fn frame(self, snapshot: &Snapshot) -> Frame {
        let versions = sorted_versions(snapshot);
        match self {
            SnapshotTable::CatalogueChecks => {
                let mut checks = snapshot.catalogue_checks.clone();
                checks.sort();
                Frame::new("catalogue_checks").time("observedAt", checks.iter().map(|t| Some(*t)))
            }
            SnapshotTable::Versions => versions_frame(&versions),
            SnapshotTable::CataloguePrices => catalogue_prices_frame(&versions),
            SnapshotTable::QuoteChecks => quote_checks_frame(&versions, &everything()),
            SnapshotTable::Quotes => quotes_frame(&versions, &everything()),
            SnapshotTable::Cpi => {
                let rows = &snapshot.cpi;
                Frame::new("cpi")
                    .text("month", rows.iter().map(|row| Some(row.month.label())))
                    .number("value", rows.iter().map(|row| Some(row.value)))
                    .text("source", rows.iter().map(|row| row.source.as_deref()))
            }
        }
    }

    /// Whether the table is a history of quote checks, which `/datos`
    /// publishes one calendar month per file.
    pub fn is_history(self) -> bool {
        matches!(self, SnapshotTable::QuoteChecks | SnapshotTable::Quotes)
    }

    /// The table's rows of the quote checks whose time is in `period`: a
    /// history table's part ([`SnapshotTable::frame`] of any other table).
    pub fn frame_between(self, snapshot: &Snapshot, period: Range<Time>) -> Frame {
        let versions = sorted_versions(snapshot);
        match self {
            SnapshotTable::QuoteChecks => quote_checks_frame(&versions, &period),
            SnapshotTable::Quotes => quotes_frame(&versions, &period),
            _ => self.frame(snapshot),
        }
    }
}

/// Every time a snapshot can hold.
fn everything() -> Range<Time> {
    Time::MIN_UTC..Time::MAX_UTC
}

/// `specs.jsonl`: one line per version with specifications, by version ID;
/// empty when no version has any.
pub fn specs_jsonl(snapshot: &Snapshot) -> Result<String> {
    specs_lines(&sorted_versions(snapshot))
}

pub(super) fn sorted_versions(snapshot: &Snapshot) -> Vec<&Version> {
    let mut versions: Vec<&Version> = snapshot.versions.iter().collect();
    versions.sort_by(|a, b| a.id.cmp(&b.id));
    versions
}

/// The one place files are written: adds the path to every error.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// `frame` with a version's names and facts appended, `make` to `airbags`
/// as the `versions` table spells them (the drivetrain between the
/// transmission and the seats): the columns the snapshot's table and the
/// published `versiones` share, one row of `names` each.
pub fn name_columns(frame: Frame, names: &[(&Identity, Option<Drivetrain>)]) -> Frame {
    let n = names;
    frame
        .text("make", n.iter().map(|(x, _)| Some(x.make.as_str())))
        .text("model", n.iter().map(|(x, _)| Some(x.model.as_str())))
        .text("trim", n.iter().map(|(x, _)| Some(x.trim.as_str())))
        .text(
            "trimDisplay",
            n.iter().map(|(x, _)| x.trim_display.as_deref()),
        )
        .text(
            "type",
            n.iter().map(|(x, _)| x.body_type.map(|t| t.as_str())),
        )
        .text("tier", n.iter().map(|(x, _)| x.tier.as_deref()))
        .text("tierLabel", n.iter().map(|(x, _)| x.tier_label.as_deref()))
        .text("fuel", n.iter().map(|(x, _)| x.fuel.map(|f| f.as_str())))
        .text(
            "transmission",
            n.iter().map(|(x, _)| x.transmission.map(|t| t.as_str())),
        )
        .text("drivetrain", n.iter().map(|(_, d)| d.map(|d| d.as_str())))
        .integer("seats", n.iter().map(|(x, _)| x.seats.map(i64::from)))
        .integer("airbags", n.iter().map(|(x, _)| x.airbags.map(i64::from)))
}

fn versions_frame(versions: &[&Version]) -> Frame {
    let v = versions;
    let fact_sources = |version: &Version| {
        // An empty map is written as an empty cell, which loads back as `{}`.
        (!version.identity.fact_sources.is_empty())
            .then(|| serde_json::to_string(&version.identity.fact_sources).unwrap_or_default())
    };
    let names: Vec<_> = v.iter().map(|v| (&v.identity, v.drivetrain)).collect();
    name_columns(
        Frame::new("versions").text("id", v.iter().map(|v| Some(v.id.clone()))),
        &names,
    )
    .text(
        "sourceUrl",
        v.iter().map(|v| Some(v.identity.source_url.clone())),
    )
    .text("factSources", v.iter().map(|v| fact_sources(v)))
}

fn catalogue_prices_frame(versions: &[&Version]) -> Frame {
    let rows: Vec<(&str, &CatalogueRun)> = versions
        .iter()
        .flat_map(|version| {
            let mut runs: Vec<&CatalogueRun> = version.catalogue.iter().collect();
            runs.sort_by_key(|run| (run.first_seen, run.last_seen));
            runs.into_iter().map(|run| (version.id.as_str(), run))
        })
        .collect();
    Frame::new("catalogue_prices")
        .text("versionId", rows.iter().map(|(id, _)| Some(*id)))
        .number("price", rows.iter().map(|(_, run)| Some(run.price.amount)))
        .text(
            "currency",
            rows.iter()
                .map(|(_, run)| Some(run.price.currency.as_str())),
        )
        .time(
            "firstSeen",
            rows.iter().map(|(_, run)| Some(run.first_seen)),
        )
        .time("lastSeen", rows.iter().map(|(_, run)| Some(run.last_seen)))
}

/// One row of `quote_checks`: a check of either kind, as the table has it.
pub(super) struct CheckRow<'a> {
    pub(super) version_id: &'a str,
    pub(super) observed_at: Time,
    pub(super) ars_per_usd: Option<f64>,
    pub(super) in_stock: bool,
}

/// Every quote check in `period`, those kept in brief included, versions by
/// ID, checks by time.
pub(super) fn sorted_checks<'a>(
    versions: &[&'a Version],
    period: &Range<Time>,
) -> Vec<CheckRow<'a>> {
    versions
        .iter()
        .flat_map(|version| {
            let row = |observed_at, ars_per_usd, in_stock| CheckRow {
                version_id: version.id.as_str(),
                observed_at,
                ars_per_usd,
                in_stock,
            };
            let earlier =
                (version.earlier.iter()).map(|c| row(c.observed_at, c.ars_per_usd, c.in_stock));
            let checks =
                (version.checks.iter()).map(|c| row(c.observed_at, c.ars_per_usd, c.in_stock));
            let mut rows: Vec<CheckRow> = earlier
                .chain(checks)
                .filter(|row| period.contains(&row.observed_at))
                .collect();
            rows.sort_by_key(|row| row.observed_at);
            rows
        })
        .collect()
}

fn quote_checks_frame(versions: &[&Version], period: &Range<Time>) -> Frame {
    check_rows_frame(&sorted_checks(versions, period))
}

/// The `quote_checks` table of `rows`, in their order: by version ID and
/// time, as every writer of the table orders them.
pub(super) fn check_rows_frame(rows: &[CheckRow]) -> Frame {
    Frame::new("quote_checks")
        .text("versionId", rows.iter().map(|row| Some(row.version_id)))
        .time("observedAt", rows.iter().map(|row| Some(row.observed_at)))
        .number("arsPerUsd", rows.iter().map(|row| row.ars_per_usd))
        .boolean("inStock", rows.iter().map(|row| Some(row.in_stock)))
}

fn quotes_frame(versions: &[&Version], period: &Range<Time>) -> Frame {
    quote_rows_frame(&rows_of(versions, period))
}

/// The quotes of `snapshot`'s checks whose time is in `period`: (version ID,
/// check time, quote), by version ID, check time and quote ID.
pub(super) fn quote_rows<'a>(
    snapshot: &'a Snapshot,
    period: &Range<Time>,
) -> Vec<(&'a str, Time, &'a SourceQuote)> {
    rows_of(&sorted_versions(snapshot), period)
}

/// The quotes the snapshot holds of the checks in `period` (an
/// [`EarlierCheck`](super::model::EarlierCheck)'s are in the loader's
/// spill), sorted as the table is.
fn rows_of<'a>(
    versions: &[&'a Version],
    period: &Range<Time>,
) -> Vec<(&'a str, Time, &'a SourceQuote)> {
    versions
        .iter()
        .flat_map(|version| {
            let mut checks: Vec<&QuoteCheck> = version
                .checks
                .iter()
                .filter(|check| period.contains(&check.observed_at))
                .collect();
            checks.sort_by_key(|check| check.observed_at);
            checks.into_iter().flat_map(move |check| {
                let mut quotes: Vec<&SourceQuote> = check.quotes.iter().collect();
                quotes.sort_by(|a, b| a.id.cmp(&b.id));
                quotes
                    .into_iter()
                    .map(move |quote| (version.id.as_str(), check.observed_at, quote))
            })
        })
        .collect()
}

/// The `quotes` table of `rows` (version ID, check time, quote), in their
/// order: by version ID, check time and quote ID, as every writer of the
/// table orders them.
pub(super) fn quote_rows_frame(rows: &[(&str, Time, &SourceQuote)]) -> Frame {
    let r = rows;
    Frame::new("quotes")
        .text("versionId", r.iter().map(|(id, _, _)| Some(*id)))
        .time("checkedAt", r.iter().map(|(_, at, _)| Some(*at)))
        .text("quoteId", r.iter().map(|(_, _, q)| Some(q.id.as_str())))
        .number("price", r.iter().map(|(_, _, q)| Some(q.price.amount)))
        .text(
            "currency",
            r.iter().map(|(_, _, q)| Some(q.price.currency.as_str())),
        )
        .boolean("feesIncluded", r.iter().map(|(_, _, q)| q.fees_included))
        .text("color", r.iter().map(|(_, _, q)| q.color.as_deref()))
        .integer("stock", r.iter().map(|(_, _, q)| q.stock))
        .text("location", r.iter().map(|(_, _, q)| q.location.as_deref()))
        .text("sellerId", r.iter().map(|(_, _, q)| q.seller_id.as_deref()))
}

/// One `specs.jsonl` line: the version ID first, then the record's fields.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SpecsLine<'a> {
    version_id: &'a str,
    #[serde(flatten)]
    specs: &'a Specs,
}

fn specs_lines(versions: &[&Version]) -> Result<String> {
    let mut out = String::new();
    for version in versions {
        if let Some(specs) = &version.specs {
            let line = SpecsLine {
                version_id: &version.id,
                specs,
            };
            out.push_str(&serde_json::to_string(&line).context("serializing specs.jsonl")?);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Writes `dir/NAME.EXT` and removes a twin of the other format.
fn write_frame(frame: Frame, dir: &Path, format: TableFormat) -> Result<()> {
    let name = frame.name();
    let file = format!("{name}.{}", format.extension());
    let bytes = match format {
        TableFormat::Parquet => frame.into_parquet(),
        TableFormat::Csv => Ok(frame.to_csv().into_bytes()),
    }
    .with_context(|| format!("encoding {file}"))?;
    write_file(&dir.join(&file), &bytes)?;
    let twin = dir.join(format!("{name}.{}", format.other().extension()));
    match fs::remove_file(&twin) {
        Err(err) if err.kind() != ErrorKind::NotFound => {
            Err(err).with_context(|| format!("removing {}", twin.display()))
        }
        _ => Ok(()),
    }
}
