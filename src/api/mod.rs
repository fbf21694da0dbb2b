//! API stage: the spec's response types, query types and one function per
//! operation, with the one JSON serializer and ETag function. Shared by the
//! generator and the edge server; it never touches polars or the file system.

pub mod error;
pub mod facts;
pub mod identity;
pub mod index;
pub mod json;
pub mod links;
pub mod openapi;
pub mod operations;
pub mod ops;
pub mod page_id;
pub mod params;
pub mod precomputed;
pub mod problem;
pub mod query;
pub mod reports;
pub mod series;
pub mod site_pages;
pub mod text;
pub mod types;

/// A hash map whose keys are the tree's own (its names, URLs and words),
/// never a client's: a hasher without SipHash's flood resistance is enough,
/// and SipHash was a visible share of the edge's start and of each lookup.
pub type HashMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;

pub use error::ApiError;
pub use index::Index;
