//! The history in the quoted currency and the price in pesos, with
//! hand-computed expectations: a peso price that stays put while the dollar
//! rises, one that falls at a constant rate, and mixed currencies.

use super::*;

/// Ten weekly peso checks (70 to 7 days before `T`) and one an hour before
/// `T`, each `(pesos, rate)`.
fn peso_weeks(weekly: (f64, impl Fn(i64) -> f64), last: (f64, f64)) -> Vec<QuoteCheck> {
    let (pesos, rate) = weekly;
    let mut checks: Vec<QuoteCheck> = (1..=10)
        .rev()
        .map(|week| check_at(days_before(7 * week), ars(pesos), rate(week)))
        .collect();
    checks.push(check_at(hours_before(1), ars(last.0), last.1));
    checks
}

#[test]
fn a_peso_price_that_stays_put_while_the_dollar_rises_is_unchanged_in_pesos() {
    // 20,000,000 pesos throughout; the dollar goes from 1,000 (70 days
    // before T) up 10 a week to 1,090, and 1,100 an hour before T: in
    // dollars 20,000 falling to 18,181.82, an opportunity in dollars only.
    let checks = peso_weeks(
        (20_000_000.0, |week: i64| {
            1_000.0 + 10.0 * (10 - week) as f64
        }),
        (20_000_000.0, 1_100.0),
    );
    let car = vehicle(version("steady", listed(ars(20_000_000.0)), checks));
    assert_eq!(car.current_price_usd, 18_181.82);
    assert!(car.comparison.discount_pct.is_some_and(|pct| pct > 5.0));
    // Every week of the one history carries its peso average beside the
    // dollar one, which falls as the dollar rises.
    assert!(!car.history.is_empty());
    assert!(
        car.history
            .iter()
            .all(|week| week.price == Some(20_000_000.0))
    );
    assert!(
        car.history.first().expect("weeks").price_usd
            > car.history.last().expect("weeks").price_usd
    );
    let quoted = car.quoted.expect("one currency");
    assert_eq!(quoted.currency, Currency::Ars);
    assert_eq!(quoted.typical, 20_000_000.0);
    assert_eq!(quoted.lowest, 20_000_000.0);
    assert_eq!(quoted.current, 20_000_000.0);
    assert_eq!(quoted.previous, None, "never changed in the window");
    assert_eq!(quoted.since, days_before(70));
    assert_eq!(car.price_ars, Some(20_000_000.0), "the quote, as quoted");
}

#[test]
fn a_peso_price_that_falls_at_a_constant_rate_falls_in_pesos() {
    // 30,000,000 pesos at 1,500 (US$ 20,000) for ten weeks, then 27,000,000
    // at the same rate (US$ 18,000): 10 % under in both currencies.
    let checks = peso_weeks((30_000_000.0, |_| 1_500.0), (27_000_000.0, 1_500.0));
    let car = vehicle(version("cut", listed(ars(30_000_000.0)), checks));
    assert_eq!(car.comparison.typical_price_usd, Some(20_000.0));
    assert_eq!(car.comparison.discount_pct, Some(10.0));
    let quoted = car.quoted.expect("one currency");
    assert_eq!(quoted.typical, 30_000_000.0);
    assert_eq!(quoted.current, 27_000_000.0);
    assert_eq!(quoted.lowest, 27_000_000.0);
    assert_eq!(quoted.previous, Some(30_000_000.0));
    assert_eq!(quoted.since, hours_before(1));
    // The last week holds 30,000,000 from 7 days before T (a Friday 20:00)
    // until the check an hour before T, then 27,000,000 for an hour plus
    // the 40 minutes to S: time-weighted, not a mean of the two checks.
    let last = car.history.last().expect("weeks").price.expect("in pesos");
    assert!(last < 30_000_000.0 && last > 27_000_000.0);
}

#[test]
fn mixed_currencies_in_the_window_have_no_quoted_history() {
    let mut checks = peso_weeks((30_000_000.0, |_| 1_500.0), (27_000_000.0, 1_500.0));
    checks[4].quotes[0].price = usd(20_000.0);
    let car = vehicle(version("mixed", listed(ars(30_000_000.0)), checks));
    assert_eq!(car.quoted, None);
    assert!(
        car.history.iter().all(|week| week.price.is_none()),
        "dollars alone"
    );
    // A dollar check before the window does not count.
    let mut checks = peso_weeks((30_000_000.0, |_| 1_500.0), (27_000_000.0, 1_500.0));
    checks.insert(0, check_at(days_before(200), usd(20_000.0), 1_500.0));
    let car = vehicle(version("old", listed(ars(30_000_000.0)), checks));
    assert_eq!(car.quoted.map(|q| q.currency), Some(Currency::Ars));
}

#[test]
fn a_dollar_quote_costs_its_dollars_at_the_current_rate_in_whole_pesos() {
    // The current observed rate is the newest check's, 1,455.28; the
    // version's own check was at 1,000. 18,000.5 x 1,455.28 = 26,195,767.64.
    let other = version(
        "rate",
        listed(ars(1.0)),
        vec![check_at(hours_before(1), ars(1_000_000.0), 1_455.28)],
    );
    let dollars = version(
        "usd",
        listed(usd(18_000.5)),
        vec![check_at(days_before(3), usd(18_000.5), 1_000.0)],
    );
    let catalogue = compute_catalogue(&snapshot(vec![other, dollars]));
    let car = catalogue
        .vehicles
        .iter()
        .find(|v| v.id == "usd")
        .expect("published");
    assert_eq!(car.price_ars, Some(26_195_768.0));
}
