//! Boundary tests of the signal rules, each with a hand-computed expectation.
//! `T` is Friday 2026-11-20 20:00 Argentine time (23:00 UTC); catalogue checks
//! run five times a day at 11, 14, 17, 20 and 23 UTC.

use chrono::{Duration, TimeZone, Utc};

use super::*;
use crate::catalogue::Vehicle;
use crate::snapshot::{CatalogueRun, Identity, Money, QuoteCheck, SnapshotMeta, SourceQuote};
use crate::vocab::{ChangeKind, Currency};

mod issue_boundaries;
mod monitoring;
mod quoted;
mod recent_changes;
mod usual_price;

fn t() -> Time {
    Utc.with_ymd_and_hms(2026, 11, 20, 23, 0, 0)
        .single()
        .expect("valid")
}

/// `T` minus a number of hours.
fn hours_before(hours: i64) -> Time {
    t() - Duration::hours(hours)
}

fn days_before(days: i64) -> Time {
    t() - Duration::days(days)
}

fn usd(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Usd,
    }
}

fn ars(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Ars,
    }
}

fn monitoring() -> Vec<Time> {
    let mut times: Vec<Time> = (0..200)
        .flat_map(|day| [0, 3, 6, 9, 12].map(|hours| days_before(day) - Duration::hours(hours)))
        .collect();
    times.sort();
    times
}

/// A catalogue listing at one price from 200 days before `T` through `T`.
fn listed(price: Money) -> Vec<CatalogueRun> {
    vec![CatalogueRun {
        first_seen: days_before(199) - Duration::hours(12),
        last_seen: t(),
        price,
    }]
}

/// Runs from `(start, price)` pairs, each ending at the check before the next
/// start and the last at `T`.
fn runs(changes: &[(Time, Money)]) -> Vec<CatalogueRun> {
    changes
        .iter()
        .enumerate()
        .map(|(index, (first_seen, price))| CatalogueRun {
            first_seen: *first_seen,
            last_seen: changes
                .get(index + 1)
                .map_or(t(), |next| next.0 - Duration::hours(3)),
            price: *price,
        })
        .collect()
}

fn check_at(at: Time, price: Money, rate: f64) -> QuoteCheck {
    QuoteCheck {
        observed_at: at,
        ars_per_usd: Some(rate),
        in_stock: true,
        quotes: vec![SourceQuote {
            fees_included: Some(true),
            ..SourceQuote::bare("q1", price)
        }],
    }
}

/// USD checks at the given times (hours before `T`) and prices.
fn usd_checks(points: &[(Time, f64)]) -> Vec<QuoteCheck> {
    points
        .iter()
        .map(|(at, price)| check_at(*at, usd(*price), 1000.0))
        .collect()
}

fn version(id: &str, catalogue: Vec<CatalogueRun>, checks: Vec<QuoteCheck>) -> Version {
    Version {
        identity: Identity {
            source_url: "https://concesionarias.example/v".into(),
            ..Identity::named("Toyota", "Hilux", id)
        },
        catalogue,
        checks,
        ..Version::bare(id, "Toyota", "Hilux", id)
    }
}

fn snapshot(versions: Vec<Version>) -> Snapshot {
    Snapshot {
        spilled_in: None,
        cpi: Vec::new(),
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: t() + Duration::hours(1),
            catalogue_observed_at: t(),
            source: "https://concesionarias.example".into(),
            site_name: "test".into(),
            synthetic: true,
            notice: None,
            exchange_rate_source: None,
            data_license: None,
        },
        catalogue_checks: monitoring(),
        versions,
    }
}

fn compute_one(version: Version) -> Option<Vehicle> {
    compute_catalogue(&snapshot(vec![version]))
        .vehicles
        .into_iter()
        .next()
}

fn vehicle(version: Version) -> Vehicle {
    compute_one(version).expect("published")
}

/// Ten weekly checks at 20,000 (70 to 7 days before `T`) and one more an hour
/// before `T` at `current`: ten weeks average 20,000 and the last mixes both,
/// so the median is 20,000.
fn weekly_then(current: f64) -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, f64)> = (1..=10)
        .rev()
        .map(|week| (days_before(7 * week), 20_000.0))
        .collect();
    points.push((hours_before(1), current));
    usd_checks(&points)
}

/// A flat dealer history that never makes an opportunity.
fn flat(price: f64) -> Vec<QuoteCheck> {
    usd_checks(
        &(0..12)
            .rev()
            .map(|week| (days_before(7 * week) - Duration::hours(2), price))
            .collect::<Vec<_>>(),
    )
}

/// A snapshot loaded for the signals, its older checks kept in brief, gives
/// the very catalogue the whole snapshot gives: the signals read nothing of
/// a check older than their reach but its dealer price.
#[test]
fn the_signals_read_the_same_from_a_snapshot_kept_in_brief() {
    use crate::sample::{SampleOptions, generate_sample};
    use crate::snapshot::{
        InBrief, TableFormat, load_snapshot, load_snapshot_for_signals, write_snapshot,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let sample = generate_sample(&SampleOptions {
        versions: 60,
        days: 400,
        ..SampleOptions::default()
    });
    write_snapshot(&sample, dir.path(), TableFormat::Parquet).expect("write");
    let whole = load_snapshot(dir.path()).expect("load");
    let brief =
        load_snapshot_for_signals(dir.path(), InBrief::Before(reach()), None).expect("load");
    assert!(
        brief
            .versions
            .iter()
            .any(|version| !version.earlier.is_empty()),
        "a premise: some check is kept in brief"
    );
    assert_eq!(compute_catalogue(&whole), compute_catalogue(&brief));
}
