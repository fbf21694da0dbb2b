//! Output stage, what a run keeps of the tree it replaces: the one record
//! service of the stages that keep files (the site's pages,
//! `render::site::kept`; the data downloads, `render::datos::reuse`). A
//! stage's record is a map beside the tree's manifest, from each file (or
//! part) it wrote to what the file was made from and its digests: read
//! from the previous tree when the run starts, filled as the stage writes
//! or keeps each file, written beside the new tree at the end. What an
//! entry holds, and when it lets a file be kept, is the stage's.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One stage's record: the previous tree's, and this run's.
#[derive(Debug)]
pub struct Kept<T> {
    /// The previous tree and its record (none on a first run, with
    /// `--fresh`, or when the record cannot be read).
    previous: Option<(PathBuf, HashMap<String, T>)>,
    written: Mutex<BTreeMap<String, T>>,
    kept: AtomicUsize,
}

impl<T> Kept<T> {
    /// A record that follows `previous` (the tree and its record, if any).
    pub fn new(previous: Option<(PathBuf, HashMap<String, T>)>) -> Self {
        Kept {
            previous,
            written: Mutex::new(BTreeMap::new()),
            kept: AtomicUsize::new(0),
        }
    }

    /// Whether there is a previous tree's record to keep files by.
    pub fn follows_a_tree(&self) -> bool {
        self.previous.is_some()
    }

    /// The previous tree, and its entry for `name`, if it recorded one.
    pub fn previous(&self, name: &str) -> Option<(&Path, &T)> {
        let (tree, record) = self.previous.as_ref()?;
        Some((tree.as_path(), record.get(name)?))
    }

    /// The previous tree, when there is a record of it.
    pub fn previous_tree(&self) -> Option<&Path> {
        self.previous.as_ref().map(|(tree, _)| tree.as_path())
    }

    /// Counts a file (or part) kept from the previous tree.
    pub fn count_kept(&self) {
        self.kept.fetch_add(1, Ordering::Relaxed);
    }

    /// Records `entry` for `name` in this run's record.
    pub fn note(&self, name: &str, entry: T) -> anyhow::Result<()> {
        self.written
            .lock()
            .map_err(|_| anyhow::anyhow!("record lock poisoned"))?
            .insert(name.to_owned(), entry);
        Ok(())
    }

    /// This run's record, and how many files it kept.
    pub fn finish(self) -> anyhow::Result<(BTreeMap<String, T>, usize)> {
        let written = self
            .written
            .into_inner()
            .map_err(|_| anyhow::anyhow!("record lock poisoned"))?;
        Ok((written, self.kept.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_finds_the_previous_entries_and_gives_this_runs_in_order() {
        let previous = HashMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]);
        let kept = Kept::new(Some((PathBuf::from("/tree"), previous)));
        assert!(kept.follows_a_tree());
        assert_eq!(kept.previous("b"), Some((Path::new("/tree"), &2)));
        assert_eq!(kept.previous("c"), None);
        kept.note("z", 9).expect("noted");
        kept.note("a", 1).expect("noted");
        kept.count_kept();
        let (written, count) = kept.finish().expect("finished");
        assert_eq!(
            written.into_iter().collect::<Vec<_>>(),
            [("a".to_owned(), 1), ("z".to_owned(), 9)]
        );
        assert_eq!(count, 1);
        let first = Kept::<u8>::new(None);
        assert!(!first.follows_a_tree());
        assert_eq!(first.previous_tree(), None);
    }
}
