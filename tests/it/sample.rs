//! Sample stage tests: the synthetic snapshot is deterministic, large and
//! varied enough, well-formed (what the loader will insist on), and every
//! deliberate case is present and makes the signal engine say what
//! `src/sample/cases.rs` promises, at the bundled size and at a small one
//! (in `sample/cases.rs`).

mod cases;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use autoprecios::catalogue::Catalogue;
use autoprecios::sample::{CASES, Case, SampleOptions, generate_sample};
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::{Snapshot, Specs, TableFormat, Version, load_snapshot, write_snapshot};
use autoprecios::time::{Time, format_time};
use autoprecios::vocab::{Currency, Reason};
use chrono::Duration;

/// The bundled size, generated once for the whole test run.
fn bundled() -> &'static (Snapshot, Catalogue) {
    static BUNDLED: OnceLock<(Snapshot, Catalogue)> = OnceLock::new();
    BUNDLED.get_or_init(|| {
        let snapshot = generate_sample(&SampleOptions::default());
        let catalogue = compute_catalogue(&snapshot);
        (snapshot, catalogue)
    })
}

fn small_options() -> SampleOptions {
    SampleOptions {
        versions: 60,
        days: 200,
        ..SampleOptions::default()
    }
}

fn version<'a>(snapshot: &'a Snapshot, id: &str) -> &'a Version {
    snapshot
        .versions
        .iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("version {id} missing"))
}

fn case_id(case: Case) -> &'static str {
    CASES
        .iter()
        .find(|(c, _)| *c == case)
        .map(|(_, id)| *id)
        .expect("every case has an id")
}

#[test]
fn same_seed_gives_the_same_snapshot_and_another_seed_another() {
    let a = format!("{:?}", generate_sample(&small_options()));
    let b = format!("{:?}", generate_sample(&small_options()));
    assert!(a == b, "two runs with the same seed differ");
    let other = format!(
        "{:?}",
        generate_sample(&SampleOptions {
            seed: 7,
            ..small_options()
        })
    );
    assert_ne!(a, other);
}

#[test]
fn the_bundled_size_is_large_and_varied() {
    let (snapshot, catalogue) = bundled();
    let makes: BTreeSet<&str> = snapshot
        .versions
        .iter()
        .map(|v| v.identity.make.as_str())
        .collect();
    let models: BTreeSet<(&str, &str)> = snapshot
        .versions
        .iter()
        .map(|v| (v.identity.make.as_str(), v.identity.model.as_str()))
        .collect();
    assert_eq!(snapshot.versions.len(), 540);
    assert!(makes.len() >= 20, "{} makes", makes.len());
    assert!(models.len() >= 80, "{} models", models.len());
    let usd = snapshot.versions.iter().filter(|v| {
        v.catalogue
            .last()
            .is_some_and(|r| r.price.currency == Currency::Usd)
    });
    assert!(usd.count() >= 50, "too few dollar-quoted versions");
    let with_specs = snapshot
        .versions
        .iter()
        .filter(|v| v.specs.is_some())
        .count();
    assert!(
        (420..=500).contains(&with_specs),
        "{with_specs} versions with specs"
    );
    assert!(
        catalogue.vehicles.len() >= 480,
        "{} published",
        catalogue.vehicles.len()
    );
    assert_eq!(snapshot.meta.format_version, 1);
    assert!(snapshot.meta.synthetic);
    assert!(
        snapshot
            .meta
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("20261121") && n.contains("Synthetic"))
    );
}

#[test]
fn randomness_adds_ordinary_opportunities_and_drops() {
    let (_, catalogue) = bundled();
    let cases: BTreeSet<&str> = CASES.iter().map(|(_, id)| *id).collect();
    let ordinary = || {
        catalogue
            .vehicles
            .iter()
            .filter(|v| !cases.contains(v.id.as_str()))
    };
    let opportunities = ordinary().filter(|v| v.comparison.opportunity).count();
    let drops = ordinary()
        .filter(|v| v.reasons.contains(&Reason::PriceDrop))
        .count();
    assert!(opportunities >= 3, "{opportunities} random opportunities");
    assert!(drops >= 2, "{drops} random price drops");
}

