//! Edge stage, loading: reads the files of a tree the manifest lists, each
//! checked against the manifest's ETag. A reload holds the old tree beside
//! the new one, so what a load holds besides the tree is on top of two
//! trees. Read whole and all at once, the manifest (37 MB at 28,937
//! versions), the edge data (62), the records (90) and the page fragments
//! (49) lifted a load's peak to 323 MiB for a tree of 219. Now the big
//! files that come late stream, hashed as they are parsed (the edge data)
//! or scanned (the records), with no copy in memory; the manifest and the
//! page fragments, read first while little of the tree is in memory, are
//! read whole, as `serde_json` parses a slice about three times as fast as
//! a stream. A load's peak is its tree (221 MiB), and a reload's two trees
//! (432 MiB).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use crate::manifest::MANIFEST;

/// One file of the tree as the manifest lists it, by URL or by file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticEntry {
    /// Its path in the tree, `/`-separated.
    pub file: String,
    /// Its `Content-Type`.
    pub content_type: String,
    /// The ETag of its bytes when it was written.
    pub etag: String,
}

/// Bytes read from a file at a time.
const CHUNK: usize = 256 * 1024;

/// A reader that hashes every byte it reads.
#[derive(Debug)]
pub struct Hashing<R> {
    inner: R,
    hasher: Sha256,
}

impl<R> Hashing<R> {
    /// Hashes what is read from `inner`.
    pub fn new(inner: R) -> Self {
        Hashing {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// What it reads from.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The ETag of the bytes read so far, as [`crate::api::json::etag`]
    /// spells it.
    pub fn etag(&self) -> String {
        let digest = self.hasher.clone().finalize();
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        format!("\"{hex}\"")
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.hasher.update(&buf[..read]);
        Ok(read)
    }
}

/// A listed file, open for one pass over its bytes.
pub type Stream = BufReader<Hashing<File>>;

/// A file of the tree that the manifest lists, open for reading.
#[derive(Debug)]
pub struct ListedFile {
    /// Where it is.
    pub path: PathBuf,
    etag: String,
    stream: Stream,
}

impl ListedFile {
    /// Opens the file the manifest lists for `url`; `None` when it lists none.
    pub fn open(
        root: &Path,
        by_url: &HashMap<String, Arc<StaticEntry>>,
        url: &str,
    ) -> anyhow::Result<Option<ListedFile>> {
        let Some(listed) = by_url.get(url) else {
            return Ok(None);
        };
        let path = root.join(&listed.file);
        let file = File::open(&path).with_context(|| format!("opening {}", path.display()))?;
        Ok(Some(ListedFile {
            etag: listed.etag.clone(),
            stream: BufReader::with_capacity(CHUNK, Hashing::new(file)),
            path,
        }))
    }

    /// The open file again (sharing its open file description), to read
    /// from later: a file the path names after a swap would not be the one
    /// whose bytes were checked.
    pub fn try_clone_file(&self) -> anyhow::Result<File> {
        self.stream
            .get_ref()
            .get_ref()
            .try_clone()
            .with_context(|| format!("opening {} again", self.path.display()))
    }

    /// Runs `read` over the file's bytes, reads the rest if it stopped
    /// early, and checks them against the manifest: a file that is not the
    /// one it describes (a partial copy, or a tree swapped in meanwhile) is
    /// that error, whatever `read` made of it.
    pub fn read_checked<T>(
        mut self,
        read: impl FnOnce(&mut Stream, &Path) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let outcome = read(&mut self.stream, &self.path);
        io::copy(&mut self.stream, &mut io::sink())
            .with_context(|| format!("reading {}", self.path.display()))?;
        if self.stream.get_ref().etag() != self.etag {
            bail!(
                "{} does not match the ETag {MANIFEST} lists for it (a partial copy, or a tree swapped in while loading)",
                self.path.display()
            );
        }
        outcome
    }

    /// Parses the file as JSON as it is read (see
    /// [`ListedFile::read_checked`]): no copy of the file in memory, at
    /// about three times the time of [`ListedFile::parse_whole`].
    pub fn parse_streamed<T: DeserializeOwned>(self) -> anyhow::Result<T> {
        self.read_checked(|stream, path| {
            serde_json::from_reader(stream).with_context(|| format!("parsing {}", path.display()))
        })
    }

    /// Reads the file whole, checks it and parses it as JSON: for a file
    /// read while little of the tree is in memory.
    pub fn parse_whole<T: DeserializeOwned>(mut self) -> anyhow::Result<T> {
        let mut bytes = Vec::new();
        self.stream
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading {}", self.path.display()))?;
        self.read_checked(|_, path| {
            serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
        })
    }

    /// Reads the file whole as UTF-8 text: for the small ones.
    pub fn text(self) -> anyhow::Result<String> {
        self.read_checked(|stream, path| {
            let mut text = String::new();
            stream
                .read_to_string(&mut text)
                .with_context(|| format!("reading {} (is it UTF-8?)", path.display()))?;
            Ok(text)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::json::etag;

    #[test]
    fn the_hashing_reader_spells_the_etag_of_what_it_read() {
        let bytes = b"{\"a\": [1, 2, 3]}\n".repeat(1000);
        let mut reader = Hashing::new(&bytes[..]);
        io::copy(&mut reader, &mut io::sink()).expect("read");
        assert_eq!(reader.etag(), etag(&bytes));
    }
}
