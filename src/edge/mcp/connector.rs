//! Edge stage, MCP connector tools: `search` and `fetch` in the shape that
//! ChatGPT-style connectors expect (`search(query)` gives results with `id`,
//! `title` and an absolute `url` that becomes the citation; `fetch(id)` gives
//! one document with `id`, `title`, `text`, `url` and `metadata`). Both are
//! answered by the same operations as `search_vehicles` and `get_vehicle`.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::api::json::to_json_bytes;
use crate::api::links::Links;
use crate::api::operations::{McpTool, Spec};
use crate::api::ops::search::search_vehicles;
use crate::api::ops::vehicle::get_vehicle;
use crate::api::params::table::{BODY_TYPE, Q};
use crate::api::query::{Operation, SearchQuery};
use crate::api::{ApiError, Index};
use crate::composed::forgive;
use crate::vocab::BodyType;

/// `search`'s row: MCP only.
pub static SEARCH: Spec = Spec {
    operation: Operation::ConnectorSearch,
    name: "search",
    http: None,
    tool: Some(McpTool {
        title: "Search",
        description: "Discover vehicle versions by make, model or version words. Returns {\"results\": [{\"id\", \"title\", \
         \"url\"}]}: up to 20 matching versions, cheapest first, each with its ID (for fetch, get_vehicle, \
         compare_vehicles) and the absolute URL of its page. Words matching nothing are read as a misspelling, \
         alias or body type, named in readAs. Use search_vehicles for filters and paging.",
    }),
};

/// `fetch`'s row: MCP only.
pub static FETCH: Spec = Spec {
    operation: Operation::ConnectorFetch,
    name: "fetch",
    http: None,
    tool: Some(McpTool {
        title: "Fetch a vehicle record",
        description: "The sourced record of one version by the ID that search returned: {\"id\", \"title\", \"text\", \"url\", \
         \"metadata\"}, where text is the JSON of GET /api/v1/vehicles/{id} (quotes, prices, specifications and \
         their sources) and url is the version's page.",
    }),
};

/// What `search` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResults {
    /// Matching versions, cheapest first (the first page of `search_vehicles`).
    pub results: Vec<SearchResult>,
    /// When the words found nothing and were read another way (a misspelling,
    /// an alias, a body type: `crate::composed::forgive`), how: `«corolla»`.
    #[serde(rename = "readAs", skip_serializing_if = "Option::is_none")]
    pub read_as: Option<String>,
}

/// One version found by `search`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResult {
    /// The vehicle ID (for `fetch`, `get_vehicle`, `compare_vehicles`).
    pub id: String,
    /// Make, model and version.
    pub title: String,
    /// The version's canonical page.
    pub url: String,
}

/// What `fetch` returns: one sourced vehicle record as a document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Document {
    /// The vehicle ID.
    pub id: String,
    /// Make, model and version.
    pub title: String,
    /// The JSON of `GET /api/v1/vehicles/{id}`.
    pub text: String,
    /// The version's canonical page.
    pub url: String,
    /// Where the record comes from and when it was checked.
    pub metadata: Map<String, Value>,
}

/// `search`: the words of `query` against make, model and version, exactly
/// as `search_vehicles` with `q` (default sort and page size).
/// Its length was checked with the tool's arguments (the table's `query`
/// row has `q`'s bound).
/// When the words match nothing, the first reading of them that finds
/// versions is searched instead and named in `readAs`, as the site does.
pub fn search(index: &Index, query: &str) -> Result<SearchResults, ApiError> {
    let found = find(index, Some(query.to_owned()), None)?;
    if !found.is_empty() {
        return Ok(SearchResults {
            results: found,
            read_as: None,
        });
    }
    for reading in forgive::readings(index, query) {
        let results = find(index, reading.q.clone(), reading.body)?;
        if !results.is_empty() {
            return Ok(SearchResults {
                results,
                read_as: Some(reading.label()),
            });
        }
    }
    Ok(SearchResults {
        results: Vec::new(),
        read_as: None,
    })
}

/// The first page of `search_vehicles` for words and a body type.
fn find(
    index: &Index,
    q: Option<String>,
    body_type: Option<BodyType>,
) -> Result<Vec<SearchResult>, ApiError> {
    let mut search = SearchQuery::default();
    Q.put(&mut search.filters, q);
    BODY_TYPE.put(&mut search.filters, body_type);
    let envelope = search_vehicles(index, &search)?;
    Ok(envelope
        .data
        .vehicles
        .iter()
        .map(|listed| SearchResult {
            id: listed.facts.id.clone(),
            title: listed.facts.title(),
            url: index.links().vehicle(&listed.facts.id),
        })
        .collect())
}

/// `fetch`: the `get_vehicle` record of `id` as a document.
pub fn fetch(index: &Index, id: &str) -> Result<Document, ApiError> {
    let envelope = get_vehicle(index, id)?;
    let facts = envelope.data.vehicle.facts;
    let bytes = to_json_bytes(&envelope);
    let text = String::from_utf8_lossy(bytes.strip_suffix(b"\n").unwrap_or(&bytes)).into_owned();
    let time = |time| Value::String(crate::time::format_time(time));
    let mut metadata = Map::new();
    metadata.insert("make".to_owned(), facts.identity.make.as_str().into());
    metadata.insert("model".to_owned(), facts.identity.model.as_str().into());
    metadata.insert("trim".to_owned(), facts.identity.trim.as_str().into());
    metadata.insert("currentPriceUsd".to_owned(), facts.current_price_usd.into());
    metadata.insert("observedAt".to_owned(), time(facts.observed_at));
    metadata.insert("snapshotAt".to_owned(), time(envelope.snapshot_at));
    // Whether the prices are invented (a synthetic sample), where a
    // connector that shows only the document reads it.
    metadata.insert("synthetic".to_owned(), index.meta().synthetic.into());
    metadata.insert(
        "sourceUrl".to_owned(),
        facts.identity.source_url.as_str().into(),
    );
    metadata.insert(
        "apiUrl".to_owned(),
        index.links().absolute(&Links::vehicle_api_path(id)).into(),
    );
    metadata.insert(
        "methodologyUrl".to_owned(),
        envelope.methodology_url.clone().into(),
    );
    Ok(Document {
        id: facts.id.clone(),
        title: facts.title(),
        text,
        url: index.links().vehicle(&facts.id),
        metadata,
    })
}
