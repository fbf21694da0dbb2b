//! Output stage, files kept from an earlier tree: whether such a file still
//! has the bytes its record says. A stage that keeps files (unchanged
//! pages, closed months' downloads) records each one's ETag; the tree
//! records each such file's [`Stamp`] in [`STAMPS`], beside its manifest.
//! The next run trusts a file whose stamp is unchanged, as `make`, `rsync`
//! and `git` trust an unchanged stat, and reads and hashes any other.
//! Reading and hashing every kept file was a measurable share of a routine
//! run's CPU (bench/HISTORY.md, "Kept files trusted by their stamp").
//!
//! The stamps are the file system's, not the snapshot's: the one file of a
//! tree that two runs over the same snapshot do not write the same, never
//! published. A wrong or missing stamp costs a read, never a wrong file.
//! What a stamp does not see: a file changed in place to the same length
//! within the file system's clock tick of its last write, or changed and
//! given its old modification time back on purpose. Kept files belong to
//! published trees, which nothing writes in place (a deploy reads them, a
//! run writes only its own staging directory), so neither happens but by
//! hand; `generate --fresh` reads nothing of the earlier tree.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::api::json::etag;

/// What the file system says of a file: its inode, length and modification
/// time. A hard link keeps all three; writing the file, cutting it short or
/// putting another file at its path changes at least one. Recorded as a
/// JSON array `[inode, length, seconds, nanoseconds]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp(u64, u64, i64, u32);

impl Stamp {
    /// The stamp of the file at `at`; `None` where it cannot be read, or on
    /// a system without inodes (every kept file is then read).
    pub fn of(at: &Path) -> Option<Stamp> {
        let meta = fs::metadata(at).ok()?;
        Self::of_metadata(&meta)
    }

    #[cfg(unix)]
    fn of_metadata(meta: &fs::Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let nanos = u32::try_from(meta.mtime_nsec()).ok()?;
        Some(Stamp(meta.ino(), meta.len(), meta.mtime(), nanos))
    }

    #[cfg(not(unix))]
    fn of_metadata(_: &fs::Metadata) -> Option<Stamp> {
        None
    }

    /// The file's length in bytes.
    fn bytes(&self) -> usize {
        usize::try_from(self.1).unwrap_or(usize::MAX)
    }
}

/// Name of the file beside a tree's manifest with the stamps of the files
/// a later run may keep: a JSON object from each file's path in the tree to
/// its stamp.
pub const STAMPS: &str = "stamps.json";

/// A file of an earlier tree that still has its recorded bytes.
#[derive(Debug, Clone)]
pub struct Unchanged {
    /// Where it is.
    pub(super) at: PathBuf,
    /// Its length in bytes.
    pub len: usize,
    /// Its stamp now (`None` where stamps cannot be read).
    pub(super) stamp: Option<Stamp>,
}

/// The stamps of the tree a run replaces (read when first asked) and of
/// the files of its own tree that a later run may keep.
#[derive(Debug, Default)]
pub(super) struct Stamps {
    previous: OnceLock<HashMap<String, Stamp>>,
    written: Mutex<BTreeMap<String, Stamp>>,
}

impl Stamps {
    /// The file at `file` (its path in a tree) of the earlier tree at
    /// `tree`, if it still has the ETag `recorded` ([`still_published`]).
    /// Every call of a run names the same tree, the one it replaces.
    pub(super) fn unchanged(&self, tree: &Path, file: &str, recorded: &str) -> Option<Unchanged> {
        let previous = self.previous.get_or_init(|| {
            let path = tree.join(STAMPS);
            // Missing from a tree written before stamps: every file is read.
            let Ok(bytes) = fs::read(&path) else {
                return HashMap::new();
            };
            serde_json::from_slice(&bytes).unwrap_or_else(|err| {
                tracing::warn!(path = %path.display(), %err, "unreadable stamps of the previous tree; its kept files are read again");
                HashMap::new()
            })
        });
        still_published(&tree.join(file), recorded, previous.get(file).copied())
    }

