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
//! held checks, `HistoryMonths::sources`) together with this program's own
//! bytes, the encoding and the gzip level. When all of those are unchanged
//! the frame would be too, so the part is kept without being built: at
//! 30,000 versions, building the closed months' frames only to find them
//! unchanged took a quarter of a routine run's CPU (BENCHMARKS.md, "Closed
//! months kept without being built"). Another build of the program, even of
//! the same code, builds every part again once, and keeps it by its frame.
//! A first run (or `--fresh`) records no sources: it has nothing to keep by
//! them, so the run after it builds every month once more and records them.
//!
//! The record is `datos-sources.json`, beside the tree's manifest: each
//! part's path without extension, its frame's digest, the digest of its
//! sources (a history table's month), its rows, and the SHA-256 of its two
//! files. A first run, `generate --fresh`, a missing or unreadable
//! record, a changed frame, a changed encoding ([`crate::frame::ENCODING`])
//! or a file whose bytes no longer match all mean the part is encoded as
//! usual. Keeping a file never changes what is published: its bytes are
//! the ones encoding the same frame gives.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::Digest;
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
    /// Hex [`Reuse::sources_key`] of what the frame was built from, for a
    /// history table's month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sources: Option<String>,
    /// The frame's rows (absent from a record written before they were
    /// kept: such a part is built again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rows: Option<usize>,
    /// Hex SHA-256 of the gzipped CSV.
    csv: String,
    /// Hex SHA-256 of the Parquet file.
    parquet: String,
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

/// This program's identity, read once a run: the code that builds a frame
/// from its sources is part of what decides it. `None` when the program
/// cannot be read (then nothing is kept unbuilt).
fn this_program() -> Option<&'static [u8; 32]> {
    static DIGEST: OnceLock<Option<[u8; 32]>> = OnceLock::new();
    DIGEST
        .get_or_init(|| {
            program_identity()
                .inspect_err(|err| warn!(%err, "this program cannot be read; every month of the history is built"))
                .ok()
        })
        .as_ref()
}

/// The SHA-256 of the running program's build ID (the hash of its contents
/// that the linker writes into an ELF note), or of its whole file where it
/// has none. The file is the one running even if it was replaced since
/// (`/proc/self/exe`); a build with debug information is hundreds of
/// megabytes, which hashing whole costs a third of a second of CPU.
fn program_identity() -> std::io::Result<[u8; 32]> {
    use std::io::Read;
    let path = Path::new("/proc/self/exe");
    let mut file = fs::File::open(path).or_else(|_| fs::File::open(std::env::current_exe()?))?;
    let mut head = Vec::with_capacity(1 << 16);
    (&mut file).take(1 << 16).read_to_end(&mut head)?;
    let mut hash = sha2::Sha256::new();
    match elf_build_id(&head) {
        Some(id) => hash.update([b"build id".as_slice(), id].concat()),
        None => {
            hash.update(b"file");
            hash.update(&head);
            let mut chunk = vec![0; 1 << 20];
            loop {
                match file.read(&mut chunk)? {
                    0 => break,
                    n => hash.update(&chunk[..n]),
                }
            }
        }
    }
    Ok(hash.finalize().into())
}

