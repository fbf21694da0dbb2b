//! The boundaries that floats and rounded values misjudged: each rule decided
//! on exact values from the snapshot's own numbers (expectations computed by
//! hand with fractions).

use chrono::Duration;

use super::*;
use crate::signals::changes::ChangeContext;
use crate::signals::exact::whole;

/// A flat ARS dealer history at `price` and `rate` (weekly, 12 weeks): never
/// an opportunity, and `rate` is the current observed rate.
fn flat_ars(price: f64, rate: f64) -> Vec<QuoteCheck> {
    (0..12)
        .rev()
        .map(|week| check_at(days_before(7 * week) - Duration::hours(2), ars(price), rate))
        .collect()
}

fn drop_d1(from: f64, to: f64, rate: f64) -> Option<RecentChange> {
    let catalogue = runs(&[(days_before(100), ars(from)), (hours_before(12), ars(to))]);
    vehicle(version("a", catalogue, flat_ars(from, rate)))
        .recent_changes
        .d1
}

#[test]
fn a_cut_of_exactly_usd_300_at_1407_14_is_a_drop() {
    // 15,000,000 - 14,577,858 = 422,142 ARS = 300 x 1,407.14: exactly USD
    // 300 (floats make it 299.9999999999982), and 2.81428 %.
    let change = drop_d1(15_000_000.0, 14_577_858.0, 1407.14).expect("a drop");
    assert_eq!(change.kind, ChangeKind::PriceDrop);
    assert_eq!(change.drop_pct, Some(2.81));
    assert_eq!(change.previous_price_usd, Some(10_659.92));
    assert_eq!(change.current_price_usd, 10_359.92);
    // One peso less of a cut is USD 299.9993: no drop.
    assert_eq!(drop_d1(15_000_000.0, 14_577_859.0, 1407.14), None);
}

#[test]
fn a_cut_of_exactly_usd_300_at_a_round_rate_is_a_drop() {
    // 420,000 ARS at 1,400 is USD 300 (floats: 299.9999999999991), 3.65 %.
    let change = drop_d1(11_500_000.0, 11_080_000.0, 1400.0).expect("a drop");
    assert_eq!(change.drop_pct, Some(3.65));
    assert_eq!(change.previous_price_usd, Some(8_214.29));
    assert_eq!(change.current_price_usd, 7_914.29);
    assert_eq!(drop_d1(11_500_000.0, 11_080_010.0, 1400.0), None);
}

/// Ten weekly USD checks at `usual` (70 to 7 days before `T`), then one an
/// hour before `T` at `current`: the median of the eleven weekly averages is
/// exactly `usual` (only `T`'s week mixes in `current`).
fn usual_then(usual: f64, current: f64) -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, f64)> = (1..=10)
        .rev()
        .map(|week| (days_before(7 * week), usual))
        .collect();
    points.push((hours_before(1), current));
    usd_checks(&points)
}

#[test]
fn four_point_99999_percent_below_is_no_opportunity_though_it_rounds_to_5() {
    // (20,000.004 - 19,000.004) / 20,000.004 = 4.9999990 %. The published
    // prices round to 20,000.00 and 19,000.00, which would read as 5.00 %.
    let car = vehicle(version(
        "a",
        listed(usd(20_000.0)),
        usual_then(20_000.004, 19_000.004),
    ));
    assert_eq!(car.comparison.typical_price_usd, Some(20_000.0));
    assert_eq!(car.current_price_usd, 19_000.0);
    assert_eq!(car.comparison.discount_pct, Some(4.99));
    assert!(!car.comparison.opportunity);
    assert!(car.reasons.is_empty());

    // 19,000.0038 is 0.95 x 20,000.004: exactly 5 %.
    let car = vehicle(version(
        "a",
        listed(usd(20_000.0)),
        usual_then(20_000.004, 19_000.003_8),
    ));
    assert_eq!(car.comparison.discount_pct, Some(5.0));
    assert!(car.comparison.opportunity);
}

fn crossing(to: f64) -> Vehicle {
    // Usual 20,000.004, so the threshold is 0.95 x 20,000.004 = 19,000.0038;
    // the dealer price an hour before `T` (18,000) makes it an opportunity.
    let catalogue = runs(&[
        (days_before(100), usd(19_100.0)),
        (hours_before(12), usd(to)),
    ]);
    vehicle(version("a", catalogue, usual_then(20_000.004, 18_000.0)))
}

#[test]
fn a_cut_to_exactly_under_the_exact_threshold_crosses_it() {
    // 19,100 > 19,000.0038 >= 19,000.002: it crosses (0.52 %, USD 99.998,
    // too small on its own). The rounded usual price (19,000 threshold) would
    // miss it.
    let car = crossing(19_000.002);
    assert!(car.comparison.opportunity);
    let change = car.recent_changes.d1.clone().expect("a drop");
    assert_eq!(change.kind, ChangeKind::PriceDrop);
    assert_eq!(change.changed_at, Some(hours_before(12)));
    assert_eq!(change.drop_pct, Some(0.52));
    assert_eq!(change.previous_price_usd, Some(19_100.0));
    assert_eq!(change.current_price_usd, 19_000.0);
    // It is also newly an opportunity since the dealer check an hour ago
    // (last miss at 20:00 UTC, next monitoring time `T`).
    let fresh = car.new_opportunities.d1.clone().expect("new opportunity");
    assert_eq!(fresh.qualified_since, Some(t()));
    assert_eq!(
        car.reasons,
        vec![
            Reason::BelowTypical,
            Reason::PriceDrop,
            Reason::NewOpportunity
        ]
    );

    // 19,000.004 stays above the threshold: no crossing, no drop.
    let car = crossing(19_000.004);
    assert!(car.comparison.opportunity);
    let change = car.recent_changes.d1.expect("the new opportunity");
    assert_eq!(change.kind, ChangeKind::NewOpportunity);
}