    /// Notes `stamp` as that of this tree's `file`.
    pub(super) fn note(&self, file: String, stamp: Option<Stamp>) {
        if let (Some(stamp), Ok(mut written)) = (stamp, self.written.lock()) {
            written.insert(file, stamp);
        }
    }

    /// The [`STAMPS`] file of this tree.
    pub(super) fn bytes(&self) -> anyhow::Result<Vec<u8>> {
        let written = self
            .written
            .lock()
            .map_err(|_| anyhow::anyhow!("stamp lock poisoned"))?;
        Ok(serde_json::to_vec(&*written)?)
    }
}

/// The file at `at`, a file of an earlier tree, if it still has the ETag
/// `recorded`: trusted without reading when its stamp is `stamp`, read
/// and hashed otherwise, so a file changed or cut short since it was
/// recorded is written again, never published again. The earlier tree is
/// the one being served, so a file of it that is gone or changed is logged
/// for a maintainer's look.
fn still_published(at: &Path, recorded: &str, stamp: Option<Stamp>) -> Option<Unchanged> {
    let now = Stamp::of(at);
    if let Some(now) = now
        && stamp == Some(now)
    {
        return Some(Unchanged {
            at: at.to_owned(),
            len: now.bytes(),
            stamp: Some(now),
        });
    }
    match fs::read(at) {
        Ok(bytes) if etag(&bytes) == recorded => {
            return Some(Unchanged {
                at: at.to_owned(),
                len: bytes.len(),
                stamp: now,
            });
        }
        Ok(_) => {
            tracing::warn!(file = %at.display(), "a file of the previous tree no longer has its published bytes; it is written again")
        }
        Err(err) => {
            tracing::warn!(file = %at.display(), %err, "a file of the previous tree cannot be read; it is written again")
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_its_stamp_is_trusted_unread_and_any_other_is_read() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let at = dir.path().join("page.html");
        fs::write(&at, b"<p>hola</p>").expect("the file system");
        let stamp = Stamp::of(&at).expect("its stamp");
        assert_eq!(stamp.bytes(), 11);

        // Unread: a wrong ETag is not noticed while the stamp holds.
        let trusted = still_published(&at, "\"not-its-etag\"", Some(stamp)).expect("trusted");
        assert_eq!((trusted.len, trusted.stamp), (11, Some(stamp)));
        // Without a stamp, or with another, the bytes decide.
        assert!(still_published(&at, "\"not-its-etag\"", None).is_none());
        let read = still_published(&at, &etag(b"<p>hola</p>"), None).expect("the file system");
        assert_eq!((read.len, read.stamp), (11, Some(stamp)));
        let other = Stamp(stamp.0, stamp.1, stamp.2 - 1, stamp.3);
        assert!(still_published(&at, "\"not-its-etag\"", Some(other)).is_none());
    }

    #[test]
    fn writing_a_file_or_putting_another_at_its_path_changes_its_stamp() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let at = dir.path().join("page.html");
        fs::write(&at, b"<p>hola</p>").expect("the file system");
        let first = Stamp::of(&at).expect("its stamp");

        // Another file of the same length, renamed over it: another inode.
        let other = dir.path().join("other.html");
        fs::write(&other, b"<p>chau</p>").expect("the file system");
        fs::rename(&other, &at).expect("the file system");
        let replaced = Stamp::of(&at).expect("its stamp");
        assert_ne!(replaced, first);
        assert!(still_published(&at, &etag(b"<p>hola</p>"), Some(first)).is_none());

        // Cut short in place: another length.
        fs::OpenOptions::new()
            .write(true)
            .open(&at)
            .expect("the file system")
            .set_len(4)
            .expect("the file system");
        assert_ne!(Stamp::of(&at).expect("its stamp"), replaced);

        // A hard link is the same file: the same stamp.
        let link = dir.path().join("link.html");
        fs::hard_link(&at, &link).expect("the file system");
        assert_eq!(Stamp::of(&link), Stamp::of(&at));
    }

    #[test]
    fn a_missing_file_is_not_published() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let at = dir.path().join("gone.html");
        assert!(Stamp::of(&at).is_none());
        assert!(still_published(&at, &etag(b""), None).is_none());
    }
}