/// The GNU build ID of a little-endian 64-bit ELF file, from the first
/// bytes of the file (`head`), where the linker puts its notes; `None` for
/// any other file, or when the note is not within `head`.
fn elf_build_id(head: &[u8]) -> Option<&[u8]> {
    const PT_NOTE: u32 = 4;
    const NT_GNU_BUILD_ID: u32 = 3;
    let bytes = |at: usize, n: usize| head.get(at..at.checked_add(n)?);
    let u16_at = |at| Some(u16::from_le_bytes(bytes(at, 2)?.try_into().ok()?));
    let u32_at = |at| Some(u32::from_le_bytes(bytes(at, 4)?.try_into().ok()?));
    let u64_at = |at| usize::try_from(u64::from_le_bytes(bytes(at, 8)?.try_into().ok()?)).ok();
    // ELF magic, 64-bit, little-endian.
    if bytes(0, 6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (table, entry, count) = (u64_at(0x20)?, usize::from(u16_at(0x36)?), u16_at(0x38)?);
    (0..usize::from(count)).find_map(|index| {
        let header = table.checked_add(index.checked_mul(entry)?)?;
        if u32_at(header)? != PT_NOTE {
            return None;
        }
        let (start, size) = (u64_at(header + 8)?, u64_at(header + 32)?);
        let mut at = start;
        // Each note: name size, description size, type, then the name and
        // the description, each padded to 4 bytes.
        while at.checked_add(12)? <= start.checked_add(size)? {
            let (name, desc, kind) = (
                u32_at(at)? as usize,
                u32_at(at + 4)? as usize,
                u32_at(at + 8)?,
            );
            let name_at = at + 12;
            let desc_at = name_at.checked_add(name.next_multiple_of(4))?;
            if kind == NT_GNU_BUILD_ID && bytes(name_at, name)? == b"GNU\0" && desc > 0 {
                return bytes(desc_at, desc);
            }
            at = desc_at.checked_add(desc.next_multiple_of(4))?;
        }
        None
    })
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
    /// Of those kept, the parts kept without building their frame.
    unbuilt: AtomicUsize,
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
            unbuilt: AtomicUsize::new(0),
        }
    }

    /// Whether this run has a previous tree's record to keep parts by (not
    /// a first run, nor `--fresh`).
    pub fn follows_a_tree(&self) -> bool {
        self.previous.is_some()
    }

    /// The digest this run records for `frame`.
    pub fn digest(frame: &Frame) -> String {
        hex(&frame.digest(super::GZIP_LEVEL))
    }

    /// The key this run records for a part built from `sources` (a history
    /// month's `HistoryMonths::sources`): with this program, the encoding
    /// and the gzip level. `None` when the program cannot be read.
    pub fn sources_key(sources: &[u8; 32]) -> Option<String> {
        let program = this_program()?;
        let key = sha2::Sha256::new()
            .chain_update(program)
            .chain_update(crate::frame::ENCODING)
            .chain_update(super::GZIP_LEVEL.to_le_bytes())
            .chain_update(sources)
            .finalize();
        Some(hex(&key))
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
        let Some((_, record)) = &self.previous else {
            return Ok(None);
        };
        let Some((source, rows)) = record
            .get(stem)
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
        let Some((_, record)) = &self.previous else {
            return Ok(None);
        };
        match record.get(stem).filter(|source| source.frame == digest) {
            Some(source) => self.take(out, stem, source),
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
        let Some((tree, _)) = &self.previous else {
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
    pub fn note(&self, stem: &str, part: Noted) -> anyhow::Result<()> {
        let source = Source {
            frame: part.frame,
            sources: part.sources,
            rows: Some(part.rows),
            csv: part.csv.sha256.clone(),
            parquet: part.parquet.sha256.clone(),
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
            unbuilt = self.unbuilt.into_inner(),
            parts = written.len(),
            "data download parts kept from the previous tree"
        );
        let mut bytes =
            serde_json::to_vec_pretty(&written).context("serializing the download record")?;
        bytes.push(b'\n');
        out.write_beside(SOURCES, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-bit little-endian ELF head with one PT_NOTE segment holding
    /// `notes` (type, name, description).
    fn elf(notes: &[(u32, &[u8], &[u8])]) -> Vec<u8> {
        let mut note = Vec::new();
        for (kind, name, desc) in notes {
            note.extend((name.len() as u32).to_le_bytes());
            note.extend((desc.len() as u32).to_le_bytes());
            note.extend(kind.to_le_bytes());
            for part in [*name, *desc] {
                note.extend(part);
                note.resize(note.len().next_multiple_of(4), 0);
            }
        }
        let mut head = vec![0u8; 0x40];
        head[..6].copy_from_slice(b"\x7fELF\x02\x01");
        head[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes()); // program headers
        head[0x36..0x38].copy_from_slice(&56u16.to_le_bytes()); // each 56 bytes
        head[0x38..0x3a].copy_from_slice(&2u16.to_le_bytes()); // two of them
        let mut load = vec![0u8; 56];
        load[..4].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
        let mut notes_header = vec![0u8; 56];
        notes_header[..4].copy_from_slice(&4u32.to_le_bytes()); // PT_NOTE
        notes_header[8..16].copy_from_slice(&(0x40u64 + 112).to_le_bytes());
        notes_header[32..40].copy_from_slice(&(note.len() as u64).to_le_bytes());
        [head, load, notes_header, note].concat()
    }

    #[test]
    fn the_build_id_is_read_from_the_gnu_note_of_an_elf_file() {
        // 20 bytes, as the linker's SHA-1 gives: the file ends with it.
        let id: &[u8] =
            b"\x40\x5c\xae\x3a\xf1\x57\xfc\x02\x56\x56\x40\x5c\xae\x3a\xf1\x57\xfc\x02\x56\x56";
        // After another note (an ABI tag, type 1), as linkers lay them out.
        let file = elf(&[(1, b"GNU\0", &[0, 0, 0, 0]), (3, b"GNU\0", id)]);
        assert_eq!(elf_build_id(&file), Some(id));
        // Another owner's note of the same type, or no such note: none.
        assert_eq!(elf_build_id(&elf(&[(3, b"Go\0\0", id)])), None);
        assert_eq!(elf_build_id(&elf(&[(1, b"GNU\0", id)])), None);
        // Cut short, 32-bit, or not ELF at all: none, and no panic.
        for len in 0..file.len() {
            assert_eq!(elf_build_id(&file[..len]), None, "{len} bytes");
        }
        let mut class32 = file.clone();
        class32[4] = 1;
        assert_eq!(elf_build_id(&class32), None);
        assert_eq!(elf_build_id(b"#!/bin/sh\n"), None);
    }

    #[test]
    fn the_running_program_has_one_identity() {
        // Linked here with a build ID, which is read rather than the file
        // hashed whole.
        let head = fs::read("/proc/self/exe").expect("this program reads");
        assert!(elf_build_id(&head[..1 << 16]).is_some_and(|id| !id.is_empty()));
        let first = program_identity().expect("this program reads");
        assert_eq!(program_identity().expect("reads again"), first);
        assert_eq!(this_program(), Some(&first));
    }
}
