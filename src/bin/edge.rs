//! `autoprecios-edge`: the HTTP server. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::edge::{Args, run};

/// jemalloc, with its background thread: a replaced tree's memory goes
/// back to the system within seconds of its drop (its pages decay over
/// 10 s). glibc's allocator kept it: at 28,937 versions, 225 MiB after the
/// first load and 478 MiB after four reloads; its `malloc_trim` (called
/// from a debugger) brought that back to 226, so nothing still held the
/// old tree. With jemalloc the same four reloads stay at 220 to 221 MiB.
/// mimalloc kept it too (626 MiB): the thread that freed the tree then
/// sleeps, and mimalloc purges on a thread's later allocations.
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
