//! Output stage: the one place that writes files. Builds the tree in a staging
//! directory beside the destination, records every file's URL, content type
//! and ETag in `manifest.json`, and publishes the finished tree in one atomic
//! step (a versioned directory and a symbolic link replaced by a rename), so
//! a failed or killed run leaves the previous tree untouched and served.
//!
//! A tree is four things side by side: `public/`, the directory the CDN
//! publishes (everything it serves, its `_headers` and `_redirects`, and
//! nothing else, so a deploy uploads no file only to hide it), the edge's
//! own data under `_edge/`, `manifest.json`, and what the next run of
//! `generate` reads to keep this tree's unchanged data downloads and pages
//! (`datos-sources.json`, `pages-sources.json`, `market-sources.msgpack`,
//! [`TreeWriter::write_beside`]). Such files are hard links shared by two
//! trees, so no tree is ever written in place.

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::api::json::to_json_bytes;
use crate::manifest::{FileHash, tag_of};

mod compare;
mod entries;
mod kept;
mod publish;
mod stamp;
pub use crate::manifest::{EDGE_DIR, MANIFEST, Manifest, ManifestEntry, PUBLIC_DIR};
use entries::{Hashed, manifest_of, placed};
pub use kept::Kept;
pub use stamp::{STAMPS, Stamp, Unchanged};

/// Writes a tree into a staging directory; [`TreeWriter::commit`] swaps it in.
#[derive(Debug)]
pub struct TreeWriter {
    destination: PathBuf,
    staging: PathBuf,
    entries: Mutex<Vec<ManifestEntry>>,
    /// The staged directories made so far: most files share theirs with
    /// others (a version's page, feed and history), and making it again
    /// was two system calls a file.
    made: Mutex<HashSet<PathBuf>>,
    written: AtomicUsize,
    fail_after: Option<usize>,
    /// `--fresh`: no stage keeps a file of the previous tree.
    fresh: bool,
    /// The stamps of the files a later run may keep, and the previous tree's.
    stamps: stamp::Stamps,
}

impl TreeWriter {
    /// Starts a tree for `destination`, in a fresh `<destination>.staging`.
    /// `fail_after` makes the write after that many files fail: it exists so
    /// tests can prove that a failed run leaves the previous tree in place.
    pub fn create(
        destination: &Path,
        fail_after: Option<usize>,
        fresh: bool,
    ) -> anyhow::Result<Self> {
        let staging = publish::sibling(destination, "staging");
        if staging.exists() {
            fs::remove_dir_all(&staging)
                .with_context(|| format!("removing stale {}", staging.display()))?;
        }
        fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
        Ok(TreeWriter {
            destination: destination.to_owned(),
            staging,
            entries: Mutex::new(Vec::new()),
            made: Mutex::new(HashSet::new()),
            written: AtomicUsize::new(0),
            fail_after,
            fresh,
            stamps: stamp::Stamps::default(),
        })
    }

    /// Writes `bytes` at `file` (relative to the public directory,
    /// `/`-separated; a name under `_edge/` goes beside it, in the edge's
    /// directory) and records it as the answer to `url`.
    pub fn write(
        &self,
        url: &str,
        file: &str,
        content_type: &str,
        bytes: &[u8],
    ) -> anyhow::Result<()> {
        self.write_tagged(url, file, content_type, bytes).map(drop)
    }

    /// [`TreeWriter::write`], returning the file's ETag (its quoted hex
    /// SHA-256), for a caller that publishes the digest too: the data
    /// downloads' checksums, which would otherwise hash every file again.
    pub fn write_tagged(
        &self,
        url: &str,
        file: &str,
        content_type: &str,
        bytes: &[u8],
    ) -> anyhow::Result<String> {
        let (file, path) = self.place(file)?;
        fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        let tag = tag_of(&file, bytes);
        self.record(url, file, content_type, tag)
    }

    /// Writes the file at `file` as `write` gives its bytes (unbuffered:
    /// `write` buffers), hashing them as they pass (for a file too large to
    /// hold: the edge's records), and records it as the answer to `url`;
    /// what `write` returned.
    pub fn write_with<T>(
        &self,
        url: &str,
        file: &str,
        content_type: &str,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
    ) -> anyhow::Result<T> {
        let (file, path) = self.place(file)?;
        let writing = || format!("writing {}", path.display());
        let created = fs::File::create(&path).with_context(writing)?;
        let mut out = Hashed {
            out: created,
            hash: FileHash::for_file(&file),
        };
        let written = write(&mut out).with_context(writing)?;
        self.record(url, file, content_type, out.hash.tag())?;
        Ok(written)
    }