#[test]
fn the_snapshot_is_well_formed() {
    for snapshot in [&bundled().0, &generate_sample(&small_options())] {
        assert_well_formed(snapshot);
    }
}

fn assert_well_formed(snapshot: &Snapshot) {
    let (t, s) = (
        snapshot.meta.catalogue_observed_at,
        snapshot.meta.snapshot_at,
    );
    assert_eq!(s - t, Duration::minutes(40));
    assert_eq!(snapshot.catalogue_checks.last(), Some(&t));
    let checks: BTreeSet<Time> = snapshot.catalogue_checks.iter().copied().collect();
    assert_eq!(
        checks.len(),
        snapshot.catalogue_checks.len(),
        "check times repeat"
    );
    let hours: BTreeSet<String> = checks
        .iter()
        .map(|t| format_time(*t)[11..].to_owned())
        .collect();
    assert_eq!(hours.len(), 5, "five fixed times a day: {hours:?}");
    let ids = &snapshot.versions;
    assert!(
        ids.windows(2).all(|pair| pair[0].id < pair[1].id),
        "sorted, unique IDs"
    );
    for version in &snapshot.versions {
        assert_version_well_formed(version, &checks, s);
    }
}

/// Catalogue runs on the check grid, quote checks in order and complete,
/// specs whose every value has a source.
fn assert_version_well_formed(version: &Version, grid: &BTreeSet<Time>, s: Time) {
    let id = &version.id;
    assert!((1..=160).contains(&id.chars().count()), "{id}");
    for run in &version.catalogue {
        let on_grid = grid.contains(&run.first_seen) && grid.contains(&run.last_seen);
        assert!(
            on_grid && run.first_seen <= run.last_seen,
            "{id}: run off the grid"
        );
        assert!(run.price.amount > 0.0, "{id}");
    }
    let runs = &version.catalogue;
    assert!(
        runs.windows(2).all(|p| p[0].last_seen < p[1].first_seen),
        "{id}: runs overlap"
    );
    let checks = &version.checks;
    assert!(
        checks
            .windows(2)
            .all(|p| p[0].observed_at < p[1].observed_at),
        "{id}: checks"
    );
    for check in checks {
        assert!(check.observed_at <= s, "{id}: check after S");
        let quotes = &check.quotes;
        assert!(
            quotes.windows(2).all(|p| p[0].id < p[1].id),
            "{id}: quote IDs unsorted or repeated"
        );
        let has_ars = quotes.iter().any(|q| q.price.currency == Currency::Ars);
        assert!(
            !has_ars || check.ars_per_usd.is_some(),
            "{id}: ARS quote without a rate"
        );
        assert!(quotes.iter().all(|q| q.price.amount > 0.0), "{id}");
    }
    if let Some(specs) = &version.specs {
        assert_specs_well_formed(id, specs);
    }
}

/// Every value has a source, every gap is a value left out, every URL is
/// under a reserved domain.
fn assert_specs_well_formed(id: &str, specs: &Specs) {
    for (name, key) in &specs.source_of {
        assert!(
            specs.values.contains_key(name),
            "{id}: source of missing value {name}"
        );
        assert!(
            specs.sources.contains_key(key),
            "{id}: unknown source {key}"
        );
    }
    let values = &specs.values;
    assert!(
        values.keys().all(|name| specs.source_of.contains_key(name)),
        "{id}: unsourced"
    );
    assert!(
        specs.gaps.keys().all(|name| !values.contains_key(name)),
        "{id}: gap with a value"
    );
    // camelCase names only: `airbags` is also a Spanish word.
    let names: Vec<&str> = (specs.gaps.keys().chain(values.keys()))
        .map(String::as_str)
        .filter(|name| name.chars().any(char::is_uppercase))
        .collect();
    for gap in specs.gaps.values() {
        assert_note_reads_as_spanish(id, &names, gap["note"].as_str().expect("note"));
    }
    let urls = specs.sources.values().map(|source| source.url.as_str());
    assert!(
        urls.clone().all(|url| url.contains(".example/")),
        "{id}: a real host"
    );
}

