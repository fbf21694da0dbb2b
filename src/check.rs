//! Check stage: summarises a loaded snapshot and its computed catalogue for a
//! maintainer about to publish (counts, signals per window, history gaps),
//! and warns about empty and partial catalogue checks.

use std::collections::BTreeSet;
use std::fmt;

use chrono::Duration;

use crate::catalogue::{Catalogue, Vehicle};
use crate::signals::history::MAX_AGE_DAYS;
use crate::signals::monitoring::{CheckGap, check_gaps, listed_counts};
use crate::snapshot::Snapshot;
use crate::time::{Time, format_time};
use crate::vocab::{ChangeKind, Window};

/// What `autoprecios check` prints.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    /// `S`.
    pub snapshot_at: Time,
    /// `T`.
    pub catalogue_observed_at: Time,
    /// Whether the snapshot says it is synthetic.
    pub synthetic: bool,
    /// Versions in the snapshot.
    pub versions: usize,
    /// Versions published (in the current catalogue, in stock, quoted).
    pub published: usize,
    /// Distinct published makes.
    pub makes: usize,
    /// Distinct published (make, model) pairs.
    pub models: usize,
    /// Current quotes of published versions.
    pub current_quotes: usize,
    /// Quote rows in the whole history.
    pub quote_rows: usize,
    /// Catalogue checks.
    pub catalogue_checks: usize,
    /// Published versions with official specifications.
    pub with_specs: usize,
    /// Current opportunities.
    pub opportunities: usize,
    /// Price drops per window (1d, 3d, 7d).
    pub price_drops: [usize; 3],
    /// New opportunities per window (1d, 3d, 7d).
    pub new_opportunities: [usize; 3],
    /// Published versions whose history is insufficient for the opportunity rule.
    pub insufficient_history: usize,
    /// Of those, versions whose last quote check is over 45 days before `T`.
    pub stale_history: usize,
    /// Empty and partial catalogue checks, in time order.
    pub gaps: Vec<CheckGap>,
}

/// Age of `snapshotAt` beyond which `check` and `generate` warn: the
/// catalogue is monitored five times a day, so a day without a new capture
/// means the scraper has stopped, and the site would show old prices as
/// today's.
pub const STALE_AFTER_HOURS: i64 = 24;

/// The warning for a snapshot captured more than [`STALE_AFTER_HOURS`]
/// before `now` (the wall clock, given by the caller: nothing published
/// depends on it).
pub fn stale_snapshot(snapshot_at: Time, now: Time) -> Option<String> {
    let age = now - snapshot_at;
    (age > Duration::hours(STALE_AFTER_HOURS)).then(|| {
        format!(
            "snapshotAt {} is {} hours old (over {STALE_AFTER_HOURS}): is the scraper running? the site would show these prices as current",
            format_time(snapshot_at),
            age.num_hours()
        )
    })
}

/// An error when `snapshot_at` is more than `max_hours` before `now`
/// (`check --max-age`): a script that publishes only after `check` passes
/// never publishes a stopped scraper's prices as current.
pub fn too_old(snapshot_at: Time, now: Time, max_hours: f64) -> anyhow::Result<()> {
    let age_hours = (now - snapshot_at).num_seconds() as f64 / 3600.0;
    if !(max_hours.is_finite() && max_hours > 0.0) {
        anyhow::bail!("--max-age must be a positive number of hours, got {max_hours}");
    }
    if age_hours > max_hours {
        anyhow::bail!(
            "stale snapshot: snapshotAt {} is {age_hours:.1} hours old, over --max-age {max_hours}",
            format_time(snapshot_at)
        );
    }
    Ok(())
}