    /// The file at `file` (as [`TreeWriter::write`] names it) of the earlier
    /// tree at `tree`, if it still has the ETag `etag`: trusted unread when
    /// its stamp is the one that tree recorded ([`STAMPS`]), read and hashed
    /// otherwise.
    pub fn unchanged(&self, tree: &Path, file: &str, etag: &str) -> Option<Unchanged> {
        self.stamps.unchanged(tree, &placed(file), etag)
    }

    /// Puts `kept`, a file of an earlier tree whose ETag is `etag`, at
    /// `file` as the answer to `url`: hard-linked, since no tree is ever
    /// written in place, or copied where the file system refuses the link.
    /// Its stamp is noted, for the run after this one.
    pub fn link(
        &self,
        url: &str,
        file: &str,
        content_type: &str,
        kept: Unchanged,
        etag: String,
    ) -> anyhow::Result<()> {
        let (file, path) = self.place(file)?;
        let stamp = if fs::hard_link(&kept.at, &path).is_ok() {
            kept.stamp
        } else {
            fs::copy(&kept.at, &path)
                .with_context(|| format!("copying {} to {}", kept.at.display(), path.display()))?;
            Stamp::of(&path)
        };
        self.stamps.note(file.clone(), stamp);
        self.record(url, file, content_type, etag).map(drop)
    }

    /// Notes the stamp of the file written at `file`, one a later run may
    /// keep ([`TreeWriter::unchanged`]).
    pub fn note_stamp(&self, file: &str) {
        let file = placed(file);
        let stamp = Stamp::of(&self.staging.join(&file));
        self.stamps.note(file, stamp);
    }

