//! Edge stage, state, one loaded tree: the indexed catalogue, its answers,
//! the manifest's listing and the query pages' parts, its files read and
//! decoded at once and held to what the manifest lists.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Deserialize;

use crate::api::Index;
use crate::api::index::{
    INDEX_FILE_PATH, INDEX_FILE_VERSION, IndexFile, OLD_INDEX_FILE_PATH, PRICES_FILE_PATH,
    RECORDS_FILE_PATH,
};
use crate::api::json::etag;
use crate::api::reports::{MARKET_FILE_PATH, MarketData};
use crate::api::site_pages::{self, QueryPage};
use crate::composed::{PAGES_DATA_PATH, StaticPage};
use crate::edge::answers::Answers;
use crate::edge::listed::{EarlyRead, ListedFile, Stream, Whole, read_early};
use crate::edge::listing::{Listing, StaticEntry};
use crate::edge::state::fragments::FileFragments;
use crate::manifest::MANIFEST;

/// Just the version of the edge data, read again when the file does not
/// decode, so that a file of another version fails with a clear message.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VersionProbe {
    format_version: u32,
}

/// One loaded tree: the indexed catalogue, its answers and the static files.
#[derive(Debug)]
pub struct Site {
    /// The tree's directory with symlinks resolved: every file served is
    /// read from it and must be under it.
    root: PathBuf,
    index: Index,
    answers: Answers,
    /// The hex SHA-256 of the tree's manifest: which tree this is (its first
    /// 16 digits name the tree's directory in `output.trees`).
    tree: String,
    /// Every file of the tree, by URL and by file name.
    listing: Listing,
    /// The pages the edge fills for a query, when the tree has their parts.
    pages: Option<QueryPages>,
}

/// What `/buscar?...` and `/comparar?...` are made of: the static pages and
/// the fragments (`_edge/pages.msgpack`, open), held with the tree they
/// belong to.
#[derive(Debug)]
pub struct QueryPages {
    /// The fragments, read from their file when a page shows them.
    pub fragments: FileFragments,
    /// Every query page as `generate` wrote it, in the order of
    /// [`site_pages::ALL`].
    statics: Vec<StaticPage>,
}

impl QueryPages {
    /// The static form of `page`, one of [`site_pages::ALL`].
    pub fn page(&self, page: &QueryPage) -> &StaticPage {
        let at = site_pages::ALL
            .iter()
            .position(|listed| listed == page)
            .expect("invariant: a query page is one of site_pages::ALL");
        &self.statics[at]
    }
}

impl Site {
    /// Loads the tree at `root`, with a response cache of `cache_bytes`;
    /// fails naming the missing or broken file. `root` is resolved first
    /// (`generate` publishes it as a symbolic link to a versioned tree), and
    /// every file is read from the resolved tree, so the site serves exactly
    /// the tree it loaded even after a newer one is published.
    ///
    /// The manifest and the edge's data files are read and decoded at once,
    /// each on a thread of its own (see [`crate::edge::listed`]); then the
    /// data files are held to what the manifest lists.
    pub fn load(root: &Path, cache_bytes: u64) -> anyhow::Result<Site> {
        let root = &fs::canonicalize(root).with_context(|| {
            format!(
                "reading {} (is {} a tree written by `autoprecios generate`?)",
                root.join(MANIFEST).display(),
                root.display()
            )
        })?;
        let (indexed, fragments) = std::thread::scope(|scope| {
            let fragments = scope.spawn(|| skim_fragments(root));
            let records = scope.spawn(|| scan(root, RECORDS_FILE_PATH, "hash the records"));
            let prices = scope.spawn(|| scan(root, PRICES_FILE_PATH, "hash the prices"));
            let market = scope.spawn(|| decode_market(root));
            let manifest = scope.spawn(|| timed("parse the manifest", || read_manifest(root)));
            let data = decode_edge_data(root);
            let join = "invariant: loading a file does not panic";
            // Indexed while the page fragments may still be decoding.
            let indexed = manifest.join().expect(join).and_then(|(listing, tree)| {
                let files = (records.join().expect(join), prices.join().expect(join));
                let mut index = index(root, &listing, data, files)?;
                // A tree without the file (written before the reports) has
                // no reports: its month URLs answer 404.
                let market = market.join().expect(join);
                if let Some(market) = market.check(root, &listing, MARKET_FILE_PATH)? {
                    index.set_market(market);
                }
                Ok((listing, tree, index))
            });
            (indexed, fragments.join().expect(join))
        });
        let (listing, tree, index) = indexed?;
        let pages = load_pages(root, &listing, fragments)?;
        let answers = timed("precompute the fixed answers", || {
            let urls = crate::api::precomputed::urls();
            Answers::new(&index, urls.iter().map(String::as_str), cache_bytes)
        });
        Ok(Site {
            root: root.to_owned(),
            index,
            answers,
            tree,
            listing,
            pages,
        })
    }

