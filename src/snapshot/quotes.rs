//! Snapshot stage, quote loader: reads `quote_checks` and `quotes` into the
//! versions being assembled (the checks the signals never read in brief,
//! when asked), checking times, duplicates and the link of every quote to
//! its check (`quotes` is read in runs of rows, so a
//! million-row table never sits in memory twice).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use compact_str::CompactString;
use rayon::prelude::*;

mod earlier;
mod sorting;

use super::columns::filled;
use super::drafts::{Draft, Drafts, money_columns, rows_of};
use super::model::{EarlierCheck, Money, QuoteCheck, SnapshotMeta, SourceQuote};
use super::table::{Need, RowNames, Run, Table};
use crate::time::{Time, format_time};
use crate::vocab::Currency;
use earlier::Earlier;
use sorting::sort_quotes;

/// Reads `quote_checks` into the drafts, each version's checks by time;
/// with a `cutoff`, a check at or before it that is not its version's latest
/// is kept in brief, as an [`EarlierCheck`]. Returns the table's rows' names
/// for later messages.
pub(super) fn load_quote_checks(
    dir: &Path,
    meta: &SnapshotMeta,
    drafts: &mut Drafts,
    cutoff: Option<Time>,
) -> Result<RowNames> {
    let t = Table::read(dir, "quote_checks")?;
    let positions = drafts.rows_of(&t)?;
    let observed = filled(t.times("observedAt", Need::Required)?);
    let rates = t.positives("arsPerUsd", Need::Nullable)?;
    let in_stock = filled(t.booleans("inStock", Need::Required)?);
    // The first row in error, as a reading in row order finds it.
    let late = (0..t.height()).find(|&i| observed[i] > meta.snapshot_at);
    // Every row as (version, time, row), sorted: each version's checks by
    // time, those of one time in row order. Each version's checks, whole
    // or in brief, are then built from its run of rows, sized exactly:
    // 20 bytes a row, where a check pushed whole and then cut to its
    // brief took 72, which at 1,600 days of history was the load's peak.
    let rows = u32::try_from(t.height())
        .ok()
        .filter(|_| u32::try_from(drafts.drafts.len()).is_ok())
        .ok_or_else(|| anyhow::anyhow!("{}: more than 2^32 rows or versions", t.file()))?;
    let mut order: Vec<CheckRow> = positions
        .iter()
        .zip(0..rows)
        .map(|(&position, row)| (position as u32, observed[row as usize], row))
        .collect();
    order.par_sort_unstable();
    let runs = runs_by_version(&order, &positions, drafts.drafts.len());
    drop(positions);
    let columns = CheckColumns {
        rates: &rates,
        in_stock: &in_stock,
        cutoff,
    };
    // The repeat reported is the one a reading in row order meets first.
    let repeat = drafts
        .drafts
        .par_iter_mut()
        .zip(runs)
        .enumerate()
        .filter_map(|(position, (draft, run))| {
            columns.fill(draft, run);
            first_repeat(run).map(|(first, second)| (first, second, position))
        })
        .min_by_key(|&(_, second, _)| second);
    match (late, repeat) {
        (Some(i), repeat) if repeat.is_none_or(|(_, second, _)| i < second) => {
            let message = format!(
                "{} is after snapshotAt {}",
                format_time(observed[i]),
                format_time(meta.snapshot_at)
            );
            return Err(t.cell_error(i, "observedAt", message));
        }
        (_, Some((first, second, position))) => {
            let id = &drafts.drafts[position].version.id;
            let message = format!(
                "duplicate quote check of version {id:?} at {} (first at {})",
                format_time(observed[second]),
                t.row_label(first)
            );
            return Err(t.cell_error(second, "observedAt", message));
        }
        _ => {}
    }
    Ok(t.names())
}

/// A row of `quote_checks` as it is sorted: its version's position, its
/// time and the row.
type CheckRow = (u32, Time, u32);

/// `order` (sorted) cut into each version's run of rows, by position.
fn runs_by_version<'o>(
    order: &'o [CheckRow],
    positions: &[usize],
    versions: usize,
) -> Vec<&'o [CheckRow]> {
    let mut counts = vec![0usize; versions];
    for &position in positions {
        counts[position] += 1;
    }
    let mut runs = Vec::with_capacity(versions);
    let mut rest = order;
    for count in counts {
        let (run, after) = rest.split_at(count);
        runs.push(run);
        rest = after;
    }
    runs
}