    /// Writes `bytes` at `name` in the tree's root, beside the manifest:
    /// a file for a later run of `generate`, neither served nor listed.
    pub fn write_beside(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.staging.join(name);
        fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))
    }

    /// The tree the destination holds now, which this one replaces: a
    /// stage may keep files of it that would come out the same. None on a
    /// first run, and with `--fresh` (every file is made again).
    pub fn previous(&self) -> Option<PathBuf> {
        if self.fresh {
            return None;
        }
        let tree = fs::canonicalize(&self.destination).ok()?;
        tree.join(MANIFEST).is_file().then_some(tree)
    }

    /// A stage's record `name` of what it wrote ([`Kept`]), following the
    /// previous tree's: none on a first run, with `--fresh`, or when that
    /// record is missing (a tree written before it existed) or cannot be
    /// read (logged: the stage then writes every file, as on a first run).
    pub fn kept<T: serde::de::DeserializeOwned>(&self, name: &str) -> Kept<T> {
        let previous = self.previous().and_then(|tree| {
            let path = tree.join(name);
            let bytes = fs::read(&path).ok()?;
            match serde_json::from_slice(&bytes) {
                Ok(record) => Some((tree, record)),
                Err(err) => {
                    tracing::warn!(path = %path.display(), %err, "unreadable record of the previous tree; its files are written again");
                    None
                }
            }
        });
        Kept::new(previous)
    }

    /// Writes this run's record `name` of a stage's files beside the new
    /// tree (JSON, `pretty` or compact as the stage has always written
    /// it); how many files it kept and recorded.
    pub fn write_kept<T: Serialize>(
        &self,
        name: &str,
        kept: Kept<T>,
        pretty: bool,
    ) -> anyhow::Result<(usize, usize)> {
        let (written, count) = kept.finish()?;
        let mut bytes = match pretty {
            true => serde_json::to_vec_pretty(&written),
            false => serde_json::to_vec(&written),
        }
        .with_context(|| format!("serializing {name}"))?;
        bytes.push(b'\n');
        self.write_beside(name, &bytes)?;
        Ok((count, written.len()))
    }

    /// Counts a file about to be written (failing as `fail_after` says),
    /// and makes its directory; its tree path and staged path.
    fn place(&self, file: &str) -> anyhow::Result<(String, PathBuf)> {
        let count = self.written.fetch_add(1, Ordering::SeqCst);
        if self.fail_after.is_some_and(|limit| count >= limit) {
            bail!("injected failure before writing {file}");
        }
        let file = placed(file);
        let path = self.staging.join(&file);
        if let Some(parent) = path.parent() {
            let made = || {
                self.made
                    .lock()
                    .map_err(|_| anyhow::anyhow!("directory set lock poisoned"))
            };
            if !made()?.contains(parent) {
                fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
                made()?.insert(parent.to_owned());
            }
        }
        Ok((file, path))
    }

    /// Lists a written file in the manifest; its ETag.
    fn record(
        &self,
        url: &str,
        file: String,
        content_type: &str,
        etag: String,
    ) -> anyhow::Result<String> {
        let entry = ManifestEntry {
            url: url.to_owned(),
            file,
            content_type: content_type.to_owned(),
            etag,
        };
        let tag = entry.etag.clone();
        self.entries
            .lock()
            .map_err(|_| anyhow::anyhow!("manifest lock poisoned"))?
            .push(entry);
        Ok(tag)
    }

    /// Where the file written at `file` is until the tree is published.
    pub fn staged(&self, file: &str) -> PathBuf {
        self.staging.join(placed(file))
    }

    /// Serializes `value` with the API serializer and writes it as JSON.
    pub fn write_json<T: Serialize + ?Sized>(
        &self,
        url: &str,
        file: &str,
        value: &T,
    ) -> anyhow::Result<()> {
        self.write(url, file, JSON, &to_json_bytes(value))
    }

    /// Writes `value` as MessagePack: one of the edge's own data files
    /// (see [`crate::msgpack`]).
    pub fn write_msgpack<T: Serialize + ?Sized>(
        &self,
        url: &str,
        file: &str,
        value: &T,
    ) -> anyhow::Result<()> {
        self.write_with(url, file, crate::msgpack::CONTENT_TYPE, |out| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
            crate::msgpack::write(&mut out, value).map_err(std::io::Error::other)?;
            out.flush()
        })
        .with_context(|| format!("encoding {file}"))
    }

    /// Removes the staging tree of a run that failed: the published trees
    /// are untouched, and nothing half-written stays beside them. A failure
    /// to remove it is only logged (the next run removes it as stale).
    pub fn abandon(self) {
        if let Err(err) = fs::remove_dir_all(&self.staging) {
            tracing::warn!(staging = %self.staging.display(), %err, "a failed run's staging tree was not removed");
        }
    }

    /// Writes the manifest and publishes the staging tree at the
    /// destination, keeping `keep` earlier trees (see `output::publish`).
    pub fn commit(self, keep: usize) -> anyhow::Result<Manifest> {
        self.commit_beside(keep, |_| Ok(()))
    }

    /// [`TreeWriter::commit`], with `beside` (the last writes beside the
    /// manifest, [`TreeWriter::write_beside`]) run while the manifest and
    /// the stamps are serialized: each is one long serial step at the end
    /// of a run, with the other core otherwise idle.
    pub fn commit_beside(
        self,
        keep: usize,
        beside: impl FnOnce(&Self) -> anyhow::Result<()> + Send,
    ) -> anyhow::Result<Manifest> {
        let files = std::mem::take(
            &mut *self
                .entries
                .lock()
                .map_err(|_| anyhow::anyhow!("manifest lock poisoned"))?,
        );
        let (serialized, beside) = rayon::join(
            || -> anyhow::Result<_> {
                let manifest = manifest_of(files)?;
                let bytes =
                    serde_json::to_vec_pretty(&manifest).context("serializing the manifest")?;
                Ok((manifest, bytes, self.stamps.bytes()?))
            },
            || beside(&self),
        );
        beside?;
        let (manifest, bytes, stamps) = serialized?;
        fs::write(self.staging.join(MANIFEST), &bytes).context("writing the manifest")?;
        fs::write(self.staging.join(STAMPS), stamps).context("writing the stamps")?;
        publish::publish(&self.staging, &self.destination, &bytes, keep)?;
        Ok(manifest)
    }
}

/// Earlier trees `generate` keeps by default: the one an edge may still
/// serve until it reloads, and one more to roll back to.
pub const DEFAULT_KEEP: usize = 2;

/// JSON content type of every API response.
pub use crate::headers::JSON;

/// A directory beside the tree at `destination` (`<destination>.scratch`)
/// for a run's temporary files: on the same disk as the tree, never
/// published. The run creates it and removes it.
pub fn scratch_for(destination: &Path) -> PathBuf {
    publish::sibling(destination, "scratch")
}