    /// The parts of the query pages; `None` for a tree without them.
    pub fn pages(&self) -> Option<&QueryPages> {
        self.pages.as_ref()
    }

    /// The tree's directory, symlinks resolved.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The indexed catalogue every API operation reads.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Which tree this is: the hex SHA-256 of its manifest.
    pub fn tree(&self) -> &str {
        &self.tree
    }

    /// The tree's API answers: computed at load, or cached once computed.
    pub fn answers(&self) -> &Answers {
        &self.answers
    }

    /// The file answering `url` (path and query string), if the manifest lists one.
    pub fn by_url(&self, url: &str) -> Option<StaticEntry<'_>> {
        self.listing.by_url(url)
    }

    /// The site's mark as the tree publishes it (its hashed addresses
    /// under `/assets/`: the SVG and the PNG drawn from it), none for a
    /// tree without it.
    pub fn marks(&self) -> Vec<&str> {
        self.listing.urls_with("/assets/favicon.").collect()
    }

    /// The manifest entry of a file of the tree (`developers/index.html`).
    pub fn by_file(&self, file: &str) -> Option<StaticEntry<'_>> {
        self.listing.by_file(file)
    }
}

/// The page fragments' file, skimmed: each version's place in it.
fn skim_fragments(root: &Path) -> EarlyRead<FileFragments> {
    timed("skim the page fragments", || {
        read_early(root, PAGES_DATA_PATH, |stream, path| {
            let file = reopen(stream, path)?;
            FileFragments::skim(stream, file)
                .with_context(|| format!("decoding {}", path.display()))
        })
    })
}

/// A file read on demand (the records, the prices), hashed through once
/// and held open; `step` names it in the log.
fn scan(root: &Path, url: &str, step: &str) -> EarlyRead<fs::File> {
    timed(step, || read_early(root, url, reopen))
}

/// The file `stream` reads, opened again for reads at an offset.
fn reopen(stream: &mut Stream, path: &Path) -> anyhow::Result<fs::File> {
    stream
        .get_ref()
        .get_ref()
        .try_clone()
        .with_context(|| format!("opening {} again", path.display()))
}

/// The market's reports and series, decoded.
fn decode_market(root: &Path) -> EarlyRead<MarketData> {
    timed("decode the market data", || {
        read_early(root, MARKET_FILE_PATH, |stream, path| {
            crate::msgpack::from_read::<MarketData>(stream)
                .with_context(|| format!("decoding {}", path.display()))
        })
    })
}

/// The edge data (facts and Summaries), read whole and decoded.
fn decode_edge_data(root: &Path) -> EarlyRead<IndexFile> {
    timed("decode the edge data", || {
        read_early(root, INDEX_FILE_PATH, |stream, path| {
            let bytes = crate::edge::listed::read_whole(stream)
                .with_context(|| format!("reading {}", path.display()))?;
            crate::msgpack::from_slice::<IndexFile>(&bytes)
                .with_context(|| format!("decoding {}", path.display()))
        })
    })
}

