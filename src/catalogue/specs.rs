//! The published catalogue, specifications: a version's sourced official
//! record and its source documents, passed through as published.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The sourced specification record of a version, passed through as published.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Sourced official specifications, or null. Missing, null or a recorded gap means unknown, unclear or disputed; it never means absent."
)]
pub struct Specs {
    /// When the record was assembled.
    pub collected_at: String,
    /// Short label of the main source.
    pub source_label: Option<String>,
    /// Original sourced values by name. Unit suffixes on names: Mm, Kg, L, Kw,
    /// Nm, Kmh, L100km; power carries powerUnit. Equipment values are true,
    /// false or "optional".
    pub values: BTreeMap<String, serde_json::Value>,
    /// Value name to an entry key in sources.
    pub source_of: BTreeMap<String, String>,
    /// Sources by key.
    pub sources: BTreeMap<String, SpecSource>,
    /// Missing, disputed, contradictory, unreadable or unassigned source
    /// values.
    pub gaps: BTreeMap<String, serde_json::Value>,
}

/// One source document of a specification record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct SpecSource {
    /// Who published it.
    pub publisher: String,
    /// Document title.
    pub title: String,
    /// Where it is.
    #[schemars(url)]
    pub url: String,
    /// Kind of source (`official`, ...).
    pub kind: String,
    /// Date printed on the document.
    pub document_date: Option<String>,
    /// When it was retrieved.
    pub retrieved_at: String,
}
