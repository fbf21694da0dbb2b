//! Usual price, sufficiency and opportunity at their boundaries.

use chrono::{Duration, TimeZone, Utc};

use super::*;
use crate::signals::exact::{Exact, ratio, whole};
use crate::signals::history::{self, PricePoint, WeekCache, assess};

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

#[test]
fn the_usual_range_needs_sufficient_history() {
    let short = vehicle(version("a", listed(usd(20_000.0)), six_weeks(34)));
    assert_eq!(short.price_range, None, "null, never zero");
    let enough = vehicle(version("a", listed(usd(20_000.0)), six_weeks(35)));
    let range = enough.price_range.expect("a range");
    // Five weeks at 20,000 and the last at a price between 18,000 and
    // 20,000 (its check is at `T`, the week ends at `S`): sorted, position
    // 1.25 and 3.75 both fall among the 20,000s.
    assert_eq!((range.low_usd, range.high_usd), (20_000.0, 20_000.0));
    assert_eq!(range.weeks, 6);
    // Every quote in dollars: the range in the quoted currency is the same.
    assert_eq!(range.currency, Some(Currency::Usd));
    assert_eq!((range.low, range.high), (Some(20_000.0), Some(20_000.0)));
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
            price: whole(100),
        },
        PricePoint {
            at: monday + Duration::hours(84),
            price: whole(200),
        },
        PricePoint {
            at: monday + Duration::days(7),
            price: whole(100),
        },
    ];
    let weeks = assess(&points, &whole(100), t(), t(), &mut WeekCache::default()).history;
    assert_eq!(weeks[0].price_usd, 150.0);
    assert_eq!(weeks[1].price_usd, 100.0);
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
fn median_takes_the_middle_or_the_mean_of_the_middle_two() {
    assert_eq!(history::median([].iter()), None);
    assert_eq!(
        history::median([whole(3), whole(1), whole(2)].iter()),
        Some(whole(2))
    );
    assert_eq!(
        history::median([whole(4), whole(1), whole(2), whole(3)].iter()),
        Some(ratio(5, 2))
    );
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
            price: whole(100),
        },
        PricePoint {
            at: end,
            price: whole(200),
        },
    ];
    let assessment = assess(&points, &whole(200), end, end, &mut WeekCache::default());
    assert_eq!(
        assessment
            .history
            .iter()
            .map(|w| w.price_usd)
            .collect::<Vec<_>>(),
        [100.0, 200.0]
    );
    assert_eq!(assessment.comparison.typical_price_usd, Some(150.0));
    assert_eq!(assessment.typical, Some(whole(150)));
}

#[test]
fn the_median_is_compared_with_a_bound_without_sorting() {
    // Every multiset of up to six values from 1 to 4 (in halves), in
    // ascending and descending order, against every bound from 0 to 5 in
    // halves: the same answer as the median.
    let values: Vec<Exact> = (2..=8).map(|halves| ratio(halves, 2)).collect();
    let mut sets: Vec<Vec<&Exact>> = vec![Vec::new()];
    let mut last_size = sets.clone();
    for _ in 0..6 {
        last_size = last_size
            .iter()
            .flat_map(|set| {
                values
                    .iter()
                    .filter(|value| set.last().is_none_or(|last| *value >= *last))
                    .map(move |value| {
                        let mut set = set.clone();
                        set.push(value);
                        set
                    })
            })
            .collect();
        sets.extend(last_size.iter().cloned());
        sets.extend(
            last_size
                .iter()
                .map(|set| set.iter().rev().copied().collect()),
        );
    }
    assert_eq!(sets.len(), 1 + 2 * (1716 - 1), "C(13, 6) multisets");
    for set in &sets {
        let median = history::median(set.iter().copied());
        for bound in (0..=10).map(|halves| ratio(halves, 2)) {
            let expected = median.as_ref().is_some_and(|median| *median >= bound);
            assert_eq!(
                history::median_at_least(set, &bound),
                expected,
                "{set:?} against {bound:?}"
            );
        }
    }
}
