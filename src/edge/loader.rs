//! Edge stage, loading: the one thread that loads every tree, the first
//! and each reload (the manifest polled every [`RELOAD_POLL`], or at once
//! when asked, on SIGHUP); a broken tree is logged and the current one kept.
//!
//! One long-lived thread rather than a pooled blocking task per load,
//! because glibc gives each new thread a heap arena of its own: with each
//! tree parsed on a fresh thread, a freed tree's memory was never reused and
//! the server grew by a tree's size at every reload under load (found by
//! `bench/soak.sh`). On one thread the trees take turns in the same memory.

use std::path::PathBuf;
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};

use anyhow::Context;
use tracing::error;

use super::{RELOAD_POLL, log_loaded};
use crate::edge::state::AppState;

/// The running loader thread.
#[derive(Debug)]
pub struct Loader {
    force: Sender<()>,
}

impl Loader {
    /// Starts the thread on the tree at `root` and waits for it to load (a
    /// blocking call), each tree with a response cache of `cache_bytes`; a
    /// tree that does not load is an error.
    pub fn start(root: PathBuf, cache_bytes: u64) -> anyhow::Result<(AppState, Loader)> {
        let (force, forced) = channel::<()>();
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

    /// Asks for a reload now; `false` once the thread has stopped.
    pub fn reload_now(&self) -> bool {
        self.force.send(()).is_ok()
    }
}

/// The loop of the thread: a reload when asked, else a manifest check at
/// every poll; returns when the [`Loader`] is dropped.
fn keep_loading(state: &AppState, forced: &std::sync::mpsc::Receiver<()>) {
    loop {
        let forced = match forced.recv_timeout(RELOAD_POLL) {
            Ok(()) => true,
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        // A panic must not end reloads for the life of the server.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if forced {
                state.reload().map(|()| true)
            } else {
                state.reload_if_changed()
            }
        }));
        match outcome {
            Ok(Ok(true)) => log_loaded(state),
            Ok(Ok(false)) => {}
            Ok(Err(err)) => error!("keeping the current tree: {err:#}"),
            Err(_) => error!("keeping the current tree: loading it panicked"),
        }
    }
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
