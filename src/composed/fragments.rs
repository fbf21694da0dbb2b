//! Site pages with a query, their fragments: each published version's card,
//! compare heading and cells, rendered by `generate` with the site's own
//! templates (`render::site::fragments`) and read by the edge from
//! `_edge/pages.msgpack`, a version's when a page shows it
//! (`edge::state::fragments`). The pages read them through [`Fragments`],
//! held whole ([`PageFragments`]) or read from the file.

use std::borrow::Cow;
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

/// Where a page with a query finds its fragments.
pub trait Fragments: Sync {
    /// The comparison's row headings, in order.
    fn compare_rows(&self) -> &[String];

    /// The fragments of the version with ID `id`, if it is published.
    fn vehicle(&self, id: &str) -> Option<Cow<'_, VehicleFragments>>;

    /// Whether a version with ID `id` is published.
    fn publishes(&self, id: &str) -> bool;
}

impl Fragments for PageFragments {
    fn compare_rows(&self) -> &[String] {
        &self.compare_rows
    }

    fn vehicle(&self, id: &str) -> Option<Cow<'_, VehicleFragments>> {
        self.vehicles.get(id).map(Cow::Borrowed)
    }

    fn publishes(&self, id: &str) -> bool {
        self.vehicles.contains_key(id)
    }
}
