//! Generate stage: the flat, logged list of steps from a snapshot directory to
//! a complete static tree (API responses, docs, OpenAPI, CDN rules, data
//! downloads, the website), written beside the destination and swapped in
//! only when complete.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use tracing::{info, warn};

use crate::api::Index;
use crate::api::index::{INDEX_FILE_PATH, PRICES_FILE_PATH, RECORDS_FILE_PATH, Records};
use crate::api::openapi::render_openapi;
use crate::api::{identity, links};
use crate::catalogue::Catalogue;
use crate::check::stale_snapshot;
use crate::market;
use crate::output::{Manifest, TreeWriter};
use crate::render::datos::OwnDownloads;
use crate::render::datos::reuse::Reuse;
use crate::render::datos::{
    datos_sitemap_entry, write_own_tables, write_package, write_snapshot_downloads,
};
use crate::render::informes::write_reports;
use crate::render::site::kept::KeptPages;
use crate::render::site::{Site, write_site};
use crate::render::sqlite::write_sqlite;
use crate::render::{
    api::write_api,
    cdn::{render_headers, render_redirects},
    docs, templates,
};
use crate::signals::compute_catalogue;
use crate::signals::monitoring::{check_gaps, listed_counts};
use crate::snapshot::Snapshot;
use crate::snapshot::republish::HistoryMonths;
use crate::steps::{load, timed};
use crate::time::format_time;

/// Where the site is served when no base URL is given: the local edge server.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

/// What `generate` reads and writes.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// Snapshot directory.
    pub data: PathBuf,
    /// Destination of the tree.
    pub out: PathBuf,
    /// Origin the site is served from (absolute URLs in responses and pages).
    pub base_url: String,
    /// Origin of the edge server that the CDN proxies parameterised requests to.
    pub edge_origin: String,
    /// Earlier trees kept beside the new one (see `output::publish`).
    pub keep: usize,
    /// Refuse a loopback edge origin with a public base URL instead of
    /// warning.
    pub strict: bool,
    /// The MCP Registry name of `/server.json` (`api::identity`).
    pub mcp_name: Option<String>,
    /// Encode every data download and render every page, keeping none of
    /// the previous tree's (`render::datos::reuse`, `render::site::kept`).
    pub fresh: bool,
    /// Fail after writing this many files (tests of the all-or-nothing swap).
    pub fail_after: Option<usize>,
    /// The process ends when the run does (the command line): what the run
    /// computed is then left to the system instead of being freed: freeing
    /// millions of small allocations kept a core busy after the tree was
    /// published.
    pub exits_after: bool,
}

