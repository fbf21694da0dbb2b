//! Snapshot stage, loader: reads `snapshot.json`, the five tables (Parquet or
//! CSV) and `specs.jsonl` from a snapshot directory, validates them against
//! `data/README.md` and groups them per version into a [`Snapshot`].

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;

use super::model::{
    CatalogueRun, Money, QuoteCheck, Snapshot, SnapshotMeta, SourceQuote, Specs, Version,
};
use super::table::{Need, Table, filled};
use crate::time::{Time, format_time};
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};

/// Longest accepted version ID, in characters.
const MAX_ID_CHARS: usize = 160;
/// Longest accepted make or model, in characters.
const MAX_NAME_CHARS: usize = 100;

/// Loads and validates the snapshot in `dir`. Any violation of
/// `data/README.md` is an error naming the file, row and column.
pub fn load_snapshot(dir: &Path) -> Result<Snapshot> {
    load(dir).with_context(|| format!("loading snapshot {}", dir.display()))
}

fn load(dir: &Path) -> Result<Snapshot> {
    let meta = load_meta(dir)?;
    let catalogue_checks = load_catalogue_checks(dir, &meta)?;
    let mut drafts = load_versions(dir)?;
    load_catalogue_prices(dir, &catalogue_checks, &mut drafts)?;
    let checks_file = load_quote_checks(dir, &meta, &mut drafts)?;
    load_quotes(dir, &checks_file, &mut drafts)?;
    load_specs(dir, &mut drafts)?;
    // BTreeMap order is byte order of the IDs, the order the model promises.
    let versions = drafts.into_values().map(Draft::finish).collect();
    Ok(Snapshot {
        meta,
        catalogue_checks,
        versions,
    })
}

/// A version being assembled, with the rows its parts came from (for messages).
struct Draft {
    row: usize,
    version: Version,
    runs: Vec<(usize, CatalogueRun)>,
    checks: BTreeMap<Time, (usize, QuoteCheck)>,
}

type Drafts = BTreeMap<String, Draft>;

impl Draft {
    fn finish(self) -> Version {
        let mut version = self.version;
        version.catalogue = self.runs.into_iter().map(|(_, run)| run).collect();
        version.checks = self
            .checks
            .into_values()
            .map(|(_, mut check)| {
                check.quotes.sort_by(|a, b| a.id.cmp(&b.id));
                check
            })
            .collect();
        version
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
    let mut drafts = Drafts::new();
    for (i, version) in read_versions(&t)?.into_iter().enumerate() {
        if let Some(first) = drafts.get(&version.id) {
            let message = format!(
                "duplicate version id {:?} (first at row {})",
                version.id,
                first.row + 1
            );
            return Err(t.cell_error(i, "id", message));
        }
        let draft = Draft {
            row: i,
            version,
            runs: Vec::new(),
            checks: BTreeMap::new(),
        };
        drafts.insert(draft.version.id.clone(), draft);
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
            make: makes[i].clone(),
            model: models[i].clone(),
            trim: trims[i].clone(),
            trim_display: trim_displays[i].clone(),
            body_type: body_types[i],
            tier: tiers[i].clone(),
            tier_label: tier_labels[i].clone(),
            fuel: fuels[i],
            transmission: transmissions[i],
            drivetrain: drivetrains[i],
            seats: seats[i],
            airbags: airbags[i],
            source_url: source_urls[i].clone(),
            // An empty cell means `{}`.
            fact_sources: fact_sources[i].clone().unwrap_or_default(),
            catalogue: Vec::new(),
            checks: Vec::new(),
            specs: None,
        })
        .collect())
}

