//! Generate stage: the flat, logged list of steps from a snapshot directory to
//! a complete static tree (API responses, docs, OpenAPI, CDN rules, data
//! downloads, the website), written beside the destination and swapped in
//! only when complete.

mod api;
mod options;

pub use options::{DEFAULT_BASE_URL, GenerateOptions};

use api::signals_and_api;
use options::{check_origins, check_registry_entry};

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use tracing::{info, warn};

use crate::api::Index;
use crate::api::links;
use crate::catalogue::Catalogue;
use crate::check::stale_snapshot;
use crate::manifest::Manifest;
use crate::market;
use crate::render::api::write_edge_index;
use crate::render::datos::OwnDownloads;
use crate::render::datos::reuse::Reuse;
use crate::render::datos::{
    datos_sitemap_entry, write_own_tables, write_package, write_snapshot_downloads,
};
use crate::render::informes::{self, write_reports};
use crate::render::site::kept::KeptPages;
use crate::render::site::{Site, write_site};
use crate::render::sqlite::write_sqlite;
use crate::render::tree::{self, Scratch, TreeWriter};
use crate::signals::monitoring::{check_gaps, listed_counts};
use crate::snapshot::Snapshot;
use crate::snapshot::republish::HistoryMonths;
use crate::steps::{load, timed};

/// Builds the whole tree and swaps it in; returns its manifest. The steps,
/// in order, each a function below (those that take time log it): check
/// the options, load the snapshot, write the tree beside the destination
/// (`write_tree`), swap it in (`swap_in`).
pub fn generate(options: &GenerateOptions) -> anyhow::Result<Manifest> {
    check_origins(options)?;
    check_registry_entry(options)?;
    // The quotes the loader leaves out, for /datos, beside the tree (removed
    // when this run ends, whatever its outcome).
    let scratch = Scratch::beside(&options.out);
    let snapshot = load(&options.data, Some(scratch.path()))?;
    if let Some(warning) = stale_snapshot(snapshot.meta.snapshot_at, chrono::Utc::now()) {
        warn!("{warning}");
    }
    let out = tree::stage(&options.out, options.fail_after, options.fresh)?;
    let (computed, pages) = match write_tree(options, &snapshot, &out) {
        Ok(written) => written,
        Err(err) => {
            tree::abandon(out);
            return Err(err);
        }
    };
    swap_in(options, out, pages, (snapshot, computed), scratch)
}

/// Publishes the written tree in one step (`render::tree::publish`) with
/// the record of its pages. Freeing the snapshot and the catalogue (millions of
/// small allocations) takes a core for a while: beside the publication, or
/// not at all when the process exits next; so does removing the scratch
/// files, which nothing reads any more.
fn swap_in(
    options: &GenerateOptions,
    out: TreeWriter,
    pages: KeptPages,
    computed: (Snapshot, Computed),
    scratch: Scratch,
) -> anyhow::Result<Manifest> {
    let (manifest, ()) = rayon::join(
        || {
            timed("publish the tree", || {
                tree::publish(out, options.keep, pages)
            })
        },
        move || {
            drop(scratch);
            if options.exits_after {
                std::mem::forget(computed);
            } else {
                drop(computed);
            }
        },
    );
    let manifest = manifest.with_context(|| format!("publishing {}", options.out.display()))?;
    info!(files = manifest.files.len(), out = %options.out.display(), "tree written");
    Ok(manifest)
}

/// Writes every file of the tree into `out`; what it computed, for the
/// caller to free, and the record of its pages, for the caller to write
/// beside the manifest. The snapshot's own downloads read the snapshot alone,
/// so they are written beside everything computed from it (a core sat idle
/// through the signals and the index); when either side fails, the
/// downloads of both begin no further part.
fn write_tree(
    options: &GenerateOptions,
    snapshot: &Snapshot,
    out: &TreeWriter,
) -> anyhow::Result<(Computed, KeptPages)> {
    // The previous tree's records are read beside the gap check: two
    // serial steps between the load and the signals.
    let (gaps, (reuse, pages)) = rayon::join(
        || check_gaps(&listed_counts(snapshot)),
        || rayon::join(|| Reuse::open(out), || KeptPages::open(out)),
    );
    // An outage or a half-read catalogue changes what counts as "new"; the
    // maintainer sees it here, as `check` shows it, before the tree goes out.
    for gap in gaps {
        warn!("{gap}");
    }
    // Shared by both sides: each reads every month's spill files.
    let history = HistoryMonths::of(snapshot)?;
    let stop = AtomicBool::new(false);
    let (snapshot_downloads, computed) = rayon::join(
        || {
            let written = timed("write snapshot downloads", || {
                write_snapshot_downloads(snapshot, &history, out, &reuse, &stop)
            });
            stop_on_error(written, &stop)
        },
        || {
            let computed =
                compute_and_write(options, snapshot, &history, out, (&reuse, &pages), &stop);
            stop_on_error(computed, &stop)
        },
    );
    let mut computed = computed?;
    let site = Site::new(
        &computed.index,
        &computed.catalogue,
        snapshot,
        &computed.env,
        out,
        &pages,
    );
    let own = computed
        .own
        .take()
        .context("invariant: the own downloads are written once")?;
    timed("write data package", || {
        write_package(&site, reuse, own, snapshot_downloads?)
    })?;
    Ok((computed, pages))
}

