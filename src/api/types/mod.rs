//! API stage, payloads: the response shapes of `spec/api-v1.md`, borrowing
//! from the [`Catalogue`](crate::catalogue::Catalogue) so that building a
//! response copies nothing but what it serializes: the envelope, API info
//! and the catalogue's shapes here, a version's two shapes in `record`,
//! each operation's `data` in `payload`. Each derives its JSON Schema, from
//! which `openapi.json`'s components and the MCP output schemas are made.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

pub use crate::api::query::DealKind;
use crate::schema::{Constant, constant};
use crate::time::Time;

mod brief;
mod payload;
mod record;
pub mod report;

pub use brief::*;
pub use payload::*;
pub use record::*;

/// Version of the envelope schema.
pub const SCHEMA_VERSION: u32 = 1;
/// Version of the API.
pub const API_VERSION: &str = "1.0.0";

/// Wraps every successful payload except ApiInfo.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "{T}Response",
    deny_unknown_fields,
    description = "Envelope of a successful query."
)]
pub struct Envelope<T> {
    /// Always 1.
    #[schemars(schema_with = "constant::<SchemaVersion>")]
    pub schema_version: u32,
    /// Latest capture anywhere in the site; not the check date of every quote.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub snapshot_at: Time,
    /// When the catalogue was checked; reference time of recent-change windows.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub catalogue_observed_at: Time,
    /// Address of the original listing site.
    #[schemars(url)]
    pub source: String,
    /// Methodology page.
    #[schemars(url)]
    pub methodology_url: String,
    /// Developer documentation.
    #[schemars(url)]
    pub documentation_url: String,
    /// The endpoint's payload.
    pub data: T,
}

impl<T> Envelope<T> {
    /// The same envelope around another form of its payload (a list in
    /// brief).
    pub fn map<U>(self, form: impl FnOnce(T) -> U) -> Envelope<U> {
        Envelope {
            schema_version: self.schema_version,
            snapshot_at: self.snapshot_at,
            catalogue_observed_at: self.catalogue_observed_at,
            source: self.source,
            methodology_url: self.methodology_url,
            documentation_url: self.documentation_url,
            data: form(self.data),
        }
    }
}

/// [`SCHEMA_VERSION`] as a schema constant.
struct SchemaVersion;

impl Constant for SchemaVersion {
    fn value() -> serde_json::Value {
        SCHEMA_VERSION.into()
    }
}

/// A make and model pair.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields, description = "A make and model.")]
pub struct MakeModel {
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
}

/// `GET /api/v1/catalogue`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Catalogue",
    deny_unknown_fields,
    description = "Supported makes, models, filter values and coverage counts."
)]
pub struct CatalogueData {
    /// Published versions.
    pub vehicle_count: usize,
    /// Published models.
    pub model_count: usize,
    /// Published versions with official specifications.
    pub versions_with_specs: usize,
    /// Current opportunities.
    pub opportunity_count: usize,
    /// Makes, sorted.
    pub makes: Vec<String>,
    /// Models, sorted by make then model.
    pub models: Vec<MakeModel>,
    /// Filter name to the values present.
    #[schemars(
        extend("additionalProperties" = {
            "type": "array", "items": { "type": ["string", "number"] },
        })
    )]
    pub filters: BTreeMap<String, Vec<serde_json::Value>>,
    /// The current observed exchange rate: it converts dollar quotes for
    /// priceArs and the peso budgets, and every recent-change price. Null when
    /// no quote check observed a rate.
    pub exchange_rate: Option<CurrentRate>,
}

/// The current observed exchange rate, with the dollar it is when the
/// snapshot names it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "The newest exchange rate observed at any quote check."
)]
pub struct CurrentRate {
    /// ARS per USD.
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub ars_per_usd: f64,
    /// When it was observed.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub observed_at: Time,
    /// Which dollar it is, when the snapshot names it; null means the rate the
    /// listing site used at that check.
    pub source: Option<String>,
}
