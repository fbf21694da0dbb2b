//! Seeded random small snapshots that crowd the rules' boundaries: cuts of
//! exactly USD 300 and 2 % at awkward rates, dealer prices exactly 5 % under
//! the usual one or a hair either side, catalogue prices on 0.95 x usual,
//! histories spanning exactly 35 days or last checked exactly 45 days ago
//! (and half a second either side), checks on Monday 00:00 Argentine time,
//! quote checks between `T` and `S`, catalogue gaps, empty and partial checks.

use autoprecios::snapshot::{CatalogueRun, Money, QuoteCheck, Snapshot, SnapshotMeta, Version};
use autoprecios::time::Time;
use autoprecios::vocab::Currency;
use chrono::{Datelike, Duration, TimeZone, Utc};

use crate::harness::rng::Rng;
use crate::harness::{bare_quote as quote, bare_version};

const RATES: [f64; 6] = [1000.0, 1250.0, 1400.0, 1407.14, 1437.0, 1450.5];
const USUALS: [f64; 6] = [20_000.0, 20_000.004, 15_000.0, 19_100.0, 8_214.29, 30_000.0];

/// An amount in a currency.
pub fn money(amount: f64, currency: Currency) -> Money {
    Money { amount, currency }
}

fn usd(amount: f64) -> Money {
    money(amount, Currency::Usd)
}

fn ars(amount: f64) -> Money {
    money(amount, Currency::Ars)
}

/// A random snapshot of one to four versions.
pub fn snapshot(rng: &mut Rng) -> Snapshot {
    let t = Utc
        .with_ymd_and_hms(2026, 11, 20, 23, 0, 0)
        .single()
        .expect("valid")
        + Duration::days(rng.below(7) as i64)
        - Duration::hours(*rng.pick(&[0, 3, 9]));
    let days = *rng.pick(&[40, 120, 200]) as i64;
    let per_day: &[i64] = rng.pick::<&[i64]>(&[&[0, 3, 6, 9, 12], &[0, 12], &[0]]);
    let mut checks: Vec<Time> = (0..days)
        .flat_map(|day| {
            per_day
                .iter()
                .map(move |h| t - Duration::days(day) - Duration::hours(*h))
        })
        .collect();
    checks.sort();
    let s = t + Duration::minutes(*rng.pick(&[0, 20, 40]));
    let rate = *rng.pick(&RATES);
    let count = 1 + rng.below(4);
    let mut versions: Vec<Version> = (0..count)
        .map(|index| version(rng, index, &checks, t, s, rate))
        .collect();
    // An outage (every version absent) or a partial check (half absent) in
    // the week before `T`.
    if rng.percent(30) {
        let recent: Vec<Time> = checks
            .iter()
            .copied()
            .filter(|c| *c >= t - Duration::days(7) && *c < t)
            .collect();
        if !recent.is_empty() {
            let hole = *rng.pick(&recent);
            let partial = rng.percent(40);
            for (index, version) in versions.iter_mut().enumerate() {
                if !partial || index % 2 == 0 {
                    version.catalogue = punch(&version.catalogue, hole, &checks);
                }
            }
        }
    }
    Snapshot {
        spilled_in: None,
        cpi: Vec::new(),
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: s,
            catalogue_observed_at: t,
            source: "https://concesionarias.example".into(),
            site_name: "oracle".into(),
            synthetic: true,
            notice: None,
            exchange_rate_source: None,
            data_license: None,
        },
        catalogue_checks: checks,
        versions,
    }
}

/// The runs with `hole` taken out (a check at which the version is absent).
fn punch(runs: &[CatalogueRun], hole: Time, checks: &[Time]) -> Vec<CatalogueRun> {
    let index = checks.partition_point(|c| *c < hole);
    let mut out = Vec::new();
    for run in runs {
        if run.first_seen <= hole && hole <= run.last_seen {
            if run.first_seen < hole {
                out.push(CatalogueRun {
                    last_seen: checks[index - 1],
                    ..*run
                });
            }
            if hole < run.last_seen {
                out.push(CatalogueRun {
                    first_seen: checks[index + 1],
                    ..*run
                });
            }
        } else {
            out.push(*run);
        }
    }
    out
}

