//! Snapshot stage, quote loader, the current checks' quotes in order: each
//! check's quotes sorted by ID, and a repeated ID rejected naming both rows.

use std::path::Path;

use anyhow::{Result, bail};
use rayon::prelude::*;

use crate::snapshot::columns::filled;
use crate::snapshot::drafts::Drafts;
use crate::snapshot::table::{Need, Table};
use crate::time::{Time, format_time};

/// Sorts each check's quotes by ID and rejects a repeated ID, naming both
/// rows (read again from `dir`: only that message needs them). Versions
/// are sorted in parallel; the repeat reported is the first in version and
/// time order, as a sequential pass finds it.
pub(super) fn sort_quotes(dir: &Path, drafts: &mut Drafts) -> Result<()> {
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
