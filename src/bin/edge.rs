//! `autoprecios-edge`: the HTTP server. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::edge::{Args, run};

/// jemalloc, with its background thread: a replaced tree's memory goes
/// back to the system within seconds of its drop (its pages decay over
/// 10 s). glibc's allocator kept it: after a reload the server held about
/// two trees for good; its `malloc_trim` (called from a debugger) brought
/// that back to one, so nothing still held the old tree. With jemalloc the
/// same reloads stay at one tree (BENCHMARKS.md, "Memory across reloads").
/// mimalloc kept it too: the thread that freed the tree then sleeps, and
/// mimalloc purges on a thread's later allocations.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> ExitCode {
    autoprecios::logging::init();
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
