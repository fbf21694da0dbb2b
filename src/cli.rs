//! Command line: the `autoprecios` subcommands and their options (clap derive;
//! the doc comments are the help text).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::time::Time;

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
        /// Trees kept besides the new one in `<out>.trees/` for rollback and
        /// for an edge that has not reloaded yet (the tree `<out>` pointed to
        /// is always kept).
        #[arg(long, value_name = "N", default_value_t = crate::output::DEFAULT_KEEP)]
        keep: usize,
        /// Refuse, rather than warn about, a configuration that cannot be
        /// what a public site wants (a loopback `--edge-origin` with a
        /// public `--base-url`; a public site's `/server.json` the MCP
        /// Registry would refuse).
        #[arg(long)]
        strict: bool,
        /// The MCP Registry name of `/server.json` (`io.github.<owner>/<name>`,
        /// or the reverse-DNS of a domain you prove; see docs/deploy.md);
        /// without it, the reverse-DNS of `--base-url`'s host.
        #[arg(long, value_name = "NAME")]
        mcp_name: Option<String>,
        /// Encode every data download and render every page again rather
        /// than keep the previous tree's files of a part whose rows are
        /// unchanged (a closed month) or of a page rendered from the same
        /// values, and compute every month of the market report rather
        /// than keep its final months. The bytes are the same either way.
        #[arg(long)]
        fresh: bool,
    },
    /// Validate a snapshot and print what a maintainer checks before publishing.
    Check {
        /// Snapshot directory.
        #[arg(default_value = "data")]
        dir: PathBuf,
        /// Fail (exit 1) when `snapshotAt` is more than this many hours old:
        /// a scraper that stopped must not be published as current.
        #[arg(long, value_name = "HOURS")]
        max_age: Option<f64>,
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
        /// The series' last catalogue check (RFC 3339, a 23:00 UTC check);
        /// `--days` count back from it.
        #[arg(long, default_value = "2026-11-21T23:00:00Z", value_parser = parse_time_arg)]
        horizon: Time,
        /// Publish the series as of this earlier catalogue check (RFC 3339,
        /// one of the five daily checks at 11, 14, 17, 20 and 23 UTC): the
        /// same options with a later `--end` give the next snapshot of the
        /// same series, keeping every earlier row. Default: the horizon.
        #[arg(long, value_parser = parse_time_arg)]
        end: Option<Time>,
        /// Output directory (created if missing; its snapshot files are replaced).
        #[arg(long, default_value = "data")]
        out: PathBuf,
        /// Table format.
        #[arg(long, value_enum, default_value_t = Format::Parquet)]
        format: Format,
    },
}

/// A time argument in RFC 3339.
fn parse_time_arg(text: &str) -> Result<Time, String> {
    crate::time::parse_time(text).ok_or_else(|| format!("{text:?} is not an RFC 3339 time"))
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