/// Of a version's run, the two rows of one time that a reading in row
/// order meets first as a repeat (of the adjacent pairs with one time, the
/// one whose later row comes first).
fn first_repeat(run: &[CheckRow]) -> Option<(usize, usize)> {
    run.windows(2)
        .filter(|pair| pair[0].1 == pair[1].1)
        .map(|pair| (pair[0].2 as usize, pair[1].2 as usize))
        .min_by_key(|&(_, second)| second)
}

/// The columns a version's checks are built from, and the cutoff.
struct CheckColumns<'c> {
    rates: &'c [Option<f64>],
    in_stock: &'c [bool],
    cutoff: Option<Time>,
}

impl CheckColumns<'_> {
    /// Builds `draft`'s checks from its run of rows: in brief those at or
    /// before the cutoff, except the latest; only the first and the last
    /// of them will keep their cheapest quotes ([`EarlierCheck::cheapest`]).
    fn fill(&self, draft: &mut Draft, run: &[CheckRow]) {
        let before = self.cutoff.map_or(0, |cutoff| {
            run.partition_point(|&(_, at, _)| at <= cutoff)
                .min(run.len().saturating_sub(1))
        });
        let last = before.saturating_sub(1);
        draft.earlier = run[..before]
            .iter()
            .enumerate()
            .map(|(k, &(_, at, row))| EarlierCheck {
                observed_at: at,
                ars_per_usd: self.rates[row as usize],
                in_stock: self.in_stock[row as usize],
                quote_count: 0,
                cheapest: (k == 0 || k == last).then(Box::default),
            })
            .collect();
        draft.checks = run[before..]
            .iter()
            .map(|&(_, at, row)| {
                let check = QuoteCheck {
                    observed_at: at,
                    ars_per_usd: self.rates[row as usize],
                    in_stock: self.in_stock[row as usize],
                    quotes: Vec::new(),
                };
                (row as usize, check)
            })
            .collect();
    }
}

/// Reads `quotes` into their checks, sorted by quote ID: a slice of a row
/// group at a time, so the table is never whole in memory. Each slice's
/// columns are converted on the reading thread ([`QuoteColumns::convert`])
/// while the slice before is added to the checks here. A quote of an
/// [`EarlierCheck`] is counted, offered to its check's cheapest, and
/// spilled when a `spill` is given (see [`Earlier`]).
pub(super) fn load_quotes(
    dir: &Path,
    checks: &RowNames,
    drafts: &mut Drafts,
    spill: Option<&Path>,
) -> Result<()> {
    let mut earlier = Earlier::new(spill)?;
    let Drafts {
        drafts: list,
        by_id,
    } = drafts;
    let by_id = &*by_id;
    Table::read_runs(
        dir,
        "quotes",
        |run| QuoteColumns::convert(run, by_id),
        |run, columns| add_quotes(dir, run, columns?, checks, (list, by_id), &mut earlier),
    )?;
    sort_quotes(dir, drafts)?;
    earlier.finish(dir, drafts)
}

/// A run of `quotes` rows, its columns converted and checked.
struct QuoteColumns {
    /// Each row's version, as its position among the drafts.
    positions: Vec<usize>,
    checked: Vec<Time>,
    quote_ids: Vec<CompactString>,
    prices: Vec<Money>,
    fees: Vec<Option<bool>>,
    colors: Vec<Option<CompactString>>,
    stocks: Vec<Option<i64>>,
    locations: Vec<Option<CompactString>>,
    sellers: Vec<Option<CompactString>>,
}

impl QuoteColumns {
    /// Converts a run's columns, in parallel (they convert independently);
    /// the first error in column order, as a sequential read would report.
    fn convert(t: &Table, by_id: &BTreeMap<String, usize>) -> Result<QuoteColumns> {
        let (mut positions, mut checked, mut quote_ids, mut prices) = (None, None, None, None);
        let (mut fees, mut colors, mut stocks, mut locations, mut sellers) =
            (None, None, None, None, None);
        rayon::scope(|s| {
            s.spawn(|_| positions = Some(rows_of(by_id, t)));
            s.spawn(|_| checked = Some(t.times("checkedAt", Need::Required)));
            s.spawn(|_| quote_ids = Some(t.short_strings("quoteId", Need::Required)));
            s.spawn(|_| prices = Some(money_columns(t)));
            s.spawn(|_| fees = Some(t.booleans("feesIncluded", Need::Nullable)));
            s.spawn(|_| colors = Some(t.short_strings("color", Need::Nullable)));
            s.spawn(|_| stocks = Some(t.integers("stock", Need::Nullable)));
            s.spawn(|_| locations = Some(t.short_strings("location", Need::Nullable)));
            s.spawn(|_| sellers = Some(t.short_strings("sellerId", Need::Nullable)));
        });
        let joined = "invariant: the scope ran every column";
        Ok(QuoteColumns {
            positions: positions.expect(joined)?,
            checked: filled(checked.expect(joined)?),
            quote_ids: filled(quote_ids.expect(joined)?),
            prices: prices.expect(joined)?,
            fees: fees.expect(joined)?,
            colors: colors.expect(joined)?,
            stocks: stocks.expect(joined)?,
            locations: locations.expect(joined)?,
            sellers: sellers.expect(joined)?,
        })
    }
}

