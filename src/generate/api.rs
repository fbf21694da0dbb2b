//! Generate stage, the signals and what comes of them alone: the catalogue
//! computed from the snapshot, the index, the API responses,
//! `openapi.json`, `/server.json`, the CDN rules and the docs, with the
//! templates every page renders with.

use tracing::info;

use super::options::{GenerateOptions, registry_entry};
use crate::api::Index;
use crate::api::index::{PRICES_FILE_PATH, RECORDS_FILE_PATH};
use crate::catalogue::Catalogue;
use crate::render::{
    api::{lines_file, write_api, write_openapi, write_server_json},
    cdn::write_rules,
    docs, templates,
    tree::TreeWriter,
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
    timed("write openapi.json", || write_openapi(&index, out))?;
    timed("write server.json", || {
        write_server_json(&registry_entry(options), out)
    })?;
    write_rules(&options.edge_origin, out)?;
    let mut env = templates::environment();
    crate::render::site::configure(&mut env);
    crate::render::site::set_money_bar(&mut env, index.meta());
    timed("write docs", || docs::write_docs(&index, &env, out))?;
    Ok((catalogue, index, env))
}
