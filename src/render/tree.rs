//! Render stage, the tree's life: staged beside its destination, written by
//! the other render stages, then published with the record of its pages, or
//! abandoned; and the run's scratch directory beside it. `generate` lists
//! the steps; render is the one stage that reaches the tree being written
//! (`output`), through this module and the writers of its files.

use std::path::{Path, PathBuf};

use super::site::kept::KeptPages;
use crate::manifest::Manifest;
/// The tree being written, as the render stages take it.
pub use crate::output::TreeWriter;
use crate::output::scratch_for;

/// A tree staged for `destination` (`fail_after`: see
/// [`TreeWriter::create`]; `fresh`: keep nothing of the previous tree).
pub fn stage(
    destination: &Path,
    fail_after: Option<usize>,
    fresh: bool,
) -> anyhow::Result<TreeWriter> {
    TreeWriter::create(destination, fail_after, fresh)
}

/// Publishes `out` at its destination in one step, with the record of its
/// pages written beside its manifest, keeping `keep` earlier trees.
pub fn publish(out: TreeWriter, keep: usize, pages: KeptPages) -> anyhow::Result<Manifest> {
    out.commit_beside(keep, |out| pages.finish(out))
}

/// Removes the staged tree of a run that failed; the published trees are
/// untouched.
pub fn abandon(out: TreeWriter) {
    out.abandon();
}

/// A run's scratch directory beside the tree at a destination (for the
/// quotes the loader leaves out), removed when the run ends, whatever its
/// outcome.
pub struct Scratch(PathBuf);

impl Scratch {
    /// The scratch directory of a run writing the tree at `destination`.
    pub fn beside(destination: &Path) -> Scratch {
        Scratch(scratch_for(destination))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
