//! The manifest, `manifest.json` at the root of a generated tree: every file
//! with the URL it answers, its content type and ETag. `generate` writes it
//! (`output`), the edge reads it (`edge::state`); this is the one definition
//! both build.

use serde::{Deserialize, Serialize};

/// Name of the manifest at the root of a tree.
pub const MANIFEST: &str = "manifest.json";

/// The directory of a tree that the CDN publishes: every file a URL of the
/// site answers, and the CDN's `_headers` and `_redirects`.
pub const PUBLIC_DIR: &str = "public";

/// The directory of a tree, beside the public one, that holds the edge's
/// own data (never published).
pub const EDGE_DIR: &str = "_edge";

/// One published file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestEntry {
    /// The URL path (and query string, for precomputed queries) it answers.
    pub url: String,
    /// Its path in the tree, `/`-separated: under [`PUBLIC_DIR`] for what
    /// the site serves, under [`EDGE_DIR`] for the edge's data.
    pub file: String,
    /// Its `Content-Type`.
    pub content_type: String,
    /// The strong ETag of its bytes.
    pub etag: String,
}

/// `manifest.json`: every file of the tree, sorted by URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The entries.
    pub files: Vec<ManifestEntry>,
}
