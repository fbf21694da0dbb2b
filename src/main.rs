//! `autoprecios`: the command line. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::cli::Cli;

/// jemalloc, returning freed pages within [`DECAY_MS`]. `generate` frees
/// large buffers all along (a month of downloads, a table's frame); glibc's
/// allocator raised its mapping threshold as they were freed and served the
/// next ones from heaps that kept growing, and jemalloc at its default
/// 10 s decay kept them as well. With a short decay the peak follows what
/// is held: at 3,000 versions with 1,600 days of history 258 to 268 MiB
/// against glibc's 337 to 403 when it was chosen, 1,597 MiB at 30,000
/// versions against 1,756, with less user time (BENCHMARKS.md, "jemalloc
/// in generate").
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Milliseconds a freed page stays with jemalloc before it goes back to the
/// system. Shorter (0) lowered the peak by another 6 % but cost 30 % of wall
/// time in page faults; 100 ms faulted in again, at 30,000 versions, 110,000
/// more pages a routine run than 1 s (861,000 against 751,000), for a peak
/// about 10 MiB lower there and 25 MiB lower on a 3,000-version first run
/// (BENCHMARKS.md, "Rivals hashed once, freed pages kept a second").
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
