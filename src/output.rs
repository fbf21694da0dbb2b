//! Output stage: the one place that writes files. Builds the tree in a staging
//! directory beside the destination, records every file's URL, content type
//! and ETag in `manifest.json`, and swaps the finished tree in, so a failed
//! run leaves the previous tree untouched.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::api::json::{etag, to_json_bytes};
pub use crate::manifest::{MANIFEST, Manifest, ManifestEntry};

/// Writes a tree into a staging directory; [`TreeWriter::commit`] swaps it in.
#[derive(Debug)]
pub struct TreeWriter {
    destination: PathBuf,
    staging: PathBuf,
    entries: Mutex<Vec<ManifestEntry>>,
    written: AtomicUsize,
    fail_after: Option<usize>,
}

impl TreeWriter {
    /// Starts a tree for `destination`, in a fresh `<destination>.staging`.
    /// `fail_after` makes the write after that many files fail: it exists so
    /// tests can prove that a failed run leaves the previous tree in place.
    pub fn create(destination: &Path, fail_after: Option<usize>) -> anyhow::Result<Self> {
        let staging = sibling(destination, "staging");
        if staging.exists() {
            fs::remove_dir_all(&staging)
                .with_context(|| format!("removing stale {}", staging.display()))?;
        }
        fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
        Ok(TreeWriter {
            destination: destination.to_owned(),
            staging,
            entries: Mutex::new(Vec::new()),
            written: AtomicUsize::new(0),
            fail_after,
        })
    }

    /// Writes `bytes` at `file` (relative, `/`-separated) and records it as the
    /// answer to `url`.
    pub fn write(
        &self,
        url: &str,
        file: &str,
        content_type: &str,
        bytes: &[u8],
    ) -> anyhow::Result<()> {
        let count = self.written.fetch_add(1, Ordering::SeqCst);
        if self.fail_after.is_some_and(|limit| count >= limit) {
            bail!("injected failure before writing {file}");
        }
        let path = self.staging.join(file);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        let entry = ManifestEntry {
            url: url.to_owned(),
            file: file.to_owned(),
            content_type: content_type.to_owned(),
            etag: etag(bytes),
        };
        self.entries
            .lock()
            .map_err(|_| anyhow::anyhow!("manifest lock poisoned"))?
            .push(entry);
        Ok(())
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

    /// Writes the manifest and swaps the staging tree in for the destination.
    pub fn commit(self) -> anyhow::Result<Manifest> {
        let mut files = self
            .entries
            .into_inner()
            .map_err(|_| anyhow::anyhow!("manifest lock poisoned"))?;
        files.sort();
        if let Some(pair) = files.windows(2).find(|pair| pair[0].url == pair[1].url) {
            bail!(
                "two files answer {}: {} and {}",
                pair[0].url,
                pair[0].file,
                pair[1].file
            );
        }
        let manifest = Manifest { files };
        let bytes = serde_json::to_vec_pretty(&manifest).context("serializing the manifest")?;
        fs::write(self.staging.join(MANIFEST), bytes).context("writing the manifest")?;
        swap_in(&self.staging, &self.destination)?;
        Ok(manifest)
    }
}

/// JSON content type of every API response.
pub const JSON: &str = "application/json";

/// `<destination>.<suffix>` beside the destination.
fn sibling(destination: &Path, suffix: &str) -> PathBuf {
    let mut name = destination
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "output".into());
    name.push(format!(".{suffix}"));
    destination.with_file_name(name)
}

/// Moves the old tree aside, the new one in, then deletes the old one. A
/// crash between the two renames leaves `<destination>.previous` to restore.
fn swap_in(staging: &Path, destination: &Path) -> anyhow::Result<()> {
    let previous = sibling(destination, "previous");
    if previous.exists() {
        fs::remove_dir_all(&previous)
            .with_context(|| format!("removing {}", previous.display()))?;
    }
    if destination.exists() {
        fs::rename(destination, &previous)
            .with_context(|| format!("moving {} aside", destination.display()))?;
    }
    fs::rename(staging, destination)
        .with_context(|| format!("moving the new tree to {}", destination.display()))?;
    if previous.exists() {
        fs::remove_dir_all(&previous)
            .with_context(|| format!("removing {}", previous.display()))?;
    }
    Ok(())
}