fn version(rng: &mut Rng, index: usize, checks: &[Time], t: Time, s: Time, rate: f64) -> Version {
    let usual = *rng.pick(&USUALS);
    let quoted_in_ars = rng.percent(40);
    // A catalogue change at a check of the last eight days, most of the time.
    let recent: Vec<Time> = checks
        .iter()
        .copied()
        .filter(|c| *c > t - Duration::days(8))
        .collect();
    let cut_at = rng.percent(70).then(|| *rng.pick(&recent));
    Version {
        catalogue: catalogue(rng, checks, t, rate, usual, cut_at),
        checks: quote_checks(rng, t, s, rate, usual, quoted_in_ars, cut_at),
        ..bare_version(
            &format!("v{index}"),
            "Make",
            "Model",
            &format!("Trim {index}"),
        )
    }
}

/// The catalogue price at every check (or absent), compressed into runs.
fn catalogue(
    rng: &mut Rng,
    checks: &[Time],
    t: Time,
    rate: f64,
    usual: f64,
    cut_at: Option<Time>,
) -> Vec<CatalogueRun> {
    let in_ars = rng.percent(50);
    let start = if rng.percent(80) {
        checks[0]
    } else {
        t - Duration::days(1 + rng.below(30) as i64)
    };
    let first = if in_ars {
        ars(*rng.pick(&[15_000_000.0, 11_500_000.0, 20_290_000.0, 30_000_000.0]))
    } else {
        // Just over the opportunity line (0.95 x usual) half the time.
        usd(*rng.pick(&[
            19_100.0,
            15_000.0,
            usual,
            usual * 0.955,
            usual * 0.955,
            usual * 0.951,
        ]))
    };
    let mut timeline: Vec<(Time, Money)> = vec![(start, first)];
    if let Some(at) = cut_at {
        let mut cut = cut_price(rng, first, rate, usual);
        // Now and then a rise within the 30 days before the cut, and the
        // cut back to the first price: a drop that returns to it.
        let risen = at - Duration::days(1 + rng.below(25) as i64);
        if risen > start && rng.percent(15) {
            timeline.push((risen, money(first.amount * 1.1, first.currency)));
            cut = first;
        }
        timeline.push((at, cut));
        if rng.percent(20) {
            let later = at + Duration::hours(3 * (1 + rng.below(8) as i64));
            let raised = money(
                cut.amount + *rng.pick(&[1.0, 100.0, 50_000.0]),
                cut.currency,
            );
            timeline.push((later, raised));
        }
    }
    let gap = rng
        .percent(20)
        .then(|| t - Duration::hours(3 * (1 + rng.below(50) as i64)));
    let mut runs: Vec<CatalogueRun> = Vec::new();
    let mut previous_listed = false;
    for check in checks.iter().copied().filter(|c| *c >= start) {
        let absent = gap.is_some_and(|gap| check >= gap && check < gap + Duration::hours(6));
        if absent {
            previous_listed = false;
            continue;
        }
        let price = timeline
            .iter()
            .rfind(|(at, _)| *at <= check)
            .map_or(first, |p| p.1);
        match runs.last_mut() {
            Some(run) if previous_listed && run.price == price => run.last_seen = check,
            _ => runs.push(CatalogueRun {
                first_seen: check,
                last_seen: check,
                price,
            }),
        }
        previous_listed = true;
    }
    runs
}

/// A new catalogue price from `from`, aimed at a boundary.
fn cut_price(rng: &mut Rng, from: Money, rate: f64, usual: f64) -> Money {
    let rate_for = |m: Money| {
        if m.currency == Currency::Ars {
            rate
        } else {
            1.0
        }
    };
    // 300 x 1,407.14 is 422,142 exactly; the float product is rounded back
    // to the cent it must be.
    let exactly_300 = (300.0 * rate_for(from) * 100.0).round() / 100.0;
    match rng.below(8) {
        // Exactly USD 300, or one unit either side.
        0 => money(from.amount - exactly_300, from.currency),
        1 => money(
            from.amount - exactly_300 + *rng.pick(&[-1.0, 1.0, 0.01]),
            from.currency,
        ),
        // Exactly 2 %, in whole units.
        2 => money((from.amount * 0.98).round(), from.currency),
        // On the opportunity threshold 0.95 x usual, or a hair either side.
        3 | 4 => usd(*rng.pick(&[
            usual * 0.95,
            usual * 0.95 - 0.002,
            usual * 0.95 + 0.000_2,
            19_000.002,
            19_000.004,
            19_000.003_8,
        ])),
        // A change of currency.
        5 => match from.currency {
            Currency::Ars => usd((from.amount / rate).round() - 500.0),
            Currency::Usd => ars((from.amount * rate).round() - 500_000.0),
        },
        6 => money(from.amount + 10_000.0, from.currency),
        _ => money((from.amount * 0.9).round(), from.currency),
    }
}

