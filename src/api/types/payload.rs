//! API stage, payloads: what several operations' `data` share (paging,
//! a model's quote dates); each operation's own is in its file of
//! `api::ops`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::api::query::{MAX_LIMIT, MAX_OFFSET};
use crate::time::Time;

/// Paging facts of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct Pagination {
    /// Matches before paging.
    pub total: usize,
    /// Page size applied.
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    pub limit: u32,
    /// Records skipped.
    #[schemars(range(max = MAX_OFFSET))]
    pub offset: u32,
    /// Offset of the next page; null when there is none.
    pub next_offset: Option<usize>,
}

/// Oldest and newest quote check of a model's versions.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct QuoteDates {
    /// Oldest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub oldest: Time,
    /// Newest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub newest: Time,
}
