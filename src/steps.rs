//! Generator steps: the logged, timed wrapper every step of `generate`,
//! `check` and `sample` runs in, the progress bar of the long ones, and the
//! logged snapshot load they all start with.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use tracing::info;

use crate::snapshot::{InBrief, Snapshot, load_snapshot_for_signals};

/// Runs `step`, logging its name and elapsed time.
pub fn timed<T>(name: &str, step: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = step();
    info!(elapsed_ms = start.elapsed().as_millis() as u64, "{name}");
    value
}

/// A progress bar for a long step; indicatif draws it only when stderr is a
/// terminal, so logs and CI output stay clean.
pub fn progress(len: usize, message: &'static str) -> indicatif::ProgressBar {
    indicatif::ProgressBar::new(len as u64).with_message(message)
}

/// Loads a snapshot with a logged step and the directory in every error,
/// holding every quote the signals read and of older checks only what they
/// and `controles` read (`load_snapshot_for_signals`), so memory follows the
/// window rather than the length of the history. The older checks' quotes are
/// spilled into `spill`, a month a file, when a caller republishes them.
pub fn load(dir: &Path, spill: Option<&Path>) -> anyhow::Result<Snapshot> {
    timed("load snapshot", || {
        load_snapshot_for_signals(dir, InBrief::MonthsBefore(crate::signals::reach()), spill)
    })
    .with_context(|| format!("invalid snapshot in {}", dir.display()))
}
