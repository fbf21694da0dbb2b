//! Differential test of the signal engine: a naive second implementation of
//! DESIGN.md's rules (`oracle.rs`) must publish the same fields as
//! `src/signals` for a thousand seeded random snapshots that crowd the
//! boundaries (`generator.rs`), and for hand-made snapshots of each boundary
//! of issue 12 (`boundaries.rs`), where both must also match the hand-computed
//! expectation. A mismatch names its seed and the first differing version.

mod boundaries;
mod generator;
mod oracle;

use autoprecios::catalogue::{RecentChange, Vehicle};
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::Snapshot;
use autoprecios::vocab::Window;

use oracle::{Change, Record};

/// Seeds run by `cargo test`; more with `ORACLE_SEEDS=5000`.
const DEFAULT_SEEDS: u64 = 1000;

fn change(change: Option<&RecentChange>) -> Option<Change> {
    change.map(|c| Change {
        kind: match c.kind {
            autoprecios::vocab::ChangeKind::PriceDrop => "price_drop",
            autoprecios::vocab::ChangeKind::NewOpportunity => "new_opportunity",
        },
        changed_at: c.changed_at,
        qualified_since: c.qualified_since,
        drop_pct: c.drop_pct,
        previous_price_usd: c.previous_price_usd,
        current_price_usd: c.current_price_usd,
        lowest_30d_usd: c.lowest_30d_usd,
        returns: c.returns_to_earlier_price,
    })
}

/// The engine's published vehicle in the oracle's terms.
fn engine_record(vehicle: &Vehicle) -> Record {
    let windows = [Window::D1, Window::D3, Window::D7];
    Record {
        id: vehicle.id.clone(),
        current_price_usd: vehicle.current_price_usd,
        best_quote: vehicle
            .best_quote
            .as_ref()
            .map(|q| (q.id.clone(), q.price_usd)),
        typical: vehicle.comparison.typical_price_usd,
        lowest: vehicle.comparison.lowest_price_usd,
        discount: vehicle.comparison.discount_pct,
        observed_weeks: vehicle.comparison.observed_weeks,
        sufficient: vehicle.comparison.sufficient_history,
        opportunity: vehicle.comparison.opportunity,
        history: vehicle
            .history
            .iter()
            .map(|w| (w.week_start, w.price_usd))
            .collect(),
        recent: windows.map(|w| change(vehicle.recent_changes.get(w))),
        fresh: windows.map(|w| change(vehicle.new_opportunities.get(w))),
        reasons: vehicle
            .reasons
            .iter()
            .map(|r| match r {
                autoprecios::vocab::Reason::BelowTypical => "below_typical",
                autoprecios::vocab::Reason::PriceDrop => "price_drop",
                autoprecios::vocab::Reason::NewOpportunity => "new_opportunity",
            })
            .collect(),
        range: vehicle.price_range.as_ref().map(|range| {
            let quoted = match (range.low, range.high, range.currency) {
                (Some(low), Some(high), Some(currency)) => Some((low, high, currency)),
                _ => None,
            };
            (range.low_usd, range.high_usd, quoted)
        }),
        freight: vehicle
            .freight_estimate
            .as_ref()
            .map(|f| (f.amount_usd, f.pct, f.checks)),
    }
}

/// Engine and oracle records of a snapshot, or the first difference.
fn compare(snapshot: &Snapshot) -> Result<Vec<Record>, String> {
    let engine: Vec<Record> = compute_catalogue(snapshot)
        .vehicles
        .iter()
        .map(engine_record)
        .collect();
    let expected = oracle::records(snapshot);
    let ids = |records: &[Record]| records.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    if ids(&engine) != ids(&expected) {
        return Err(format!(
            "published versions differ: engine {:?}, oracle {:?}",
            ids(&engine),
            ids(&expected)
        ));
    }
    for (got, want) in engine.iter().zip(&expected) {
        if got != want {
            return Err(format!(
                "version {}:\n engine {got:#?}\n oracle {want:#?}",
                got.id
            ));
        }
    }
    Ok(expected)
}

