//! Sample stage tests, deliberate cases: the signal engine reads each case
//! the way `src/sample/cases.rs` documents, and each case has the shape in
//! the snapshot that makes it what it is.

use autoprecios::catalogue::{Catalogue, Vehicle};
use autoprecios::sample::{CASES, Case, generate_sample};
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::Snapshot;
use autoprecios::time::Time;
use autoprecios::vocab::{ChangeKind, Currency, Reason, Window};
use chrono::Duration;

use super::{bundled, case_id, small_options, version};

#[test]
fn every_case_triggers_its_signal_at_the_bundled_size() {
    let (snapshot, catalogue) = bundled();
    assert_cases(snapshot, catalogue);
}

#[test]
fn every_case_triggers_its_signal_at_a_small_size() {
    let snapshot = generate_sample(&small_options());
    assert_eq!(snapshot.versions.len(), 60);
    assert_cases(&snapshot, &compute_catalogue(&snapshot));
}

const DROP: Option<ChangeKind> = Some(ChangeKind::PriceDrop);
const NEW: Option<ChangeKind> = Some(ChangeKind::NewOpportunity);

/// What the signals must say about a case: published or not, the kind of
/// recent change in 1d, 3d and 7d, and the opportunity flag (`None`: either).
struct Expected {
    published: bool,
    kinds: [Option<ChangeKind>; 3],
    opportunity: Option<bool>,
}

fn expected(case: Case) -> Expected {
    let (published, kinds, opportunity) = match case {
        Case::Opportunity | Case::OpportunityUsd | Case::DollarUp | Case::PesoCut => {
            (true, [None; 3], Some(true))
        }
        Case::Drop1d => (true, [DROP, DROP, DROP], None),
        Case::Drop3d | Case::CrossingDrop => (true, [None, DROP, DROP], Some(true)),
        Case::Drop7d | Case::CurrencyDrop => (true, [None, None, DROP], Some(false)),
        Case::NewBySpan => (true, [None, NEW, NEW], Some(true)),
        Case::NewByWeeks => (true, [NEW, NEW, NEW], Some(true)),
        Case::Insufficient | Case::Stale => (true, [None; 3], Some(false)),
        Case::CheapDrop | Case::DropReversed | Case::CatalogueGap => (true, [None; 3], Some(false)),
        Case::CaseBase | Case::CaseSibling => (true, [None; 3], Some(false)),
        Case::LeftCatalogue | Case::OutOfStock | Case::Unchecked => (false, [None; 3], None),
    };
    Expected {
        published,
        kinds,
        opportunity,
    }
}

fn kinds(vehicle: &Vehicle) -> [Option<ChangeKind>; 3] {
    [Window::D1, Window::D3, Window::D7].map(|w| vehicle.recent_changes.get(w).map(|c| c.kind))
}

fn assert_cases(snapshot: &Snapshot, catalogue: &Catalogue) {
    for &(case, id) in CASES {
        let expected = expected(case);
        let vehicle = catalogue.vehicles.iter().find(|v| v.id == id);
        assert_eq!(
            vehicle.is_some(),
            expected.published,
            "{id}: published or not"
        );
        let Some(v) = vehicle else { continue };
        let context = format!(
            "{id}: {:?} {:?} {:?}",
            v.comparison, v.recent_changes, v.reasons
        );
        assert_eq!(kinds(v), expected.kinds, "{context}");
        if let Some(opportunity) = expected.opportunity {
            assert_eq!(v.comparison.opportunity, opportunity, "{context}");
        }
        assert_details(snapshot, case, v, &context);
    }
    assert_case_structure(snapshot);
}

/// The check at `hour` UTC on the day `days` days before `T`'s day (the
/// samples here end at 23:00 UTC).
fn at(snapshot: &Snapshot, days: i64, hour: i64) -> Time {
    snapshot.meta.catalogue_observed_at - Duration::days(days) - Duration::hours(23 - hour)
}

/// Times, percentages and currencies of the cases that promise them.
fn assert_details(snapshot: &Snapshot, case: Case, v: &Vehicle, context: &str) {
    let change = |w: Window| v.recent_changes.get(w).expect("a change in the window");
    match case {
        Case::Opportunity | Case::OpportunityUsd => {
            assert_eq!(v.reasons, [Reason::BelowTypical], "{context}");
        }
        Case::Drop1d => assert_eq!(change(Window::D1).changed_at, Some(at(snapshot, 0, 17))),
        Case::Drop3d => assert_eq!(change(Window::D3).changed_at, Some(at(snapshot, 2, 23))),
        Case::CrossingDrop => {
            let pct = change(Window::D3).drop_pct.unwrap_or(0.0);
            assert!(pct > 0.0 && pct < 2.0, "{context}");
        }
        Case::CurrencyDrop => {
            let currencies: Vec<Currency> = version(snapshot, &v.id)
                .catalogue
                .iter()
                .map(|r| r.price.currency)
                .collect();
            assert_eq!(currencies.last(), Some(&Currency::Usd), "{context}");
            assert!(currencies.contains(&Currency::Ars), "{context}");
        }
        Case::NewBySpan => {
            let change = change(Window::D3);
            let since = Some(at(snapshot, 2, 17));
            assert_eq!(
                (change.changed_at, change.qualified_since),
                (None, since),
                "{context}"
            );
        }
        Case::NewByWeeks => {
            let change = change(Window::D1);
            let since = Some(at(snapshot, 0, 20));
            assert_eq!(
                (change.changed_at, change.qualified_since),
                (None, since),
                "{context}"
            );
        }
        Case::Insufficient | Case::Stale => {
            let comparison = &v.comparison;
            assert!(
                !comparison.sufficient_history && comparison.discount_pct.is_none(),
                "{context}"
            );
        }
        _ => {}
    }
}

/// What each case looks like in the snapshot itself.
fn assert_case_structure(snapshot: &Snapshot) {
    let t = snapshot.meta.catalogue_observed_at;
    let v = |case| version(snapshot, case_id(case));
    let last_run_end = |case| v(case).catalogue.last().map(|run| run.last_seen);

    assert!(
        last_run_end(Case::LeftCatalogue).is_some_and(|end| end < t),
        "left before T"
    );
    assert!(
        v(Case::LeftCatalogue)
            .checks
            .last()
            .is_some_and(|check| check.in_stock)
    );

    assert_eq!(last_run_end(Case::Stale), Some(t));
    let stale = v(Case::Stale).checks.last().expect("checked");
    assert!(stale.in_stock && stale.observed_at < t - Duration::days(45));

    let out = v(Case::OutOfStock).checks.last().expect("checked");
    assert!(!out.in_stock && out.quotes.is_empty());
    assert_eq!(last_run_end(Case::OutOfStock), Some(t));

    let unchecked = v(Case::Unchecked);
    assert!(unchecked.checks.is_empty() && unchecked.catalogue.len() == 1);
    assert_eq!(unchecked.catalogue[0].first_seen, t);

    let gap = &v(Case::CatalogueGap).catalogue;
    let same_price_gaps = gap
        .windows(2)
        .filter(|pair| pair[0].price == pair[1].price)
        .count();
    assert!(
        same_price_gaps >= 1,
        "a gap with the same price on both sides"
    );

    let launched = v(Case::Insufficient)
        .catalogue
        .first()
        .map(|run| run.first_seen);
    assert!(
        launched.is_some_and(|first| first > t - Duration::days(35)),
        "a recent launch"
    );

    let usd = v(Case::OpportunityUsd).checks.last().expect("checked");
    assert!(usd.quotes.iter().all(|q| q.price.currency == Currency::Usd));
}