/// Dealer quote checks: a usual level, then a recent level that sits on the
/// 5 % line or a hair either side; spans and ages on their boundaries.
fn quote_checks(
    rng: &mut Rng,
    t: Time,
    s: Time,
    rate: f64,
    usual: f64,
    in_ars: bool,
    cut_at: Option<Time>,
) -> Vec<QuoteCheck> {
    let half = Duration::milliseconds(500);
    let nudge = |rng: &mut Rng| *rng.pick(&[Duration::zero(), Duration::zero(), half, -half]);
    let last = match rng.below(4) {
        0 => t - Duration::days(45) + nudge(rng),
        1 => s - Duration::minutes(*rng.pick(&[0, 10])),
        _ => t - Duration::hours(rng.below(200) as i64),
    };
    let span = Duration::days(*rng.pick(&[20, 35, 60, 170, 185])) + nudge(rng);
    let first = last - span;
    let mut times = vec![first];
    let mut at = first;
    loop {
        at += Duration::days(*rng.pick(&[2, 5, 7, 7, 9])) + Duration::hours(*rng.pick(&[0, 1, 3]));
        if at >= last {
            break;
        }
        // Now and then exactly Monday 00:00 in Argentina (03:00 UTC).
        if rng.percent(15) {
            let date = at.date_naive();
            let monday = date - Duration::days(date.weekday().num_days_from_monday() as i64);
            let monday = Utc.from_utc_datetime(&monday.and_hms_opt(3, 0, 0).expect("time"));
            if monday > first {
                times.push(monday);
            }
        }
        times.push(at);
    }
    times.push(last);
    // A catalogue cut triggers a quote check an hour and a half later, where
    // the dealers often follow it down.
    let triggered = cut_at
        .map(|at| at + Duration::minutes(90))
        .filter(|at| *at > first && *at < s);
    times.extend(triggered);
    times.sort();
    times.dedup();
    let dip_from = match triggered {
        Some(at) if rng.percent(60) => at,
        _ => last - Duration::days(*rng.pick(&[0, 2, 6, 10, 40])),
    };
    let factor = *rng.pick(&[0.95, 0.950_000_1, 0.949_999_9, 0.9, 1.0, 0.96]);
    times
        .into_iter()
        .enumerate()
        .map(|(index, at)| {
            let dealer = if at >= dip_from {
                usual * factor
            } else {
                usual
            };
            let check_rate = if rng.percent(30) { rate + 7.0 } else { rate };
            let price = if in_ars {
                ars((dealer * check_rate).round())
            } else {
                usd(dealer)
            };
            let mut quotes = vec![quote("q1", price)];
            if rng.percent(40) {
                // The same price in the other currency (an exact tie) or more.
                let other = match price.currency {
                    Currency::Usd => ars(price.amount * check_rate),
                    Currency::Ars => usd(price.amount / check_rate),
                };
                quotes.push(quote(
                    "q0",
                    *rng.pick(&[other, money(price.amount + 100.0, price.currency)]),
                ));
            }
            // Freight and paperwork: the second quote includes them, the
            // first does not, but every fifth check the other way round (a
            // dealer that includes them may be the cheaper) and every
            // fourth says nothing. Drawn from the index, not the stream,
            // so the other draws stay as they were.
            for quote in &mut quotes {
                let second = quote.id == "q0";
                quote.fees_included = match index % 20 {
                    i if i % 4 == 3 => None,
                    i if i % 5 == 0 => Some(!second),
                    _ => Some(second),
                };
            }
            quotes.sort_by(|a, b| a.id.cmp(&b.id));
            let empty = index > 0 && rng.percent(3);
            QuoteCheck {
                observed_at: at,
                ars_per_usd: Some(check_rate),
                in_stock: !rng.percent(5),
                quotes: if empty { Vec::new() } else { quotes },
            }
        })
        .collect()
}
