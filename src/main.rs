//! `autoprecios`: the command line. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::cli::Cli;

/// jemalloc, returning freed pages within [`DECAY_MS`]. `generate` frees
/// large buffers all along (a month of downloads, a table's frame); glibc's
/// allocator raised its mapping threshold as they were freed and served the
/// next ones from heaps that kept growing, and jemalloc at its default
/// 10 s decay kept them as well. With a short decay the peak follows what
/// is held: lower than glibc's at every catalogue size and history length
/// measured when it was chosen, with less user time (bench/HISTORY.md,
/// "jemalloc in generate").
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Milliseconds a freed page stays with jemalloc before it goes back to the
/// system. Shorter (0) lowered the peak a little more but cost much wall
/// time in page faults; 100 ms faulted many more pages in again in a
/// routine run than 1 s, for a peak only a little lower (bench/HISTORY.md,
/// "Rivals hashed once, freed pages kept a second").
const DECAY_MS: isize = 1000;

fn main() -> ExitCode {
    autoprecios::logging::init();
    return_freed_pages_promptly();
    match autoprecios::run::run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Sets [`DECAY_MS`] for dirty pages (and no wait for "muzzy" ones, whose
/// lazy release would still count as resident) on the arenas that exist
/// and as the default of those the worker threads create later. A failure
/// only costs memory, so it is logged, not fatal.
fn return_freed_pages_promptly() {
    use tikv_jemalloc_ctl::{Access, AsName, arenas};
    let set = |key: String, ms: isize| {
        let key = key + "\0";
        key.as_bytes().name().write(ms)
    };
    let defaults = [("dirty", DECAY_MS), ("muzzy", 0)]
        .into_iter()
        .try_for_each(|(kind, ms)| set(format!("arenas.{kind}_decay_ms"), ms));
    if let Err(err) = defaults {
        tracing::warn!("allocator: decay times not set ({err})");
        return;
    }
    // Arenas not yet initialised refuse the key: they take the defaults.
    for arena in 0..arenas::narenas::read().unwrap_or(0) {
        for (kind, ms) in [("dirty", DECAY_MS), ("muzzy", 0)] {
            let _ = set(format!("arena.{arena}.{kind}_decay_ms"), ms);
        }
    }
}
