//! `autoprecios-edge`: the HTTP server. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::edge::{Args, run};

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
