//! Edge stage, loading: reads the files of a tree the manifest lists, each
//! checked against the manifest's ETag. A reload holds the old tree beside
//! the new one, so what a load holds besides the tree is on top of two
//! trees: the edge's data files (`_edge/`) stream, hashed as they are
//! skimmed (the page fragments) or scanned (the records), with no copy in
//! memory; only the edge data, decoded whole, is read whole first
//! ([`read_whole`]), since it decodes faster from memory.
//!
//! They are read at the place `generate` writes them (their URL's path
//! under the tree) while the manifest is parsed, each on a thread of its
//! own ([`read_early`]), and held to what the manifest lists once it is
//! ([`EarlyRead::check`]): a load waits for the slowest file, not for the
//! sum of them.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::edge::listing::Listing;
use crate::manifest::{FileHash, MANIFEST, is_edge_tag};
use anyhow::{Context, bail};

/// Bytes read from a file at a time.
const CHUNK: usize = 256 * 1024;

/// A reader that hashes every byte it reads, as the manifest tags the
/// file it reads ([`FileHash`]).
#[derive(Debug)]
pub struct Hashing<R> {
    inner: R,
    hasher: FileHash,
}

impl<R> Hashing<R> {
    /// Hashes what is read from `inner`, the file at `file` (its path in
    /// the tree).
    pub fn new(inner: R, file: &str) -> Self {
        Hashing {
            inner,
            hasher: FileHash::for_file(file),
        }
    }

    /// What it reads from.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The tag of the bytes read so far, as the manifest spells it.
    pub fn etag(&self) -> String {
        self.hasher.tag()
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

/// Reads the rest of `stream` into memory, in one buffer of the file's
/// size: for a file decoded whole, which decodes faster from memory than
/// through the stream.
pub fn read_whole(stream: &mut Stream) -> io::Result<Whole> {
    let size = stream.get_ref().get_ref().metadata()?.len();
    Whole::read(stream, size)
}

/// A file read whole into memory, in an anonymous map asking for huge
/// pages where the system gives them on request: filling tens of
/// megabytes of fresh small pages faulted each one in (bench/HISTORY.md,
/// "Loading into fewer pages").
#[derive(Debug)]
pub struct Whole {
    bytes: memmap2::MmapMut,
    size: usize,
}

impl Whole {
    /// Reads `size` bytes from `reader`, its file's size; a shorter file
    /// is an error. A file grown since its size was taken is read to that
    /// size, which its tag (the edge data) or its parse (the manifest) then
    /// refuses.
    pub fn read(mut reader: impl Read, size: u64) -> io::Result<Whole> {
        let size = usize::try_from(size).map_err(io::Error::other)?;
        // A map of no bytes is refused.
        let mut bytes = memmap2::MmapOptions::new().len(size.max(1)).map_anon()?;
        // Advice only: without huge pages the read takes small ones.
        let _ = bytes.advise(memmap2::Advice::HugePage);
        reader.read_exact(&mut bytes[..size])?;
        Ok(Whole { bytes, size })
    }
}

impl std::ops::Deref for Whole {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..self.size]
    }
}

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
    pub fn open(root: &Path, listing: &Listing, url: &str) -> anyhow::Result<Option<ListedFile>> {
        let Some(listed) = listing.by_url(url) else {
            return Ok(None);
        };
        let path = root.join(listed.file);
        let file = File::open(&path).with_context(|| format!("opening {}", path.display()))?;
        Ok(Some(ListedFile {
            etag: listed.etag.to_owned(),
            stream: BufReader::with_capacity(CHUNK, Hashing::new(file, listed.file)),
            path,
        }))
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

/// An edge data file read before the manifest was parsed: what reading it
/// made, and the ETag of its bytes; `None` when there is no such file.
#[derive(Debug)]
pub struct EarlyRead<T> {
    path: PathBuf,
    read: anyhow::Result<Option<(anyhow::Result<T>, String)>>,
}

/// Runs `read` over the bytes of the file that `generate` writes for `url`
/// (its path under `root`), reads the rest if it stopped early, and keeps
/// the outcome with the ETag of the bytes, for [`EarlyRead::check`].
pub fn read_early<T>(
    root: &Path,
    url: &str,
    read: impl FnOnce(&mut Stream, &Path) -> anyhow::Result<T>,
) -> EarlyRead<T> {
    let path = root.join(url.trim_start_matches('/'));
    let outcome = match File::open(&path) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(anyhow::Error::new(err).context(format!("opening {}", path.display()))),
        Ok(file) => {
            let tree_path = url.trim_start_matches('/');
            let mut stream = BufReader::with_capacity(CHUNK, Hashing::new(file, tree_path));
            let value = read(&mut stream, &path);
            io::copy(&mut stream, &mut io::sink())
                .with_context(|| format!("reading {}", path.display()))
                .map(|_| Some((value, stream.get_ref().etag())))
        }
    };
    EarlyRead {
        path,
        read: outcome,
    }
}

