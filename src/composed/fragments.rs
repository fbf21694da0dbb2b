//! Site pages with a query, their fragments: each published version's card,
//! compare heading and cells, rendered by `generate` with the site's own
//! templates (`render::site::fragments`) and read by the edge from
//! `_edge/pages.msgpack`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// URL (and tree path) of the fragments file.
pub const PAGES_DATA_PATH: &str = "/_edge/pages.msgpack";

/// `_edge/pages.msgpack`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageFragments {
    /// The comparison's row headings, `<th scope="row">` elements in order.
    pub compare_rows: Vec<String>,
    /// Each published version's fragments, by ID.
    pub vehicles: BTreeMap<String, VehicleFragments>,
}

/// One version's fragments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VehicleFragments {
    /// Its card (`<article class="card">`).
    pub card: String,
    /// Its column heading's content (a link to its page).
    pub head: String,
    /// Its cells, `<td>` elements, one per row of `compareRows`.
    pub cells: Vec<String>,
    /// Its name as a buyer reads it (make, model, trim), for the compare bar.
    #[serde(default)]
    pub name: String,
    /// Per row of `compareRows`, how good its value is (higher is better;
    /// `None` where a row has no better and worse, or the value is unknown),
    /// so a comparison marks each row's best.
    #[serde(default)]
    pub scores: Vec<Option<f64>>,
}
