//! The data downloads kept from the previous tree (`render::datos::reuse`):
//! a closed month's files keep their bytes, the next run links them rather
//! than encoding them again (and, when what the month is built from is
//! unchanged, without building it), and a run publishes exactly what a
//! fresh run does whatever it kept.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use autoprecios::generate::generate;
use autoprecios::render::datos::months::Month;
use autoprecios::render::datos::reuse::SOURCES;
use autoprecios::snapshot::load_snapshot;

use crate::harness::{Fixture, fixture, options, read_tree};

/// The history tables, cut into months.
const HISTORY: [&str; 3] = ["controles", "snapshot/quote_checks", "snapshot/quotes"];

/// The publication before the fixture's: its snapshot without the checks of
/// its last month, generated; and that month.
fn month_before() -> (Fixture, Month) {
    let later = load_snapshot(&fixture().data).expect("the fixture snapshot");
    let last_check = later
        .versions
        .iter()
        .filter_map(|v| v.checks.last())
        .map(|c| c.observed_at)
        .max()
        .expect("checks");
    let current = Month::of(last_check);
    (Fixture::generated(&until(current.start)), current)
}

/// The fixture snapshot without the checks at or after `cut`.
fn until(cut: autoprecios::time::Time) -> autoprecios::snapshot::Snapshot {
    let mut earlier = load_snapshot(&fixture().data).expect("the fixture snapshot");
    for version in &mut earlier.versions {
        version.checks.retain(|check| check.observed_at < cut);
    }
    earlier
}

/// The inode of a file: the same for two hard links to one file.
fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(path).expect("metadata"))
}

#[test]
fn a_closed_months_files_keep_their_bytes_when_the_next_snapshot_adds_checks() {
    let (earlier, current) = month_before();
    let mut compared = 0;
    for table in HISTORY {
        let folder = |tree: &Path| tree.join("public/datos").join(table);
        for entry in fs::read_dir(folder(&earlier.out)).expect("parts") {
            let name = entry.expect("entry").file_name();
            let before = fs::read(folder(&earlier.out).join(&name)).expect("read");
            let after =
                fs::read(folder(&fixture().out).join(&name)).expect("the month is still there");
            assert!(before == after, "{table}/{name:?} changed");
            compared += 1;
        }
        for ext in ["csv.gz", "parquet"] {
            let file = format!("{}.{ext}", current.label);
            assert!(
                folder(&fixture().out).join(&file).is_file(),
                "{table}/{file}"
            );
            assert!(!folder(&earlier.out).join(&file).exists(), "{table}/{file}");
        }
    }
    assert!(
        compared >= 3 * 2 * 5,
        "several closed months compared: {compared}"
    );
}

#[test]
fn the_next_run_keeps_the_closed_months_files_and_publishes_what_a_fresh_run_does() {
    // The fixture's snapshot generated over the publication before it.
    let (earlier, current) = month_before();
    let previous = fs::canonicalize(&earlier.out).expect("the earlier tree");
    generate(&options(&fixture().data, &earlier.out)).expect("generate over it");
    assert!(
        published(&earlier.out) == published(&fixture().out),
        "the tree (its download record included) is the fresh run's, byte for byte"
    );
    let mut kept = 0;
    for table in HISTORY {
        let folder = |tree: &Path| tree.join("public/datos").join(table);
        for entry in fs::read_dir(folder(&previous)).expect("parts") {
            let name = entry.expect("entry").file_name();
            assert_eq!(
                inode(&folder(&earlier.out).join(&name)),
                inode(&folder(&previous).join(&name)),
                "{table}/{name:?} is the previous tree's file"
            );
            kept += 1;
        }
        let file = format!("{}.csv.gz", current.label);
        assert!(folder(&earlier.out).join(&file).is_file(), "{table}/{file}");
    }
    assert!(kept >= 3 * 2 * 5, "several closed months kept: {kept}");
    // The tables carrying every version's signals change with the month.
    let versiones = |tree: &Path| inode(&tree.join("public/datos/versiones.parquet"));
    assert_ne!(versiones(&earlier.out), versiones(&previous));
}

#[test]
fn the_sqlite_database_is_kept_from_the_same_frames_and_built_again_when_its_bytes_changed() {
    let (earlier, _) = month_before();
    let file = |tree: &Path| tree.join("public/datos/autoprecios.sqlite");
    let tree = || fs::canonicalize(&earlier.out).expect("the tree");
    // The same snapshot again: the same frames, the previous tree's file.
    let first = tree();
    generate(&options(&earlier.data, &earlier.out)).expect("generate again");
    let second = tree();
    assert_eq!(inode(&file(&second)), inode(&file(&first)));
    let source = &record(&second)["autoprecios"];
    let bytes = fs::read(file(&second)).expect("read");
    assert_eq!(
        source["files"]["sqlite"],
        autoprecios::render::datos::package::sha256_hex(&bytes)
    );
    // Cut short by a hand: built again, whole.
    fs::write(file(&second), &bytes[..4096]).expect("cut short");
    generate(&options(&earlier.data, &earlier.out)).expect("generate again");
    let third = tree();
    assert_ne!(inode(&file(&third)), inode(&file(&second)));
    assert!(
        fs::read(file(&third)).expect("read") == bytes,
        "built again, whole"
    );
    // The next snapshot: other frames, the file a fresh run writes.
    generate(&options(&fixture().data, &earlier.out)).expect("generate over it");
    assert!(
        fs::read(file(&tree())).expect("read") == fs::read(file(&fixture().out)).expect("read"),
        "the fresh run's file"
    );
}

