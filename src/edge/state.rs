//! Edge stage, state: loads a tree that `generate` wrote (`manifest.json`
//! and the edge's data under `_edge/`) into an indexed [`Site`], and swaps
//! a newly generated tree in behind an `Arc` without dropping requests,
//! keeping the old one when the new one is broken.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::SystemTime;

pub mod fragments;
mod site;

pub use site::{QueryPages, Site};

use crate::edge::answers::DEFAULT_CACHE_BYTES;
pub use crate::edge::listing::StaticEntry;
pub use crate::manifest::MANIFEST;

/// The state every handler shares: the current [`Site`], swapped whole on reload.
#[derive(Debug, Clone)]
pub struct AppState {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    root: PathBuf,
    /// Memory budget of each tree's response cache.
    cache_bytes: u64,
    current: RwLock<Arc<Site>>,
    /// Modification time of the manifest last tried, loaded or not, so a
    /// broken tree is reported once rather than at every poll.
    seen: Mutex<Option<(PathBuf, SystemTime)>>,
}

impl AppState {
    /// Loads the tree at `root` with the default cache budget; a missing or
    /// incompatible tree is an error.
    pub fn load(root: &Path) -> anyhow::Result<AppState> {
        AppState::load_with(root, DEFAULT_CACHE_BYTES)
    }

    /// Loads the tree at `root`, each tree with a response cache of
    /// `cache_bytes`.
    pub fn load_with(root: &Path, cache_bytes: u64) -> anyhow::Result<AppState> {
        let seen = manifest_mtime(root);
        let site = Site::load(root, cache_bytes)?;
        let shared = Shared {
            root: root.to_owned(),
            cache_bytes,
            current: RwLock::new(Arc::new(site)),
            seen: Mutex::new(seen),
        };
        Ok(AppState {
            shared: Arc::new(shared),
        })
    }

    /// The current tree. A request holds its `Arc` to the end, so a reload
    /// never changes the data under a response being built.
    pub fn site(&self) -> Arc<Site> {
        Arc::clone(
            &self
                .shared
                .current
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// The directory the tree is loaded from.
    pub fn root(&self) -> &Path {
        &self.shared.root
    }

    /// Loads the tree again and swaps it in; on error the current tree stays.
    pub fn reload(&self) -> anyhow::Result<()> {
        self.replace().map(drop)
    }

    /// Reloads when `manifest.json` changed since the last attempt; returns
    /// whether a new tree was swapped in.
    pub fn reload_if_changed(&self) -> anyhow::Result<bool> {
        Ok(self.replace_if_changed()?.is_some())
    }

    /// [`AppState::reload`], returning the tree it replaced: requests that
    /// began before the swap may still hold it.
    pub fn replace(&self) -> anyhow::Result<Arc<Site>> {
        let seen = manifest_mtime(&self.shared.root);
        *self
            .shared
            .seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = seen;
        let site = Site::load(&self.shared.root, self.shared.cache_bytes)?;
        let mut current = self
            .shared
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        Ok(std::mem::replace(&mut *current, Arc::new(site)))
    }

    /// [`AppState::reload_if_changed`], returning the tree it replaced.
    pub fn replace_if_changed(&self) -> anyhow::Result<Option<Arc<Site>>> {
        let mtime = manifest_mtime(&self.shared.root);
        let changed = mtime.is_some()
            && *self
                .shared
                .seen
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                != mtime;
        if !changed {
            return Ok(None);
        }
        self.replace().map(Some)
    }
}

/// Which tree `root` holds now: its resolved directory and when its
/// manifest was written (a new tree is a new directory; a tree rewritten in
/// place, a new manifest); `None` while there is none, which is never a
/// reason to reload.
fn manifest_mtime(root: &Path) -> Option<(PathBuf, SystemTime)> {
    let resolved = fs::canonicalize(root).ok()?;
    let written = fs::metadata(resolved.join(MANIFEST))
        .and_then(|meta| meta.modified())
        .ok()?;
    Some((resolved, written))
}
