//! Render stage, API tree: the API answers the CDN serves from files, each
//! computed by its operation's one function and written through the one
//! serializer: API info, the catalogue and the JSON 404 body; the API's
//! descriptions (`openapi.json`, the MCP Registry's `/server.json`); and
//! the edge's data (`_edge/`: the index file, and the records and dealer
//! prices written as they are serialized).
//!
//! Everything else is the edge's: lists, searches and model prices (it
//! computes the default pages once per tree, `api::precomputed`) and each
//! version's detail. A detail carries the envelope's `snapshotAt`, so as a
//! file every one of them would change at every catalogue check: a file a
//! version, and a large share of the tree, uploaded by each deploy for one
//! changed field (BENCHMARKS.md, "What a deploy uploads"). The edge
//! answers them from its index, and the CDN caches its answers as it
//! caches the files.

use anyhow::Context;

use crate::api::error::{ApiError, Missing};
use crate::api::identity::SERVER_JSON_PATH;
use crate::api::index::{INDEX_FILE_PATH, Records};
use crate::api::openapi::render_openapi;
use crate::api::operations::Spec;
use crate::api::ops::api_info::{self, get_api_info};
use crate::api::ops::catalogue::{self, get_catalogue};
use crate::api::{Index, json::to_json_bytes};
use crate::output::{JSON, TreeWriter};

/// File of the JSON 404 body the CDN serves for unknown `/api/*` URLs.
pub const API_NOT_FOUND_FILE: &str = "api/404.json";

/// Writes every API answer the CDN serves. Returns how many.
pub fn write_api(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    // Where the two fixed answers go is the operations table's (the CDN
    // rewrites their URLs to the same files).
    let file = |spec: &Spec| {
        spec.http
            .and_then(|http| http.file())
            .expect("invariant: the operations table gives a file to API info and the catalogue")
    };
    let (path, name) = file(&api_info::SPEC);
    out.write_json(path, name, &get_api_info(index))?;
    let (path, name) = file(&catalogue::SPEC);
    out.write_json(path, name, &get_catalogue(index))?;
    let not_found = ApiError::NotFound(Missing::Resource).body();
    out.write(
        &format!("/{API_NOT_FOUND_FILE}"),
        API_NOT_FOUND_FILE,
        JSON,
        &to_json_bytes(&not_found),
    )?;
    Ok(3)
}

/// Writes `openapi.json`, the API's description, with the site's links.
pub fn write_openapi(index: &Index, out: &TreeWriter) -> anyhow::Result<()> {
    out.write_json(
        "/openapi.json",
        "openapi.json",
        &render_openapi(index.links()),
    )
}

/// Writes `/server.json`, the MCP Registry's entry of the site's server.
pub fn write_server_json(entry: &serde_json::Value, out: &TreeWriter) -> anyhow::Result<()> {
    out.write_json(
        SERVER_JSON_PATH,
        SERVER_JSON_PATH.trim_start_matches('/'),
        entry,
    )
}

/// Writes the edge's index file (`_edge/`).
pub fn write_edge_index(index: &Index, out: &TreeWriter) -> anyhow::Result<()> {
    out.write_msgpack(
        INDEX_FILE_PATH,
        INDEX_FILE_PATH.trim_start_matches('/'),
        &index.to_file(),
    )
}

/// Writes a file of one JSON line a version (`url`, in the edge's data) as
/// its lines are serialized, and opens it to read them back.
pub fn lines_file<T: serde::Serialize>(
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
