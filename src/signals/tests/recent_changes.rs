//! Price drops and new opportunities at their boundaries.

use chrono::Duration;

use super::*;
use crate::catalogue::{Cause, Native};
use crate::signals::changes::ChangeContext;
use crate::signals::changes::HONEST_BEFORE_DAYS;
use crate::signals::exact::whole;

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
fn a_drop_back_to_a_price_of_the_30_days_before_is_a_return_not_a_cut() {
    // 30,000 for months, 33,000 for 19 days, then 30,000 again twelve hours
    // ago: a drop of 9.09 % by the contract's rule, but to the lowest price
    // of the 30 days before it.
    let back = hours_before(12);
    let catalogue = runs(&[
        (days_before(100), usd(30_000.0)),
        (days_before(19) - Duration::hours(12), usd(33_000.0)),
        (back, usd(30_000.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(30_000.0)));
    let change = car.recent_changes.d7.expect("the contract's drop");
    assert_eq!(change.kind, ChangeKind::PriceDrop);
    assert_eq!(change.drop_pct, Some(9.09));
    assert_eq!(change.lowest_30d_usd, Some(30_000.0));
    assert_eq!(change.returns_to_earlier_price, Some(true));
    // Last listed at 30,000 at the end of its first run, three hours before
    // the rise.
    let (low, last) = change.detail.lowest_30d.expect("the low");
    assert_eq!(low.amount, 30_000.0);
    assert_eq!(last, days_before(19) - Duration::hours(15));

    // The same rise, then a cut to 29,000: below the 30-day low, a real cut.
    let catalogue = runs(&[
        (days_before(100), usd(30_000.0)),
        (days_before(19) - Duration::hours(12), usd(33_000.0)),
        (back, usd(29_000.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(29_000.0)));
    let change = car.recent_changes.d7.expect("a drop");
    assert_eq!(change.lowest_30d_usd, Some(30_000.0));
    assert_eq!(change.returns_to_earlier_price, Some(false));

    // A price 31 days before the drop is outside its 30 days: 33,000 for
    // 31 days, then the cut to 30,000 is a cut.
    let catalogue = runs(&[
        (days_before(100), usd(30_000.0)),
        (days_before(31) - Duration::hours(12), usd(33_000.0)),
        (back, usd(30_000.0)),
    ]);
    let car = vehicle(version("a", catalogue, flat(30_000.0)));
    let change = car.recent_changes.d7.expect("a drop");
    assert_eq!(change.lowest_30d_usd, Some(33_000.0));
    assert_eq!(change.returns_to_earlier_price, Some(false));
}

#[test]
fn the_30_days_before_a_drop_begin_exactly_30_days_before_it() {
    // The window is [drop − 30 days, drop): a price in effect at its first
    // instant counts, one replaced at that very instant does not.
    let back = hours_before(12);
    let start = back - Duration::days(HONEST_BEFORE_DAYS);
    let honest_before = |rise: Time| {
        let catalogue = runs(&[
            (days_before(100), usd(30_000.0)),
            (rise, usd(33_000.0)),
            (back, usd(30_000.0)),
        ]);
        let car = vehicle(version("a", catalogue, flat(30_000.0)));
        let change = car.recent_changes.d7.expect("a drop of 9.09 %");
        (change.lowest_30d_usd, change.returns_to_earlier_price)
    };
    // 30,000 replaced by 33,000 exactly at the window's start: only 33,000
    // was in effect in it, so 30,000 is a cut.
    assert_eq!(honest_before(start), (Some(33_000.0), Some(false)));
    // Replaced a second later: 30,000 was in effect at the start, a return.
    assert_eq!(
        honest_before(start + Duration::seconds(1)),
        (Some(30_000.0), Some(true))
    );
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
    let rate = whole(1250);
    let context = ChangeContext {
        runs: &catalogue,
        reference: t(),
        rate: Some(&rate),
        opportunity: false,
        typical_usd: None,
    };
    let reduction = context.reduction(Window::D7, t()).expect("prices");
    assert_eq!(
        reduction.previous_usd, reduction.current_usd,
        "both at the current observed rate"
    );
    assert_eq!(reduction.current_usd, whole(16_000));
    assert_eq!(reduction.pct, whole(0));
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
        assert_eq!(
            change.detail.cause,
            Some(Cause::HistorySufficient),
            "five weeks at 11:00 UTC, six at 14:00"
        );
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
    assert_eq!(change.detail.cause, Some(Cause::CatalogueCut));
    let listed = |amount| {
        Some(Native {
            amount,
            currency: Currency::Usd,
        })
    };
    assert_eq!(change.detail.previous, listed(20_000.0));
    assert_eq!(change.detail.current, listed(19_900.0));
    assert_eq!(
        car.recent_changes.d1,
        Some(change),
        "a 0.5% cut that does not cross is not a drop"
    );
}

/// Weekly checks of `price` at `rate` from 60 to 4 days before `T` (nine
/// weeks: sufficient history, usual price `price` in dollars), then one of
/// `last` at `last_rate` at 13:30 UTC on `T`'s day.
fn steady_then(price: Money, rate: f64, last: Money, last_rate: f64) -> Vec<QuoteCheck> {
    let mut checks: Vec<QuoteCheck> = [60, 53, 46, 39, 32, 25, 18, 11, 4]
        .map(|days| check_at(days_before(days), price, rate))
        .to_vec();
    checks.push(check_at(
        hours_before(9) - Duration::minutes(30),
        last,
        last_rate,
    ));
    checks
}

fn cause_of(checks: Vec<QuoteCheck>) -> Option<Cause> {
    let car = vehicle(version("a", listed(usd(20_000.0)), checks));
    let change = car.new_opportunities.d1.expect("a new opportunity");
    assert_eq!(change.qualified_since, Some(hours_before(9)));
    change.detail.cause
}

#[test]
fn a_lower_dealer_quote_is_named_as_the_cause() {
    // At 11:00 UTC: 20,000 against a usual 20,000. At 14:00: 18,000, 10 % below.
    let checks = steady_then(usd(20_000.0), 1000.0, usd(18_000.0), 1000.0);
    assert_eq!(
        cause_of(checks),
        Some(Cause::LowerQuote {
            before_usd: 20_000.0
        })
    );
}

#[test]
fn the_same_peso_quote_at_a_higher_dollar_is_named_as_the_dollar() {
    // $ 20.000.000 at 1000 is US$ 20,000; at 1120, US$ 17,857.14: 10.71 % below.
    let checks = steady_then(ars(20_000_000.0), 1000.0, ars(20_000_000.0), 1120.0);
    assert_eq!(
        cause_of(checks),
        Some(Cause::DollarUp {
            before_usd: 20_000.0
        })
    );
    // One peso less is a dealer's cut, whatever the dollar did.
    let checks = steady_then(ars(20_000_000.0), 1000.0, ars(19_999_999.0), 1120.0);
    assert_eq!(
        cause_of(checks),
        Some(Cause::LowerQuote {
            before_usd: 20_000.0
        })
    );
}

#[test]
fn coming_back_in_stock_comes_before_a_lower_quote() {
    let mut checks = steady_then(usd(20_000.0), 1000.0, usd(18_000.0), 1000.0);
    let mut gone = check_at(hours_before(13), usd(20_000.0), 1000.0);
    gone.in_stock = false;
    checks.insert(checks.len() - 1, gone);
    assert_eq!(cause_of(checks), Some(Cause::Returned));
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
