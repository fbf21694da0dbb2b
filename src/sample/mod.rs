//! Sample stage: generates a deterministic, realistic synthetic [`Snapshot`]
//! (no input; the writer in `crate::snapshot` turns it into files) for the
//! bundled data, the tests and the benchmark.
//!
//! Real makes, models and trims sold new in Argentina, catalogue prices in
//! pesos that follow a crawling exchange rate in monthly steps and in dollars
//! for premium imports, five catalogue checks a day, detailed dealer quotes
//! when prices change and on a rotation, and official specifications with
//! their sources and gaps. Every signal path is exercised by deliberate
//! cases placed on named versions whatever the size (listed in `cases.rs`).
//!
//! Same options, same snapshot: everything derives from the seed through a
//! hand-written generator (`rng.rs`), each version from its own stream, and
//! nothing reads the clock or iterates a hash map. Versions are built in
//! parallel and collected in a fixed order, so the benchmark size (30,000
//! versions over a year) is quick to make; its memory is that of the
//! snapshot model itself.

mod cases;
mod lineup;
mod makes;
mod market;
mod plan;
mod prices;
mod quotes;
mod rng;
mod scripts;
mod series;
mod specs;
mod table_import;
mod table_mass;
mod table_more;
mod version;

use rayon::prelude::*;

use crate::snapshot::{Snapshot, SnapshotMeta};
use crate::time::{Time, parse_time};

pub use cases::{CASES, Case, MIN_DAYS};
pub use series::as_of;

/// Address of the (invented) listing site.
pub const SOURCE: &str = "https://concesionarias.example/0km";

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleOptions {
    /// Number of versions (raised to the number of deliberate cases).
    pub versions: usize,
    /// Days of catalogue checks, ending on the day of `end` (raised to
    /// [`MIN_DAYS`], the shortest period the cases fit in).
    pub days: u32,
    /// Seed of every random draw.
    pub seed: u64,
    /// `T`, the last catalogue check (the day's 20:00 check in Argentina);
    /// `snapshotAt` is 40 minutes later.
    pub end: Time,
}

impl Default for SampleOptions {
    /// The bundled sample: 540 versions over 400 days to 2026-11-21 20:00 in
    /// Argentina (23:00 UTC), seed 20261121.
    fn default() -> Self {
        SampleOptions {
            versions: 540,
            days: 400,
            seed: 20_261_121,
            end: parse_time("2026-11-21T23:00:00Z").expect("invariant: a valid constant time"),
        }
    }
}

/// Every make of the catalogue table, mass market first: the tables are
/// gathered here, above the definitions in `makes` they are written with.
fn all_makes() -> impl Iterator<Item = &'static makes::Make> {
    table_mass::MAKES
        .iter()
        .chain(table_more::MAKES)
        .chain(table_import::MAKES)
}

/// Generates the synthetic snapshot of `options`; the same options always
/// give an identical snapshot.
pub fn generate_sample(options: &SampleOptions) -> Snapshot {
    let days = (options.days as usize).max(MIN_DAYS);
    let market = market::Market::new(options.end, days, options.seed);
    let entries = lineup::lineup(options.versions);
    let mut versions: Vec<_> = entries
        .par_iter()
        .map(|entry| version::build_version(entry, &market, options.seed))
        .collect();
    versions.sort_by(|a, b| a.id.cmp(&b.id));
    let catalogue_checks = market.check_times();
    Snapshot {
        spilled_in: None,
        meta: meta(options, market.snapshot_at),
        cpi: synthetic_cpi(catalogue_checks.first().copied(), options.end),
        catalogue_checks,
        versions,
    }
}

/// Where the synthetic consumer price index says it comes from (an
/// address of the reserved `.example` domain: nothing is published there).
pub const CPI_SOURCE: &str = "https://estadisticas.example/ipc";

/// A synthetic consumer price index: 100 in the month of the first check,
/// then a monthly inflation easing from about 2.6 % to 1.9 %, one month a
/// row, to the month before `end`'s (an index is published after its month
/// ends), with one decimal as statistics offices publish it.
fn synthetic_cpi(first: Option<Time>, end: Time) -> Vec<crate::snapshot::CpiMonth> {
    let Some(first) = first else {
        return Vec::new();
    };
    let last = crate::month::ArMonth::of(end);
    let mut months = Vec::new();
    let (mut month, mut value) = (crate::month::ArMonth::of(first), 100.0_f64);
    let mut k = 0u32;
    while month < last {
        months.push(crate::snapshot::CpiMonth {
            month,
            value: (value * 10.0).round() / 10.0,
            source: Some(CPI_SOURCE.to_owned()),
        });
        let rate = 0.026 - 0.0006 * f64::from(k) + 0.002 * (f64::from(k) * 1.3).sin();
        value *= 1.0 + rate.max(0.015);
        month = month.next();
        k += 1;
    }
    months
}

/// `snapshot.json` of a sample: says plainly that it is synthetic.
fn meta(options: &SampleOptions, snapshot_at: Time) -> SnapshotMeta {
    SnapshotMeta {
        format_version: 1,
        snapshot_at,
        catalogue_observed_at: options.end,
        source: SOURCE.to_owned(),
        site_name: "Concesionarias (sintético)".to_owned(),
        synthetic: true,
        notice: Some(format!(
            "Synthetic data generated by `autoprecios sample --seed {} --versions {} --days {}`: makes, \
             models and trims are real, but every price, dealer, quote and specification is invented. \
             Not market data.",
            options.seed, options.versions, options.days
        )),
        exchange_rate_source: None,
        data_license: None,
    }
}
