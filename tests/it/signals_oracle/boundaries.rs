//! Hand-made snapshots on each boundary of issue 12 ("signals decided
//! exactly, at every boundary"): the engine and the oracle must agree, and
//! both must say what the fractions say (computed by hand in each comment).
//! Deal ordering by recency (point 4) is the API's and is tested there.

use autoprecios::check::check_report;
use autoprecios::signals::compute_catalogue;
use autoprecios::signals::monitoring::CheckGap;
use autoprecios::snapshot::{
    CatalogueRun, Money, QuoteCheck, Snapshot, SnapshotMeta, SourceQuote, Version,
};
use autoprecios::time::Time;
use autoprecios::vocab::Currency;
use chrono::{Duration, TimeZone, Utc};

use super::compare;
use super::generator::money;
use super::oracle::{Change, Record};
use crate::harness::bare_version;

/// `T`: Friday 2026-11-20, 20:00 in Argentina.
fn t() -> Time {
    Utc.with_ymd_and_hms(2026, 11, 20, 23, 0, 0)
        .single()
        .expect("valid")
}

fn hours(h: i64) -> Time {
    t() - Duration::hours(h)
}

fn days(d: i64) -> Time {
    t() - Duration::days(d)
}

/// Catalogue checks every three hours for 90 days, up to `T` (every version
/// is listed from the first).
fn checks() -> Vec<Time> {
    (0..=720).rev().map(|k| hours(3 * k)).collect()
}

/// Runs from `(start, price)` steps, each to the check before the next, the
/// last to `T`; `hole` (a check) is left out of them.
fn runs(steps: &[(Time, Money)], hole: Option<Time>) -> Vec<CatalogueRun> {
    let mut runs = Vec::new();
    for (index, (start, price)) in steps.iter().enumerate() {
        let end = steps
            .get(index + 1)
            .map_or(t(), |next| next.0 - Duration::hours(3));
        match hole.filter(|hole| *start <= *hole && *hole <= end) {
            Some(hole) => {
                runs.push((*start, hole - Duration::hours(3), *price));
                runs.push((hole + Duration::hours(3), end, *price));
            }
            None => runs.push((*start, end, *price)),
        }
    }
    runs.into_iter()
        .map(|(first_seen, last_seen, price)| CatalogueRun {
            first_seen,
            last_seen,
            price,
        })
        .collect()
}

fn quote_checks(points: &[(Time, Money)], rate: f64) -> Vec<QuoteCheck> {
    points
        .iter()
        .map(|(at, price)| QuoteCheck {
            observed_at: *at,
            ars_per_usd: Some(rate),
            in_stock: true,
            quotes: vec![SourceQuote::bare("q1", *price)],
        })
        .collect()
}

fn version(id: &str, catalogue: Vec<CatalogueRun>, checks: Vec<QuoteCheck>) -> Version {
    Version {
        catalogue,
        checks,
        ..bare_version(id, "Make", "Model", id)
    }
}

fn snapshot(versions: Vec<Version>) -> Snapshot {
    Snapshot {
        spilled_in: None,
        cpi: Vec::new(),
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: t() + Duration::minutes(40),
            catalogue_observed_at: t(),
            source: "https://concesionarias.example".into(),
            site_name: "boundaries".into(),
            synthetic: true,
            notice: None,
            exchange_rate_source: None,
            data_license: None,
        },
        catalogue_checks: checks(),
        versions,
    }
}

/// The one record both implementations publish.
fn agreed(versions: Vec<Version>) -> Vec<Record> {
    compare(&snapshot(versions)).unwrap_or_else(|difference| panic!("{difference}"))
}

/// Ten weekly dealer checks at `usual` (70 to 7 days before `T`), one an hour
/// before `T` at `current`: the median is exactly `usual`.
fn usual_then(usual: Money, current: Money, rate: f64) -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, Money)> = (1..=10).rev().map(|w| (days(7 * w), usual)).collect();
    points.push((hours(1), current));
    quote_checks(&points, rate)
}

fn ars_drop(from: f64, to: f64, rate: f64) -> Option<Change> {
    let ars = |amount| money(amount, Currency::Ars);
    let catalogue = runs(&[(days(90), ars(from)), (hours(12), ars(to))], None);
    let dealer = usual_then(ars(from), ars(from), rate);
    agreed(vec![version("a", catalogue, dealer)])
        .remove(0)
        .recent[0]
        .clone()
}

#[test]
fn exactly_usd_300_is_a_drop_at_1407_14_and_at_1400() {
    // 422,142 / 1,407.14 = 300 and 422,142 / 15,000,000 = 2.81428 %.
    let change = ars_drop(15_000_000.0, 14_577_858.0, 1407.14).expect("drop");
    assert_eq!(change.kind, "price_drop");
    assert_eq!(change.drop_pct, Some(2.81));
    assert_eq!(change.previous_price_usd, Some(10_659.92));
    assert_eq!(change.current_price_usd, 10_359.92);
    assert_eq!(ars_drop(15_000_000.0, 14_577_859.0, 1407.14), None);
    // 420,000 / 1,400 = 300, 3.65 %; one peso short of it is none.
    let change = ars_drop(11_500_000.0, 11_080_000.0, 1400.0).expect("drop");
    assert_eq!(change.drop_pct, Some(3.65));
    assert_eq!(ars_drop(11_500_000.0, 11_080_001.0, 1400.0), None);
}

