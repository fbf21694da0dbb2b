//! Render stage, data downloads: closed months kept. A download's two files
//! are the encoding of one frame, so when this run builds a part whose
//! frame has the digest ([`Frame::digest`]) the previous tree recorded for
//! that part, and that tree's files still have the bytes it recorded, the
//! files are taken from it (hard links, see [`TreeWriter::link`]) instead
//! of being encoded again. A closed month's frames do not change from one
//! publication to the next, so a run over the next snapshot encodes only
//! the current month and the tables that carry no date.
//!
//! A month of a history table goes further: the record also keeps the
//! digest of what the part was built from (its month's spill files and
//! held checks, `HistoryMonths::sources`) together with this program's
//! identity (its build ID, [`crate::program`]), the encoding and the gzip
//! level. When all of those are unchanged
//! the frame would be too, so the part is kept without being built:
//! building the closed months' frames only to find them unchanged took a
//! large share of a routine run's CPU (bench/HISTORY.md, "Closed months
//! kept without being built"). Another build of the program, even of
//! the same code, builds every part again once, and keeps it by its frame.
//! A first run (or `--fresh`) records no sources: it has nothing to keep by
//! them, so the run after it builds every month once more and records them.
//!
//! The record is `datos-sources.json`, beside the tree's manifest: each
//! part's path without extension, its frame's digest, the digest of its
//! sources (a history table's month), its rows, and the SHA-256 of its two
//! files; or, for a download of one file built from several frames (the
//! SQLite database), the digest of those frames and the file's SHA-256. A first run, `generate --fresh`, a missing or unreadable
//! record, a changed frame, a changed encoding ([`crate::frame::ENCODING`])
//! or a file whose bytes no longer match all mean the part is encoded as
//! usual. Keeping a file never changes what is published: its bytes are
//! the ones encoding the same frame gives.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use tracing::info;

use super::package::{GZIP_LEVEL, Written, hex};
use super::place::placed;
use crate::frame::Frame;
use crate::output::{Kept, TreeWriter};

/// Name of the record beside a tree's manifest.
pub const SOURCES: &str = "datos-sources.json";

/// What a part's files were encoded from, and their digests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Source {
    /// Hex [`Frame::digest`] of the part's frame (or, for a file built
    /// from several, the digest its writer gives them).
    frame: String,
    /// Hex [`Reuse::sources_key`] of what the frame was built from, for a
    /// history table's month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sources: Option<String>,
    /// The frame's rows (absent from a record written before they were
    /// kept: such a part is built again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rows: Option<usize>,
    /// Hex SHA-256 of the gzipped CSV.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    csv: String,
    /// Hex SHA-256 of the Parquet file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    parquet: String,
    /// Hex SHA-256 of a part of one file, by its extension
    /// (`autoprecios.sqlite`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    files: BTreeMap<String, String>,
}

/// A part as [`Reuse::note`] records it.
pub struct Noted<'a> {
    /// Hex [`Frame::digest`] of its frame ([`Reuse::digest`]).
    pub frame: String,
    /// Hex [`Reuse::sources_key`] of what the frame was built from, if known.
    pub sources: Option<String>,
    /// The frame's rows.
    pub rows: usize,
    /// Its gzipped CSV.
    pub csv: &'a Written,
    /// Its Parquet file.
    pub parquet: &'a Written,
}

/// The previous tree's record, and this run's, filled as parts are written.
pub struct Reuse {
    /// The record, by part.
    record: Kept<Source>,
    /// Of those kept, the parts kept without building their frame.
    unbuilt: AtomicUsize,
}

impl Reuse {
    /// The record of the tree `out` replaces.
    pub fn open(out: &TreeWriter) -> Self {
        Reuse {
            record: out.kept(SOURCES),
            unbuilt: AtomicUsize::new(0),
        }
    }

    /// Whether this run has a previous tree's record to keep parts by (not
    /// a first run, nor `--fresh`).
    pub fn follows_a_tree(&self) -> bool {
        self.record.follows_a_tree()
    }

    /// The digest this run records for `frame`.
    pub fn digest(frame: &Frame) -> String {
        hex(&frame.digest(GZIP_LEVEL))
    }

    /// The key this run records for a part built from `sources` (a history
    /// month's `HistoryMonths::sources`): with this program, the encoding
    /// and the gzip level. `None` when the program cannot be read.
    pub fn sources_key(sources: &[u8; 32]) -> Option<String> {
        let program = crate::program::this_program()?;
        let key = blake3::Hasher::new()
            .update(program)
            .update(crate::frame::ENCODING.as_bytes())
            .update(&GZIP_LEVEL.to_le_bytes())
            .update(sources)
            .finalize();
        Some(hex(key.as_bytes()))
    }