/// Builds the whole tree and swaps it in; returns its manifest.
pub fn generate(options: &GenerateOptions) -> anyhow::Result<Manifest> {
    for (name, origin) in [
        ("--base-url", &options.base_url),
        ("--edge-origin", &options.edge_origin),
    ] {
        if !(origin.starts_with("https://") || origin.starts_with("http://")) {
            anyhow::bail!("{name} must be an absolute http(s) URL, got {origin:?}");
        }
    }
    if is_loopback(&options.edge_origin) && !is_loopback(&options.base_url) {
        let problem = format!(
            "--edge-origin {} is this machine, but --base-url {} is public: the CDN would proxy every search, comparison and /mcp request to an address that only reaches itself; pass the edge host's public origin",
            options.edge_origin, options.base_url
        );
        if options.strict {
            anyhow::bail!("{problem} (refused under --strict)");
        }
        warn!("{problem}");
    }
    // A public site's registry entry is checked before any work: what the
    // registry would refuse. A site on this machine is not for the registry.
    if !is_loopback(&options.base_url) {
        for problem in identity::refusals(&registry_entry(options)) {
            let problem = format!("/server.json: the MCP Registry would refuse it: {problem}");
            if options.strict {
                anyhow::bail!("{problem} (refused under --strict)");
            }
            warn!("{problem}");
        }
    }
    // The quotes the loader leaves out, for /datos, beside the tree (removed
    // when this run ends, whatever its outcome).
    let scratch = Scratch(crate::output::scratch_for(&options.out));
    let snapshot = load(&options.data, Some(&scratch.0))?;
    if let Some(warning) = stale_snapshot(snapshot.meta.snapshot_at, chrono::Utc::now()) {
        warn!("{warning}");
    }
    let out = TreeWriter::create(&options.out, options.fail_after)?;
    let (published, pages) = match write_tree(options, &snapshot, &out) {
        Ok(written) => written,
        Err(err) => {
            out.abandon();
            return Err(err);
        }
    };
    // Freeing the snapshot and the catalogue (millions of small
    // allocations) takes a core for a while: beside the publication, or
    // not at all when the process exits next; so does removing the
    // scratch files, which nothing reads any more.
    let computed = (snapshot, published);
    let (manifest, ()) = rayon::join(
        || {
            timed("publish the tree", || {
                out.commit_beside(options.keep, |out| pages.finish(out))
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
) -> anyhow::Result<(Published, KeptPages)> {
    // The previous tree's records are read beside the gap check: two
    // serial steps between the load and the signals.
    let (gaps, (reuse, pages)) = rayon::join(
        || check_gaps(&listed_counts(snapshot)),
        || {
            rayon::join(
                || Reuse::open(out, options.fresh),
                || KeptPages::open(out, options.fresh),
            )
        },
    );
    // An outage or a half-read catalogue changes what counts as "new"; the
    // maintainer sees it here, as `check` shows it, before the tree goes out.
    for gap in gaps {
        warn!("{gap}");
    }
    // Shared by both sides: each reads every month's spill files.
    let history = HistoryMonths::of(snapshot)?;
    let stop = AtomicBool::new(false);
    let (snapshot_downloads, published) = rayon::join(
        || {
            let written = timed("write snapshot downloads", || {
                write_snapshot_downloads(snapshot, &history, out, &reuse, &stop)
            });
            stop_on_error(written, &stop)
        },
        || {
            let published = publish(options, snapshot, &history, out, (&reuse, &pages), &stop);
            stop_on_error(published, &stop)
        },
    );
    let mut published = published?;
    let site = Site::new(
        &published.index,
        &published.catalogue,
        snapshot,
        &published.env,
        out,
        &pages,
    );
    let own = published
        .own
        .take()
        .context("invariant: the own downloads are written once")?;
    timed("write data package", || {
        write_package(&site, reuse, own, snapshot_downloads?)
    })?;
    Ok((published, pages))
}

/// `result`, having set `stop` if it is an error.
fn stop_on_error<T>(result: anyhow::Result<T>, stop: &AtomicBool) -> anyhow::Result<T> {
    if result.is_err() {
        stop.store(true, Ordering::Relaxed);
    }
    result
}

/// What [`publish`] computed, for the data package written after it.
struct Published {
    catalogue: Catalogue,
    index: Index,
    env: minijinja::Environment<'static>,
    /// The publication's own downloads.
    own: Option<OwnDownloads>,
}

/// Computes the signals and the index and writes all that comes of them:
/// the API responses, `openapi.json`, the edge's data, the CDN rules, the
/// docs, the site and the publication's own downloads (which begin no
/// further part once `stop` is set).
fn publish(
    options: &GenerateOptions,
    snapshot: &Snapshot,
    history: &HistoryMonths,
    out: &TreeWriter,
    (reuse, pages): (&Reuse, &KeptPages),
    stop: &AtomicBool,
) -> anyhow::Result<Published> {
    // The market report reads every month of the history and nothing the
    // signals compute: it is computed beside them, the index and the docs
    // (its links need only the base URL).
    let market_links = crate::api::links::Links::new(&options.base_url, std::iter::empty());
    let (computed, market) = rayon::join(
        || signals_and_api(options, snapshot, out),
        || {
            timed("compute market report", || {
                let previous = timed("market: read the previous record", || {
                    market::kept::Record::open(out, options.fresh)
                });
                let computed = market::compute_market(snapshot, history, &market_links, previous)?;
                info!(
                    kept = computed.kept,
                    months = computed.reports.len(),
                    "market report"
                );
                timed("market: write the record", || {
                    out.write_beside(market::kept::RECORD, &computed.record.to_bytes()?)
                })?;
                anyhow::Ok(computed)
            })
        },
    );
    let (catalogue, index, env) = computed?;
    let market::Computed {
        reports, series, ..
    } = market?;
    let tables = {
        let mut site = Site::new(&index, &catalogue, snapshot, &env, out, pages);
        site.latest_report = crate::render::informes::latest_final(&reports);
        // The downloads and the pages share nothing but the read-only inputs
        // and the tree writer, so they are written side by side; the edge's
        // data (one serial write) goes with the downloads, which end first.
        let (tables, pages) = rayon::join(
            || {
                timed("write edge data", || {
                    out.write_msgpack(
                        INDEX_FILE_PATH,
                        INDEX_FILE_PATH.trim_start_matches('/'),
                        &index.to_file(),
                    )
                })?;
                let tables = timed("write own downloads", || {
                    write_own_tables(&site, history, reuse, stop)
                })?;
                let sqlite = timed("write the SQLite database", || {
                    write_sqlite(&site, &reports, reuse)
                })?;
                anyhow::Ok(OwnDownloads { tables, sqlite })
            },
            || {
                timed("write site", || {
                    let mut extra = timed("write market report", || {
                        write_reports(&site, &reports, series)
                    })?;
                    extra.push(datos_sitemap_entry(&site));
                    write_site(&site, &extra)
                })
            },
        );
        pages?;
        tables?
    };
    Ok(Published {
        catalogue,
        index,
        env,
        own: Some(tables),
    })
}

/// The MCP Registry entry of the site `options` publish (`/server.json`).
fn registry_entry(options: &GenerateOptions) -> serde_json::Value {
    let name = identity::registry_name(options.mcp_name.as_deref(), &options.base_url);
    let links = links::Links::new(&options.base_url, std::iter::empty());
    let assets = crate::render::site::assets::asset_paths();
    identity::server_json(&name, &links, &[&assets.favicon, &assets.favicon_png])
}

/// Writes a file of one JSON line a version (`url`, in the edge's data) as
/// its lines are serialized, and opens it to read them back.
fn lines_file<T: serde::Serialize>(
    out: &TreeWriter,
    url: &str,
    lines: &mut dyn Iterator<Item = T>,
) -> anyhow::Result<Records> {
    let name = url.trim_start_matches('/');
    let starts = out.write_with(url, name, crate::headers::content_type_of(name), |file| {
        Records::write_to(lines, file)
    })?;
    let path = out.staged(name);
    let file = std::fs::File::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Records::open(file, starts).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))
}

/// The signals, the index and what comes of them alone: the API
/// responses, `openapi.json`, the CDN rules and the docs; with the
/// templates every page renders with.
fn signals_and_api(
    options: &GenerateOptions,
    snapshot: &Snapshot,
    out: &TreeWriter,
) -> anyhow::Result<(Catalogue, Index, minijinja::Environment<'static>)> {
    let catalogue = timed("compute signals", || compute_catalogue(snapshot));
    if catalogue.vehicles.is_empty() {
        // A scraper that lost every price, stock flag or quote; publishing
        // would swap an empty site in for the live one.
        anyhow::bail!(
            "invalid snapshot in {}: no published version: none is listed in catalogue_prices at catalogueObservedAt {} with stock and quotes at its latest check in quote_checks",
            options.data.display(),
            format_time(snapshot.meta.catalogue_observed_at)
        );
    }
    // The records (the largest part of a large tree's edge data) and the
    // dealer prices go to their files as they are serialized, and are read
    // from there when asked.
    let index = timed("index catalogue", || {
        Index::from_catalogue_with(&catalogue, &options.base_url, |vehicles, prices| {
            Ok::<_, anyhow::Error>((
                lines_file(out, RECORDS_FILE_PATH, vehicles)?,
                lines_file(out, PRICES_FILE_PATH, prices)?,
            ))
        })
    })?;
    let responses = timed("write API responses", || write_api(&index, out))?;
    info!(responses, "API responses written");
    timed("write openapi.json", || {
        out.write_json(
            "/openapi.json",
            "openapi.json",
            &render_openapi(index.links()),
        )
    })?;
    timed("write server.json", || {
        out.write_json(
            identity::SERVER_JSON_PATH,
            identity::SERVER_JSON_PATH.trim_start_matches('/'),
            &registry_entry(options),
        )
    })?;
    // The CDN's rules, read by the CDN and never served.
    for (name, text) in [
        ("_redirects", render_redirects(&options.edge_origin)),
        ("_headers", render_headers()),
    ] {
        out.write(
            &format!("/{name}"),
            name,
            crate::headers::PLAIN,
            text.as_bytes(),
        )?;
    }
    let mut env = templates::environment();
    crate::render::site::configure(&mut env);
    crate::render::site::set_money_bar(&mut env, index.meta());
    timed("write docs", || docs::write_docs(&index, &env, out))?;
    Ok((catalogue, index, env))
}

/// Whether an http(s) origin names this machine (a loopback address or
/// `localhost`), which no one else can reach.
fn is_loopback(origin: &str) -> bool {
    links::is_loopback_host(&links::host_of(origin))
}

/// A run's scratch directory, removed when the run ends.
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_are_told_from_public_ones() {
        for local in [
            "http://127.0.0.1:8080",
            "http://localhost:8888",
            "http://[::1]:8080/",
            "http://127.1.2.3",
            "https://edge.localhost",
            "http://0.0.0.0:8080",
        ] {
            assert!(is_loopback(local), "{local}");
        }
        for public in [
            "https://autoprecios.example",
            "https://edge.autoprecios.example:8443",
            "http://192.168.1.10:8080",
            "https://[2001:db8::1]",
            "https://localhost.example",
        ] {
            assert!(!is_loopback(public), "{public}");
        }
    }
}
