//! Render stage, API tree: calls every operation for every precomputable
//! query (no query string, or the default first page of each variant) and
//! writes the responses with their URLs, through the one serializer. Each
//! query is parsed from the URL it is written under, as the edge parses it,
//! so a file and its URL cannot disagree.

use indicatif::ParallelProgressIterator;
use rayon::prelude::*;

use crate::api::endpoints::{
    find_deals, get_api_info, get_catalogue, get_model_prices, get_vehicle, search_vehicles,
};
use crate::api::error::{ApiError, Missing};
use crate::api::links::percent_encode;
use crate::api::operations::Operation;
use crate::api::params::{parse_deals, parse_model, parse_search};
use crate::api::query::{DealSort, SearchSort, spelling_of};
use crate::api::text::encode_id_path;
use crate::api::types::DealKind;
use crate::api::{Index, json::to_json_bytes};
use crate::output::{JSON, TreeWriter};
use crate::vocab::Window;

/// File of the JSON 404 body the CDN serves for unknown `/api/*` URLs.
pub const API_NOT_FOUND_FILE: &str = "api/404.json";

/// Writes every precomputed API response. Returns how many.
pub fn write_api(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    let mut count = 0;
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
    count += 3;

    out.write_json(
        "/api/v1/vehicles",
        "api/v1/vehicles.json",
        &search_vehicles(index, &parse_search("")?)?,
    )?;
    for (_, name) in SearchSort::ALL {
        let url = format!("/api/v1/vehicles?sort={name}");
        let file = format!("api/v1/_q/vehicles/sort-{name}.json");
        let query = parse_search(query_of(&url))?;
        out.write_json(&url, &file, &search_vehicles(index, &query)?)?;
        count += 1;
    }

    out.write_json(
        "/api/v1/deals",
        "api/v1/deals.json",
        &find_deals(index, &parse_deals("")?)?,
    )?;
    count += 2;
    for (kind, window, sort) in deal_variants() {
        let (kind, window, sort) = (
            spelling_of(&DealKind::ALL, kind),
            window.as_str(),
            spelling_of(&DealSort::ALL, sort),
        );
        let url = format!("/api/v1/deals?kind={kind}&window={window}&sort={sort}");
        let file = format!("api/v1/_q/deals/kind-{kind}.window-{window}.sort-{sort}.json");
        let query = parse_deals(query_of(&url))?;
        out.write_json(&url, &file, &find_deals(index, &query)?)?;
        count += 1;
    }

    count += write_models(index, out)?;
    count += write_vehicles(index, out)?;
    Ok(count)
}

fn deal_variants() -> Vec<(DealKind, Window, DealSort)> {
    let mut variants = Vec::new();
    for (kind, _) in DealKind::ALL {
        for window in Window::ALL {
            for (sort, _) in DealSort::ALL {
                variants.push((kind, *window, sort));
            }
        }
    }
    variants
}

/// The first page of every model's prices.
fn write_models(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    let models = &index.catalogue_data().models;
    models.par_iter().try_for_each(|pair| {
        let url = format!(
            "/api/v1/models/prices?make={}&model={}",
            percent_encode(&pair.make),
            percent_encode(&pair.model)
        );
        let query = parse_model(query_of(&url))?;
        let file = format!(
            "api/v1/_q/models-prices/make-{}.model-{}.json",
            encode_id_path(&pair.make),
            encode_id_path(&pair.model)
        );
        out.write_json(&url, &file, &get_model_prices(index, &query)?)
    })?;
    Ok(models.len())
}

/// The query string of a URL this module writes.
fn query_of(url: &str) -> &str {
    url.split_once('?').map_or("", |(_, query)| query)
}

/// The file of a version's detail, in the tree.
pub fn vehicle_file(id: &str) -> String {
    format!("api/v1/vehicles/{}.json", encode_id_path(id))
}

/// The detail of every published version.
fn write_vehicles(index: &Index, out: &TreeWriter) -> anyhow::Result<usize> {
    let bar = crate::steps::progress(index.len(), "vehicle details");
    index
        .facts()
        .par_iter()
        .progress_with(bar)
        .try_for_each(|facts| {
            let url = format!("/api/v1/vehicles/{}", percent_encode(&facts.id));
            let detail = get_vehicle(index, &facts.id)?;
            out.write_json(&url, &vehicle_file(&facts.id), &detail)
        })?;
    Ok(index.len())
}
