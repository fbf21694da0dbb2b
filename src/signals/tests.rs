//! Boundary tests of the signal rules, each with a hand-computed expectation.
//! `T` is Friday 2026-11-20 20:00 Argentine time (23:00 UTC); catalogue checks
//! run five times a day at 11, 14, 17, 20 and 23 UTC.

use std::collections::BTreeMap;

use chrono::{Duration, TimeZone, Utc};

use super::*;
use crate::catalogue::Vehicle;
use crate::snapshot::{CatalogueRun, Money, QuoteCheck, SnapshotMeta, SourceQuote};
use crate::vocab::{ChangeKind, Currency};

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
            id: "q1".into(),
            price,
            fees_included: Some(true),
            color: None,
            stock: None,
            location: None,
            seller_id: None,
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
        id: id.into(),
        make: "Toyota".into(),
        model: "Hilux".into(),
        trim: id.into(),
        trim_display: None,
        body_type: None,
        tier: None,
        tier_label: None,
        fuel: None,
        transmission: None,
        drivetrain: None,
        seats: None,
        airbags: None,
        source_url: "https://concesionarias.example/v".into(),
        fact_sources: BTreeMap::new(),
        catalogue,
        checks,
        specs: None,
    }
}

fn snapshot(versions: Vec<Version>) -> Snapshot {
    Snapshot {
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: t() + Duration::hours(1),
            catalogue_observed_at: t(),
            source: "https://concesionarias.example".into(),
            site_name: "test".into(),
            synthetic: true,
            notice: None,
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

#[test]
fn discount_of_exactly_five_percent_is_an_opportunity() {
    let car = vehicle(version("a", listed(usd(20_000.0)), weekly_then(19_000.0)));
    assert_eq!(car.comparison.typical_price_usd, Some(20_000.0));
    assert_eq!(car.comparison.discount_pct, Some(5.0));
    assert!(car.comparison.opportunity);
    // Until the check an hour ago the dealer price was the usual one.
    assert_eq!(
        car.reasons,
        vec![Reason::BelowTypical, Reason::NewOpportunity]
    );
}

#[test]
fn discount_just_under_five_percent_is_not() {
    let car = vehicle(version("a", listed(usd(20_000.0)), weekly_then(19_000.01)));
    // 0.99995 below: shown truncated, never rounded up to the threshold.
    assert_eq!(car.comparison.discount_pct, Some(4.99));
    assert!(!car.comparison.opportunity);
    assert!(car.reasons.is_empty());
}

/// Six weekly checks, the first `first_days` before `T`, at 20,000, and the
/// last at `T` at 18,000.
fn six_weeks(first_days: i64) -> Vec<QuoteCheck> {
    let mut points = vec![(days_before(first_days), 20_000.0)];
    points.extend([28, 21, 14, 7].map(|days| (days_before(days), 20_000.0)));
    points.push((t(), 18_000.0));
    usd_checks(&points)
}

#[test]
fn six_weeks_spanning_34_days_are_insufficient_and_35_sufficient() {
    let short = vehicle(version("a", listed(usd(20_000.0)), six_weeks(34)));
    assert_eq!(short.comparison.observed_weeks, 6);
    assert!(!short.comparison.sufficient_history);
    assert_eq!(
        short.comparison.discount_pct, None,
        "null when history is insufficient"
    );
    assert!(!short.comparison.opportunity);

    let enough = vehicle(version("a", listed(usd(20_000.0)), six_weeks(35)));
    assert_eq!(enough.comparison.observed_weeks, 6);
    assert!(enough.comparison.sufficient_history);
    assert!(enough.comparison.opportunity);
}

/// Nine weekly checks at 20,000, the last `age_days` before `T`.
fn aged(age_days: i64) -> Vec<QuoteCheck> {
    usd_checks(
        &(0..9)
            .rev()
            .map(|week| (days_before(age_days + 7 * week), 20_000.0))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn last_check_45_days_old_is_sufficient_and_46_stale() {
    let fresh = vehicle(version("a", listed(usd(20_000.0)), aged(45)));
    assert!(fresh.comparison.sufficient_history);
    assert_eq!(fresh.comparison.discount_pct, Some(0.0));
    let stale = vehicle(version("a", listed(usd(20_000.0)), aged(46)));
    assert!(!stale.comparison.sufficient_history);
    assert_eq!(stale.comparison.discount_pct, None);
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

#[test]
fn two_percent_drop_needs_at_least_usd_300() {
    let drop_at = hours_before(12);
    let small = vehicle(version(
        "a",
        runs(&[(days_before(100), usd(14_950.0)), (drop_at, usd(14_651.0))]),
        flat(14_950.0),
    ));
    assert_eq!(small.recent_changes.d1, None, "2% but USD 299");

    let large = vehicle(version(
        "a",
        runs(&[(days_before(100), usd(15_000.0)), (drop_at, usd(14_700.0))]),
        flat(15_000.0),
    ));
    let change = large.recent_changes.d1.expect("2% and USD 300");
    assert_eq!(change.kind, ChangeKind::PriceDrop);
    assert_eq!(change.drop_pct, Some(2.0));
    assert_eq!(change.previous_price_usd, Some(15_000.0));
    assert_eq!(change.current_price_usd, 14_700.0);
    assert_eq!(change.changed_at, Some(drop_at));
    assert_eq!(change.qualified_since, None);
    assert_eq!(change.conversion_basis, "current_observed_exchange_rate");
    assert_eq!(large.reasons, vec![Reason::PriceDrop]);
}

#[test]
fn a_small_drop_that_crosses_the_opportunity_threshold_is_a_drop() {
    // Usual dealer price 20,000; threshold 0.95 x 20,000 = 19,000. The
    // catalogue goes 19,200 -> 18,950: 1.3% and USD 250, but it crosses it.
    let catalogue = runs(&[
        (days_before(100), usd(19_200.0)),
        (hours_before(12), usd(18_950.0)),
    ]);
    let car = vehicle(version("a", catalogue, weekly_then(18_900.0)));
    assert!(car.comparison.opportunity);
    let change = car.recent_changes.d1.expect("crossing drop");
    assert_eq!(change.kind, ChangeKind::PriceDrop);
    assert_eq!(change.drop_pct, Some(1.3));
}

#[test]
fn an_exchange_rate_move_with_an_unchanged_ars_price_is_no_drop() {
    // Catalogue ARS 20,000,000 throughout, with a gap (absent one check) that
    // does not end the price; the peso moves from 1,000 to 1,250 per dollar.
    let catalogue = vec![
        CatalogueRun {
            first_seen: days_before(100),
            last_seen: days_before(2),
            price: ars(20e6),
        },
        CatalogueRun {
            first_seen: days_before(2) + Duration::hours(15),
            last_seen: t(),
            price: ars(20e6),
        },
    ];
    let checks = vec![
        check_at(days_before(60), ars(20e6), 1000.0),
        check_at(hours_before(2), ars(20e6), 1250.0),
    ];
    let car = vehicle(version("a", catalogue.clone(), checks));
    assert!(Window::ALL.iter().all(|w| {
        car.recent_changes
            .get(*w)
            .is_none_or(|c| c.kind != ChangeKind::PriceDrop)
    }));
    let context = ChangeContext {
        runs: &catalogue,
        reference: t(),
        rate: Some(1250.0),
        opportunity: false,
        typical_usd: None,
    };
    let (previous, current, pct) = context.reduction(Window::D7, t()).expect("prices");
    assert_eq!(previous, current, "both at the current observed rate");
    assert_eq!(current, 16_000.0);
    assert_eq!(pct, 0.0);
}

#[test]
fn drop_pct_uses_native_prices_and_usd_uses_the_current_rate() {
    let catalogue = runs(&[
        (days_before(100), ars(30e6)),
        (hours_before(12), ars(29.1e6)),
    ]);
    let checks = vec![
        check_at(days_before(20), ars(30e6), 1200.0),
        check_at(hours_before(11), ars(29.1e6), 1437.0),
    ];
    let change = vehicle(version("a", catalogue, checks))
        .recent_changes
        .d1
        .expect("drop");
    assert_eq!(change.drop_pct, Some(3.0));
    assert_eq!(
        change.previous_price_usd,
        Some(20_876.83),
        "30,000,000 / 1,437"
    );
    assert_eq!(change.current_price_usd, 20_250.52, "29,100,000 / 1,437");
}

#[test]
fn a_raise_then_cut_is_measured_from_the_highest_price_in_the_window() {
    let catalogue = runs(&[
        (days_before(100), usd(20_000.0)),
        (days_before(4), usd(21_000.0)),
        (days_before(2), usd(20_000.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(20_000.0)));
    assert_eq!(car.recent_changes.d1, None, "the cut is two days old");
    for window in [Window::D3, Window::D7] {
        let change = car.recent_changes.get(window).expect("drop");
        assert_eq!(change.previous_price_usd, Some(21_000.0));
        assert_eq!(change.drop_pct, Some(4.76), "1,000 / 21,000 = 4.7619%");
        assert_eq!(change.changed_at, Some(days_before(2)));
    }
}

#[test]
fn an_increase_after_the_cut_cancels_the_drop() {
    let catalogue = runs(&[
        (days_before(100), usd(21_000.0)),
        (days_before(2), usd(20_000.0)),
        (days_before(1), usd(20_500.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(20_000.0)));
    assert!(
        Window::ALL
            .iter()
            .all(|w| car.recent_changes.get(*w).is_none())
    );
}

#[test]
fn windows_nest() {
    let catalogue = runs(&[
        (days_before(100), usd(30_000.0)),
        (hours_before(3), usd(28_000.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(30_000.0)));
    let changes: Vec<_> = Window::ALL
        .iter()
        .map(|w| car.recent_changes.get(*w).cloned())
        .collect();
    assert!(changes[0].is_some());
    assert_eq!(changes[0], changes[1]);
    assert_eq!(changes[1], changes[2]);
}

/// Five weekly checks at 20,000 (40 to 12 days before `T`), then one at
/// 18,000 at 13:30 UTC on `T`'s day: history becomes sufficient (six weeks,
/// 39 days) with it, with no catalogue change.
fn evidence_accumulates() -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, f64)> = [40, 33, 26, 19, 12]
        .map(|days| (days_before(days), 20_000.0))
        .to_vec();
    points.push((hours_before(9) - Duration::minutes(30), 18_000.0));
    usd_checks(&points)
}

#[test]
fn a_new_opportunity_without_a_price_cut_qualifies_since_the_next_monitoring_time() {
    let car = vehicle(version("a", listed(usd(20_000.0)), evidence_accumulates()));
    assert!(car.comparison.opportunity);
    // Not an opportunity at 11:00 UTC (five weeks); next monitoring time 14:00 UTC.
    for window in Window::ALL {
        let change = car.recent_changes.get(*window).expect("new opportunity");
        assert_eq!(change.kind, ChangeKind::NewOpportunity);
        assert_eq!(change.changed_at, None);
        assert_eq!(
            change.qualified_since,
            Some(hours_before(9)),
            "the same in every window"
        );
        assert_eq!(change.drop_pct, None);
        assert_eq!(change.previous_price_usd, None);
        assert_eq!(change.current_price_usd, 20_000.0, "catalogue price");
        assert_eq!(car.new_opportunities.get(*window), Some(change));
    }
    assert_eq!(
        car.reasons,
        vec![Reason::BelowTypical, Reason::NewOpportunity]
    );
}

#[test]
fn a_new_opportunity_caused_by_a_cut_carries_the_change() {
    // The catalogue cut at 11:00 UTC triggers the quote check at 13:30.
    let catalogue = runs(&[
        (days_before(100), usd(20_000.0)),
        (hours_before(12), usd(19_900.0)),
    ]);
    let car = vehicle(version("a", catalogue, evidence_accumulates()));
    let change = car.new_opportunities.d1.clone().expect("new opportunity");
    assert_eq!(change.changed_at, Some(hours_before(12)));
    assert_eq!(change.qualified_since, None);
    assert_eq!(change.drop_pct, Some(0.5));
    assert_eq!(change.previous_price_usd, Some(20_000.0));
    assert_eq!(
        car.recent_changes.d1,
        Some(change),
        "a 0.5% cut that does not cross is not a drop"
    );
}

#[test]
fn absent_from_the_latest_catalogue_check_or_out_of_stock_is_not_published() {
    let left = vec![CatalogueRun {
        first_seen: days_before(100),
        last_seen: hours_before(3),
        price: usd(20_000.0),
    }];
    assert_eq!(compute_one(version("a", left, flat(20_000.0))), None);

    let mut checks = flat(20_000.0);
    checks.last_mut().expect("checks").in_stock = false;
    assert_eq!(
        compute_one(version("a", listed(usd(20_000.0)), checks)),
        None
    );

    let mut empty = flat(20_000.0);
    empty.last_mut().expect("checks").quotes.clear();
    assert_eq!(
        compute_one(version("a", listed(usd(20_000.0)), empty)),
        None
    );
}

#[test]
fn a_quote_check_after_t_but_before_s_counts() {
    let mut checks = flat(20_000.0);
    checks.push(check_at(t() + Duration::minutes(20), usd(18_000.0), 1000.0));
    let car = vehicle(version("a", listed(usd(20_000.0)), checks));
    assert_eq!(car.observed_at, t() + Duration::minutes(20));
    assert_eq!(car.current_price_usd, 18_000.0);
    assert_eq!(car.comparison.discount_pct, Some(10.0));
}

#[test]
fn an_even_number_of_weeks_takes_the_mean_of_the_middle_two() {
    // Checks on Mondays at 00:00 Argentine time (03:00 UTC), each price in
    // effect for exactly its week: weekly averages 20k, 22k, 24k, 26k.
    let monday = Utc
        .with_ymd_and_hms(2026, 11, 16, 3, 0, 0)
        .single()
        .expect("valid");
    let points: Vec<(Time, f64)> = [(3, 20_000.0), (2, 22_000.0), (1, 24_000.0), (0, 26_000.0)]
        .map(|(weeks, price)| (monday - Duration::weeks(weeks), price))
        .to_vec();
    let car = vehicle(version("a", listed(usd(26_000.0)), usd_checks(&points)));
    assert_eq!(car.comparison.observed_weeks, 4);
    assert_eq!(car.comparison.typical_price_usd, Some(23_000.0));
    assert_eq!(car.comparison.lowest_price_usd, Some(20_000.0));
}

#[test]
fn a_weekly_average_is_weighted_by_time() {
    // Monday 00:00 at 100, Thursday 12:00 at 200 (3.5 days each way), next
    // Monday 00:00 at 100: the first week averages 150.
    let monday = Utc
        .with_ymd_and_hms(2026, 11, 9, 3, 0, 0)
        .single()
        .expect("valid");
    let points = [
        PricePoint {
            at: monday,
            usd: 100.0,
        },
        PricePoint {
            at: monday + Duration::hours(84),
            usd: 200.0,
        },
        PricePoint {
            at: monday + Duration::days(7),
            usd: 100.0,
        },
    ];
    let (_, weeks) = compute_comparison(&points, 100.0, t(), t());
    assert_eq!(weeks[0].average_usd, 150.0);
    assert_eq!(weeks[1].average_usd, 100.0);
}

#[test]
fn sunday_night_and_monday_morning_are_different_weeks() {
    // Sunday 23:30 and Monday 00:30 Argentine time.
    let sunday = Utc
        .with_ymd_and_hms(2026, 11, 16, 2, 30, 0)
        .single()
        .expect("valid");
    let monday = sunday + Duration::hours(1);
    assert_ne!(history::week_of(sunday), history::week_of(monday));
    assert_eq!(history::week_of(monday).to_string(), "2026-11-16");
    let car = vehicle(version(
        "a",
        listed(usd(20_000.0)),
        usd_checks(&[(sunday, 20_000.0), (monday, 20_000.0)]),
    ));
    assert_eq!(car.comparison.observed_weeks, 2);
}

#[test]
fn median_and_rounding_helpers() {
    assert_eq!(history::median(&[]), None);
    assert_eq!(history::median(&[3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(history::truncate_hundredths(1.15), 1.15);
    assert_eq!(history::truncate_hundredths(-0.001), 0.0);
}

#[test]
fn a_week_whose_only_check_is_at_the_end_averages_to_that_price() {
    // Friday 100 in one week; the next week's only check is exactly at the
    // end, at 200: that week averages 200, not the 100 carried into it.
    let friday = Utc
        .with_ymd_and_hms(2026, 11, 6, 15, 0, 0)
        .single()
        .expect("valid");
    let end = friday + Duration::days(7);
    let points = [
        PricePoint {
            at: friday,
            usd: 100.0,
        },
        PricePoint {
            at: end,
            usd: 200.0,
        },
    ];
    let (comparison, weeks) = compute_comparison(&points, 200.0, end, end);
    assert_eq!(
        weeks.iter().map(|w| w.average_usd).collect::<Vec<_>>(),
        [100.0, 200.0]
    );
    assert_eq!(comparison.typical_price_usd, Some(150.0));
}
