//! The subcommands' bodies: each a flat list of logged steps.

use std::path::Path;

use anyhow::Context;

use crate::check::{check_report, stale_snapshot, too_old};
use crate::cli::{Cli, Command, Format};
use crate::generate::{GenerateOptions, generate};
use crate::sample::{SampleOptions, as_of, generate_sample};
use crate::signals::compute_catalogue;
use crate::snapshot::{TableFormat, write_snapshot};
use crate::steps::{load, timed};
use crate::time::Time;

/// Runs one parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Check { dir, max_age } => check(&dir, max_age),
        Command::Generate {
            data,
            out,
            base_url,
            edge_origin,
            keep,
            strict,
            mcp_name,
            fresh,
        } => generate(&GenerateOptions {
            data,
            out,
            base_url,
            edge_origin,
            keep,
            strict,
            mcp_name,
            fresh,
            fail_after: None,
            exits_after: true,
        })
        .map(|_| ()),
        Command::Sample {
            versions,
            days,
            seed,
            horizon,
            end,
            out,
            format,
        } => {
            let options = SampleOptions {
                versions,
                days,
                seed,
                end: horizon,
            };
            let format = match format {
                Format::Parquet => TableFormat::Parquet,
                Format::Csv => TableFormat::Csv,
            };
            sample(&options, end, &out, format)
        }
    }
}

fn check(dir: &Path, max_age_hours: Option<f64>) -> anyhow::Result<()> {
    let snapshot = load(dir, None)?;
    let catalogue = timed("compute signals", || compute_catalogue(&snapshot));
    println!("{}", check_report(&snapshot, &catalogue));
    let now = chrono::Utc::now();
    if let Some(warning) = stale_snapshot(snapshot.meta.snapshot_at, now) {
        tracing::warn!("{warning}");
    }
    if let Some(max) = max_age_hours {
        too_old(snapshot.meta.snapshot_at, now, max)?;
    }
    Ok(())
}

fn sample(
    options: &SampleOptions,
    end: Option<Time>,
    out: &Path,
    format: TableFormat,
) -> anyhow::Result<()> {
    let mut snapshot = timed("generate sample", || generate_sample(options));
    if let Some(end) = end {
        snapshot = as_of(snapshot, end)?;
    }
    timed("write snapshot", || write_snapshot(&snapshot, out, format))
        .with_context(|| format!("writing the sample to {}", out.display()))?;
    println!(
        "wrote {} versions over {} days to {}",
        snapshot.versions.len(),
        options.days,
        out.display()
    );
    Ok(())
}
