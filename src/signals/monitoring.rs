//! Signals stage, monitoring times: reads the catalogue checks and every
//! version's catalogue runs, counts the versions each check lists, and finds
//! the monitoring times (checks that list at least one version) and the
//! checks a maintainer should look at before publishing: empty ones (an
//! outage) and partial ones (far fewer versions than the checks around them).

use std::fmt;

use crate::snapshot::Snapshot;
use crate::time::{Time, format_time};

/// Non-empty checks on each side whose counts a check is compared with: a
/// day of monitoring (five checks) before it and a day after.
pub const NEIGHBOURS: usize = 5;

/// A catalogue check with how many versions it lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedCount {
    /// When the catalogue was read.
    pub at: Time,
    /// Versions listed at it.
    pub listed: usize,
}

/// A catalogue check that deserves a maintainer's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckGap {
    /// It lists no version: an outage, not a monitoring time.
    Empty {
        /// When.
        at: Time,
    },
    /// It lists fewer than half the median count of its neighbours (the
    /// [`NEIGHBOURS`] non-empty checks before it and after it). It stays a
    /// monitoring time: the versions it misses count as not published then.
    Partial {
        /// When.
        at: Time,
        /// Versions it lists.
        listed: usize,
        /// Median count of its neighbours (the mean of the middle two for an
        /// even number of neighbours, rounded down).
        usual: usize,
    },
}

impl fmt::Display for CheckGap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckGap::Empty { at } => write!(
                f,
                "catalogue check {} lists no version: an outage, left out of the monitoring times",
                format_time(*at)
            ),
            CheckGap::Partial { at, listed, usual } => write!(
                f,
                "catalogue check {} lists {listed} versions, under half the {usual} of the checks around it: versions it misses count as not published then",
                format_time(*at)
            ),
        }
    }
}

/// How many versions each catalogue check lists, in check order.
pub fn listed_counts(snapshot: &Snapshot) -> Vec<ListedCount> {
    let checks = &snapshot.catalogue_checks;
    // +1 where a run starts and -1 after it ends, then a running sum.
    let mut steps = vec![0i64; checks.len() + 1];
    for run in snapshot
        .versions
        .iter()
        .flat_map(|version| &version.catalogue)
    {
        let first = checks.partition_point(|at| *at < run.first_seen);
        let end = checks.partition_point(|at| *at <= run.last_seen);
        if first < end {
            steps[first] += 1;
            steps[end] -= 1;
        }
    }
    let mut listed = 0i64;
    checks
        .iter()
        .zip(steps)
        .map(|(at, step)| {
            listed += step;
            ListedCount {
                at: *at,
                listed: usize::try_from(listed).unwrap_or(0),
            }
        })
        .collect()
}

/// The monitoring times: the catalogue checks that list at least one version,
/// ascending. An empty check carries no information, so it is never a time
/// at which a version "was not an opportunity".
pub fn monitoring_times(counts: &[ListedCount]) -> Vec<Time> {
    counts
        .iter()
        .filter(|count| count.listed > 0)
        .map(|count| count.at)
        .collect()
}

/// Every empty and partial check, in time order.
pub fn check_gaps(counts: &[ListedCount]) -> Vec<CheckGap> {
    let listed: Vec<&ListedCount> = counts.iter().filter(|count| count.listed > 0).collect();
    let mut gaps: Vec<CheckGap> = counts
        .iter()
        .filter(|count| count.listed == 0)
        .map(|count| CheckGap::Empty { at: count.at })
        .collect();
    for (index, count) in listed.iter().enumerate() {
        let before = &listed[index.saturating_sub(NEIGHBOURS)..index];
        let after = &listed[index + 1..(index + 1 + NEIGHBOURS).min(listed.len())];
        let mut around: Vec<usize> = before.iter().chain(after).map(|c| c.listed).collect();
        around.sort_unstable();
        let n = around.len();
        if n == 0 {
            continue;
        }
        // listed < median / 2, in integers: 2 x listed < median, and for an
        // even count 4 x listed < the sum of the middle two.
        let (partial, usual) = if n % 2 == 1 {
            (2 * count.listed < around[n / 2], around[n / 2])
        } else {
            let middle = around[n / 2 - 1] + around[n / 2];
            (4 * count.listed < middle, middle / 2)
        };
        if partial {
            gaps.push(CheckGap::Partial {
                at: count.at,
                listed: count.listed,
                usual,
            });
        }
    }
    gaps.sort_by_key(|gap| match gap {
        CheckGap::Empty { at } | CheckGap::Partial { at, .. } => *at,
    });
    gaps
}
