//! Monitoring times and the empty and partial catalogue checks `check` and
//! `generate` warn about.

use chrono::Duration;

use super::*;
use crate::signals::monitoring::{CheckGap, ListedCount, check_gaps, listed_counts};

/// Counts for consecutive checks three hours apart, ending at `T`.
fn counts(listed: &[usize]) -> Vec<ListedCount> {
    let n = i64::try_from(listed.len()).expect("short");
    listed
        .iter()
        .zip(0..)
        .map(|(listed, index)| ListedCount {
            at: hours_before(3 * (n - 1 - index)),
            listed: *listed,
        })
        .collect()
}

#[test]
fn checks_count_the_versions_whose_runs_cover_them() {
    let gap = hours_before(6);
    let gapped = vec![
        CatalogueRun {
            first_seen: days_before(1),
            last_seen: gap - Duration::hours(3),
            price: usd(1.0),
        },
        CatalogueRun {
            first_seen: gap + Duration::hours(3),
            last_seen: t(),
            price: usd(1.0),
        },
    ];
    let mut snap = snapshot(vec![
        version("a", gapped, Vec::new()),
        version("b", listed(usd(1.0)), Vec::new()),
    ]);
    snap.catalogue_checks = (0..=8).rev().map(|k| hours_before(3 * k)).collect();
    let listed: Vec<usize> = listed_counts(&snap).iter().map(|c| c.listed).collect();
    // Checks at T-24h ... T: "a" from T-24h except at T-6h; "b" throughout.
    assert_eq!(listed, [2, 2, 2, 2, 2, 2, 1, 2, 2]);
}

#[test]
fn an_empty_check_is_an_outage_and_not_a_neighbour() {
    let counts = counts(&[100, 100, 0, 100, 100]);
    assert_eq!(
        monitoring::monitoring_times(&counts),
        [12, 9, 3, 0].map(hours_before)
    );
    assert_eq!(
        check_gaps(&counts),
        [CheckGap::Empty {
            at: hours_before(6)
        }]
    );
}

#[test]
fn a_check_under_half_the_median_of_its_neighbours_is_partial() {
    // Neighbours of the middle check: 100, 98, 100, 102 -> median 100 (the
    // mean of 100 and 100). 49 is under half of it, 50 is not.
    let partial = counts(&[100, 98, 49, 100, 102]);
    assert_eq!(
        check_gaps(&partial),
        [CheckGap::Partial {
            at: hours_before(6),
            listed: 49,
            usual: 100
        }]
    );
    assert_eq!(check_gaps(&counts(&[100, 98, 50, 100, 102])), []);
    // Only the five non-empty checks on each side count: twelve checks of 20
    // further back would make the median of all 20, and 45 no gap.
    let mut far = vec![20; 12];
    far.extend([100; 5]);
    far.push(45);
    far.extend([100; 5]);
    let far = counts(&far);
    assert!(check_gaps(&far).contains(&CheckGap::Partial {
        at: far[17].at,
        listed: 45,
        usual: 100
    }));
}

#[test]
fn gaps_read_as_warnings() {
    let empty = CheckGap::Empty { at: t() };
    assert_eq!(
        empty.to_string(),
        "catalogue check 2026-11-20T23:00:00Z lists no version: an outage, left out of the monitoring times"
    );
    let partial = CheckGap::Partial {
        at: t(),
        listed: 49,
        usual: 100,
    };
    assert_eq!(
        partial.to_string(),
        "catalogue check 2026-11-20T23:00:00Z lists 49 versions, under half the 100 of the checks around it: versions it misses count as not published then"
    );
}