/// The site shows a gap's note as written: it names no API field and writes
/// decimals with a comma, as a person in Argentina would.
fn assert_note_reads_as_spanish(id: &str, field_names: &[&str], note: &str) {
    let named = field_names.iter().find(|name| note.contains(**name));
    assert_eq!(named, None, "{id}: the note names a field: {note}");
    let decimal_point = note
        .as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit());
    assert!(!decimal_point, "{id}: decimal point in {note}");
}

#[test]
fn two_ids_differ_only_in_case() {
    let (snapshot, catalogue) = bundled();
    let (lower, upper) = (case_id(Case::CaseBase), case_id(Case::CaseSibling));
    assert!(lower != upper && lower.eq_ignore_ascii_case(upper));
    for id in [lower, upper] {
        assert!(
            catalogue.vehicles.iter().any(|v| v.id == id),
            "{id} is not published"
        );
    }
    let folded: BTreeSet<String> = snapshot
        .versions
        .iter()
        .map(|v| v.id.to_lowercase())
        .collect();
    assert_eq!(
        folded.len() + 1,
        snapshot.versions.len(),
        "exactly one case-folded collision"
    );
}

#[test]
fn writing_the_same_seed_twice_gives_identical_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (first, second) = (dir.path().join("a"), dir.path().join("b"));
    for format in [TableFormat::Csv, TableFormat::Parquet] {
        write_snapshot(&generate_sample(&small_options()), &first, format).expect("write a");
        write_snapshot(&generate_sample(&small_options()), &second, format).expect("write b");
        assert_eq!(
            read_dir(&first),
            read_dir(&second),
            "{format:?} files differ"
        );
    }
    let loaded = load_snapshot(&first).expect("the sample loads back");
    assert_eq!(loaded.versions.len(), 60);
}

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.insert(name, fs::read(&path).expect("read file"));
    }
    files
}

/// Consecutive snapshots of one series (`sample --end`): the later keeps
/// every row of the earlier; only a catalogue run still going at the
/// earlier check goes on (its last sighting moves to the later check).
#[test]
fn a_snapshot_one_check_later_keeps_every_earlier_row() {
    use autoprecios::sample::as_of;
    let series = generate_sample(&small_options());
    let horizon = series.meta.catalogue_observed_at;
    let check = |hours: i64| horizon - Duration::hours(hours);
    // The last check of the day before the horizon, then the next one.
    let (first, second) = (check(24), check(12));
    let earlier = as_of(series.clone(), first).expect("a check of the series");
    let later = as_of(series.clone(), second).expect("a check of the series");
    assert_eq!(earlier.meta.catalogue_observed_at, first);
    assert_eq!(earlier.meta.snapshot_at, first + Duration::minutes(40));
    assert_eq!(
        later.catalogue_checks[..earlier.catalogue_checks.len()],
        earlier.catalogue_checks[..]
    );
    assert_eq!(
        later.catalogue_checks.len(),
        earlier.catalogue_checks.len() + 1
    );
    let mut extended = 0;
    for old in &earlier.versions {
        let new = version(&later, &old.id);
        assert_eq!(new.checks[..old.checks.len()], old.checks[..], "{}", old.id);
        assert!(
            old.checks
                .iter()
                .all(|c| c.observed_at <= earlier.meta.snapshot_at)
        );
        let (last, runs) = old.catalogue.split_last().expect("listed");
        assert_eq!(new.catalogue[..runs.len()], runs[..], "{}", old.id);
        let next = &new.catalogue[runs.len()];
        assert_eq!(
            (next.first_seen, next.price.amount),
            (last.first_seen, last.price.amount)
        );
        if next.last_seen != last.last_seen {
            assert_eq!(last.last_seen, first, "only a run still going goes on");
            extended += 1;
        }
        assert_eq!(old.specs, new.specs);
    }
    assert!(
        extended > 10,
        "most listings go on to the next check ({extended})"
    );
    // The horizon itself is the series as generated.
    assert!(as_of(series.clone(), horizon).expect("the horizon") == series);
    let error = as_of(series, first + Duration::minutes(1)).expect_err("not a check");
    assert!(
        error.to_string().contains("is not a catalogue check"),
        "{error}"
    );
}
