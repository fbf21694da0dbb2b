//! Snapshot stage, quote loader: reads `quote_checks` and `quotes` into the
//! versions being assembled, checking times, duplicates and the link of
//! every quote to its check (`quotes` is read in runs of rows, so a
//! million-row table never sits in memory twice).

use std::path::Path;

use anyhow::{Result, bail};

use super::columns::filled;
use super::drafts::{Drafts, money_columns};
use super::model::{QuoteCheck, SnapshotMeta, SourceQuote};
use super::republish::Spill;
use super::table::{Need, RowNames, Table};
use crate::time::{Time, format_time};
use crate::vocab::Currency;

/// Reads `quote_checks` into the drafts; returns its rows' names for later messages.
pub(super) fn load_quote_checks(
    dir: &Path,
    meta: &SnapshotMeta,
    drafts: &mut Drafts,
) -> Result<RowNames> {
    let t = Table::read(dir, "quote_checks")?;
    let positions = drafts.rows_of(&t)?;
    let observed = filled(t.times("observedAt", Need::Required)?);
    let rates = t.positives("arsPerUsd", Need::Nullable)?;
    let in_stock = filled(t.booleans("inStock", Need::Required)?);
    for (i, position) in positions.into_iter().enumerate() {
        let draft = &mut drafts.drafts[position];
        let id = &draft.version.id;
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
                "duplicate quote check of version {id:?} at {} (first at {})",
                format_time(observed[i]),
                t.row_label(*first)
            );
            return Err(t.cell_error(i, "observedAt", message));
        }
        let check = QuoteCheck {
            quotes_left_out: 0,
            observed_at: observed[i],
            ars_per_usd: rates[i],
            in_stock: in_stock[i],
            quotes: Vec::new(),
        };
        draft.checks.insert(observed[i], (i, check));
    }
    Ok(t.names())
}

/// Rows of `quotes` converted at a time: the converted columns of a run
/// (about 200 bytes a row) live next to the table only while it is added,
/// instead of a second copy of the largest table.
const QUOTE_ROWS_PER_RUN: usize = 1 << 16;

/// Reads `quotes` into their checks, sorted by quote ID: a row group at a
/// time, so the table is never whole in memory. With a `cutoff`, a check at
/// or before it that is not its version's latest is compacted (see
/// [`Compacted`]).
pub(super) fn load_quotes(
    dir: &Path,
    checks: &RowNames,
    drafts: &mut Drafts,
    cutoff: Option<Time>,
    spill: Option<&Path>,
) -> Result<()> {
    let mut compacted = Compacted {
        cutoff,
        hashes: Vec::new(),
        spill: spill.map(Spill::create).transpose()?,
    };
    Table::read_runs(dir, "quotes", |run| {
        for start in (0..run.height()).step_by(QUOTE_ROWS_PER_RUN) {
            add_quotes(
                &run.rows(start, QUOTE_ROWS_PER_RUN),
                checks,
                drafts,
                &mut compacted,
            )?;
        }
        Ok(())
    })?;
    sort_quotes(dir, drafts)?;
    if let Some(spill) = compacted.spill.take() {
        spill.finish()?;
    }
    compacted.find_duplicates(dir, drafts)
}

/// The checks the loader compacts: those at or before `cutoff` that are not
/// their version's latest keep their cheapest quote in each currency and
/// count the rest, spilled when a spill is given (`republish`). A repeated
/// quote ID is still an error naming both rows,
/// so a hash of each compacted quote (its version, check and ID) is kept
/// until the table is read, 8 bytes a quote; equal hashes send the loader
/// to the rows to find the repeat, or to find none (a collision).
struct Compacted {
    cutoff: Option<Time>,
    hashes: Vec<u64>,
    spill: Option<Spill>,
}

impl Compacted {
    /// Whether the check at `at` of a version whose latest check is at
    /// `latest` is compacted.
    fn applies(&self, at: Time, latest: Option<Time>) -> bool {
        self.cutoff.is_some_and(|cutoff| at <= cutoff) && latest != Some(at)
    }

    /// Adds `quote` to the compacted check of the version `id` at
    /// `position`: kept if it is the cheapest of its currency so far (ties to
    /// the lower ID, as the current quotes are ranked), counted either way;
    /// the quote it does not keep is spilled.
    fn add(
        &mut self,
        (position, id): (usize, &str),
        check: &mut QuoteCheck,
        quote: SourceQuote,
    ) -> Result<()> {
        self.hashes
            .push(quote_hash(position, check.observed_at, &quote.id));
        let same = |kept: &&mut SourceQuote| kept.price.currency == quote.price.currency;
        let left_out = match check.quotes.iter_mut().find(same) {
            None => {
                // One quote a currency: no room for more (a first push
                // would reserve four).
                check.quotes.reserve_exact(1);
                check.quotes.push(quote);
                return Ok(());
            }
            Some(kept) => {
                let cheaper = quote
                    .price
                    .amount
                    .total_cmp(&kept.price.amount)
                    .then_with(|| quote.id.cmp(&kept.id))
                    .is_lt();
                if cheaper {
                    std::mem::replace(kept, quote)
                } else {
                    quote
                }
            }
        };
        check.quotes_left_out += 1;
        match &mut self.spill {
            Some(spill) => spill.add(id, check.observed_at, &left_out),
            None => Ok(()),
        }
    }

