//! The report's rules at their boundaries, each against a hand computation.

use super::dealers::{Side, compare};
use super::index::{MIN_MATCHED, chain, jevons};
use super::prices::{MonthlyPrice, Point, monthly_prices};
use crate::month::ArMonth;
use crate::snapshot::{Identity, Money};
use crate::time::{Time, parse_time};
use crate::vocab::Currency;

fn time(text: &str) -> Time {
    parse_time(text).expect("time")
}

fn month(text: &str) -> ArMonth {
    ArMonth::parse(text).expect("month")
}

/// A check at midnight, Argentine time, of `day` (`2026-09-16`).
fn ars(day: &str, pesos: f64) -> Point {
    Point {
        at: time(&format!("{day}T00:00:00-03:00")),
        usd: pesos / 1000.0,
        ars: Some(pesos),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6 * b.abs().max(1.0)
}

/// The methodology's worked example: A, B and C over September and October.
#[test]
fn the_methodology_example_by_hand() {
    let months = [month("2026-09"), month("2026-10")];
    let end = time("2026-11-20T12:00:00Z");
    let a = monthly_prices(
        &[ars("2026-09-01", 10e6), ars("2026-10-01", 11e6)],
        &months,
        end,
    );
    let b = monthly_prices(
        &[ars("2026-09-16", 20e6), ars("2026-10-16", 19e6)],
        &months,
        end,
    );
    let c = monthly_prices(
        &[ars("2026-09-01", 30e6), ars("2026-09-11", 33e6)],
        &months,
        end,
    );
    let pesos = |prices: &[MonthlyPrice]| prices.iter().map(|p| p.ars).collect::<Vec<_>>();
    assert_eq!(pesos(&a), [Some(10e6), Some(11e6)]);
    // B is first seen mid-September: only the time since counts.
    assert_eq!(pesos(&b)[0], Some(20e6));
    // October: 15 days at the price carried from September, 16 at the new.
    let b_october = (15.0 * 20e6 + 16.0 * 19e6) / 31.0;
    assert!(close(pesos(&b)[1].expect("priced"), b_october));
    assert!(close(pesos(&c)[0].expect("priced"), 32e6));
    // No check in October: no October price, however long 33M was in effect.
    assert_eq!(pesos(&c)[1], None);
    let pairs = [&a, &b, &c]
        .into_iter()
        .filter_map(|p| Some((p[0].ars?, p[1].ars?)));
    let link = jevons(pairs);
    assert_eq!(link.n, 2);
    // Two matched versions are under the minimum: no number.
    assert_eq!(link.relative, None);
    let geometric = ((11.0 / 10.0) * (b_october / 20e6)).sqrt();
    assert!(close(geometric, 1.035_187_375_9));
    assert_eq!(format!("{:.2}", (geometric - 1.0) * 100.0), "3.52");
}

#[test]
fn four_matched_versions_publish_nothing_and_five_do() {
    let pairs = |n: usize| (0..n).map(|k| (100.0, 100.0 + k as f64));
    assert_eq!(jevons(pairs(MIN_MATCHED - 1)).relative, None);
    assert_eq!(jevons(pairs(MIN_MATCHED - 1)).n, 4);
    // 100, 101, 102, 103, 104 over 100: the fifth root of their product.
    let expected = (1.00_f64 * 1.01 * 1.02 * 1.03 * 1.04).powf(1.0 / 5.0);
    let link = jevons(pairs(MIN_MATCHED));
    assert_eq!(link.n, 5);
    assert!(close(link.relative.expect("five"), expected));
}

#[test]
fn a_check_before_the_boundary_carries_its_price_into_the_month() {
    // 20/09 at 100, 25/10 at 200 (Argentine time): October holds 24 days
    // of 100 and 7 of 200.
    let points = [ars("2026-09-20", 100.0), ars("2026-10-25", 200.0)];
    let october = monthly_prices(&points, &[month("2026-10")], time("2026-12-01T00:00:00Z"));
    let expected = (24.0 * 100.0 + 7.0 * 200.0) / 31.0;
    assert!(close(october[0].ars.expect("priced"), expected));
    // A check at 23:59 on the 31st, Argentine time, is October's, though
    // it is November in UTC.
    let late = Point {
        at: time("2026-10-31T23:59:00-03:00"),
        usd: 1.0,
        ars: Some(1.0),
    };
    let prices = monthly_prices(
        &[late],
        &[month("2026-10"), month("2026-11")],
        time("2026-11-01T03:00:00Z"),
    );
    assert_eq!(prices[0].ars, Some(1.0));
    assert_eq!(prices[1].ars, None);
}

#[test]
fn the_month_in_progress_ends_at_the_snapshot_and_a_lone_check_at_it_counts() {
    let end = time("2026-11-11T03:00:00Z");
    let points = [ars("2026-10-01", 100.0), ars("2026-11-06", 300.0)];
    // November until S: 5 days at 100, 5 at 300.
    let november = monthly_prices(&points, &[month("2026-11")], end);
    assert!(close(november[0].ars.expect("priced"), 200.0));
    // A version whose only check is exactly at S.
    let lone = [Point {
        at: end,
        usd: 7.0,
        ars: Some(7000.0),
    }];
    assert_eq!(
        monthly_prices(&lone, &[month("2026-11")], end)[0],
        MonthlyPrice {
            ars: Some(7000.0),
            usd: Some(7.0)
        }
    );
}

#[test]
fn a_currency_switch_inside_a_month_leaves_the_unpriced_span_out_of_the_pesos() {
    // 01/10 quoted in pesos (100 pesos, 0.1 USD); 11/10 in dollars without
    // a rate (no peso price); 21/10 in pesos again (300, 0.3 USD).
    let mut points = [
        ars("2026-10-01", 100.0),
        ars("2026-10-11", 0.0),
        ars("2026-10-21", 300.0),
    ];
    points[1].ars = None;
    points[1].usd = 0.2;
    let october = monthly_prices(&points, &[month("2026-10")], time("2027-01-01T00:00:00Z"));
    // Pesos: 10 days at 100 and 11 at 300; the 10 days in dollars do not count.
    assert!(close(
        october[0].ars.expect("priced"),
        (10.0 * 100.0 + 11.0 * 300.0) / 21.0
    ));
    // Dollars: every day counts.
    assert!(close(
        october[0].usd.expect("priced"),
        (10.0 * 0.1 + 10.0 * 0.2 + 11.0 * 0.3) / 31.0
    ));
}

#[test]
fn a_quote_exactly_half_a_percent_under_the_catalogue_is_below() {
    let pesos = |amount| Money {
        amount,
        currency: Currency::Ars,
    };
    let dollars = |amount| Money {
        amount,
        currency: Currency::Usd,
    };
    let side = |quote, listed, rate| compare(quote, listed, rate).map(|(side, _)| side);
    assert_eq!(
        side(pesos(19_900_000.0), pesos(20_000_000.0), None),
        Some(Side::Below)
    );
    assert_eq!(
        side(pesos(19_900_001.0), pesos(20_000_000.0), None),
        Some(Side::At)
    );
    assert_eq!(
        side(pesos(20_100_000.0), pesos(20_000_000.0), None),
        Some(Side::Above)
    );
    assert_eq!(
        side(pesos(20_099_999.0), pesos(20_000_000.0), None),
        Some(Side::At)
    );
    // Across currencies, in dollars at the check's rate: 19.9M pesos at
    // 1,000 is USD 19,900, exactly 0.5 % under USD 20,000.
    assert_eq!(
        side(pesos(19_900_000.0), dollars(20_000.0), Some(1000.0)),
        Some(Side::Below)
    );
    assert_eq!(side(pesos(19_900_000.0), dollars(20_000.0), None), None);
    let (_, gap) = compare(pesos(19_900_000.0), pesos(20_000_000.0), None).expect("compared");
    assert!(close(gap, -0.5));
}

#[test]
fn year_to_date_chains_from_december_and_twelve_months_need_twelve_links() {
    let months = ArMonth::span(month("2025-11"), month("2027-01"));
    // Every month +1 %, but no link into February 2026.
    let relatives: Vec<Option<f64>> = months
        .iter()
        .enumerate()
        .map(|(i, m)| (i > 0 && m.label() != "2026-02").then_some(1.01))
        .collect();
    let figures = chain(&months, &relatives);
    let at = |label: &str| figures[months.iter().position(|m| m.label() == label).expect("m")];
    assert_eq!(at("2025-11").level, Some(100.0));
    assert!(close(at("2025-12").level.expect("level"), 101.0));
    // November 2025 has no December before it in the snapshot.
    assert_eq!(at("2025-11").ytd_pct, None);
    // December chains from the December before it: not covered.
    assert_eq!(at("2025-12").ytd_pct, None);
    // January 2026 is its own change.
    assert!(close(at("2026-01").ytd_pct.expect("ytd"), 1.0));
    // The missing February link: no level from then, no 2026 change to date.
    assert_eq!(at("2026-02").level, None);
    assert_eq!(at("2026-12").level, None);
    assert_eq!(at("2026-12").ytd_pct, None);
    // January 2027 chains from December 2026 again.
    assert!(close(at("2027-01").ytd_pct.expect("ytd"), 1.0));
    // Twelve links back from January 2027 cross February 2026: none.
    assert_eq!(at("2027-01").yoy_pct, None);
    // Without the hole, twelve links of 1 % after the first month.
    let whole: Vec<Option<f64>> = (0..months.len()).map(|i| (i > 0).then_some(1.01)).collect();
    let figures = chain(&months, &whole);
    assert_eq!(figures[11].yoy_pct, None, "eleven links only");
    assert!(close(
        figures[12].yoy_pct.expect("yoy"),
        (1.01_f64.powi(12) - 1.0) * 100.0
    ));
}

#[test]
fn the_headline_says_each_number_it_has_and_nothing_of_the_others() {
    use super::headline::headline;
    use crate::api::types::report::ReportStatus;
    let october = month("2026-10");
    let at = time("2026-10-31T23:00:00Z");
    let text = |ars, usd, dollar, cpi| {
        headline(october, ReportStatus::Final, at, ars, usd, dollar, cpi).text
    };
    assert_eq!(
        text(Some(3.12), Some(-0.44), Some(3.5), None),
        "En octubre de 2026 los precios de los 0 km en concesionarias subieron 3,1 % en pesos y bajaron 0,4 % en dólares; el dólar de referencia subió 3,5 %."
    );
    assert_eq!(
        text(Some(0.04), None, None, Some(2.06)),
        "En octubre de 2026 los precios de los 0 km en concesionarias no cambiaron en pesos; los precios al consumidor (IPC) subieron 2,1 %."
    );
    let provisional = headline(
        october,
        ReportStatus::Provisional,
        at,
        None,
        None,
        Some(-1.0),
        None,
    )
    .text;
    assert_eq!(
        provisional,
        "En octubre de 2026 (en curso, datos al 31/10/2026 20:00) no hay datos suficientes para comparar los precios de los 0 km con el mes anterior; el dólar de referencia bajó 1,0 %."
    );
}

#[test]
fn the_cheapest_are_those_published_at_the_months_last_check_and_a_tie_goes_to_the_lower_id() {
    use crate::api::links::Links;
    use crate::snapshot::republish::HistoryMonths;
    use crate::snapshot::{CatalogueRun, QuoteCheck, Snapshot, SnapshotMeta, SourceQuote, Version};
    let t = time("2026-10-31T23:00:00Z");
    let pesos = |amount| Money {
        amount,
        currency: Currency::Ars,
    };
    let run = |until: Time| CatalogueRun {
        first_seen: time("2026-10-01T14:00:00Z"),
        last_seen: until,
        price: pesos(25_000_000.0),
    };
    let check = |at: &str, amount: f64, in_stock: bool| QuoteCheck {
        observed_at: time(at),
        ars_per_usd: Some(1000.0),
        in_stock,
        quotes: vec![SourceQuote {
            id: "q1".into(),
            price: pesos(amount),
            fees_included: Some(true),
            color: None,
            stock: None,
            location: Some("Córdoba".into()),
            seller_id: Some("d1".into()),
        }],
    };
    let version = |id: &str, until: Time, checks: Vec<QuoteCheck>| Version {
        identity: Identity {
            body_type: Some(crate::vocab::BodyType::Sedan),
            source_url: "https://concesionarias.example/v".into(),
            ..Identity::named("Fiat", "Cronos", id)
        },
        catalogue: vec![run(until)],
        checks,
        ..Version::bare(id, "Fiat", "Cronos", id)
    };
    let snapshot = Snapshot {
        meta: SnapshotMeta {
            format_version: 1,
            snapshot_at: time("2026-11-04T23:40:00Z"),
            catalogue_observed_at: time("2026-11-04T23:00:00Z"),
            source: "https://concesionarias.example".into(),
            site_name: "Concesionarias".into(),
            synthetic: true,
            notice: None,
            exchange_rate_source: None,
            data_license: None,
        },
        catalogue_checks: vec![t, time("2026-11-04T23:00:00Z")],
        versions: vec![
            version("a-tie", t, vec![check("2026-10-10T12:00:00Z", 20e6, true)]),
            version("b-tie", t, vec![check("2026-10-12T12:00:00Z", 20e6, true)]),
            // Cheaper, but its latest check found no stock.
            version(
                "c-no-stock",
                t,
                vec![check("2026-10-20T12:00:00Z", 10e6, false)],
            ),
            // Cheaper, but no longer listed at the month's last check.
            version(
                "d-unlisted",
                time("2026-10-30T23:00:00Z"),
                vec![check("2026-10-20T12:00:00Z", 9e6, true)],
            ),
            // Cheaper after the check: at it, the month knew 30M.
            version(
                "e-later",
                t,
                vec![
                    check("2026-10-10T12:00:00Z", 30e6, true),
                    check("2026-10-31T23:30:00Z", 1e6, true),
                ],
            ),
        ],
        spilled_in: None,
        cpi: Vec::new(),
    };
    let history = HistoryMonths::of(&snapshot).expect("no spill");
    let links = Links::new("https://autoprecios.example", std::iter::empty());
    let reports = super::compute_market(&snapshot, &history, &links, None)
        .expect("computed")
        .reports;
    let october = reports
        .iter()
        .find(|m| m.month.label() == "2026-10")
        .expect("october");
    let ids: Vec<&str> = october
        .report
        .cheapest
        .iter()
        .map(|item| item.id.as_str())
        .collect();
    assert_eq!(ids, ["a-tie", "b-tie", "e-later"]);
    assert_eq!(october.report.cheapest[2].price_ars, 30e6);
    assert_eq!(october.report.cheapest_by_type["Sedan"].id, "a-tie");
    assert_eq!(october.report.as_of, t);
}
