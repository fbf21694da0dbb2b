//! The published catalogue, identity: what names a version and what it is,
//! as the snapshot's `versions` table states it. One type carried from the
//! snapshot's `Version` to the catalogue's `Vehicle`, the index's `Facts`
//! and the API's Summary, which flattens it into its wire shape; its serde
//! and schema attributes are therefore the Summary's (absent names are
//! left out, facts without a value are null).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::vocab::{BodyType, Fuel, Transmission};

/// A version's names and facts: every Summary field between `sourceUrl`
/// and `factSources`. The catalogue ID and the drivetrain (a filter, not a
/// Summary field) stand beside it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// Original listing.
    #[schemars(url)]
    pub source_url: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim.
    pub trim: String,
    /// Display form of trim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub trim_display: Option<String>,
    /// Body type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BodyType")]
    pub body_type: Option<BodyType>,
    /// Native tier code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", description = "Native tier label.")]
    pub tier: Option<String>,
    /// Native tier label text; no tier is inferred from price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier_label: Option<String>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Seats.
    #[schemars(description = "Unknown is null.")]
    pub seats: Option<u32>,
    /// Airbags.
    #[schemars(description = "Unknown is null.")]
    pub airbags: Option<u32>,
    /// Catalogue fact name to its source kind (official, catalogue).
    pub fact_sources: BTreeMap<String, String>,
}

impl Identity {
    /// A version named `make model trim`, nothing else known (the
    /// fixtures' identity; set the rest with
    /// `Identity { .., ..Identity::named(..) }`).
    pub fn named(make: &str, model: &str, trim: &str) -> Self {
        Identity {
            make: make.into(),
            model: model.into(),
            trim: trim.into(),
            ..Identity::default()
        }
    }
}
