//! Snapshot stage, quote loader, the quotes of the earlier checks (those
//! kept in brief): each counted in its check, offered to the check's
//! cheapest and spilled as it is read, and a quote ID repeated within one
//! of them found without keeping every ID.

use std::path::Path;

use anyhow::Result;
use compact_str::CompactString;
use rayon::prelude::*;

use crate::snapshot::columns::filled;
use crate::snapshot::drafts::Drafts;
use crate::snapshot::model::{EarlierCheck, SourceQuote};
use crate::snapshot::republish::Spill;
use crate::snapshot::table::{Need, Table};
use crate::time::{Time, format_time};

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
pub(super) struct Earlier {
    /// The earlier check whose quote was read last (its version's position
    /// and its time), and that quote's ID.
    last: Option<(usize, Time, CompactString)>,
    /// Whether some earlier check's quotes came other than in consecutive
    /// rows (among the earlier checks' rows) by increasing ID.
    unordered: bool,
    spill: Option<Spill>,
}

impl Earlier {
    /// A reading with no quote read yet, spilling every quote into `spill`
    /// when it is given.
    pub(super) fn new(spill: Option<&Path>) -> Result<Earlier> {
        Ok(Earlier {
            last: None,
            unordered: false,
            spill: spill.map(Spill::create).transpose()?,
        })
    }

    /// Ends the reading: the spill is finished, then a quote ID repeated
    /// within an earlier check is rejected (`find_duplicates`).
    pub(super) fn finish(mut self, dir: &Path, drafts: &Drafts) -> Result<()> {
        if let Some(spill) = self.spill.take() {
            spill.finish()?;
        }
        self.find_duplicates(dir, drafts)
    }

    /// Adds `quote` to the earlier check of the version `id` at `position`:
    /// counted, spilled, and offered to the check's cheapest if it keeps
    /// them.
    pub(super) fn add(
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
