//! Generate stage, the signals and what comes of them alone: the catalogue
//! computed from the snapshot, the index, the API responses,
//! `openapi.json`, `/server.json`, the CDN rules and the docs, with the
//! templates every page renders with.

use anyhow::Context;
use tracing::info;

use super::options::{GenerateOptions, registry_entry};
use crate::api::Index;
use crate::api::identity;
use crate::api::index::{PRICES_FILE_PATH, RECORDS_FILE_PATH, Records};
use crate::api::openapi::render_openapi;
use crate::catalogue::Catalogue;
use crate::output::TreeWriter;
use crate::render::{
    api::write_api,
    cdn::{render_headers, render_redirects},
    docs, templates,
};
use crate::signals::compute_catalogue;
use crate::snapshot::Snapshot;
use crate::steps::timed;
use crate::time::format_time;

/// The signals, the index and what comes of them alone: the API
/// responses, `openapi.json`, the CDN rules and the docs; with the
/// templates every page renders with.
pub fn signals_and_api(
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
