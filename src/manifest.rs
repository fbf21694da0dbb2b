//! The manifest, `manifest.json` at the root of a generated tree: every file
//! with the URL it answers, its content type and ETag. `generate` writes it
//! (`output`), the edge reads it (`edge::state`); this is the one definition
//! both build.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use xxhash_rust::xxh3::Xxh3;

use crate::api::json::{etag_of_digest, hex};

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

/// How a tree's file is tagged in the manifest, hashed as its bytes pass.
/// A public file's tag is the SHA-256 of its bytes: the strong ETag the
/// site and the API send, as the developer guide promises. An edge data
/// file (under [`EDGE_DIR`]) is never sent; its tag only lets the edge
/// check at every load that the file is the one the manifest describes,
/// so it is the XXH3-128 of its bytes, spelt `"xxh3-<hex>"`: the edge
/// hashes every byte of its data at each load, and SHA-256 of them was a
/// large share of a large catalogue's start-up (BENCHMARKS.md).
#[derive(Clone)]
pub enum FileHash {
    /// A public file's.
    Sha256(Sha256),
    /// An edge data file's.
    Xxh3(Box<Xxh3>),
}

/// How an edge data file's tag begins.
const XXH3_TAG: &str = "\"xxh3-";

impl FileHash {
    /// The hash of the file at `file` (its path in the tree, as
    /// [`ManifestEntry::file`] spells it).
    pub fn for_file(file: &str) -> FileHash {
        match file.strip_prefix(EDGE_DIR) {
            Some(rest) if rest.starts_with('/') => FileHash::Xxh3(Box::default()),
            _ => FileHash::Sha256(Sha256::new()),
        }
    }

    /// Hashes `bytes`, the next of the file.
    pub fn update(&mut self, bytes: &[u8]) {
        match self {
            FileHash::Sha256(hash) => hash.update(bytes),
            FileHash::Xxh3(hash) => hash.update(bytes),
        }
    }

    /// The tag of the bytes hashed so far.
    pub fn tag(&self) -> String {
        match self {
            FileHash::Sha256(hash) => etag_of_digest(&hash.clone().finalize()),
            FileHash::Xxh3(hash) => format!("{XXH3_TAG}{}\"", hex(&hash.digest128().to_be_bytes())),
        }
    }
}

impl std::fmt::Debug for FileHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileHash::Sha256(_) => "FileHash::Sha256",
            FileHash::Xxh3(_) => "FileHash::Xxh3",
        })
    }
}

/// The tag of the file at `file` (its path in the tree) whose bytes are
/// `bytes`.
pub fn tag_of(file: &str, bytes: &[u8]) -> String {
    let mut hash = FileHash::for_file(file);
    hash.update(bytes);
    hash.tag()
}

/// Whether `tag` is an edge data file's, as this version tags them (a tree
/// of an earlier version tagged them by SHA-256).
pub fn is_edge_tag(tag: &str) -> bool {
    tag.starts_with(XXH3_TAG)
}
