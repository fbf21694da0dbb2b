//! API stage, the parameter table's row: what a parameter is (its wire
//! name, the kind of value it takes with its bounds, its descriptions, the
//! operations that take it) and where its value lives in the typed queries.
//! The rows themselves are in `table.rs`.

use super::filter::Filter;
use crate::api::query::Operation;
use crate::api::query::{CompareQuery, DealsQuery, Given, ModelQuery, Page, SearchQuery};

/// What a value must be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A string of `min` to `max` characters.
    Text {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// An integer from `min` to `max`.
    Integer {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
        /// Value when absent.
        default: Option<u32>,
    },
    /// A number of at least `min` (and at most `max`).
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value, if any.
        max: Option<f64>,
    },
    /// `true` or `false`.
    Boolean,
    /// One of fixed spellings (case-sensitive).
    Choice {
        /// The allowed spellings.
        values: &'static [&'static str],
        /// Value when absent.
        default: Option<&'static str>,
    },
    /// IDs (of versions, of series): comma-separated in HTTP, a JSON array
    /// in MCP; `min` to `max` of them. Their count and lengths are checked
    /// by the operation itself (a comparison, after the index has decided
    /// what an encoded comma means).
    Ids {
        /// Fewest IDs.
        min: usize,
        /// Most IDs.
        max: usize,
    },
}

/// Where an HTTP request carries a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// In the query string.
    Query,
    /// As a path segment.
    Path,
}

/// How a row reads and writes a part of its operations' typed queries:
/// `set` when a query is parsed, `get` when one is written back as a query
/// string (`None` for a value at its default, which is left out).
pub struct Access<T> {
    /// Stores a checked value.
    pub set: fn(&mut T, &Given),
    /// The value to write, `None` at the default.
    pub get: fn(&T) -> Option<Given>,
}

impl<T> Clone for Access<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Access<T> {}

impl<T> std::fmt::Debug for Access<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Access")
    }
}

/// Where a row's value lives in its operations' typed queries.
#[derive(Debug, Clone, Copy)]
pub enum Field {
    /// A shared filter: its value in the
    /// [`Filters`](crate::api::query::Filters) of every list's query,
    /// under its name, and what the filter means.
    Filter(Filter),
    /// A field of [`SearchQuery`].
    Search(Access<SearchQuery>),
    /// A field of [`DealsQuery`].
    Deals(Access<DealsQuery>),
    /// A field of [`ModelQuery`].
    Model(Access<ModelQuery>),
    /// A field of [`CompareQuery`].
    Compare(Access<CompareQuery>),
    /// A field of the [`Page`] of every paged query.
    Page(Access<Page>),
    /// A value its operation reads by itself (a path segment, the
    /// connector's query).
    Own,
}

/// One parameter of one or more operations.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The wire name (HTTP and MCP alike).
    pub name: &'static str,
    /// What its value must be.
    pub kind: Kind,
    /// Whether the operations that take it require it.
    pub required: bool,
    /// Where HTTP carries it.
    pub location: Location,
    /// What it means, in the OpenAPI document and the MCP schemas.
    pub description: &'static str,
    /// Its label on the site's forms (Spanish), for error messages.
    pub label: Option<&'static str>,
    /// The operations that take it.
    pub operations: &'static [Operation],
    /// Where its value lives in the typed query.
    pub field: Field,
}

impl Param {
    /// Whether `operation` takes this parameter.
    pub fn takes(&self, operation: Operation) -> bool {
        self.operations.contains(&operation)
    }

    /// Whether this is a shared filter.
    pub fn is_filter(&self) -> bool {
        self.filter().is_some()
    }

    /// What this row means as a shared filter, if it is one.
    pub fn filter(&self) -> Option<&Filter> {
        match &self.field {
            Field::Filter(filter) => Some(filter),
            _ => None,
        }
    }
}
