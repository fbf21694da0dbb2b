//! Snapshot stage, republishing the history: the spill the loader writes,
//! `YYYY-MM.msgpack` a month (UTC), each with the BLAKE3 digest of its bytes
//! beside it (`YYYY-MM.msgpack.blake3`), which the month's sources read
//! (`sources.rs`) instead of reading the file back.
//!
//! The loader encodes each row into its month's buffer, and a thread of
//! the spill's own writes the full buffers and hashes them: the writes and
//! the digest were a large share of the load's serial stretch, beside
//! polars' decoding, which leaves a core idle now and then.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use anyhow::{Context, Result, anyhow};
use serde::Serialize;

use super::months::{Month, month_file, month_of};
use crate::snapshot::model::SourceQuote;
use crate::time::Time;
use crate::vocab::Currency;

/// A quote to spill, borrowed: the same fields in the same order as
/// [`super::months::Row`].
#[derive(Serialize)]
struct RowRef<'a> {
    version_id: &'a str,
    checked_at_ns: i64,
    quote_id: &'a str,
    amount: f64,
    currency: Currency,
    fees_included: Option<bool>,
    color: Option<&'a str>,
    stock: Option<i64>,
    location: Option<&'a str>,
    seller_id: Option<&'a str>,
}

/// What a spill file's digest begins with, so that an empty file's differs
/// from a month with no file.
const DIGEST_PREFIX: &[u8] = b"file";

/// How many encoded bytes of a month go to the writer at once: rows go out
/// in few writes, and the digest is taken over slices large enough for
/// BLAKE3's wide path. Every month's buffer is held while `quotes` is read
/// (its rows come by version), so this is held once a month of history:
/// 64 KiB, 3.4 MB at 1,600 days (larger buffers held more there, for no
/// measurable time).
const BUFFER: usize = 1 << 16;

/// Buffers on their way to the writer: enough that the loader rarely
/// waits, few enough to hold nothing that grows.
const IN_FLIGHT: usize = 4;

/// Where the loader writes the quotes of the earlier checks (and then the
/// earlier checks themselves, `spill_earlier_checks`), by the month (UTC)
/// of each one's check.
pub(in crate::snapshot) struct Spill {
    /// Each month's rows encoded and not yet sent.
    pending: HashMap<Month, Vec<u8>>,
    /// To the writer; `None` once finished.
    to_writer: Option<SyncSender<(Month, Vec<u8>)>>,
    writer: Option<JoinHandle<Result<()>>>,
}

