//! Sample stage, consecutive snapshots: the series a sample's options
//! describe, as it was published at an earlier catalogue check. A snapshot
//! cut at one check and the next one cut a check later share every row up
//! to the first, as a real scraper's consecutive snapshots do, so a
//! maintainer can rehearse consecutive publications (and measure what a
//! deploy uploads) on synthetic data.

use anyhow::bail;
use chrono::Duration;

use super::market::SNAPSHOT_LAG_MINUTES;
use crate::snapshot::Snapshot;
use crate::time::{Time, format_time};

/// `snapshot` as published right after its catalogue check at `end`: the
/// checks up to `end`, the catalogue runs seen by then (a run still going
/// ends at `end`), the quote checks captured by `snapshotAt` (40 minutes
/// later), and only the versions listed by then. `end` must be one of the
/// snapshot's catalogue checks; at its last, the snapshot is itself.
pub fn as_of(mut snapshot: Snapshot, end: Time) -> anyhow::Result<Snapshot> {
    if !snapshot.catalogue_checks.contains(&end) {
        let (first, last) = (
            snapshot.catalogue_checks.first(),
            snapshot.catalogue_checks.last(),
        );
        bail!(
            "--end {} is not a catalogue check of this series (five a day, at 11, 14, 17, 20 and 23 UTC, from {} to {})",
            format_time(end),
            first.map_or_else(String::new, |t| format_time(*t)),
            last.map_or_else(String::new, |t| format_time(*t)),
        );
    }
    if snapshot.catalogue_checks.last() == Some(&end) {
        return Ok(snapshot);
    }
    let snapshot_at = end + Duration::minutes(SNAPSHOT_LAG_MINUTES);
    snapshot.catalogue_checks.retain(|at| *at <= end);
    // An index is published after its month: none for the month of `end`.
    let month = crate::month::ArMonth::of(end);
    snapshot.cpi.retain(|row| row.month < month);
    snapshot.versions.retain_mut(|version| {
        version.catalogue.retain(|run| run.first_seen <= end);
        for run in &mut version.catalogue {
            run.last_seen = run.last_seen.min(end);
        }
        version
            .checks
            .retain(|check| check.observed_at <= snapshot_at);
        version
            .earlier
            .retain(|check| check.observed_at <= snapshot_at);
        !version.catalogue.is_empty()
    });
    if let Some(notice) = &mut snapshot.meta.notice {
        notice.push_str(&format!(
            " Published as of its catalogue check at {} (`--end`).",
            format_time(end)
        ));
    }
    snapshot.meta.catalogue_observed_at = end;
    snapshot.meta.snapshot_at = snapshot_at;
    Ok(snapshot)
}
