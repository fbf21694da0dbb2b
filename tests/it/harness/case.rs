//! A test case's own directory, built in steps in the manner of mdBook's
//! `BookTest`: a fresh directory under `CARGO_TARGET_TMPDIR` named for the
//! case (kept after a failure, to look at; cleaned when the case runs
//! again), a snapshot in it (the shared fixture's, or one written from a
//! model, either edited by hand), then `generate` as a library call or the
//! real binary run in it, with what it prints masked for pinning.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use autoprecios::generate::{GenerateOptions, generate};
use autoprecios::output::Manifest;
use autoprecios::snapshot::{Snapshot, TableFormat, write_snapshot};

use super::tree::{copy_tree, fixture, options};

/// One case: a directory holding `data/` (its snapshot) and, once
/// generated, `output/`.
pub struct Case {
    dir: PathBuf,
}

impl Case {
    /// A fresh, empty directory for case `name` of test module `group`.
    pub fn new(group: &str, name: &str) -> Case {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(group)
            .join(name);
        if dir.exists() {
            fs::remove_dir_all(&dir).expect("clean the case's directory");
        }
        fs::create_dir_all(&dir).expect("the case's directory");
        Case { dir }
    }

    /// With a copy of the shared fixture's snapshot (CSV) as `data/`.
    pub fn with_fixture_data(self) -> Case {
        copy_tree(&fixture().data, &self.data());
        self
    }

    /// With `snapshot` written as `data/` in `format`.
    pub fn with_snapshot(self, snapshot: &Snapshot, format: TableFormat) -> Case {
        write_snapshot(snapshot, &self.data(), format).expect("write the case's snapshot");
        self
    }

    /// With a text file of the snapshot edited.
    pub fn edit(self, file: &str, edit: impl FnOnce(String) -> String) -> Case {
        let path = self.data().join(file);
        let text = fs::read_to_string(&path).expect("a text file of the snapshot");
        fs::write(&path, edit(text)).expect("write");
        self
    }

    /// The case's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Its snapshot directory.
    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Its output directory.
    pub fn out(&self) -> PathBuf {
        self.dir.join("output")
    }

    /// The options `generate` is run with here: the fixture's, `data/` into
    /// `output/`, changed by `change`.
    pub fn options(&self, change: impl FnOnce(&mut GenerateOptions)) -> GenerateOptions {
        let mut options = options(&self.data(), &self.out());
        change(&mut options);
        options
    }

    /// `generate` as a library call with [`Case::options`].
    pub fn generate(&self, change: impl FnOnce(&mut GenerateOptions)) -> anyhow::Result<Manifest> {
        generate(&self.options(change))
    }

    /// Runs `autoprecios ARGS` in the case's directory: whether it
    /// succeeded, and its stderr as pinned ([`Case::masked`]).
    pub fn run(&self, args: &[&str]) -> (bool, String) {
        let output = Command::new(env!("CARGO_BIN_EXE_autoprecios"))
            .args(args)
            .current_dir(&self.dir)
            .env("RUST_LOG", "warn")
            .env("NO_COLOR", "1")
            .output()
            .expect("run autoprecios");
        let stderr = String::from_utf8_lossy(&output.stderr);
        (output.status.success(), self.masked(&stderr))
    }

    /// `text` with the case's directory as `$DIR`, each log line's leading
    /// timestamp dropped, and the hours since the fixture's snapshot (which
    /// grow with the wall clock) as `N`.
    pub fn masked(&self, text: &str) -> String {
        text.replace(&self.dir.display().to_string(), "$DIR")
            .lines()
            .map(|line| {
                let line = match line.split_once("Z  ") {
                    Some((stamp, rest)) if stamp.len() > 18 && stamp.starts_with("20") => rest,
                    _ => line,
                };
                mask_hours(line)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `… is 69 hours old …` and `… is 69.2 hours old …` as `is N hours old`.
fn mask_hours(line: &str) -> String {
    let Some(end) = line.find(" hours old") else {
        return line.to_owned();
    };
    let start = line[..end].rfind("is ").map_or(end, |at| at + 3);
    format!("{}N{}", &line[..start], &line[end..])
}