#[test]
fn a_part_changed_since_it_was_written_or_a_fresh_run_encodes_again() {
    let (earlier, _) = month_before();
    let previous = fs::canonicalize(&earlier.out).expect("the earlier tree");
    let quotes = |tree: &Path| tree.join("public/datos/snapshot/quotes");
    let mut months: Vec<_> = fs::read_dir(quotes(&previous))
        .expect("parts")
        .map(|entry| entry.expect("entry").file_name())
        .filter(|name| name.to_string_lossy().ends_with(".csv.gz"))
        .collect();
    months.sort();
    // One closed month's CSV cut short, as a full disk or a hand would.
    let (cut, kept) = (&months[0], &months[1]);
    let bytes = fs::read(quotes(&previous).join(cut)).expect("read");
    fs::write(quotes(&previous).join(cut), &bytes[..bytes.len() - 1]).expect("cut short");
    generate(&options(&fixture().data, &earlier.out)).expect("generate over it");
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    assert!(
        fs::read(quotes(&next).join(cut)).expect("read") == bytes,
        "encoded again, whole"
    );
    assert_ne!(
        inode(&quotes(&next).join(cut)),
        inode(&quotes(&previous).join(cut))
    );
    // A part is kept whole or not at all: its Parquet twin is encoded again too.
    let twin = |name: &std::ffi::OsStr| name.to_string_lossy().replace(".csv.gz", ".parquet");
    assert_ne!(
        inode(&quotes(&next).join(twin(cut))),
        inode(&quotes(&previous).join(twin(cut)))
    );
    assert_eq!(
        inode(&quotes(&next).join(kept)),
        inode(&quotes(&previous).join(kept)),
        "the other months are kept"
    );
    assert!(published(&earlier.out) == published(&fixture().out));
    // With --fresh, nothing is kept.
    let (earlier, _) = month_before();
    let previous = fs::canonicalize(&earlier.out).expect("the earlier tree");
    let fresh = autoprecios::generate::GenerateOptions {
        fresh: true,
        ..options(&fixture().data, &earlier.out)
    };
    generate(&fresh).expect("fresh run");
    let next = fs::canonicalize(&earlier.out).expect("the fresh tree");
    assert_ne!(
        inode(&quotes(&next).join(kept)),
        inode(&quotes(&previous).join(kept))
    );
    assert!(published(&earlier.out) == published(&fixture().out));
}

/// A tree's files, with what its download record keeps for the next run
/// alone left out: a first run records no month's sources.
fn published(tree: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = read_tree(tree);
    let mut record = record(tree);
    for source in record.values_mut() {
        let part = source.as_object().expect("a part").iter();
        let kept = part.filter(|(key, _)| *key != "sources");
        *source = kept
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
    }
    let record = serde_json::to_vec(&record).expect("serialize");
    files.insert(SOURCES.to_owned(), record);
    files
}

/// The record beside a tree of what each download part was built from.
fn record(tree: &Path) -> serde_json::Map<String, serde_json::Value> {
    let path = tree.join(SOURCES);
    let bytes = fs::read(&path).expect("the download record");
    serde_json::from_slice(&bytes).expect("a JSON object")
}

