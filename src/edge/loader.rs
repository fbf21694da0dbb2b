//! Edge stage, loading: the one thread that loads every tree, the first
//! and each reload (the manifest polled every [`RELOAD_POLL`], or at once
//! when asked, on SIGHUP); a broken tree is logged and the current one kept.
//!
//! One long-lived thread rather than a pooled blocking task per load,
//! because glibc gives each new thread a heap arena of its own: with each
//! tree parsed on a fresh thread, a freed tree's memory was never reused and
//! the server grew by a tree's size at every reload under load (found by
//! `bench/soak.sh`). On one thread the trees take turns in the same memory.
//!
//! The thread also drops each replaced tree, as soon as the last request
//! that began before the swap ends: not on a request's thread, where
//! freeing a large tree's many allocations would hold that answer and the
//! ones queued behind it. What it frees goes back to the system (the
//! edge's allocator, `src/bin/edge.rs`).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use anyhow::Context;
use tracing::{error, info};

use crate::edge::state::{AppState, Site};

/// How often a replaced tree is checked for requests still holding it.
const RETIRE_POLL: Duration = Duration::from_millis(5);
/// How long the thread waits for them; then the last of them drops the
/// tree, and the thread goes back to reloading.
const RETIRE_WAIT: Duration = Duration::from_secs(10);

/// A request for a reload now, with where to send its outcome, if anyone
/// waits for it.
type Forced = Option<Sender<Result<(), String>>>;

/// The running loader thread.
#[derive(Debug)]
pub struct Loader {
    force: Sender<Forced>,
}

impl Loader {
    /// Starts the thread on the tree at `root` and waits for it to load (a
    /// blocking call), each tree with a response cache of `cache_bytes`; a
    /// tree that does not load is an error.
    pub fn start(root: PathBuf, cache_bytes: u64) -> anyhow::Result<(AppState, Loader)> {
        let (force, forced) = channel::<Forced>();
        let (ready, loaded) = channel();
        std::thread::Builder::new()
            .name("tree-loader".into())
            .spawn(move || {
                let state = match AppState::load_with(&root, cache_bytes) {
                    Ok(state) => state,
                    Err(err) => {
                        let _ = ready.send(Err(err));
                        return;
                    }
                };
                if ready.send(Ok(state.clone())).is_ok() {
                    keep_loading(&state, &forced);
                }
            })
            .context("starting the tree loader thread")?;
        let state = loaded.recv().context("the tree loader thread stopped")??;
        Ok((state, Loader { force }))
    }

    /// Asks for a reload now (as on SIGHUP); `false` once the thread has
    /// stopped.
    pub fn reload_now(&self) -> bool {
        self.force.send(None).is_ok()
    }

    /// Reloads now and waits for the outcome: the error that kept the
    /// current tree, if the new one was refused. Requests are served in
    /// order, so every reload asked for before this one has been tried.
    pub fn reload_and_wait(&self) -> anyhow::Result<()> {
        let (reply, outcome) = channel();
        self.force
            .send(Some(reply))
            .ok()
            .context("the tree loader thread stopped")?;
        let outcome = outcome.recv().context("the tree loader thread stopped")?;
        outcome.map_err(anyhow::Error::msg)
    }
}

/// The loop of the thread: a reload when asked, else a manifest check at
/// every poll; returns when the [`Loader`] is dropped.
fn keep_loading(state: &AppState, forced: &Receiver<Forced>) {
    loop {
        let (forced, reply) = match forced.recv_timeout(RELOAD_POLL) {
            Ok(reply) => (true, reply),
            Err(RecvTimeoutError::Timeout) => (false, None),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let loading = Instant::now();
        // A panic must not end reloads for the life of the server.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if forced {
                state.replace().map(Some)
            } else {
                state.replace_if_changed()
            }
        }));
        let (replaced, refused) = match outcome {
            Ok(Ok(replaced)) => (replaced, None),
            Ok(Err(err)) => (None, Some(format!("{err:#}"))),
            Err(_) => (None, Some("loading it panicked".to_owned())),
        };
        if replaced.is_some() {
            log_loaded(state);
        }
        if let Some(reason) = &refused {
            error!("keeping the current tree: {reason}");
        }
        if let Some(reply) = reply {
            let _ = reply.send(refused.map_or(Ok(()), Err));
        }
        if let Some(replaced) = replaced {
            retire(replaced, loading.elapsed());
        }
    }
}

/// Drops a replaced tree here once no request holds it, or leaves it to
/// the last one after [`RETIRE_WAIT`]; logs how long the load of its
/// successor took (`loaded`), the wait and the drop, which `bench/soak.sh`
/// reads (under this module's target, without the request log).
fn retire(mut replaced: Arc<Site>, loaded: Duration) {
    let loaded_ms = loaded.as_millis() as u64;
    let started = Instant::now();
    loop {
        match Arc::try_unwrap(replaced) {
            Ok(site) => {
                let waited_ms = started.elapsed().as_millis() as u64;
                let dropping = Instant::now();
                drop(site);
                let dropped_ms = dropping.elapsed().as_millis() as u64;
                info!(loaded_ms, waited_ms, dropped_ms, "previous tree dropped");
                return;
            }
            Err(held) if started.elapsed() < RETIRE_WAIT => {
                replaced = held;
                std::thread::sleep(RETIRE_POLL);
            }
            Err(_) => {
                info!(
                    loaded_ms,
                    "previous tree left to the last request holding it"
                );
                return;
            }
        }
    }
}

/// How often `manifest.json` is checked for a newly generated tree.
pub const RELOAD_POLL: Duration = Duration::from_secs(2);

/// Logs the tree `state` serves (at start and after each reload).
pub fn log_loaded(state: &AppState) {
    let site = state.site();
    let meta = site.index().meta();
    info!(
        root = %state.root().display(),
        vehicles = site.index().len(),
        fixed_answers = site.answers().fixed_len(),
        tree = site.tree(),
        snapshot_at = %meta.snapshot_at,
        "tree loaded"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_that_does_not_load_is_an_error_naming_it() {
        let root = PathBuf::from("/nonexistent/autoprecios-tree");
        let err = Loader::start(root, 1 << 20).expect_err("no tree there");
        assert!(format!("{err:#}").contains("/nonexistent/autoprecios-tree/manifest.json"));
    }
}