/// Adds one run of `quotes` rows, its columns converted, to their checks.
fn add_quotes(
    dir: &Path,
    t: &Run,
    columns: QuoteColumns,
    checks: &RowNames,
    (drafts, by_id): (&mut [Draft], &BTreeMap<String, usize>),
    earlier: &mut Earlier,
) -> Result<()> {
    let QuoteColumns {
        positions,
        checked,
        mut quote_ids,
        prices,
        fees,
        mut colors,
        stocks,
        mut locations,
        mut sellers,
    } = columns;
    let mut take_quote = |i: usize| SourceQuote {
        id: std::mem::take(&mut quote_ids[i]),
        price: prices[i],
        fees_included: fees[i],
        color: colors[i].take(),
        stock: stocks[i],
        location: locations[i].take(),
        seller_id: sellers[i].take(),
    };
    reserve_quotes(&positions, &checked, drafts);
    for (i, position) in positions.into_iter().enumerate() {
        let at = checked[i];
        let pesos = prices[i].currency == Currency::Ars;
        let draft = &mut drafts[position];
        if let Some(k) = draft.earlier_at(at) {
            let check = &mut draft.earlier[k];
            if pesos && check.ars_per_usd.is_none() {
                let id = draft.version.id.clone();
                let row = check_row(dir, by_id, position, at)?;
                return Err(rate_missing(&checks.row(row), &id, at, &t.row_name(i)));
            }
            earlier.add((position, &draft.version.id), check, take_quote(i))?;
            continue;
        }
        let found = draft.check_at(at);
        let id = &draft.version.id;
        let Some(k) = found else {
            let message = format!(
                "no quote check of version {id:?} at {} in {}",
                format_time(at),
                checks.file()
            );
            return Err(t.cell_error(i, "checkedAt", message));
        };
        let (row, check) = &mut draft.checks[k];
        if pesos && check.ars_per_usd.is_none() {
            return Err(rate_missing(&checks.row(*row), id, at, &t.row_name(i)));
        }
        check.quotes.push(take_quote(i));
    }
    Ok(())
}

/// A peso quote at a check without its exchange rate.
fn rate_missing(check_row: &str, id: &str, at: Time, quote_row: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{check_row}, column \"arsPerUsd\": exchange rate missing at the check of version {id:?} at {}, which has an ARS quote ({quote_row}, column \"currency\")",
        format_time(at),
    )
}

/// The row of `quote_checks` of the version at `position` at `at`, read
/// again: an earlier check does not keep its row, and only this message
/// needs it.
fn check_row(
    dir: &Path,
    by_id: &BTreeMap<String, usize>,
    position: usize,
    at: Time,
) -> Result<usize> {
    let t = Table::read(dir, "quote_checks")?;
    let positions = rows_of(by_id, &t)?;
    let observed = filled(t.times("observedAt", Need::Required)?);
    (0..t.height())
        .find(|&i| positions[i] == position && observed[i] == at)
        .with_context(|| format!("invariant: a check at {} has a row", format_time(at)))
}

/// Gives each check the signals read room for exactly its quotes in this
/// run before they are pushed: pushed one by one, the checks' vectors grew
/// to up to twice their quotes (a large share of the load's peak with a
/// long history: bench/HISTORY.md, "Where memory bounded by the window
/// stands"). A check's rows are mostly
/// consecutive; rows that are not just take more than one exact
/// reservation. A row that names no check is left to the caller, which
/// reports it.
fn reserve_quotes(positions: &[usize], checked: &[Time], drafts: &mut [Draft]) {
    let mut at = 0;
    while at < positions.len() {
        let key = (positions[at], checked[at]);
        let rows = positions[at..]
            .iter()
            .zip(&checked[at..])
            .take_while(|(position, time)| (**position, **time) == key)
            .count();
        let draft = &mut drafts[key.0];
        if let Some(k) = draft.check_at(key.1) {
            draft.checks[k].1.quotes.reserve_exact(rows);
        }
        at += rows;
    }
}
