//! `autoprecios`: the command line. Parses, runs, prints the error chain once.

use std::process::ExitCode;

use clap::Parser;

use autoprecios::cli::Cli;

fn main() -> ExitCode {
    autoprecios::logging::init();
    match autoprecios::run::run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