/// A digest no frame and no sources ever have.
const NOWHERE: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[test]
fn a_month_built_from_what_the_previous_trees_was_is_kept_without_being_built() {
    let (earlier, current) = month_before();
    // A first run records no sources; a run over a tree does: the
    // publication before the fixture's over the one before it.
    let first = record(&earlier.out);
    assert!(first.values().all(|source| source.get("sources").is_none()));
    let earlier = {
        let older = Fixture::generated(&until(current.start - chrono::Duration::days(1)));
        generate(&options(&earlier.data, &older.out)).expect("generate over the one before");
        older
    };
    let previous = fs::canonicalize(&earlier.out).expect("the earlier tree");
    let mut before = record(&previous);
    let history = |stem: &str| HISTORY.iter().any(|t| stem.starts_with(&format!("{t}/")));
    // The parts of two files (the SQLite database is one file, kept by the
    // test below).
    for (stem, source) in before.iter().filter(|(stem, _)| *stem != "autoprecios") {
        assert!(source["rows"].is_u64(), "{stem}: {source}");
        assert_eq!(
            source["sources"].is_string(),
            history(stem),
            "{stem}: {source}"
        );
    }
    let mut closed: Vec<&String> = before
        .keys()
        .filter(|stem| stem.starts_with("snapshot/quotes/") && !stem.ends_with(&current.label))
        .collect();
    closed.sort();
    let (unbuilt, rebuilt) = (closed[0].clone(), closed[1].clone());
    // A recorded frame that no build gives: only a part that is not built
    // can be kept with it. Recorded sources this run's differ from: the
    // part is built, and kept because its frame is the same.
    before[&unbuilt]["frame"] = NOWHERE.into();
    before[&rebuilt]["sources"] = NOWHERE.into();
    let bytes = serde_json::to_vec(&before).expect("serialize");
    fs::write(
        previous.join(autoprecios::render::datos::reuse::SOURCES),
        bytes,
    )
    .expect("write");
    generate(&options(&fixture().data, &earlier.out)).expect("generate over it");
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    let after = record(&next);
    let csv = |tree: &Path, stem: &str| tree.join(format!("public/datos/{stem}.csv.gz"));
    for stem in [&unbuilt, &rebuilt] {
        assert_eq!(
            inode(&csv(&next, stem)),
            inode(&csv(&previous, stem)),
            "{stem} is the previous tree's file"
        );
    }
    assert_eq!(after[&unbuilt]["frame"], NOWHERE, "never built: {unbuilt}");
    let fresh = &record(&fixture().out)[&rebuilt];
    assert_eq!(
        after[&rebuilt]["frame"], fresh["frame"],
        "built: a fresh run's frame"
    );
    assert!(after[&rebuilt]["sources"].is_string() && after[&rebuilt]["sources"] != NOWHERE);
}

#[test]
fn a_closed_month_whose_rows_changed_is_published_as_a_fresh_run_does() {
    // The previous tree is the fixture snapshot's own (so that every month
    // but the changed ones was built from the same rows), and the next
    // snapshot changes one quote in two closed months.
    let mut changed = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // Over the publication before it, so that it records what its months
    // were built from (a first run does not).
    let (earlier, _) = month_before();
    generate(&options(&fixture().data, &earlier.out)).expect("generate over it");
    let previous = fs::canonicalize(&earlier.out).expect("the earlier tree");
    let mut months: Vec<Month> = Vec::new();
    for check in changed.versions.iter().flat_map(|v| &v.checks) {
        let month = Month::of(check.observed_at);
        if !months.contains(&month) {
            months.push(month);
        }
    }
    months.sort_by_key(|month| month.start);
    // The oldest month, whose checks the loader spills (older than the
    // signals read), and the last closed one, which it holds whole. Never
    // a version's first check: the loader keeps that one in brief.
    let (spilled, held) = (months[0].clone(), months[months.len() - 2].clone());
    for month in [&spilled, &held] {
        let check = changed
            .versions
            .iter_mut()
            .flat_map(|v| v.checks.iter_mut().skip(1))
            .find(|c| month.range().contains(&c.observed_at) && !c.quotes.is_empty())
            .expect("a check with quotes in the month");
        check.quotes[0].price.amount += 1.0;
    }
    let fresh = Fixture::generated(&changed);
    let scratch = tempfile::tempdir().expect("tempdir");
    let compact = autoprecios::snapshot::load_snapshot_for_signals(
        &fresh.data,
        autoprecios::snapshot::InBrief::MonthsBefore(autoprecios::signals::reach()),
        Some(scratch.path()),
    )
    .expect("load");
    assert!(
        scratch
            .path()
            .join(format!("{}.msgpack", spilled.label))
            .is_file(),
        "a premise: {} is spilled",
        spilled.label
    );
    assert!(
        compact
            .versions
            .iter()
            .flat_map(|v| &v.checks)
            .any(|c| held.range().contains(&c.observed_at)),
        "a premise: {} is held whole",
        held.label
    );
    generate(&options(&fresh.data, &earlier.out)).expect("generate over it");
    assert!(
        published(&earlier.out) == published(&fresh.out),
        "the tree (its download record included) is the fresh run's, byte for byte"
    );
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    let file = |tree: &Path, month: &Month| {
        tree.join(format!(
            "public/datos/snapshot/quotes/{}.csv.gz",
            month.label
        ))
    };
    for month in [&spilled, &held] {
        assert_ne!(
            fs::read(file(&previous, month)).expect("read"),
            fs::read(file(&next, month)).expect("read"),
            "{} changed",
            month.label
        );
    }
    // Every other closed month was kept without being built.
    let before = record(&previous);
    let unchanged = &months[1..months.len() - 2];
    assert!(!unchanged.is_empty(), "a premise: other closed months");
    for month in unchanged {
        let stem = format!("snapshot/quotes/{}", month.label);
        assert_eq!(
            record(&next)[&stem]["sources"],
            before[&stem]["sources"],
            "{stem}"
        );
        assert_eq!(inode(&file(&next, month)), inode(&file(&previous, month)));
    }
}