fn load_catalogue_prices(dir: &Path, catalogue_checks: &[Time], drafts: &mut Drafts) -> Result<()> {
    let t = Table::read(dir, "catalogue_prices")?;
    let ids = filled(t.strings("versionId", Need::Required)?);
    let prices = money_columns(&t)?;
    let firsts = filled(t.times("firstSeen", Need::Required)?);
    let lasts = filled(t.times("lastSeen", Need::Required)?);
    let known: BTreeSet<Time> = catalogue_checks.iter().copied().collect();
    for (i, id) in ids.iter().enumerate() {
        let draft = draft_mut(drafts, &t, i, id)?;
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
    for (id, draft) in drafts.iter_mut() {
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

/// Reads `quote_checks` into the drafts; returns the file name for later messages.
fn load_quote_checks(dir: &Path, meta: &SnapshotMeta, drafts: &mut Drafts) -> Result<String> {
    let t = Table::read(dir, "quote_checks")?;
    let ids = filled(t.strings("versionId", Need::Required)?);
    let observed = filled(t.times("observedAt", Need::Required)?);
    let rates = t.positives("arsPerUsd", Need::Nullable)?;
    let in_stock = filled(t.booleans("inStock", Need::Required)?);
    for (i, id) in ids.iter().enumerate() {
        let draft = draft_mut(drafts, &t, i, id)?;
        if observed[i] > meta.snapshot_at {
            let message = format!(
                "{} is after snapshotAt {}",
                format_time(observed[i]),
                format_time(meta.snapshot_at)
            );
            return Err(t.cell_error(i, "observedAt", message));
        }
        if let Some((first, _)) = draft.checks.get(&observed[i]) {
            let message = format!(
                "duplicate quote check of version {id:?} at {} (first at row {})",
                format_time(observed[i]),
                first + 1
            );
            return Err(t.cell_error(i, "observedAt", message));
        }
        let check = QuoteCheck {
            observed_at: observed[i],
            ars_per_usd: rates[i],
            in_stock: in_stock[i],
            quotes: Vec::new(),
        };
        draft.checks.insert(observed[i], (i, check));
    }
    Ok(t.file().to_owned())
}

fn load_quotes(dir: &Path, checks_file: &str, drafts: &mut Drafts) -> Result<()> {
    let t = Table::read(dir, "quotes")?;
    let ids = filled(t.strings("versionId", Need::Required)?);
    let checked = filled(t.times("checkedAt", Need::Required)?);
    let quote_ids = filled(t.strings("quoteId", Need::Required)?);
    let prices = money_columns(&t)?;
    let fees = t.booleans("feesIncluded", Need::Nullable)?;
    let colors = t.strings("color", Need::Nullable)?;
    let stocks = t.integers("stock", Need::Nullable)?;
    let locations = t.strings("location", Need::Nullable)?;
    let sellers = t.strings("sellerId", Need::Nullable)?;
    let mut seen: BTreeMap<(&str, Time, &str), usize> = BTreeMap::new();
    for (i, id) in ids.iter().enumerate() {
        let draft = draft_mut(drafts, &t, i, id)?;
        let at = format_time(checked[i]);
        let Some((check_row, check)) = draft.checks.get_mut(&checked[i]) else {
            let message = format!("no quote check of version {id:?} at {at} in {checks_file}");
            return Err(t.cell_error(i, "checkedAt", message));
        };
        if prices[i].currency == Currency::Ars && check.ars_per_usd.is_none() {
            bail!(
                "{checks_file}: row {}, column \"arsPerUsd\": exchange rate missing at the check of version {id:?} at {at}, which has an ARS quote ({}: row {}, column \"currency\")",
                *check_row + 1,
                t.file(),
                i + 1
            );
        }
        if let Some(first) = seen.insert((id, checked[i], &quote_ids[i]), i) {
            let message = format!(
                "duplicate quote id {:?} in the check at {at} (first at row {})",
                quote_ids[i],
                first + 1
            );
            return Err(t.cell_error(i, "quoteId", message));
        }
        check.quotes.push(SourceQuote {
            id: quote_ids[i].clone(),
            price: prices[i],
            fees_included: fees[i],
            color: colors[i].clone(),
            stock: stocks[i],
            location: locations[i].clone(),
            seller_id: sellers[i].clone(),
        });
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

fn load_specs(dir: &Path, drafts: &mut Drafts) -> Result<()> {
    let path = dir.join("specs.jsonl");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        // The file is optional: without it no version has specifications.
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err).context("reading specs.jsonl"),
    };
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let record: SpecsLine = serde_json::from_str(line)
            .map_err(|err| anyhow!("specs.jsonl: line {number}: invalid record: {err}"))?;
        let id = record.version_id;
        let Some(draft) = drafts.get_mut(&id) else {
            bail!("specs.jsonl: line {number}, field \"versionId\": unknown version {id:?}");
        };
        if draft.version.specs.is_some() {
            bail!(
                "specs.jsonl: line {number}, field \"versionId\": second record for version {id:?}"
            );
        }
        draft.version.specs = Some(record.specs);
    }
    Ok(())
}

/// The draft of the version a row refers to, or an unknown-version error.
fn draft_mut<'a>(
    drafts: &'a mut Drafts,
    table: &Table,
    index: usize,
    id: &str,
) -> Result<&'a mut Draft> {
    drafts
        .get_mut(id)
        .ok_or_else(|| table.cell_error(index, "versionId", format!("unknown version {id:?}")))
}

/// The `price` and `currency` columns as money: positive prices, known currencies.
fn money_columns(t: &Table) -> Result<Vec<Money>> {
    let amounts = filled(t.positives("price", Need::Required)?);
    let currencies = t.vocab::<Currency>("currency", Need::Required)?;
    let money = amounts.into_iter().zip(filled(currencies));
    Ok(money
        .map(|(amount, currency)| Money { amount, currency })
        .collect())
}