/// Nine weekly checks at 20,000, the last `age` before `T`.
fn aged_by(age: Duration) -> Vec<QuoteCheck> {
    usd_checks(
        &(0..9)
            .rev()
            .map(|week| (t() - age - Duration::weeks(week), 20_000.0))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn a_fraction_of_a_second_past_45_days_is_stale() {
    let half = Duration::milliseconds(500);
    let fresh = vehicle(version(
        "a",
        listed(usd(20_000.0)),
        aged_by(Duration::days(45)),
    ));
    assert!(fresh.comparison.sufficient_history);
    let stale = vehicle(version(
        "a",
        listed(usd(20_000.0)),
        aged_by(Duration::days(45) + half),
    ));
    assert!(!stale.comparison.sufficient_history, "45 days and 0.5 s");
}

#[test]
fn a_span_a_fraction_of_a_second_short_of_35_days_is_insufficient() {
    let half = Duration::milliseconds(500);
    let span = |first: Duration| {
        let mut points = vec![(t() - first, 20_000.0)];
        points.extend([28, 21, 14, 7].map(|days| (days_before(days), 20_000.0)));
        points.push((t(), 18_000.0));
        vehicle(version("a", listed(usd(20_000.0)), usd_checks(&points)))
    };
    assert!(span(Duration::days(35)).comparison.sufficient_history);
    assert!(
        !span(Duration::days(35) - half)
            .comparison
            .sufficient_history
    );
}

/// An opportunity for weeks: usual 20,000, dealers at 18,000 since 30 days
/// before `T` (10 %).
fn long_opportunity() -> Vec<QuoteCheck> {
    let mut points: Vec<(Time, f64)> = (5..=12)
        .rev()
        .map(|week| (days_before(7 * week), 20_000.0))
        .collect();
    points.extend([30, 20, 10, 1].map(|days| (days_before(days), 18_000.0)));
    usd_checks(&points)
}

#[test]
fn an_empty_catalogue_check_does_not_make_every_opportunity_new() {
    // The scraper lists nothing at the check 6 hours before `T` (an outage):
    // the version's runs stop before it and resume after it at one price.
    let outage = hours_before(6);
    let before = CatalogueRun {
        first_seen: days_before(100),
        last_seen: outage - Duration::hours(3),
        price: usd(20_000.0),
    };
    let after = CatalogueRun {
        first_seen: outage + Duration::hours(3),
        last_seen: t(),
        price: usd(20_000.0),
    };
    let car = vehicle(version("a", vec![before, after], long_opportunity()));
    assert!(car.comparison.opportunity);
    for window in Window::ALL {
        assert_eq!(car.recent_changes.get(*window), None, "{window:?}");
        assert_eq!(car.new_opportunities.get(*window), None, "{window:?}");
    }
    assert_eq!(car.reasons, vec![Reason::BelowTypical]);
}

#[test]
fn missing_from_a_check_that_lists_others_is_not_published_then() {
    // The same gap while another version is listed at that check: the check
    // is a monitoring time, the version was not published at it, so it is a
    // new opportunity since the next one.
    let outage = hours_before(6);
    let gapped = vec![
        CatalogueRun {
            first_seen: days_before(100),
            last_seen: outage - Duration::hours(3),
            price: usd(20_000.0),
        },
        CatalogueRun {
            first_seen: outage + Duration::hours(3),
            last_seen: t(),
            price: usd(20_000.0),
        },
    ];
    let other = version("b", listed(usd(30_000.0)), flat(30_000.0));
    let catalogue = compute_catalogue(&snapshot(vec![
        version("a", gapped, long_opportunity()),
        other,
    ]));
    let car = &catalogue.vehicles[0];
    let change = car.recent_changes.d1.clone().expect("new opportunity");
    assert_eq!(change.kind, ChangeKind::NewOpportunity);
    assert_eq!(change.qualified_since, Some(hours_before(3)));
}

#[test]
fn every_cut_of_exactly_usd_300_in_steps_of_10000_pesos_is_judged_exactly() {
    // Rates of 1,000 to 2,000 in steps of 100 make 300 x rate a multiple of
    // 10,000 pesos. A cut of exactly USD 300 from `from` is at least 2 %
    // exactly when from <= 15,000 x rate (15,000,000 at 1,000): a drop then,
    // none above. Floats misjudge some of these pairs.
    let mut pairs = 0;
    let mut float_misses = 0;
    for rate in (10..=20).map(|hundreds| hundreds * 100) {
        let exact_rate = whole(rate);
        let cut = 300 * rate;
        for from in (500..=6_000).map(|steps| steps * 10_000) {
            let to = from - cut;
            let catalogue = runs(&[
                (days_before(100), ars(from as f64)),
                (hours_before(12), ars(to as f64)),
            ]);
            let context = ChangeContext {
                runs: &catalogue,
                reference: t(),
                rate: Some(&exact_rate),
                opportunity: false,
                typical_usd: None,
            };
            let drop = context.price_drop(Window::D1);
            assert_eq!(
                drop.is_some(),
                from <= 15_000 * rate,
                "{from} -> {to} at {rate}"
            );
            pairs += 1;
            let float_usd = from as f64 / rate as f64 - to as f64 / rate as f64;
            float_misses += usize::from(float_usd < 300.0);
        }
    }
    assert_eq!(pairs, 11 * 5_501);
    assert!(float_misses > 0, "the float reading misses some");
}