    /// The part at `stem` as the previous tree has it, put in this tree and
    /// noted for the next run, when it was built from the same `sources`
    /// ([`Reuse::sources_key`]) and both its files still have their
    /// recorded bytes: its files and rows, its frame never built. `None`
    /// when the part must be built.
    pub fn keep_unbuilt(
        &self,
        out: &TreeWriter,
        stem: &str,
        sources: &str,
    ) -> anyhow::Result<Option<(Written, Written, usize)>> {
        let Some((source, rows)) = self
            .record
            .previous(stem)
            .map(|(_, source)| source)
            .filter(|source| source.sources.as_deref() == Some(sources))
            .and_then(|source| Some((source, source.rows?)))
        else {
            return Ok(None);
        };
        let Some((csv, parquet)) = self.take(out, stem, source)? else {
            return Ok(None);
        };
        self.unbuilt.fetch_add(1, Ordering::Relaxed);
        self.note(
            stem,
            Noted {
                frame: source.frame.clone(),
                sources: Some(sources.to_owned()),
                rows,
                csv: &csv,
                parquet: &parquet,
            },
        )?;
        Ok(Some((csv, parquet, rows)))
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
        match self
            .record
            .previous(stem)
            .filter(|(_, source)| source.frame == digest)
        {
            Some((_, source)) => self.take(out, stem, source),
            None => Ok(None),
        }
    }

    /// The previous tree's files of the part at `stem`, recorded as
    /// `source`, linked into this tree if both still have their bytes.
    fn take(
        &self,
        out: &TreeWriter,
        stem: &str,
        source: &Source,
    ) -> anyhow::Result<Option<(Written, Written)>> {
        let files = [
            (format!("{stem}.csv.gz"), source.csv.as_str()),
            (format!("{stem}.parquet"), source.parquet.as_str()),
        ];
        Ok(self
            .link_kept(out, files)?
            .map(|[csv, parquet]| (csv, parquet)))
    }

    /// The previous tree's `files` (path under `/datos/`, recorded SHA-256),
    /// each linked into this tree with the type of its name, when every one
    /// still has its recorded bytes; `None` (and nothing linked) otherwise.
    fn link_kept<const N: usize>(
        &self,
        out: &TreeWriter,
        files: [(String, &str); N],
    ) -> anyhow::Result<Option<[Written; N]>> {
        let Some(tree) = self.record.previous_tree() else {
            return Ok(None);
        };
        let mut kept = Vec::with_capacity(N);
        for (path, sha256) in &files {
            match out.unchanged(tree, &placed(path).1, &format!("\"{sha256}\"")) {
                Some(unchanged) => kept.push(unchanged),
                None => return Ok(None),
            }
        }
        let mut written = Vec::with_capacity(N);
        for ((path, sha256), unchanged) in files.into_iter().zip(kept) {
            let (url, file) = placed(&path);
            let bytes = unchanged.len;
            let content_type = crate::headers::content_type_of(&file);
            out.link(
                &url,
                &file,
                content_type,
                unchanged,
                format!("\"{sha256}\""),
            )?;
            written.push(Written {
                path,
                bytes,
                sha256: sha256.to_owned(),
            });
        }
        self.record.count_kept();
        Ok(written.try_into().ok())
    }

    /// The single file `<stem>.<extension>` as the previous tree has it,
    /// put in this tree, when it was built from inputs of this `digest`
    /// and still has its recorded bytes; noted for the next run. `None`
    /// when it must be built (and then noted with [`Reuse::note_file`]).
    pub fn keep_file(
        &self,
        out: &TreeWriter,
        stem: &str,
        extension: &str,
        digest: &str,
    ) -> anyhow::Result<Option<Written>> {
        let Some(sha256) = self
            .record
            .previous(stem)
            .filter(|(_, source)| source.frame == digest)
            .and_then(|(_, source)| source.files.get(extension))
        else {
            return Ok(None);
        };
        let Some([written]) = self.link_kept(out, [(format!("{stem}.{extension}"), sha256)])?
        else {
            return Ok(None);
        };
        self.note_file(stem, extension, digest.to_owned(), &written)?;
        Ok(Some(written))
    }

    /// Records the single file of the part at `stem`, built from inputs of
    /// this `digest`, for the next run.
    pub fn note_file(
        &self,
        stem: &str,
        extension: &str,
        digest: String,
        file: &Written,
    ) -> anyhow::Result<()> {
        let source = Source {
            frame: digest,
            sources: None,
            rows: None,
            csv: String::new(),
            parquet: String::new(),
            files: BTreeMap::from([(extension.to_owned(), file.sha256.clone())]),
        };
        self.record(stem, source)
    }

    /// Records the part at `stem`, kept or encoded, for the next run.
    pub fn note(&self, stem: &str, part: Noted) -> anyhow::Result<()> {
        let source = Source {
            frame: part.frame,
            sources: part.sources,
            rows: Some(part.rows),
            csv: part.csv.sha256.clone(),
            parquet: part.parquet.sha256.clone(),
            files: BTreeMap::new(),
        };
        self.record(stem, source)
    }

    fn record(&self, stem: &str, source: Source) -> anyhow::Result<()> {
        self.record.note(stem, source)
    }

    /// Writes this run's record beside the new tree's manifest.
    pub fn finish(self, out: &TreeWriter) -> anyhow::Result<()> {
        let unbuilt = self.unbuilt.into_inner();
        let (kept, parts) = out.write_kept(SOURCES, self.record, true)?;
        info!(
            kept,
            unbuilt, parts, "data download parts kept from the previous tree"
        );
        Ok(())
    }
}
