//! The command line as a maintainer meets it: the real binary run in a
//! directory of its own under `CARGO_TARGET_TMPDIR`, set up by a small
//! builder (a snapshot, broken one way or another), with what it prints on
//! failure pinned whole, the temporary path and the wall clock's figures
//! masked. A changed message is a reviewed snapshot diff.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{copy_tree, fixture};

/// One command-line case: a directory, a snapshot in it, and runs.
struct Cli {
    dir: PathBuf,
}

impl Cli {
    /// A fresh directory named for the case, holding a copy of the
    /// fixture's snapshot as `data/`.
    fn new(case: &str) -> Cli {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("cli")
            .join(case);
        if dir.exists() {
            fs::remove_dir_all(&dir).expect("clean the case's directory");
        }
        copy_tree(&fixture().data, &dir.join("data"));
        Cli { dir }
    }

    /// Edits a file of the snapshot.
    fn edit(self, file: &str, edit: impl FnOnce(String) -> String) -> Cli {
        let path = self.dir.join("data").join(file);
        let text = fs::read_to_string(&path).expect("a text file of the snapshot");
        fs::write(&path, edit(text)).expect("write");
        self
    }

    /// Runs `autoprecios ARGS` in the case's directory: whether it
    /// succeeded, and its stderr as pinned.
    fn run(&self, args: &[&str]) -> (bool, String) {
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
    fn masked(&self, text: &str) -> String {
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

#[test]
fn check_and_generate_say_what_is_wrong() {
    let ok = Cli::new("ok");
    let cases: Vec<(&str, (bool, String))> = vec![
        (
            "check, stale past --max-age",
            ok.run(&["check", "data", "--max-age", "24"]),
        ),
        ("check, no such directory", ok.run(&["check", "nowhere"])),
        (
            "generate, a loopback edge behind a public site under --strict",
            ok.run(&[
                "generate",
                "--base-url",
                "https://autoprecios.example",
                "--strict",
            ]),
        ),
        (
            "generate, a relative base URL",
            ok.run(&["generate", "--base-url", "autoprecios.example"]),
        ),
        (
            "check, a price that is not a number",
            Cli::new("bad-price")
                .edit("catalogue_prices.csv", |text| {
                    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                    let header: Vec<&str> = lines[0].split(',').collect();
                    let column = header
                        .iter()
                        .position(|name| *name == "price")
                        .expect("price");
                    let mut row: Vec<String> = lines[2].split(',').map(str::to_owned).collect();
                    row[column] = "12O00".to_owned();
                    lines[2] = row.join(",");
                    lines.join("\n") + "\n"
                })
                .run(&["check", "data"]),
        ),
        (
            "sample, --end between checks",
            ok.run(&[
                "sample",
                "--versions",
                "1",
                "--end",
                "2026-11-21T21:00:00Z",
                "--out",
                "s",
            ]),
        ),
    ];
    let mut pinned = String::new();
    for (name, (success, stderr)) in &cases {
        assert!(!success, "{name} must fail");
        pinned.push_str(&format!(
            "## {name} ({})\n{stderr}\n\n",
            if *success { "ok" } else { "fails" }
        ));
    }
    insta::assert_snapshot!(pinned);
}
