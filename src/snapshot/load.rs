//! Snapshot stage, loader: reads `snapshot.json`, the five tables (Parquet or
//! CSV) and `specs.jsonl` from a snapshot directory, validates them against
//! `data/README.md` and groups them per version into a [`Snapshot`].

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::ErrorKind;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;

use super::columns::filled;
use super::drafts::{Draft, Drafts, money_columns};
use super::model::{CatalogueRun, Identity, Snapshot, SnapshotMeta, Specs, Version};
use super::quotes::{load_quote_checks, load_quotes};
use super::table::{Need, Table};
use crate::catalogue::shared_sources;
use crate::time::{Time, format_time};
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission};

/// Longest accepted version ID, in characters.
const MAX_ID_CHARS: usize = 160;
/// Longest accepted make or model, in characters.
const MAX_NAME_CHARS: usize = 100;

/// Loads and validates the snapshot in `dir`. Any violation of
/// `data/README.md` is an error naming the file, row and column.
pub fn load_snapshot(dir: &Path) -> Result<Snapshot> {
    load(dir, None).with_context(|| format!("loading snapshot {}", dir.display()))
}

/// Loads and validates the snapshot in `dir` as [`load_snapshot`] does, every
/// row checked, for readers that need no quote older than a reach before
/// `catalogueObservedAt` (the signals and what is computed from them): a
/// quote check `in_brief` names, unless it is its version's latest, is
/// kept in brief, as an [`EarlierCheck`](super::model::EarlierCheck)
/// (its count of quotes, and for a version's first and last such check its
/// cheapest quote in each currency: all that its dealer price and
/// `controles` read of it in memory). Memory then follows the window,
/// not the length of the history. With `spill`, the quotes of those checks,
/// and the checks themselves but each version's first and last, are
/// written there a month a file once read, for whatever republishes the
/// history (`Snapshot::spilled_in`, `republish::HistoryMonths`).
pub fn load_snapshot_for_signals(
    dir: &Path,
    in_brief: InBrief,
    spill: Option<&Path>,
) -> Result<Snapshot> {
    load(dir, Some((in_brief, spill)))
        .with_context(|| format!("loading snapshot {}", dir.display()))
}

fn load(dir: &Path, compact: Option<(InBrief, Option<&Path>)>) -> Result<Snapshot> {
    let spill = compact.and_then(|(_, spill)| spill);
    // `specs.jsonl` is parsed on its own thread from the start: it needs
    // no table, and the tables before `quotes` are read on one core. Its
    // error still comes after any table's, as when one was read after the
    // other.
    std::thread::scope(|scope| {
        let specs = scope.spawn(|| read_specs(dir));
        let cpi = super::cpi::load_cpi(dir)?;
        let tables = load_tables(dir, compact.map(|(in_brief, _)| in_brief), spill);
        let specs = specs
            .join()
            .map_err(|_| anyhow!("reading specs.jsonl: the reader panicked"));
        let Tables {
            meta,
            catalogue_checks,
            mut drafts,
        } = tables?;
        add_specs(specs??, &mut drafts)?;
        let mut versions = drafts.finish();
        if let Some(spill) = spill {
            super::republish::spill_earlier_checks(&mut versions, spill)?;
        }
        Ok(Snapshot {
            cpi,
            spilled_in: spill.map(Path::to_owned),
            meta,
            catalogue_checks,
            versions,
        })
    })
}

/// What the tables give, before the specifications are added.
struct Tables {
    meta: SnapshotMeta,
    catalogue_checks: Vec<Time>,
    drafts: Drafts,
}

/// `snapshot.json` and the five tables, validated and grouped per version
/// (the checks `in_brief` names kept in brief, their quotes spilled to
/// `spill`, when asked: see [`load_snapshot_for_signals`]).
fn load_tables(dir: &Path, in_brief: Option<InBrief>, spill: Option<&Path>) -> Result<Tables> {
    let meta = load_meta(dir)?;
    let catalogue_checks = load_catalogue_checks(dir, &meta)?;
    let mut drafts = load_versions(dir)?;
    load_catalogue_prices(dir, &catalogue_checks, &mut drafts)?;
    let cutoff = in_brief.map(|in_brief| in_brief.cutoff(meta.catalogue_observed_at));
    let checks = load_quote_checks(dir, &meta, &mut drafts, cutoff)?;
    load_quotes(dir, &checks, &mut drafts, spill)?;
    Ok(Tables {
        meta,
        catalogue_checks,
        drafts,
    })
}