    /// Rejects a quote ID repeated within a compacted check, naming both
    /// rows: the first such check in version and time order.
    fn find_duplicates(mut self, dir: &Path, drafts: &Drafts) -> Result<()> {
        self.hashes.sort_unstable();
        if !self.hashes.windows(2).any(|pair| pair[0] == pair[1]) {
            return Ok(());
        }
        let t = Table::read(dir, "quotes")?;
        let positions = drafts.rows_of(&t)?;
        let times = filled(t.times("checkedAt", Need::Required)?);
        let quotes = filled(t.short_strings("quoteId", Need::Required)?);
        let mut rows: Vec<usize> = (0..t.height())
            .filter(|&i| {
                let checks = &drafts.drafts[positions[i]].checks;
                self.applies(times[i], checks.keys().next_back().copied())
            })
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

/// A compacted quote's hash: its version's position, its check's time and
/// its ID, for finding repeats within one load.
fn quote_hash(position: usize, at: Time, id: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
        .hash_one((position, at, id))
}

/// Sorts each check's quotes by ID and rejects a repeated ID, naming both
/// rows (read again from `dir`: only that message needs them).
fn sort_quotes(dir: &Path, drafts: &mut Drafts) -> Result<()> {
    for draft in &mut drafts.drafts {
        for (_, check) in draft.checks.values_mut() {
            // Stable, so quotes that share an ID stay in row order.
            check.quotes.sort_by(|a, b| a.id.cmp(&b.id));
            if let Some(pair) = check
                .quotes
                .windows(2)
                .find(|pair| pair[0].id == pair[1].id)
            {
                let id = &draft.version.id;
                let (quote, at) = (&pair[0].id, check.observed_at);
                let t = Table::read(dir, "quotes")?;
                let (first, second) = duplicate_rows(&t, id, at, quote)?;
                let message = format!(
                    "duplicate quote id {quote:?} in the check at {} (first at {})",
                    format_time(at),
                    t.row_label(first)
                );
                return Err(t.cell_error(second, "quoteId", message));
            }
        }
    }
    Ok(())
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

/// Adds one run of `quotes` rows to their checks.
fn add_quotes(
    t: &Table,
    checks: &RowNames,
    drafts: &mut Drafts,
    compacted: &mut Compacted,
) -> Result<()> {
    // The largest table: its columns convert independently, so in parallel.
    let (mut positions, mut checked, mut quote_ids, mut prices) = (None, None, None, None);
    let (mut fees, mut colors, mut stocks, mut locations, mut sellers) =
        (None, None, None, None, None);
    rayon::scope(|s| {
        let drafts = &*drafts;
        s.spawn(|_| positions = Some(drafts.rows_of(t)));
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
    // Errors are reported in column order within the run, as a sequential
    // read would.
    let positions = positions.expect(joined)?;
    let checked = filled(checked.expect(joined)?);
    let mut quote_ids = filled(quote_ids.expect(joined)?);
    let prices = prices.expect(joined)?;
    let fees = fees.expect(joined)?;
    let mut colors = colors.expect(joined)?;
    let stocks = stocks.expect(joined)?;
    let mut locations = locations.expect(joined)?;
    let mut sellers = sellers.expect(joined)?;
    reserve_quotes(&positions, &checked, drafts, compacted);
    for (i, position) in positions.into_iter().enumerate() {
        let draft = &mut drafts.drafts[position];
        let latest = draft.checks.keys().next_back().copied();
        let id = &draft.version.id;
        let Some((check_row, check)) = draft.checks.get_mut(&checked[i]) else {
            let at = format_time(checked[i]);
            let message = format!(
                "no quote check of version {id:?} at {at} in {}",
                checks.file()
            );
            return Err(t.cell_error(i, "checkedAt", message));
        };
        if prices[i].currency == Currency::Ars && check.ars_per_usd.is_none() {
            bail!(
                "{}, column \"arsPerUsd\": exchange rate missing at the check of version {id:?} at {}, which has an ARS quote ({}, column \"currency\")",
                checks.row(*check_row),
                format_time(checked[i]),
                t.row_name(i)
            );
        }
        let quote = SourceQuote {
            id: std::mem::take(&mut quote_ids[i]),
            price: prices[i],
            fees_included: fees[i],
            color: colors[i].take(),
            stock: stocks[i],
            location: locations[i].take(),
            seller_id: sellers[i].take(),
        };
        if compacted.applies(checked[i], latest) {
            compacted.add((position, id), check, quote)?;
        } else {
            check.quotes.push(quote);
        }
    }
    Ok(())
}

/// Gives each check room for exactly its quotes in this run before they are
/// pushed: pushed one by one, the checks' vectors grew to up to twice their
/// quotes (159 MB of the 1.07 GB peak of a 3,000-version, 1,600-day
/// snapshot). A check's rows are mostly consecutive; rows that are not just
/// take more than one exact reservation. A row that names no check is left
/// to the caller, which reports it.
fn reserve_quotes(
    positions: &[usize],
    checked: &[Time],
    drafts: &mut Drafts,
    compacted: &Compacted,
) {
    let mut at = 0;
    while at < positions.len() {
        let key = (positions[at], checked[at]);
        let rows = positions[at..]
            .iter()
            .zip(&checked[at..])
            .take_while(|(position, time)| (**position, **time) == key)
            .count();
        let checks = &mut drafts.drafts[key.0].checks;
        let latest = checks.keys().next_back().copied();
        // A compacted check keeps at most two quotes.
        if let Some((_, check)) = checks.get_mut(&key.1)
            && !compacted.applies(key.1, latest)
        {
            check.quotes.reserve_exact(rows);
        }
        at += rows;
    }
}
