//! Command line: the `autoprecios` subcommands and their options (clap derive;
//! the doc comments are the help text).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// New-car dealer prices in Argentina: checks snapshots and builds the static
/// API and site.
#[derive(Debug, Parser)]
#[command(name = "autoprecios", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the static API and site from a snapshot into an output directory.
    Generate {
        /// Snapshot directory.
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// Output directory; replaced only when the new tree is complete.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Origin the site is served from; absolute URLs use it.
        #[arg(long, default_value = crate::generate::DEFAULT_BASE_URL)]
        base_url: String,
        /// Origin of the edge server the CDN proxies parameterised requests to.
        #[arg(long, default_value = crate::generate::DEFAULT_BASE_URL)]
        edge_origin: String,
    },
    /// Validate a snapshot and print what a maintainer checks before publishing.
    Check {
        /// Snapshot directory.
        #[arg(default_value = "data")]
        dir: PathBuf,
    },
    /// Write a deterministic synthetic snapshot (realistic, but invented data).
    Sample {
        /// Number of car versions.
        #[arg(long, default_value_t = 540)]
        versions: usize,
        /// Days of history, ending at the last catalogue check.
        #[arg(long, default_value_t = 400)]
        days: u32,
        /// Random seed: the same seed gives byte-identical files.
        #[arg(long, default_value_t = 20_261_121)]
        seed: u64,
        /// Output directory (created if missing; its snapshot files are replaced).
        #[arg(long, default_value = "data")]
        out: PathBuf,
        /// Table format.
        #[arg(long, value_enum, default_value_t = Format::Parquet)]
        format: Format,
    },
}

/// Table file format for `sample`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Apache Parquet (compact; the bundled snapshot).
    Parquet,
    /// CSV with a header row.
    Csv,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
