//! Snapshot stage, quote loader: reads `quote_checks` and `quotes` into the
//! versions being assembled (the checks the signals never read in brief,
//! when asked), checking times, duplicates and the link of every quote to
//! its check (`quotes` is read in runs of rows, so a
//! million-row table never sits in memory twice).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use compact_str::CompactString;
use rayon::prelude::*;

use super::columns::filled;
use super::drafts::{Draft, Drafts, money_columns, rows_of};
use super::model::{EarlierCheck, Money, QuoteCheck, SnapshotMeta, SourceQuote};
use super::republish::Spill;
use super::table::{Need, RowNames, Run, Table};
use crate::time::{Time, format_time};
use crate::vocab::Currency;

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
    let mut order: Vec<(u32, Time, u32)> = positions
        .iter()
        .zip(0..rows)
        .map(|(&position, row)| (position as u32, observed[row as usize], row))
        .collect();
    order.par_sort_unstable();
    let mut counts = vec![0usize; drafts.drafts.len()];
    for &position in &positions {
        counts[position] += 1;
    }
    drop(positions);
    let mut runs = Vec::with_capacity(counts.len());
    let mut rest = order.as_slice();
    for count in counts {
        let (run, after) = rest.split_at(count);
        runs.push(run);
        rest = after;
    }
    // The repeat reported is the one a reading in row order meets first:
    // of the adjacent pairs with one time, the one whose later row comes
    // first.
    let repeat = drafts
        .drafts
        .par_iter_mut()
        .zip(runs)
        .enumerate()
        .filter_map(|(position, (draft, run))| {
            let repeat = run
                .windows(2)
                .filter(|pair| pair[0].1 == pair[1].1)
                .map(|pair| (pair[0].2 as usize, pair[1].2 as usize, position))
                .min_by_key(|&(_, second, _)| second);
            // In brief: at or before the cutoff, except the latest; only
            // the first and the last of them will keep their cheapest
            // quotes ([`EarlierCheck::cheapest`]).
            let before = cutoff.map_or(0, |cutoff| {
                run.partition_point(|&(_, at, _)| at <= cutoff)
                    .min(run.len().saturating_sub(1))
            });
            let last = before.saturating_sub(1);
            draft.earlier = run[..before]
                .iter()
                .enumerate()
                .map(|(k, &(_, at, row))| EarlierCheck {
                    observed_at: at,
                    ars_per_usd: rates[row as usize],
                    in_stock: in_stock[row as usize],
                    quote_count: 0,
                    cheapest: (k == 0 || k == last).then(Box::default),
                })
                .collect();
            draft.checks = run[before..]
                .iter()
                .map(|&(_, at, row)| {
                    let check = QuoteCheck {
                        observed_at: at,
                        ars_per_usd: rates[row as usize],
                        in_stock: in_stock[row as usize],
                        quotes: Vec::new(),
                    };
                    (row as usize, check)
                })
                .collect();
            repeat
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
    let mut earlier = Earlier {
        last: None,
        unordered: false,
        spill: spill.map(Spill::create).transpose()?,
    };
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
    if let Some(spill) = earlier.spill.take() {
        spill.finish()?;
    }
    earlier.find_duplicates(dir, drafts)
}

/// The quotes of the [`EarlierCheck`]s as they are read: each is counted in
/// its check, kept if it is its currency's cheapest so far (in the checks
/// that keep their cheapest), and spilled (every one, for whatever
/// republishes the table). A repeated quote ID is still an error naming
/// both rows. In a table written as `/datos` and the writers sort it (by
/// version, check time and quote ID), each earlier check's quotes come in
/// consecutive rows with their IDs increasing, which rules a repeat out
/// with nothing kept but the last ID read; any other order (a valid table
/// too) has the quotes' hashes taken in a second reading
/// ([`earlier_quote_hashes`]). Kept for the whole reading, the hashes were 8
/// bytes an earlier quote, the history's largest cost in memory.
struct Earlier {
    /// The earlier check whose quote was read last (its version's position
    /// and its time), and that quote's ID.
    last: Option<(usize, Time, CompactString)>,
    /// Whether some earlier check's quotes came other than in consecutive
    /// rows (among the earlier checks' rows) by increasing ID.
    unordered: bool,
    spill: Option<Spill>,
}

impl Earlier {
    /// Adds `quote` to the earlier check of the version `id` at `position`:
    /// counted, spilled, and offered to the check's cheapest if it keeps
    /// them.
    fn add(
        &mut self,
        (position, id): (usize, &str),
        check: &mut EarlierCheck,
        quote: SourceQuote,
    ) -> Result<()> {
        match &mut self.last {
            Some((last_position, at, last_id))
                if *last_position == position && *at == check.observed_at =>
            {
                self.unordered |= quote.id <= *last_id;
                last_id.clone_from(&quote.id);
            }
            last => {
                // A check whose quotes began in an earlier stretch of rows.
                self.unordered |= check.quote_count > 0;
                *last = Some((position, check.observed_at, quote.id.clone()));
            }
        }
        check.quote_count += 1;
        if let Some(spill) = &mut self.spill {
            spill.add(id, check.observed_at, &quote)?;
        }
        if let Some(cheapest) = &mut check.cheapest {
            cheapest.offer(&quote.id, quote.price);
        }
        Ok(())
    }

    /// Rejects a quote ID repeated within an earlier check, naming both
    /// rows: the first such check in version and time order. Equal hashes
    /// send the loader to the rows to find the repeat, or to find none (a
    /// collision).
    fn find_duplicates(self, dir: &Path, drafts: &Drafts) -> Result<()> {
        if !self.unordered {
            return Ok(());
        }
        let hashes = earlier_quote_hashes(dir, drafts)?;
        if !hashes.windows(2).any(|pair| pair[0] == pair[1]) {
            return Ok(());
        }
        let t = Table::read(dir, "quotes")?;
        let positions = drafts.rows_of(&t)?;
        let times = filled(t.times("checkedAt", Need::Required)?);
        let quotes = filled(t.short_strings("quoteId", Need::Required)?);
        let mut rows: Vec<usize> = (0..t.height())
            .filter(|&i| drafts.drafts[positions[i]].earlier_at(times[i]).is_some())
            .collect();
        let quote = |i: usize| (positions[i], times[i], quotes[i].as_str());
        rows.sort_by(|&a, &b| (quote(a), a).cmp(&(quote(b), b)));
        let Some(pair) = rows
            .windows(2)
            .find(|pair| quote(pair[0]) == quote(pair[1]))
        else {
            // Equal hashes of different quotes: no error.
            return Ok(());
        };
        let (first, second) = (pair[0], pair[1]);
        let message = format!(
            "duplicate quote id {:?} in the check at {} (first at {})",
            quotes[first].as_str(),
            format_time(times[first]),
            t.row_label(first)
        );
        Err(t.cell_error(second, "quoteId", message))
    }
}

/// The hash of every quote of an earlier check ([`quote_hash`]), sorted,
/// read again from `dir` a run of rows at a time.
fn earlier_quote_hashes(dir: &Path, drafts: &Drafts) -> Result<Vec<u64>> {
    let mut hashes = Vec::new();
    Table::read_runs(
        dir,
        "quotes",
        |run| -> Result<_> {
            Ok((
                drafts.rows_of(run)?,
                filled(run.times("checkedAt", Need::Required)?),
                filled(run.short_strings("quoteId", Need::Required)?),
            ))
        },
        |_, columns| {
            let (positions, times, ids) = columns?;
            for (i, &position) in positions.iter().enumerate() {
                if drafts.drafts[position].earlier_at(times[i]).is_some() {
                    hashes.push(quote_hash(position, times[i], &ids[i]));
                }
            }
            Ok(())
        },
    )?;
    hashes.par_sort_unstable();
    Ok(hashes)
}

/// An earlier check's quote's hash: its version's position, its check's time and
/// its ID, for finding repeats within one load.
fn quote_hash(position: usize, at: Time, id: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
        .hash_one((position, at, id))
}

/// Sorts each check's quotes by ID and rejects a repeated ID, naming both
/// rows (read again from `dir`: only that message needs them). Versions
/// are sorted in parallel; the repeat reported is the first in version and
/// time order, as a sequential pass finds it.
fn sort_quotes(dir: &Path, drafts: &mut Drafts) -> Result<()> {
    let repeat = drafts
        .drafts
        .par_iter_mut()
        .map(|draft| {
            let mut first = None;
            for (_, check) in &mut draft.checks {
                // Stable, so quotes that share an ID stay in row order.
                check.quotes.sort_by(|a, b| a.id.cmp(&b.id));
                if first.is_none()
                    && let Some(pair) = check
                        .quotes
                        .windows(2)
                        .find(|pair| pair[0].id == pair[1].id)
                {
                    first = Some((check.observed_at, pair[0].id.clone()));
                }
            }
            first.map(|repeat| (draft.version.id.clone(), repeat))
        })
        .find_first(Option::is_some)
        .flatten();
    let Some((id, (at, quote))) = repeat else {
        return Ok(());
    };
    let t = Table::read(dir, "quotes")?;
    let (first, second) = duplicate_rows(&t, &id, at, &quote)?;
    let message = format!(
        "duplicate quote id {quote:?} in the check at {} (first at {})",
        format_time(at),
        t.row_label(first)
    );
    Err(t.cell_error(second, "quoteId", message))
}

/// The first two rows of `quotes` with this version, check time and quote
/// ID. Only an error message needs them, so rows are not kept per quote but
/// searched for here.
fn duplicate_rows(t: &Table, id: &str, at: Time, quote: &str) -> Result<(usize, usize)> {
    let ids = filled(t.strings("versionId", Need::Required)?);
    let times = filled(t.times("checkedAt", Need::Required)?);
    let quotes = filled(t.short_strings("quoteId", Need::Required)?);
    let mut rows =
        (0..t.height()).filter(|&i| ids[i] == id && times[i] == at && quotes[i] == quote);
    match (rows.next(), rows.next()) {
        (Some(first), Some(second)) => Ok((first, second)),
        _ => bail!(
            "invariant: a duplicate quote {quote:?} has two rows in {}",
            t.file()
        ),
    }
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