/// The tree's manifest, and the hex SHA-256 of its bytes (which tree it is).
fn read_manifest(root: &Path) -> anyhow::Result<(Listing, String)> {
    let path = root.join(MANIFEST);
    let bytes = fs::File::open(&path)
        .and_then(|file| {
            let size = file.metadata()?.len();
            Whole::read(file, size)
        })
        .with_context(|| {
            format!(
                "reading {} (is {} a tree written by `autoprecios generate`?)",
                path.display(),
                root.display()
            )
        })?;
    let listing = Listing::parse(&bytes).with_context(|| format!("parsing {}", path.display()))?;
    Ok((listing, etag(&bytes).trim_matches('"').to_owned()))
}

/// The index of the edge data and the records, as the manifest lists them
/// and of the version this build reads.
fn index(
    root: &Path,
    listing: &Listing,
    data: EarlyRead<IndexFile>,
    (records, prices): (EarlyRead<fs::File>, EarlyRead<fs::File>),
) -> anyhow::Result<Index> {
    let listed = |url: &str| {
        format!(
            "{} lists no {url}: regenerate the tree with this version",
            root.join(MANIFEST).display()
        )
    };
    let path = root.join(INDEX_FILE_PATH.trim_start_matches('/'));
    if listing.by_url(INDEX_FILE_PATH).is_none() && listing.by_url(OLD_INDEX_FILE_PATH).is_some() {
        bail!(
            "{} lists {OLD_INDEX_FILE_PATH} (edge data of format version 3 or before), this server reads version {INDEX_FILE_VERSION} ({INDEX_FILE_PATH}): regenerate the tree with this version",
            root.join(MANIFEST).display()
        );
    }
    let file = data.check(root, listing, INDEX_FILE_PATH);
    // Another version's file may not decode: say which version it is.
    let version = match &file {
        Ok(Some(file)) => file.format_version,
        _ => fs::File::open(&path)
            .ok()
            .and_then(|file| {
                crate::msgpack::from_read::<VersionProbe>(std::io::BufReader::new(file)).ok()
            })
            .map_or(INDEX_FILE_VERSION, |probe| probe.format_version),
    };
    if version != INDEX_FILE_VERSION {
        bail!(
            "{} has format version {version}, this server reads version {INDEX_FILE_VERSION}: regenerate the tree or upgrade the server",
            path.display(),
        );
    }
    let file = file?.with_context(|| listed(INDEX_FILE_PATH))?;
    let records = records
        .check(root, listing, RECORDS_FILE_PATH)?
        .with_context(|| listed(RECORDS_FILE_PATH))?;
    let prices = prices
        .check(root, listing, PRICES_FILE_PATH)?
        .with_context(|| listed(PRICES_FILE_PATH))?;
    let records_path = root.join(RECORDS_FILE_PATH.trim_start_matches('/'));
    let prices_path = root.join(PRICES_FILE_PATH.trim_start_matches('/'));
    // Lookups by ID binary-search the vehicles; an unsorted file would answer 404s silently.
    timed("index the catalogue", || {
        Index::from_file(file, records, prices)
    })
    .map_err(|err| {
        anyhow::anyhow!(
            "{}, {} and {}: {err}",
            path.display(),
            records_path.display(),
            prices_path.display()
        )
    })
}

/// The query pages' parts, when the tree lists the fragments and every
/// query page.
fn load_pages(
    root: &Path,
    listing: &Listing,
    fragments: EarlyRead<FileFragments>,
) -> anyhow::Result<Option<QueryPages>> {
    let Some(fragments) = fragments.check(root, listing, PAGES_DATA_PATH)? else {
        return Ok(None);
    };
    let mut statics = Vec::with_capacity(site_pages::ALL.len());
    for page in site_pages::ALL {
        let Some(file) = ListedFile::open(root, listing, page.path)? else {
            return Ok(None);
        };
        statics.push(StaticPage::new(file.text()?));
    }
    Ok(Some(QueryPages { fragments, statics }))
}

/// Runs one step of loading a tree and logs its time (debug level: the
/// whole load is logged at info).
fn timed<T>(step: &str, run: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let value = run();
    tracing::debug!(
        step,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "loading a tree"
    );
    value
}
