//! Render stage, data downloads: closed months kept. A download's two files
//! are the encoding of one frame, so when this run builds a part whose
//! frame has the digest ([`Frame::digest`]) the previous tree recorded for
//! that part, and that tree's files still have the bytes it recorded, the
//! files are taken from it (hard links, see [`TreeWriter::link`]) instead
//! of being encoded again. A closed month's frames do not change from one
//! publication to the next, so a run over the next snapshot encodes only
//! the current month and the tables that carry no date.
//!
//! The record is `datos-sources.json`, beside the tree's manifest: each
//! part's path without extension, its frame's digest, and the SHA-256 of
//! its two files. A first run, `generate --fresh`, a missing or unreadable
//! record, a changed frame, a changed encoding ([`crate::frame::ENCODING`])
//! or a file whose bytes no longer match all mean the part is encoded as
//! usual. Keeping a file never changes what is published: its bytes are
//! the ones encoding the same frame gives.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tracing::{info, warn};

use super::package::{Written, hex, sha256_hex};
use super::{GZIP, PARQUET, placed};
use crate::frame::Frame;
use crate::output::{PUBLIC_DIR, TreeWriter};

/// Name of the record beside a tree's manifest.
pub const SOURCES: &str = "datos-sources.json";

/// What a part's files were encoded from, and their digests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Source {
    /// Hex [`Frame::digest`] of the part's frame.
    frame: String,
    /// Hex SHA-256 of the gzipped CSV.
    csv: String,
    /// Hex SHA-256 of the Parquet file.
    parquet: String,
}

/// The size of the file at `at` if its bytes still have the SHA-256
/// `sha256`: every byte is read, so a file changed or cut short since it
/// was written is encoded again, never published again.
fn unchanged(at: &Path, sha256: &str) -> Option<usize> {
    // The previous tree is the one being served: a file of it that is gone
    // or changed is worth a maintainer's look, not only a new encoding.
    match fs::read(at) {
        Ok(bytes) if sha256_hex(&bytes) == sha256 => return Some(bytes.len()),
        Ok(_) => {
            warn!(file = %at.display(), "a file of the previous tree no longer has its published bytes; its part is encoded again")
        }
        Err(err) => {
            warn!(file = %at.display(), %err, "a file of the previous tree cannot be read; its part is encoded again")
        }
    }
    None
}

/// The previous tree's record, and this run's, filled as parts are written.
pub struct Reuse {
    /// The previous tree and its record (none on a first run, with
    /// `--fresh`, or when the record cannot be read).
    previous: Option<(PathBuf, BTreeMap<String, Source>)>,
    written: Mutex<BTreeMap<String, Source>>,
    kept: AtomicUsize,
}

impl Reuse {
    /// The record of the tree `out` replaces, unless `fresh`.
    pub fn open(out: &TreeWriter, fresh: bool) -> Self {
        let previous = out.previous().filter(|_| !fresh).and_then(|tree| {
            let path = tree.join(SOURCES);
            // A tree written before the record existed has none: every
            // part is encoded, as on a first run.
            let bytes = fs::read(&path).ok()?;
            match serde_json::from_slice(&bytes) {
                Ok(record) => Some((tree, record)),
                Err(err) => {
                    warn!(path = %path.display(), %err, "unreadable record of the previous tree's downloads; every part is encoded");
                    None
                }
            }
        });
        Reuse {
            previous,
            written: Mutex::new(BTreeMap::new()),
            kept: AtomicUsize::new(0),
        }
    }

    /// The digest this run records for `frame`.
    pub fn digest(frame: &Frame) -> String {
        hex(&frame.digest(super::GZIP_LEVEL))
    }

    /// The part at `stem` (`snapshot/quotes/2026-03`) as the previous tree
    /// has it, put in this tree, when it was encoded from a frame with this
    /// `digest` and both its files still have their recorded bytes; `None`
    /// when the part must be encoded.
    pub fn keep(
        &self,
        out: &TreeWriter,
        stem: &str,
        digest: &str,
    ) -> anyhow::Result<Option<(Written, Written)>> {
        let Some((tree, record)) = &self.previous else {
            return Ok(None);
        };
        let Some(source) = record.get(stem).filter(|source| source.frame == digest) else {
            return Ok(None);
        };
        let file = |ext: &str| {
            let path = format!("{stem}.{ext}");
            let at = tree.join(PUBLIC_DIR).join(placed(&path).1);
            (path, at)
        };
        let (csv, parquet) = (file("csv.gz"), file("parquet"));
        let (Some(csv_bytes), Some(parquet_bytes)) = (
            unchanged(&csv.1, &source.csv),
            unchanged(&parquet.1, &source.parquet),
        ) else {
            return Ok(None);
        };
        let put =
            |(path, at): (String, PathBuf), bytes: usize, sha256: &str, content_type: &str| {
                let (url, file) = placed(&path);
                out.link(&url, &file, content_type, &at, format!("\"{sha256}\""))
                    .with_context(|| format!("keeping {}", at.display()))?;
                anyhow::Ok(Written {
                    path,
                    bytes,
                    sha256: sha256.to_owned(),
                })
            };
        let csv = put(csv, csv_bytes, &source.csv, GZIP)?;
        let parquet = put(parquet, parquet_bytes, &source.parquet, PARQUET)?;
        self.kept.fetch_add(1, Ordering::Relaxed);
        Ok(Some((csv, parquet)))
    }

    /// Records the part at `stem`, kept or encoded, for the next run.
    pub fn note(
        &self,
        stem: &str,
        digest: String,
        csv: &Written,
        parquet: &Written,
    ) -> anyhow::Result<()> {
        let source = Source {
            frame: digest,
            csv: csv.sha256.clone(),
            parquet: parquet.sha256.clone(),
        };
        self.written
            .lock()
            .map_err(|_| anyhow::anyhow!("download record lock poisoned"))?
            .insert(stem.to_owned(), source);
        Ok(())
    }

    /// Writes this run's record beside the new tree's manifest.
    pub fn finish(self, out: &TreeWriter) -> anyhow::Result<()> {
        let written = self
            .written
            .into_inner()
            .map_err(|_| anyhow::anyhow!("download record lock poisoned"))?;
        info!(
            kept = self.kept.into_inner(),
            parts = written.len(),
            "data download parts kept from the previous tree"
        );
        let mut bytes =
            serde_json::to_vec_pretty(&written).context("serializing the download record")?;
        bytes.push(b'\n');
        out.write_beside(SOURCES, &bytes)
    }
}
