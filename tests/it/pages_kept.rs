//! Unchanged pages kept from the previous tree (`render::site::kept`): a
//! page rendered from the same values as the previous tree's is that
//! tree's file, linked; any other page is rendered; and whatever was kept,
//! the tree is the one a fresh run writes, byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use autoprecios::api::links::Links;
use autoprecios::generate::{GenerateOptions, generate};
use autoprecios::output::{STAMPS, Stamp};
use autoprecios::render::datos::reuse::SOURCES;
use autoprecios::render::site::kept::RECORD;
use autoprecios::snapshot::{Snapshot, load_snapshot};
use autoprecios::vocab::Currency;

use crate::harness::{Fixture, fixture, options, read_tree};

/// The inode of a file: the same for two hard links to one file.
fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(path).expect("metadata"))
}

/// The fixture's snapshot, generated into a tree of its own (a first run,
/// which records its pages' keys), and that tree.
fn previous() -> (Fixture, PathBuf) {
    let snapshot = load_snapshot(&fixture().data).expect("the fixture snapshot");
    let earlier = Fixture::generated(&snapshot);
    let tree = fs::canonicalize(&earlier.out).expect("the tree");
    (earlier, tree)
}

/// `snapshot` generated over `earlier`'s tree with `change` made to the
/// options, and the tree a fresh run writes of it: both must be the same.
fn over(earlier: &Fixture, snapshot: &Snapshot, change: impl FnOnce(&mut GenerateOptions)) {
    let fresh = Fixture::generated(snapshot);
    let mut run = options(&fresh.data, &earlier.out);
    change(&mut run);
    generate(&run).expect("generate over the previous tree");
    let (next, fresh) = (published(&earlier.out), published(&fresh.out));
    let differ: Vec<&String> = next
        .keys()
        .chain(fresh.keys())
        .filter(|file| next.get(*file) != fresh.get(*file))
        .collect();
    assert!(
        differ.is_empty(),
        "the tree (its page record included) is a fresh run's, byte for byte: {differ:?}"
    );
}

/// A tree's files, but for the record of its downloads, in which a run
/// over a tree notes what a first run does not (`datos_reuse` tests it).
fn published(tree: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = read_tree(tree);
    files.remove(SOURCES).expect("the download record");
    files
}

/// Every version page, feed and history file of a tree, relative to it.
fn version_files(tree: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in fs::read_dir(tree.join("public/versiones")).expect("versions") {
        let name = entry.expect("entry").file_name();
        for file in ["index.html", "feed.xml", "historial.csv"] {
            files.push(format!(
                "public/versiones/{}/{file}",
                name.to_string_lossy()
            ));
        }
    }
    files.sort();
    files
}

/// The file `name` of version `id`'s directory, relative to a tree.
fn version_file(id: &str, name: &str) -> String {
    format!(
        "public{}/{name}",
        autoprecios::api::links::Links::vehicle_path(id)
    )
}

/// Asserts that of `files` (of the tree `next`) only `own` was written
/// again, and every other one is `previous`'s file, linked.
fn only_rewritten(files: &[String], own: &str, previous: &Path, next: &Path) {
    assert!(files.iter().any(|file| file == own), "{own}");
    for file in files {
        let kept = inode(&next.join(file)) == inode(&previous.join(file));
        assert_eq!(kept, file != own, "{file}: kept {kept}");
    }
}

/// The version files of `tree` named `name`.
fn named(tree: &Path, name: &str) -> Vec<String> {
    version_files(tree)
        .into_iter()
        .filter(|file| file.ends_with(name))
        .collect()
}

