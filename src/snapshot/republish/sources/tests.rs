//! A month's sources digest: still when the window's start moves within
//! the month, moved when a version whose checks span the month changes.

use super::*;
use crate::render::datos::months::{Month, of_checks};
use crate::sample::{SampleOptions, generate_sample};
use crate::snapshot::{InBrief, Snapshot, TableFormat, load_snapshot_for_signals, write_snapshot};

fn digests(snapshot: &Snapshot, months: &[Month]) -> Vec<[u8; 32]> {
    let history = HistoryMonths::of(snapshot).expect("months");
    months
        .iter()
        .map(|month| history.sources(&month.range()).expect("sources"))
        .collect()
}

/// A 12-version sample with 400 days of history, written in `dir/data`.
fn written_sample(dir: &Path) -> (std::path::PathBuf, Snapshot) {
    let data = dir.join("data");
    let sample = generate_sample(&SampleOptions {
        versions: 12,
        days: 400,
        ..SampleOptions::default()
    });
    write_snapshot(&sample, &data, TableFormat::Parquet).expect("write");
    (data, sample)
}

/// Where the signals' window begins moves with every catalogue check;
/// within a month it changes no month's digest, since the checks kept
/// in brief end at a month's boundary (`snapshot::load`): a routine
/// run keeps the downloads of the month the window begins in.
#[test]
fn the_window_start_moving_within_a_month_changes_no_digest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, sample) = written_sample(dir.path());
    let t = sample.meta.catalogue_observed_at;
    let month_start = crate::time::month_start(t - crate::signals::reach());
    // Two window starts in the same month, 19.5 days apart.
    let (early, late) = (
        month_start + chrono::Duration::hours(12),
        month_start + chrono::Duration::days(20),
    );
    let load = |start: crate::time::Time, name: &str| {
        load_snapshot_for_signals(
            &data,
            InBrief::MonthsBefore(t - start),
            Some(&dir.path().join(name)),
        )
        .expect("load")
    };
    let (a, b) = (load(early, "a"), load(late, "b"));
    assert!(
        a.versions
            .iter()
            .flat_map(|v| &v.checks)
            .any(|check| { early < check.observed_at && check.observed_at <= late }),
        "a premise: checks between the two starts"
    );
    let months = of_checks(&a);
    assert_eq!(months, of_checks(&b));
    assert!(
        months.iter().any(|month| month.range().contains(&early)),
        "a premise: the month of the window's start is one of the history's"
    );
    assert_eq!(digests(&a, &months), digests(&b, &months));
}

/// A month's digest moves with what the month is built from, and only
/// with that: a version added with checks in the last month alone, or
/// renamed, changes the months its checks span and no other.
#[test]
fn a_months_digest_follows_the_versions_whose_checks_span_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, _) = written_sample(dir.path());
    let scratch = dir.path().join("scratch");
    let snapshot = load_snapshot_for_signals(
        &data,
        InBrief::MonthsBefore(crate::signals::reach()),
        Some(&scratch),
    )
    .expect("load");
    let months = of_checks(&snapshot);
    let before = digests(&snapshot, &months);
    assert_eq!(before, digests(&snapshot, &months), "the same twice");
    let distinct: std::collections::BTreeSet<_> = before.iter().collect();
    assert_eq!(distinct.len(), months.len(), "every month its own");

    // A new version, checked in the last month only.
    let mut added = snapshot.clone();
    let mut new = added.versions[0].clone();
    new.id = "zz-new".into();
    new.earlier.clear();
    let last = months.last().expect("a month");
    new.checks
        .retain(|check| last.range().contains(&check.observed_at));
    assert!(
        !new.checks.is_empty(),
        "a premise: checks in the last month"
    );
    added.versions.push(new);
    let after = digests(&added, &months);
    let n = months.len();
    assert_eq!(
        after[..n - 1],
        before[..n - 1],
        "the closed months keep theirs"
    );
    assert_ne!(after[n - 1], before[n - 1]);

    // A version renamed: the months its checks span, from its first to
    // its last, and no other.
    let mut renamed = snapshot.clone();
    let version = &mut renamed.versions[3];
    version.identity.trim.push_str(" Plus");
    let times = (version.earlier.iter().map(|c| c.observed_at))
        .chain(version.checks.iter().map(|c| c.observed_at));
    let (first, last) = (
        times.clone().min().expect("a check"),
        times.max().expect("a check"),
    );
    let after = digests(&renamed, &months);
    let spanned: Vec<bool> = months
        .iter()
        .map(|month| month.start <= last && first < month.end)
        .collect();
    assert!(
        spanned.iter().any(|s| !s),
        "a premise: a month before its first check"
    );
    for ((month, spanned), (a, b)) in months.iter().zip(&spanned).zip(after.iter().zip(&before)) {
        assert_eq!(a != b, *spanned, "{}", month.label);
    }

    // One field of a held check, the last month's.
    let mut requoted = snapshot.clone();
    let check = requoted.versions[5].checks.last_mut().expect("a check");
    check.in_stock = !check.in_stock;
    let after = digests(&requoted, &months);
    assert_eq!(after[..n - 1], before[..n - 1]);
    assert_ne!(after[n - 1], before[n - 1]);
}