/// What the random snapshots exercised, so a generator change that stops
/// reaching a rule fails here rather than passing quietly.
#[derive(Debug, Default)]
struct Coverage {
    published: usize,
    opportunities: usize,
    sufficient_but_not: usize,
    drops: usize,
    crossing_drops: usize,
    fresh_with_cut: usize,
    fresh_without_cut: usize,
    returns: usize,
    ranges: usize,
    quoted_ranges: usize,
    freight_estimates: usize,
}

impl Coverage {
    fn add(&mut self, record: &Record) {
        self.published += 1;
        self.opportunities += usize::from(record.opportunity);
        self.ranges += usize::from(record.range.is_some());
        self.quoted_ranges += usize::from(record.range.as_ref().is_some_and(|r| r.2.is_some()));
        self.freight_estimates += usize::from(record.freight.is_some());
        self.sufficient_but_not += usize::from(record.sufficient && !record.opportunity);
        for change in record.recent.iter().flatten() {
            if change.kind == "price_drop" {
                self.drops += 1;
                self.returns += usize::from(change.returns == Some(true));
                let pct = change.drop_pct.unwrap_or(0.0);
                self.crossing_drops += usize::from(pct < 2.0);
            }
        }
        for change in record.fresh.iter().flatten() {
            self.fresh_with_cut += usize::from(change.changed_at.is_some());
            self.fresh_without_cut += usize::from(change.qualified_since.is_some());
        }
    }
}

#[test]
fn the_engine_agrees_with_a_naive_reading_of_the_rules_on_random_snapshots() {
    let seeds = std::env::var("ORACLE_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_SEEDS);
    let mut coverage = Coverage::default();
    for seed in 0..seeds {
        let snapshot = generator::snapshot(&mut crate::harness::rng::Rng::new(seed));
        match compare(&snapshot) {
            Ok(records) => records.iter().for_each(|r| coverage.add(r)),
            Err(difference) => panic!("seed {seed}: {difference}"),
        }
    }
    eprintln!("{coverage:?}");
    if seeds >= DEFAULT_SEEDS {
        let floor = |count: usize, what: &str| {
            assert!(
                count >= 10,
                "only {count} {what} in {seeds} seeds: {coverage:?}"
            );
        };
        floor(coverage.opportunities, "opportunities");
        floor(coverage.sufficient_but_not, "near misses");
        floor(coverage.drops, "price drops");
        floor(coverage.crossing_drops, "crossing drops");
        floor(coverage.fresh_with_cut, "new opportunities with a cut");
        floor(coverage.fresh_without_cut, "new opportunities without one");
        floor(coverage.returns, "drops back to an earlier price");
        floor(coverage.ranges, "usual ranges");
        floor(coverage.quoted_ranges, "usual ranges in one currency");
        floor(coverage.freight_estimates, "freight estimates");
    }
}

#[test]
fn the_engine_agrees_with_the_oracle_on_the_bundled_snapshot() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let snapshot = autoprecios::snapshot::load_snapshot(&dir).expect("the bundled snapshot");
    let records = compare(&snapshot).unwrap_or_else(|difference| panic!("{difference}"));
    // The bundled snapshot reaches the range and freight rules.
    assert!(records.iter().filter(|r| r.range.is_some()).count() >= 10);
    assert!(records.iter().any(|r| r.freight.is_some()));
}

#[test]
fn the_engine_agrees_with_the_oracle_on_a_sample_of_3000_versions() {
    let snapshot = autoprecios::sample::generate_sample(&autoprecios::sample::SampleOptions {
        versions: 3000,
        ..autoprecios::sample::SampleOptions::default()
    });
    let records = compare(&snapshot).unwrap_or_else(|difference| panic!("{difference}"));
    assert!(records.len() > 2000, "{} published", records.len());
}