/// `result`, having set `stop` if it is an error.
fn stop_on_error<T>(result: anyhow::Result<T>, stop: &AtomicBool) -> anyhow::Result<T> {
    if result.is_err() {
        stop.store(true, Ordering::Relaxed);
    }
    result
}

/// What [`compute_and_write`] computed, for the data package written
/// after it.
struct Computed {
    catalogue: Catalogue,
    index: Index,
    env: minijinja::Environment<'static>,
    /// The publication's own downloads.
    own: Option<OwnDownloads>,
}

/// Computes the signals and the index and writes all that comes of them:
/// the API responses, `openapi.json`, the edge's data, the CDN rules, the
/// docs, the site and the publication's own downloads (which begin no
/// further part once `stop` is set). The market report reads every month
/// of the history and nothing the signals compute: it is computed beside
/// them, the index and the docs.
fn compute_and_write(
    options: &GenerateOptions,
    snapshot: &Snapshot,
    history: &HistoryMonths,
    out: &TreeWriter,
    (reuse, pages): (&Reuse, &KeptPages),
    stop: &AtomicBool,
) -> anyhow::Result<Computed> {
    let (computed, market) = rayon::join(
        || signals_and_api(options, snapshot, out),
        || compute_market_report(options, snapshot, history, out),
    );
    let (catalogue, index, env) = computed?;
    let market = market?;
    let own = {
        let mut site = Site::new(&index, &catalogue, snapshot, &env, out, pages);
        site.latest_report = crate::render::informes::latest_final(&market.reports);
        write_downloads_and_pages(&site, history, market, reuse, stop)?
    };
    Ok(Computed {
        catalogue,
        index,
        env,
        own: Some(own),
    })
}

/// Every month's report and the monthly series, keeping the previous
/// tree's final months, with the record of them for the next run (its
/// links need only the base URL).
fn compute_market_report(
    options: &GenerateOptions,
    snapshot: &Snapshot,
    history: &HistoryMonths,
    out: &TreeWriter,
) -> anyhow::Result<market::Computed> {
    timed("compute market report", || {
        let links = links::Links::new(&options.base_url, std::iter::empty());
        let previous = timed("market: read the previous record", || {
            informes::previous_record(out)
        });
        let computed = market::compute_market(snapshot, history, &links, previous)?;
        info!(
            kept = computed.kept,
            months = computed.reports.len(),
            "market report"
        );
        timed("market: write the record", || {
            informes::write_record(&computed.record, out)
        })?;
        Ok(computed)
    })
}

/// The downloads and the pages share nothing but the read-only inputs and
/// the tree writer, so they are written side by side; the edge's data (one
/// serial write) goes with the downloads, which end first.
fn write_downloads_and_pages(
    site: &Site,
    history: &HistoryMonths,
    market: market::Computed,
    reuse: &Reuse,
    stop: &AtomicBool,
) -> anyhow::Result<OwnDownloads> {
    let market::Computed {
        reports, series, ..
    } = market;
    let (downloads, pages) = rayon::join(
        || {
            timed("write edge data", || write_edge_index(site.index, site.out))?;
            let tables = timed("write own downloads", || {
                write_own_tables(site, history, reuse, stop)
            })?;
            let sqlite = timed("write the SQLite database", || {
                write_sqlite(site, &reports, reuse)
            })?;
            anyhow::Ok(OwnDownloads { tables, sqlite })
        },
        || {
            timed("write site", || {
                let mut extra = timed("write market report", || {
                    write_reports(site, &reports, series)
                })?;
                extra.push(datos_sitemap_entry(site));
                write_site(site, &extra)
            })
        },
    );
    pages?;
    downloads
}