#[test]
fn a_page_rendered_from_the_same_values_is_the_previous_trees_file() {
    let (earlier, previous) = previous();
    let mut changed = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // One dealer's location at one version's latest check: shown on that
    // version's page alone.
    let version = changed
        .versions
        .iter_mut()
        .find(|v| v.checks.last().is_some_and(|c| !c.quotes.is_empty()))
        .expect("a version with quotes");
    let id = version.id.to_string();
    version.checks.last_mut().expect("a check").quotes[0].location = Some("Otra ciudad".into());
    over(&earlier, &changed, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    assert_ne!(next, previous);
    let files = version_files(&next);
    assert!(
        files.len() >= 3 * 30,
        "a premise: many versions ({})",
        files.len()
    );
    only_rewritten(&files, &version_file(&id, "index.html"), &previous, &next);
    // The next tree records every page's stamp as its file has it, kept or
    // rendered, for the run after it.
    let stamps: BTreeMap<String, Stamp> =
        serde_json::from_slice(&fs::read(next.join(STAMPS)).expect("the stamps")).expect("JSON");
    for file in &files {
        let stamp = Stamp::of(&next.join(file));
        assert!(
            stamp.is_some() && stamps.get(file) == stamp.as_ref(),
            "{file}"
        );
    }
}

#[test]
fn a_history_file_is_written_again_when_a_completed_week_changes() {
    let (earlier, previous) = previous();
    let mut changed = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // A dealer price four weeks before the catalogue check: inside a
    // completed week of the chart, so that version's weekly average moves.
    let at = changed.meta.catalogue_observed_at;
    let weeks_ago = at - chrono::Duration::days(28);
    let version = changed
        .versions
        .iter_mut()
        .find(|v| {
            v.checks
                .iter()
                .any(|c| c.observed_at < weeks_ago && !c.quotes.is_empty())
        })
        .expect("a version with quotes a month before");
    let id = version.id.to_string();
    let check = version
        .checks
        .iter_mut()
        .rev()
        .find(|c| c.observed_at < weeks_ago && !c.quotes.is_empty())
        .expect("that check");
    for quote in &mut check.quotes {
        quote.price.amount *= 0.5;
    }
    over(&earlier, &changed, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    let own = version_file(&id, "historial.csv");
    assert_ne!(
        fs::read(next.join(&own)).expect("read"),
        fs::read(previous.join(&own)).expect("read"),
        "a premise: the change reaches {own}"
    );
    only_rewritten(&named(&next, "historial.csv"), &own, &previous, &next);
}

#[test]
fn a_history_file_is_kept_when_only_the_current_week_moves() {
    let (earlier, previous) = previous();
    let mut changed = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // Every quote of a peso-quoted version's latest check, lower: its
    // current week's averages move (in pesos and in dollars), and the
    // current week is not in its history file.
    let version = changed
        .versions
        .iter_mut()
        .find(|v| {
            v.checks.last().is_some_and(|c| {
                !c.quotes.is_empty() && c.quotes.iter().all(|q| q.price.currency == Currency::Ars)
            })
        })
        .expect("a version quoted in pesos at its latest check");
    let id = version.id.to_string();
    for quote in &mut version.checks.last_mut().expect("a check").quotes {
        quote.price.amount *= 0.9;
    }
    over(&earlier, &changed, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    let page = version_file(&id, "index.html");
    assert_ne!(
        fs::read(next.join(&page)).expect("read"),
        fs::read(previous.join(&page)).expect("read"),
        "a premise: the change reaches {page}"
    );
    let history = next.join(version_file(&id, "historial.csv"));
    assert_eq!(
        inode(&history),
        inode(&previous.join(version_file(&id, "historial.csv"))),
        "{id}'s history file is the previous tree's, linked"
    );
}

#[test]
fn a_version_page_follows_its_specification_record() {
    let (earlier, previous) = previous();
    let mut changed = load_snapshot(&fixture().data).expect("the fixture snapshot");
    let version = changed
        .versions
        .iter_mut()
        .find(|v| v.specs.is_some())
        .expect("a version with specifications");
    let id = version.id.to_string();
    let specs = std::sync::Arc::make_mut(version.specs.as_mut().expect("specs"));
    specs.source_label = Some("Otra ficha".to_owned());
    over(&earlier, &changed, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    let own = version_file(&id, "index.html");
    let page = fs::read_to_string(next.join(&own)).expect("read");
    assert!(page.contains("Otra ficha"), "a premise: the page shows it");
    only_rewritten(&named(&next, "index.html"), &own, &previous, &next);
}

#[test]
fn a_page_changed_since_it_was_written_is_rendered_again() {
    let (earlier, previous) = previous();
    let files = version_files(&previous);
    let (damaged, cut, same_length) = (&files[0], &files[2], &files[3]);
    let bytes = fs::read(previous.join(damaged)).expect("read");
    fs::write(previous.join(damaged), b"<p>not what was published</p>").expect("damage");
    let short = fs::read(previous.join(cut)).expect("read");
    fs::write(previous.join(cut), &short[..short.len() - 1]).expect("cut short");
    // Changed in place to the same length, a while after it was written
    // (within the clock's tick of its writing, the stamp would not see it:
    // `output::stamp`).
    let whole = fs::read(previous.join(same_length)).expect("read");
    let file = fs::OpenOptions::new()
        .write(true)
        .open(previous.join(same_length))
        .expect("open");
    std::io::Write::write_all(&mut &file, &vec![b' '; whole.len()]).expect("blank it");
    let modified = file.metadata().expect("stat").modified().expect("mtime");
    file.set_modified(modified + std::time::Duration::from_secs(1))
        .expect("a later modification time");
    drop(file);
    let snapshot = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // The same snapshot would give the same tree, kept as it is; a
    // snapshot a second later is another tree with the same pages.
    let mut later = snapshot.clone();
    later.meta.snapshot_at += chrono::Duration::seconds(1);
    over(&earlier, &later, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    assert!(fs::read(next.join(damaged)).expect("read") == bytes);
    assert!(fs::read(next.join(cut)).expect("read") == short);
    assert!(fs::read(next.join(same_length)).expect("read") == whole);
    for file in [damaged, cut, same_length] {
        assert_ne!(
            inode(&next.join(file)),
            inode(&previous.join(file)),
            "{file}"
        );
    }
    assert_eq!(
        inode(&next.join(&files[1])),
        inode(&previous.join(&files[1])),
        "the others are kept"
    );
}

#[test]
fn a_fresh_run_renders_every_page() {
    let (earlier, previous) = previous();
    let snapshot = load_snapshot(&fixture().data).expect("the fixture snapshot");
    let mut later = snapshot.clone();
    later.meta.snapshot_at += chrono::Duration::seconds(1);
    over(&earlier, &later, |run| run.fresh = true);
    let next = fs::canonicalize(&earlier.out).expect("the fresh tree");
    assert!(next.join(RECORD).is_file(), "a fresh run records its pages");
    for file in version_files(&next) {
        assert_ne!(
            inode(&next.join(&file)),
            inode(&previous.join(&file)),
            "{file}"
        );
    }
}

#[test]
fn a_new_reference_dollar_renders_only_the_dollars_files_and_its_checks_version() {
    let snapshot = load_snapshot(&fixture().data).expect("the fixture snapshot");
    // A new reference dollar (the newest check's) changes `/dolar.json`
    // and `/dolar`, and the page of the version whose check it is (its
    // dollar figures); no other version page names the rate or converts at
    // it, so each is the previous tree's file.
    let (earlier, previous) = self::previous();
    let mut dearer = snapshot;
    let (id, newest) = dearer
        .versions
        .iter_mut()
        .filter_map(|v| {
            let id = v.id.to_string();
            v.checks.last_mut().map(|check| (id, check))
        })
        .filter(|(_, c)| c.ars_per_usd.is_some())
        .max_by_key(|(_, c)| c.observed_at)
        .expect("a check with a rate");
    newest.ars_per_usd = newest.ars_per_usd.map(|rate| rate + 7.0);
    over(&earlier, &dearer, |_| {});
    let next = fs::canonicalize(&earlier.out).expect("the next tree");
    for file in ["public/dolar.json", "public/dolar/index.html"] {
        assert_ne!(
            fs::read(next.join(file)).ok(),
            fs::read(previous.join(file)).ok(),
            "{file}"
        );
    }
    // A page is rendered again only if it shows that version (its own, or
    // one that links to it), or if its rivals moved: "con la misma plata"
    // compares prices in pesos at the reference dollar (rivals.rs), so a
    // dollar-quoted version's band moves with it.
    let own = Links::vehicle_path(&id);
    let link = format!("href=\"{own}\"");
    let without_rivals = |tree: &Path, file: &str| {
        let html = fs::read_to_string(tree.join(file)).expect("page");
        match html.find("<section aria-labelledby=\"misma-plata\">") {
            Some(start) => {
                let end = start + html[start..].find("</section>").expect("closed");
                format!("{}{}", &html[..start], &html[end..])
            }
            None => html,
        }
    };
    let pages = named(&next, "index.html");
    let rendered: Vec<&String> = pages
        .iter()
        .filter(|file| inode(&next.join(file)) != inode(&previous.join(file)))
        .collect();
    let unrelated: Vec<&&String> = rendered
        .iter()
        .filter(|file| !file.contains(&format!("{own}/")))
        .filter(|file| {
            let html = fs::read_to_string(next.join(file)).expect("page");
            !html.contains(&link)
        })
        .filter(|file| without_rivals(&next, file) != without_rivals(&previous, file))
        .collect();
    assert_eq!(
        unrelated,
        Vec::<&&String>::new(),
        "rendered again for the dollar alone"
    );
    assert!(
        rendered.len() * 20 < pages.len(),
        "{} of {} rendered",
        rendered.len(),
        pages.len()
    );
}