impl<T> EarlyRead<T> {
    /// What was read, if the manifest lists the file for `url` with the
    /// ETag of the bytes read; `None` when it lists nothing for `url`. A
    /// file that is not the one the manifest describes (a partial copy, or a
    /// tree swapped in while loading) is that error, whatever reading made
    /// of it.
    pub fn check(self, root: &Path, listing: &Listing, url: &str) -> anyhow::Result<Option<T>> {
        let Some(listed) = listing.by_url(url) else {
            return Ok(None);
        };
        if root.join(listed.file) != self.path {
            bail!(
                "{} lists {} for {url}, this server reads {}: regenerate the tree with this version",
                root.join(MANIFEST).display(),
                listed.file,
                self.path.display()
            );
        }
        let Some((value, etag)) = self.read? else {
            bail!("opening {}: no such file", self.path.display());
        };
        if is_edge_tag(&etag) != is_edge_tag(listed.etag) {
            bail!(
                "{} tags {} as an earlier version did: regenerate the tree with this version",
                root.join(MANIFEST).display(),
                listed.file
            );
        }
        if etag != listed.etag {
            bail!(
                "{} does not match the ETag {MANIFEST} lists for it (a partial copy, or a tree swapped in while loading)",
                self.path.display()
            );
        }
        value.map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::json::etag;

    #[test]
    fn the_hashing_reader_spells_the_tag_of_what_it_read() {
        let bytes = b"{\"a\": [1, 2, 3]}\n".repeat(1000);
        let read = |file: &str| {
            let mut reader = Hashing::new(&bytes[..], file);
            io::copy(&mut reader, &mut io::sink()).expect("read");
            reader.etag()
        };
        // A public file by its SHA-256, the ETag it is sent with.
        assert_eq!(read("public/api/v1/index.json"), etag(&bytes));
        // An edge data file by its XXH3-128, computed here independently.
        let xxh3 = xxhash_rust::xxh3::xxh3_128(&bytes);
        assert_eq!(read("_edge/records.jsonl"), format!("\"xxh3-{xxh3:032x}\""));
        assert!(is_edge_tag(&read("_edge/records.jsonl")));
        // A public file whose name begins like the edge's directory.
        assert_eq!(read("public/_edgeless.json"), etag(&bytes));
        assert_eq!(read("_edgeless/x.json"), etag(&bytes));
    }

    #[test]
    fn a_file_read_whole_is_its_bytes_and_a_short_one_an_error() {
        let bytes = b"{\"a\": [1, 2, 3]}\n".repeat(1000);
        let whole = Whole::read(&bytes[..], bytes.len() as u64).expect("read");
        assert_eq!(&whole[..], &bytes[..]);
        let empty = Whole::read(&b""[..], 0).expect("an empty file");
        assert!(empty.is_empty());
        let short = Whole::read(&bytes[..10], 11).expect_err("shorter than its size");
        assert_eq!(short.kind(), io::ErrorKind::UnexpectedEof);
    }
}
