//! Output stage, a file's entry in the tree: where a file goes (the edge's
//! directory or the public one), the manifest of the entries (sorted, no
//! URL answered twice), and the writer that hashes what it writes.

use std::io::Write;

use crate::manifest::{EDGE_DIR, FileHash, Manifest, ManifestEntry, PUBLIC_DIR};
use anyhow::bail;

/// The manifest of `files`: sorted, no URL answered twice.
pub(super) fn manifest_of(mut files: Vec<ManifestEntry>) -> anyhow::Result<Manifest> {
    files.sort();
    if let Some(pair) = files.windows(2).find(|pair| pair[0].url == pair[1].url) {
        bail!(
            "two files answer {}: {} and {}",
            pair[0].url,
            pair[0].file,
            pair[1].file
        );
    }
    Ok(Manifest { files })
}

/// Where a file of the tree goes: the edge's files in its own directory,
/// every other one in the public directory.
pub(super) fn placed(file: &str) -> String {
    if file.starts_with(&format!("{EDGE_DIR}/")) {
        file.to_owned()
    } else {
        format!("{PUBLIC_DIR}/{file}")
    }
}

/// A writer that hashes what it passes on.
pub(super) struct Hashed<W> {
    /// Where the bytes go.
    pub out: W,
    /// The hash of what went.
    pub hash: FileHash,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.hash.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