fn usd(amount: f64) -> Money {
    money(amount, Currency::Usd)
}

#[test]
fn a_cut_onto_0_95_of_the_exact_usual_price_crosses_it() {
    // Usual 20,000.004: the line is 19,000.0038. 19,100 -> 19,000.002 crosses
    // it (0.52 %, USD 99.998); 19,100 -> 19,000.004 does not.
    let crossing = |to: f64| {
        let catalogue = runs(&[(days(90), usd(19_100.0)), (hours(12), usd(to))], None);
        let dealer = usual_then(usd(20_000.004), usd(18_000.0), 1400.0);
        agreed(vec![version("a", catalogue, dealer)]).remove(0)
    };
    let record = crossing(19_000.002);
    assert!(record.opportunity);
    let change = record.recent[0].clone().expect("drop");
    assert_eq!(
        (change.kind, change.drop_pct, change.current_price_usd),
        ("price_drop", Some(0.52), 19_000.0)
    );
    let record = crossing(19_000.004);
    assert_eq!(
        record.recent[0].as_ref().map(|c| c.kind),
        Some("new_opportunity")
    );
}

#[test]
fn the_5_percent_line_is_drawn_on_unrounded_prices() {
    // 1,000 / 20,000.004 = 4.9999990 %: published prices 20,000.00 and
    // 19,000.00, but no opportunity; 19,000.0038 is exactly 5 %.
    let at = |current: f64| {
        let dealer = usual_then(usd(20_000.004), usd(current), 1400.0);
        agreed(vec![version(
            "a",
            runs(&[(days(90), usd(20_000.0))], None),
            dealer,
        )])
        .remove(0)
    };
    let below = at(19_000.004);
    assert_eq!(
        (below.typical, below.current_price_usd),
        (Some(20_000.0), 19_000.0)
    );
    assert_eq!((below.discount, below.opportunity), (Some(4.99), false));
    let on = at(19_000.003_8);
    assert_eq!((on.discount, on.opportunity), (Some(5.0), true));
}

/// Usual 20,000 for eight weeks, dealers at 18,000 for the last 30 days.
fn long_opportunity() -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, Money)> = (5..=12)
        .rev()
        .map(|w| (days(7 * w), usd(20_000.0)))
        .collect();
    points.extend([30, 20, 10, 1].map(|d| (days(d), usd(18_000.0))));
    quote_checks(&points, 1400.0)
}

#[test]
fn an_outage_leaves_opportunities_as_they_were_and_is_reported() {
    // Nothing is listed at the check six hours before `T`.
    let hole = Some(hours(6));
    let a = version(
        "a",
        runs(&[(days(90), usd(20_000.0))], hole),
        long_opportunity(),
    );
    let b = version(
        "b",
        runs(&[(days(90), usd(30_000.0))], hole),
        usual_then(usd(30_000.0), usd(30_000.0), 1400.0),
    );
    let snap = snapshot(vec![a, b]);
    let records = compare(&snap).unwrap_or_else(|difference| panic!("{difference}"));
    assert!(records[0].opportunity);
    assert_eq!(records[0].recent, [None, None, None]);
    assert_eq!(records[0].reasons, ["below_typical"]);
    let report = check_report(&snap, &compute_catalogue(&snap));
    assert_eq!(report.gaps, [CheckGap::Empty { at: hours(6) }]);
    assert!(report.to_string().ends_with(
        "\nwarning: catalogue check 2026-11-20T17:00:00Z lists no version: an outage, left out of the monitoring times"
    ));
}

#[test]
fn a_partial_check_counts_and_is_reported() {
    // Only "b" is listed at the check six hours before `T`: one of two, under
    // half the usual two. "a" was not published then, so it is new since the
    // next check.
    let a = version(
        "a",
        runs(&[(days(90), usd(20_000.0))], Some(hours(6))),
        long_opportunity(),
    );
    let b = version(
        "b",
        runs(&[(days(90), usd(30_000.0))], None),
        usual_then(usd(30_000.0), usd(30_000.0), 1400.0),
    );
    let c = version(
        "c",
        runs(&[(days(90), usd(30_000.0))], Some(hours(6))),
        usual_then(usd(30_000.0), usd(30_000.0), 1400.0),
    );
    let snap = snapshot(vec![a, b, c]);
    let records = compare(&snap).unwrap_or_else(|difference| panic!("{difference}"));
    let fresh = records[0].recent[0].clone().expect("new opportunity");
    assert_eq!(
        (fresh.kind, fresh.qualified_since),
        ("new_opportunity", Some(hours(3)))
    );
    let report = check_report(&snap, &compute_catalogue(&snap));
    assert_eq!(
        report.gaps,
        [CheckGap::Partial {
            at: hours(6),
            listed: 1,
            usual: 3
        }]
    );
}
