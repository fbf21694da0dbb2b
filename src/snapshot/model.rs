//! Snapshot stage, data: the input tables of `data/README.md` as typed Rust
//! values, grouped per version and sorted, ready for the signal engine.

use std::sync::Arc;

mod checks;
mod meta;

pub use checks::{Cheapest, CheapestQuote, EarlierCheck, Money, QuoteCheck, SourceQuote};
pub use meta::{DataLicense, SnapshotMeta};

pub use crate::catalogue::{Identity, SpecSource, Specs};
use crate::month::ArMonth;
use crate::time::Time;
use crate::vocab::Drivetrain;

/// A whole snapshot: its metadata, the catalogue check times and every version.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// `snapshot.json`.
    pub meta: SnapshotMeta,
    /// Every catalogue check time (monitoring time), ascending; the last is `T`.
    pub catalogue_checks: Vec<Time>,
    /// Every version, sorted by ID in byte order.
    pub versions: Vec<Version>,
    /// Where the loader spilled what it does not hold, a file a month
    /// (`snapshot::republish`): the quotes of the versions' [`EarlierCheck`]s,
    /// and those checks themselves but each version's first and last; `None`
    /// when no spill was asked for (every earlier check is then held).
    pub spilled_in: Option<std::path::PathBuf>,
    /// The consumer price index by month (the optional `cpi` table),
    /// ascending; empty without one.
    pub cpi: Vec<CpiMonth>,
}

/// One month of the consumer price index.
#[derive(Debug, Clone, PartialEq)]
pub struct CpiMonth {
    /// The month it measures.
    pub month: ArMonth,
    /// The index's value (any base).
    pub value: f64,
    /// Where it was published.
    pub source: Option<String>,
}

/// One car version with everything the snapshot records about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    /// Catalogue ID, case-sensitive.
    pub id: String,
    /// Names and facts (the source listing, make, model, trim, type, fuel,
    /// seats, … and where each fact came from).
    pub identity: Identity,
    /// Drivetrain.
    pub drivetrain: Option<Drivetrain>,
    /// Catalogue price runs, ascending by `first_seen`, not overlapping.
    pub catalogue: Vec<CatalogueRun>,
    /// Detailed quote checks, ascending by `observed_at`: every one, except
    /// in a snapshot loaded for the signals, where the checks the signals
    /// never read are in `earlier` instead.
    pub checks: Vec<QuoteCheck>,
    /// The checks a snapshot loaded for the signals
    /// (`load_snapshot_for_signals`) keeps in brief: those of the months
    /// before the one where the signals begin to read, except the
    /// version's latest. Ascending by
    /// `observed_at`, all before `checks`; empty in any other snapshot. With
    /// a spill, only the first and the last of them are held (the latest
    /// check at any time the signals ask about, and the start of the
    /// history); the others are in the spill ([`Snapshot::spilled_in`]).
    pub earlier: Vec<EarlierCheck>,
    /// Official specifications, when any (shared with the published record).
    pub specs: Option<Arc<Specs>>,
}

impl Version {
    /// A version with its names, no facts, no prices, no checks, listed at
    /// `https://autos.example/{id}` (the fixtures' version; set the rest with
    /// `Version { .., ..Version::bare(..) }`).
    pub fn bare(id: &str, make: &str, model: &str, trim: &str) -> Self {
        Version {
            id: id.into(),
            identity: Identity {
                source_url: format!("https://autos.example/{id}"),
                ..Identity::named(make, model, trim)
            },
            drivetrain: None,
            catalogue: Vec::new(),
            checks: Vec::new(),
            earlier: Vec::new(),
            specs: None,
        }
    }

    /// The times of its first and last quote check, held whole or in brief
    /// (a spilled check lies between them); `None` when it has none.
    pub fn check_span(&self) -> Option<(Time, Time)> {
        let (earlier, checks) = (&self.earlier, &self.checks);
        let firsts = [
            earlier.first().map(|c| c.observed_at),
            checks.first().map(|c| c.observed_at),
        ];
        let lasts = [
            earlier.last().map(|c| c.observed_at),
            checks.last().map(|c| c.observed_at),
        ];
        Some((
            firsts.into_iter().flatten().min()?,
            lasts.into_iter().flatten().max()?,
        ))
    }
}

/// A stretch of consecutive catalogue checks at which a version was listed at one price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CatalogueRun {
    /// First check of the run.
    pub first_seen: Time,
    /// Last check of the run.
    pub last_seen: Time,
    /// Catalogue price.
    pub price: Money,
}

/// The catalogue price in effect at `time` among a version's `runs`
/// (ascending by `first_seen`): that of the last run begun at or before it
/// (absence from a check does not end a price); `None` before the first.
pub fn catalogue_price_at(runs: &[CatalogueRun], time: Time) -> Option<Money> {
    let begun = runs.partition_point(|run| run.first_seen <= time);
    begun.checked_sub(1).map(|last| runs[last].price)
}