/// Counts what a maintainer checks before publishing.
pub fn check_report(snapshot: &Snapshot, catalogue: &Catalogue) -> CheckReport {
    let vehicles = &catalogue.vehicles;
    let t = catalogue.meta.catalogue_observed_at;
    let per_window = |pick: fn(&Vehicle, Window) -> bool| {
        [Window::D1, Window::D3, Window::D7].map(|window| {
            vehicles
                .iter()
                .filter(|vehicle| pick(vehicle, window))
                .count()
        })
    };
    CheckReport {
        snapshot_at: catalogue.meta.snapshot_at,
        catalogue_observed_at: t,
        synthetic: catalogue.meta.synthetic,
        versions: snapshot.versions.len(),
        published: vehicles.len(),
        makes: vehicles
            .iter()
            .map(|v| v.identity.make.as_str())
            .collect::<BTreeSet<_>>()
            .len(),
        models: vehicles
            .iter()
            .map(|v| (v.identity.make.as_str(), v.identity.model.as_str()))
            .collect::<BTreeSet<_>>()
            .len(),
        current_quotes: vehicles.iter().map(|v| v.quote_count).sum(),
        quote_rows: snapshot
            .versions
            .iter()
            .map(|v| {
                let earlier = v.earlier.iter().map(|c| c.quote_count as usize);
                earlier.sum::<usize>() + v.checks.iter().map(|c| c.quotes.len()).sum::<usize>()
            })
            .sum(),
        catalogue_checks: snapshot.catalogue_checks.len(),
        with_specs: vehicles.iter().filter(|v| v.has_specs()).count(),
        opportunities: vehicles.iter().filter(|v| v.comparison.opportunity).count(),
        price_drops: per_window(|v, w| {
            v.recent_changes
                .get(w)
                .is_some_and(|c| c.kind == ChangeKind::PriceDrop)
        }),
        new_opportunities: per_window(|v, w| v.new_opportunities.get(w).is_some()),
        insufficient_history: vehicles
            .iter()
            .filter(|v| !v.comparison.sufficient_history)
            .count(),
        stale_history: vehicles
            .iter()
            .filter(|v| t - v.observed_at > Duration::days(MAX_AGE_DAYS))
            .count(),
        gaps: check_gaps(&listed_counts(snapshot)),
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let windows =
            |counts: [usize; 3]| format!("1d {}, 3d {}, 7d {}", counts[0], counts[1], counts[2]);
        if self.synthetic {
            writeln!(
                f,
                "note: this snapshot is synthetic (generated data, not market prices)"
            )?;
        }
        writeln!(
            f,
            "snapshot at:             {}",
            format_time(self.snapshot_at)
        )?;
        writeln!(
            f,
            "catalogue observed at:   {}",
            format_time(self.catalogue_observed_at)
        )?;
        writeln!(f, "catalogue checks:        {}", self.catalogue_checks)?;
        writeln!(
            f,
            "versions:                {} ({} published)",
            self.versions, self.published
        )?;
        writeln!(f, "makes:                   {}", self.makes)?;
        writeln!(f, "models:                  {}", self.models)?;
        writeln!(
            f,
            "quotes:                  {} current, {} in history",
            self.current_quotes, self.quote_rows
        )?;
        writeln!(f, "with specifications:     {}", self.with_specs)?;
        writeln!(f, "opportunities:           {}", self.opportunities)?;
        writeln!(f, "price drops:             {}", windows(self.price_drops))?;
        writeln!(
            f,
            "new opportunities:       {}",
            windows(self.new_opportunities)
        )?;
        writeln!(f, "insufficient history:    {}", self.insufficient_history)?;
        write!(
            f,
            "stale history (>{MAX_AGE_DAYS} days): {}",
            self.stale_history
        )?;
        for gap in &self.gaps {
            write!(f, "\nwarning: {gap}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    #[test]
    fn a_snapshot_over_a_day_old_is_stale() {
        let at = |text| parse_time(text).expect("time");
        let snapshot = at("2026-11-21T23:40:00Z");
        assert_eq!(
            stale_snapshot(snapshot, at("2026-11-22T23:40:00Z")),
            None,
            "exactly 24 h"
        );
        let warning = stale_snapshot(snapshot, at("2026-11-22T23:40:01Z")).expect("stale");
        assert!(
            warning.contains("2026-11-21T23:40:00Z") && warning.contains("24 hours old"),
            "{warning}"
        );
        assert!(
            stale_snapshot(snapshot, at("2026-11-25T11:40:00Z"))
                .expect("stale")
                .contains("84 hours")
        );
        assert_eq!(
            stale_snapshot(snapshot, at("2026-11-21T20:00:00Z")),
            None,
            "a clock behind"
        );
    }
}