/// Which quote checks a snapshot loaded for the signals keeps in brief
/// (each version's latest never is), by their distance from
/// `catalogueObservedAt` (`T`).
#[derive(Debug, Clone, Copy)]
pub enum InBrief {
    /// Those at or before `T` minus the reach.
    Before(chrono::Duration),
    /// Those of the months (UTC) before the one holding `T` minus the
    /// reach, what `generate` and `check` load: the month where the reach
    /// ends is held whole, not split between the spill and memory at a
    /// point that moves with every catalogue check, so a month's sources
    /// (`republish::sources`) change only when its rows do, and a routine
    /// run keeps the downloads of that month instead of building them
    /// again (bench/HISTORY.md, "Checks in brief by whole months"). Up to a
    /// month more is held; the signals read their own window from it
    /// (`signals::reach`), so none of them changes.
    MonthsBefore(chrono::Duration),
}

impl InBrief {
    /// The latest time kept in brief for a snapshot observed at `t`.
    fn cutoff(self, t: Time) -> Time {
        match self {
            InBrief::Before(reach) => t - reach,
            InBrief::MonthsBefore(reach) => {
                crate::time::month_start(t - reach) - chrono::Duration::nanoseconds(1)
            }
        }
    }
}

fn load_meta(dir: &Path) -> Result<SnapshotMeta> {
    let path = dir.join("snapshot.json");
    let text = fs::read_to_string(&path).context("reading snapshot.json")?;
    let meta: SnapshotMeta =
        serde_json::from_str(&text).map_err(|err| anyhow!("snapshot.json: {err}"))?;
    if meta.format_version != 1 {
        bail!(
            "snapshot.json: field \"formatVersion\": unsupported version {}, expected 1",
            meta.format_version
        );
    }
    if meta.snapshot_at < meta.catalogue_observed_at {
        bail!(
            "snapshot.json: field \"snapshotAt\": {} is before catalogueObservedAt {}",
            format_time(meta.snapshot_at),
            format_time(meta.catalogue_observed_at)
        );
    }
    if let Some((field, problem)) = meta.data_license.as_ref().and_then(|l| l.problem()) {
        bail!("snapshot.json: field \"dataLicense.{field}\": {problem}");
    }
    Ok(meta)
}

fn load_catalogue_checks(dir: &Path, meta: &SnapshotMeta) -> Result<Vec<Time>> {
    let table = Table::read(dir, "catalogue_checks")?;
    let times = filled(table.times("observedAt", Need::Required)?);
    let mut rows: BTreeMap<Time, usize> = BTreeMap::new();
    for (index, time) in times.iter().enumerate() {
        if let Some(first) = rows.insert(*time, index) {
            let message = format!(
                "duplicate catalogue check {} (first at row {})",
                format_time(*time),
                first + 1
            );
            return Err(table.cell_error(index, "observedAt", message));
        }
    }
    let Some((&latest, &index)) = rows.last_key_value() else {
        bail!(
            "{}: no rows, at least one catalogue check is required",
            table.file()
        );
    };
    if latest != meta.catalogue_observed_at {
        bail!(
            "snapshot.json: field \"catalogueObservedAt\": {} is not the latest catalogue check {} ({}: row {}, column \"observedAt\")",
            format_time(meta.catalogue_observed_at),
            format_time(latest),
            table.file(),
            index + 1
        );
    }
    Ok(rows.into_keys().collect())
}

fn load_versions(dir: &Path) -> Result<Drafts> {
    let t = Table::read(dir, "versions")?;
    if t.height() == 0 {
        bail!("{}: no rows, at least one version is required", t.file());
    }
    let mut drafts = Drafts {
        drafts: Vec::new(),
        by_id: BTreeMap::new(),
    };
    for (i, version) in read_versions(&t)?.into_iter().enumerate() {
        if let Some(first) = drafts.position(&version.id) {
            let message = format!(
                "duplicate version id {:?} (first at row {})",
                version.id,
                drafts.drafts[first].row + 1
            );
            return Err(t.cell_error(i, "id", message));
        }
        drafts.by_id.insert(version.id.clone(), drafts.drafts.len());
        drafts.drafts.push(Draft {
            row: i,
            version,
            runs: Vec::new(),
            checks: Vec::new(),
            earlier: Vec::new(),
        });
    }
    Ok(drafts)
}