impl Spill {
    /// A spill into `dir`, emptied first.
    pub(in crate::snapshot) fn create(dir: &Path) -> Result<Spill> {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("removing stale {}", dir.display()))?;
        }
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let (to_writer, buffers) = sync_channel(IN_FLIGHT);
        let dir = dir.to_owned();
        let writer = std::thread::Builder::new()
            .name("spill".to_owned())
            .spawn(move || write_files(&dir, &buffers))
            .context("starting the spill's writer")?;
        Ok(Spill {
            pending: HashMap::new(),
            to_writer: Some(to_writer),
            writer: Some(writer),
        })
    }

    /// Appends the quote of version `version_id` checked at `at`.
    pub(in crate::snapshot) fn add(
        &mut self,
        version_id: &str,
        at: Time,
        quote: &SourceQuote,
    ) -> Result<()> {
        let row = RowRef {
            version_id,
            checked_at_ns: at
                .timestamp_nanos_opt()
                .context("invariant: a check time is within the nanosecond range")?,
            quote_id: &quote.id,
            amount: quote.price.amount,
            currency: quote.price.currency,
            fees_included: quote.fees_included,
            color: quote.color.as_deref(),
            stock: quote.stock,
            location: quote.location.as_deref(),
            seller_id: quote.seller_id.as_deref(),
        };
        self.write_row(at, &row)
    }

    /// Appends `row` to the file of the month (UTC) of `at`.
    pub(super) fn write_row(&mut self, at: Time, row: &impl Serialize) -> Result<()> {
        let month = month_of(at);
        let buffer = self
            .pending
            .entry(month)
            .or_insert_with(|| Vec::with_capacity(BUFFER));
        rmp_serde::encode::write(buffer, row).context("spilling a row")?;
        if buffer.len() >= BUFFER {
            let full = std::mem::replace(buffer, Vec::with_capacity(BUFFER));
            self.send(month, full)?;
        }
        Ok(())
    }

    /// Sends `bytes` of `month` to the writer; its error if it stopped.
    fn send(&mut self, month: Month, bytes: Vec<u8>) -> Result<()> {
        let sent = self
            .to_writer
            .as_ref()
            .ok_or_else(|| anyhow!("invariant: a finished spill is not written to"))?
            .send((month, bytes));
        match sent {
            Ok(()) => Ok(()),
            // The writer hung up: it failed, and says why when joined;
            // these bytes are lost either way, so this is an error even
            // if it somehow says nothing.
            Err(_) => Err(self.join().err().unwrap_or_else(|| {
                anyhow!("the spill's writer stopped before the spill was finished")
            })),
        }
    }

    /// Waits for the writer (the channel closed first); what it returned.
    fn join(&mut self) -> Result<()> {
        self.to_writer = None;
        match self.writer.take() {
            Some(writer) => writer
                .join()
                .map_err(|_| anyhow!("the spill's writer panicked"))?,
            None => Ok(()),
        }
    }

    /// Writes out what is buffered, and each file's digest beside it.
    pub(in crate::snapshot) fn finish(mut self) -> Result<()> {
        for (month, bytes) in std::mem::take(&mut self.pending) {
            self.send(month, bytes)?;
        }
        self.join()
    }
}

impl Drop for Spill {
    /// A spill dropped unfinished (the load failed) still lets its writer end.
    fn drop(&mut self) {
        let _ = self.join();
    }
}

/// The writer's side: appends each buffer to its month's file, hashing it,
/// until the loader hangs up; then writes every digest beside its file.
fn write_files(dir: &Path, buffers: &Receiver<(Month, Vec<u8>)>) -> Result<()> {
    let mut files: HashMap<Month, (File, blake3::Hasher)> = HashMap::new();
    for (month, bytes) in buffers {
        let path = || dir.join(month_file(month));
        let (file, hash) = match files.entry(month) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let file = File::create(path())
                    .with_context(|| format!("creating {}", path().display()))?;
                let mut hash = blake3::Hasher::new();
                hash.update(DIGEST_PREFIX);
                entry.insert((file, hash))
            }
        };
        file.write_all(&bytes)
            .with_context(|| format!("writing {}", path().display()))?;
        hash.update(&bytes);
    }
    for (month, (_, hash)) in files {
        let digest = digest_path(&dir.join(month_file(month)));
        fs::write(&digest, hash.finalize().as_bytes())
            .with_context(|| format!("writing {}", digest.display()))?;
    }
    Ok(())
}

/// Where the BLAKE3 digest of the spill file at `path` is written: 32 bytes,
/// of `file` and then the file's bytes (`sources::spill_digest`).
pub(super) fn digest_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".blake3");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file the writer cannot create fails the spill with its path, at
    /// the latest when the spill is finished, and nothing hangs.
    #[test]
    fn a_file_that_cannot_be_written_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut spill = Spill::create(dir.path()).expect("a spill");
        let at = crate::time::parse_time("2026-01-15T12:00:00Z").expect("a time");
        // A directory where January's file would go.
        fs::create_dir(dir.path().join("2026-01.msgpack")).expect("in the way");
        let row = (1_u32, "row");
        let mut failed = None;
        for _ in 0..(BUFFER * (IN_FLIGHT + 2) / 8) {
            if let Err(err) = spill.write_row(at, &row) {
                failed = Some(err);
                break;
            }
        }
        let err = match failed {
            Some(err) => err,
            None => spill.finish().expect_err("the file cannot be created"),
        };
        let message = format!("{err:#}");
        assert!(
            message.contains("creating") && message.contains("2026-01.msgpack"),
            "{message}"
        );
    }
}
