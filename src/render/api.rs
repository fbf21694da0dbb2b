//! Render stage, API tree: the API answers the CDN serves from files, each
//! computed by its operation's one function and written through the one
//! serializer: API info, the catalogue, every published version's detail
//! (at its own extension-less URL, for the IDs a CDN path can carry), and
//! the JSON 404 body. Lists, searches and model prices are the edge's (it
//! computes the default pages once per tree, `api::precomputed`), so no file
//! is written for them.

use std::collections::BTreeMap;

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;

use crate::api::endpoints::{get_api_info, get_catalogue, get_vehicle};
use crate::api::error::{ApiError, Missing};
use crate::api::links::percent_encode;
use crate::api::operations::Operation;
use crate::api::{Index, json::to_json_bytes};
use crate::output::{JSON, TreeWriter};

/// File of the JSON 404 body the CDN serves for unknown `/api/*` URLs.
pub const API_NOT_FOUND_FILE: &str = "api/404.json";

/// Writes every API answer the CDN serves. Returns how many.
pub fn write_api(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    // Where the two fixed answers go is the operations table's (the CDN
    // rewrites their URLs to the same files).
    let file = |operation: Operation| {
        operation
            .file()
            .expect("invariant: the operations table gives a file to API info and the catalogue")
    };
    let (path, name) = file(Operation::ApiInfo);
    out.write_json(path, name, &get_api_info(index))?;
    let (path, name) = file(Operation::Catalogue);
    out.write_json(path, name, &get_catalogue(index))?;
    let not_found = ApiError::NotFound(Missing::Resource).body();
    out.write(
        &format!("/{API_NOT_FOUND_FILE}"),
        API_NOT_FOUND_FILE,
        JSON,
        &to_json_bytes(&not_found),
    )?;
    Ok(3 + write_vehicles(index, out)?)
}

/// The file of a version's detail, in the public directory: at the URL's
/// own path, without an extension, so the CDN serves it with no rule.
pub fn vehicle_file(id: &str) -> String {
    format!("api/v1/vehicles/{id}")
}

/// The detail of every published version whose ID a CDN path carries as it
/// is; the CDN sends the others to the edge.
fn write_vehicles(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    let ids = cdn_safe_ids(index);
    let bar = crate::steps::progress(ids.len(), "vehicle details");
    ids.par_iter().progress_with(bar).try_for_each(|id| {
        let url = format!("/api/v1/vehicles/{}", percent_encode(id));
        let detail = get_vehicle(index, id)?;
        out.write_json(&url, &vehicle_file(id), &detail)
    })?;
    Ok(ids.len())
}

/// IDs a CDN path carries as they are: URL-safe characters only, and no
/// other ID equal ignoring case (CDN path matching may ignore case). Their
/// details are files; the others are the edge's.
pub fn cdn_safe_ids(index: &Index) -> Vec<&str> {
    let mut by_folded: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for facts in index.facts() {
        by_folded
            .entry(facts.id.to_ascii_lowercase())
            .or_default()
            .push(&facts.id);
    }
    by_folded
        .into_values()
        .filter(|ids| ids.len() == 1)
        .flatten()
        .filter(|id| {
            id.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
        .collect()
}
