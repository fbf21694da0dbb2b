//! The generated fixture: a small synthetic snapshot (CSV) and the tree
//! `generate` writes from it, built once per test run as a library call,
//! with helpers to read and copy trees.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use autoprecios::generate::{GenerateOptions, generate};
use autoprecios::output::{Manifest, STAMPS};
use autoprecios::sample::{SampleOptions, generate_sample};
use autoprecios::snapshot::{Snapshot, TableFormat, write_snapshot};

/// A small synthetic snapshot (CSV) and one generated tree, shared by the tests.
pub struct Fixture {
    _dir: tempfile::TempDir,
    /// The snapshot directory.
    pub data: PathBuf,
    /// The generated tree.
    pub out: PathBuf,
    /// Its public directory, what the CDN publishes.
    pub public: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
}

/// Base URL of fixture trees.
pub const BASE: &str = "https://autoprecios.example";

/// Edge origin of fixture trees.
pub const EDGE: &str = "https://edge.autoprecios.example";

/// Copies a tree (a fixture's output) into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The shared fixture, built once per test run.
pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        Fixture::generated(&generate_sample(&SampleOptions {
            versions: 40,
            days: 220,
            ..SampleOptions::default()
        }))
    })
}

impl Fixture {
    /// `snapshot` written as CSV into a temporary directory and the tree
    /// `generate` makes of it beside it.
    pub fn generated(snapshot: &Snapshot) -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data");
        write_snapshot(snapshot, &data, TableFormat::Csv).expect("write the fixture snapshot");
        let out = dir.path().join("output");
        let manifest = generate(&options(&data, &out)).expect("generate");
        Fixture {
            _dir: dir,
            data,
            public: out.join("public"),
            out,
            manifest,
        }
    }
}

/// Generate options for a fixture.
pub fn options(data: &Path, out: &Path) -> GenerateOptions {
    GenerateOptions {
        data: data.to_owned(),
        out: out.to_owned(),
        base_url: BASE.to_owned(),
        edge_origin: EDGE.to_owned(),
        keep: autoprecios::output::DEFAULT_KEEP,
        strict: true,
        mcp_name: None,
        fresh: false,
        fail_after: None,
        exits_after: false,
    }
}

/// Every file under `root` with its bytes, by relative path, but for the
/// tree's stamps ([`STAMPS`]): what the file system says of this copy of
/// its files, the one file two runs over the same snapshot write apart.
pub fn read_tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(root)
        .into_iter()
        .filter(|path| *path != root.join(STAMPS))
        .map(|path| {
            let relative = path
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            (relative, fs::read(&path).expect("read"))
        })
        .collect()
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files.extend(files_under(&path))
        } else {
            files.push(path)
        }
    }
    files
}

/// The raw text of the file answering `url`.
pub fn text_of(url: &str) -> String {
    let fixture = fixture();
    let entry = fixture
        .manifest
        .files
        .iter()
        .find(|e| e.url == url)
        .unwrap_or_else(|| panic!("no file for {url}"));
    fs::read_to_string(fixture.out.join(&entry.file)).expect("read")
}

/// The file answering `url` as an insta snapshot reads best: its ETag
/// (which pins every byte, so a change of formatting or key order shows
/// too) above its JSON, pretty-printed in its own key order so that a
/// changed field is a one-line diff.
pub fn pinned(url: &str) -> String {
    pin(&text_of(url))
}

/// An answer's text as [`pinned`] shows it: its ETag above its JSON.
pub fn pin(text: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
    let pretty = serde_json::to_string_pretty(&value).expect("JSON");
    format!(
        "ETag: {}\n{pretty}",
        autoprecios::api::json::etag(text.as_bytes())
    )
}

/// An edge data file of a tree (`_edge/*.msgpack`) as a JSON value: the
/// same fields as the API's JSON, a Summary as a string of JSON.
pub fn edge_data(path: &std::path::Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    autoprecios::msgpack::from_read(&bytes[..]).expect("edge data decodes")
}

/// The tag the manifest gives the file at `file` (its path in the tree)
/// with `bytes`, computed here on its own: a public file's SHA-256, the
/// ETag it is sent with, and an edge data file's XXH3-128.
pub fn manifest_tag(file: &str, bytes: &[u8]) -> String {
    if file.starts_with("_edge/") {
        format!("\"xxh3-{:032x}\"", xxhash_rust::xxh3::xxh3_128(bytes))
    } else {
        autoprecios::api::json::etag(bytes)
    }
}