/// Every row of `versions` as a version without prices, quotes or specs.
fn read_versions(t: &Table) -> Result<Vec<Version>> {
    let ids = filled(t.bounded_strings("id", Need::Required, MAX_ID_CHARS)?);
    let makes = filled(t.bounded_strings("make", Need::Required, MAX_NAME_CHARS)?);
    let models = filled(t.bounded_strings("model", Need::Required, MAX_NAME_CHARS)?);
    let trims = filled(t.strings("trim", Need::Required)?);
    let trim_displays = t.strings("trimDisplay", Need::Nullable)?;
    let body_types = t.vocab::<BodyType>("type", Need::Nullable)?;
    let tiers = t.strings("tier", Need::Nullable)?;
    let tier_labels = t.strings("tierLabel", Need::Nullable)?;
    let fuels = t.vocab::<Fuel>("fuel", Need::Nullable)?;
    let transmissions = t.vocab::<Transmission>("transmission", Need::Nullable)?;
    let drivetrains = t.vocab::<Drivetrain>("drivetrain", Need::Nullable)?;
    let seats = t.counts("seats", Need::Nullable)?;
    let airbags = t.counts("airbags", Need::Nullable)?;
    let source_urls = filled(t.strings("sourceUrl", Need::Required)?);
    let fact_sources = t.convert(
        "factSources",
        t.strings("factSources", Need::Nullable)?,
        |text| {
            serde_json::from_str::<BTreeMap<String, String>>(&text)
                .map_err(|err| format!("expected a JSON object of strings: {err}"))
        },
    )?;

    Ok((0..t.height())
        .map(|i| Version {
            id: ids[i].clone(),
            identity: Identity {
                source_url: source_urls[i].clone(),
                make: makes[i].clone(),
                model: models[i].clone(),
                trim: trims[i].clone(),
                trim_display: trim_displays[i].clone(),
                body_type: body_types[i],
                tier: tiers[i].clone(),
                tier_label: tier_labels[i].clone(),
                fuel: fuels[i],
                transmission: transmissions[i],
                seats: seats[i],
                airbags: airbags[i],
                // An empty cell means `{}`.
                fact_sources: shared_sources(fact_sources[i].clone().unwrap_or_default()),
            },
            drivetrain: drivetrains[i],
            catalogue: Vec::new(),
            checks: Vec::new(),
            earlier: Vec::new(),
            specs: None,
        })
        .collect())
}

fn load_catalogue_prices(dir: &Path, catalogue_checks: &[Time], drafts: &mut Drafts) -> Result<()> {
    let t = Table::read(dir, "catalogue_prices")?;
    let positions = drafts.rows_of(&t)?;
    let prices = money_columns(&t)?;
    let firsts = filled(t.times("firstSeen", Need::Required)?);
    let lasts = filled(t.times("lastSeen", Need::Required)?);
    let known: BTreeSet<Time> = catalogue_checks.iter().copied().collect();
    for (i, position) in positions.into_iter().enumerate() {
        let draft = &mut drafts.drafts[position];
        for (column, time) in [("firstSeen", firsts[i]), ("lastSeen", lasts[i])] {
            if !known.contains(&time) {
                let message = format!("{} is not a catalogue check time", format_time(time));
                return Err(t.cell_error(i, column, message));
            }
        }
        if lasts[i] < firsts[i] {
            let message = format!(
                "{} is before firstSeen {}",
                format_time(lasts[i]),
                format_time(firsts[i])
            );
            return Err(t.cell_error(i, "lastSeen", message));
        }
        let run = CatalogueRun {
            first_seen: firsts[i],
            last_seen: lasts[i],
            price: prices[i],
        };
        draft.runs.push((i, run));
    }
    check_runs(&t, drafts)
}

/// Sorts each version's runs and rejects overlapping ones.
fn check_runs(t: &Table, drafts: &mut Drafts) -> Result<()> {
    for draft in &mut drafts.drafts {
        let id = &draft.version.id;
        draft
            .runs
            .sort_by_key(|(_, run)| (run.first_seen, run.last_seen));
        for pair in draft.runs.windows(2) {
            let ((earlier_row, earlier), (row, run)) = (&pair[0], &pair[1]);
            if run.first_seen <= earlier.last_seen {
                let message = format!(
                    "run of version {id:?} overlaps its run at row {}",
                    earlier_row + 1
                );
                return Err(t.cell_error(*row, "firstSeen", message));
            }
        }
    }
    Ok(())
}

/// One `specs.jsonl` line: the version ID and its record.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SpecsLine {
    version_id: String,
    #[serde(flatten)]
    specs: Specs,
}

/// The records of `specs.jsonl` with their line numbers (none without the
/// file, which is optional: then no version has specifications), up to the
/// first line that is no record, and that line's error after them.
type SpecsRead = (Vec<(usize, SpecsLine)>, Option<anyhow::Error>);

fn read_specs(dir: &Path) -> Result<SpecsRead> {
    let path = dir.join("specs.jsonl");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(err) => return Err(err).context("reading specs.jsonl"),
    };
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(record) => records.push((number, record)),
            Err(err) => {
                let err = anyhow!("specs.jsonl: line {number}: invalid record: {err}");
                return Ok((records, Some(err)));
            }
        }
    }
    Ok((records, None))
}

/// Gives each version its record of [`read_specs`]; the first error in
/// line order.
fn add_specs((records, unread): SpecsRead, drafts: &mut Drafts) -> Result<()> {
    for (number, record) in records {
        let id = record.version_id;
        let Some(position) = drafts.position(&id) else {
            bail!("specs.jsonl: line {number}, field \"versionId\": unknown version {id:?}");
        };
        let draft = &mut drafts.drafts[position];
        if draft.version.specs.is_some() {
            bail!(
                "specs.jsonl: line {number}, field \"versionId\": second record for version {id:?}"
            );
        }
        draft.version.specs = Some(Arc::new(record.specs));
    }
    unread.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests;
