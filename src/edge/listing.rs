//! Edge stage, the manifest as a loaded tree holds it: every entry's
//! strings copied once into one buffer, sorted by URL for lookups, with a
//! second order by file. A tree lists about four files a version; as a map
//! of four `String`s an entry, built from a manifest parsed into owned rows,
//! they were a large part of every load's time and of every tree's memory
//! (bench/HISTORY.md, "The edge's start: the edge data in MessagePack, read
//! in parallel").

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;

/// One file of the tree as the manifest lists it, by URL or by file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticEntry<'a> {
    /// Its path in the tree, `/`-separated.
    pub file: &'a str,
    /// Its `Content-Type`.
    pub content_type: &'a str,
    /// The ETag of its bytes when it was written.
    pub etag: &'a str,
}

/// The manifest's entries.
#[derive(Debug, Default)]
pub struct Listing {
    /// Every URL, file and ETag, one after the other.
    text: String,
    /// Sorted by URL.
    entries: Vec<Spans>,
    /// Positions in `entries`, sorted by file.
    by_file: Vec<u32>,
    /// The few content types, each once.
    content_types: Vec<String>,
}

/// Where one entry's strings are in [`Listing::text`].
#[derive(Debug, Clone, Copy)]
struct Spans {
    url: (u32, u32),
    file: (u32, u32),
    etag: (u32, u32),
    content_type: u32,
}

/// `manifest.json` as parsed: its strings borrowed from the bytes where
/// they hold no escape.
#[derive(Deserialize)]
struct Manifest<'a> {
    #[serde(borrow)]
    files: Vec<Row<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Row<'a> {
    #[serde(borrow)]
    url: Cow<'a, str>,
    #[serde(borrow)]
    file: Cow<'a, str>,
    #[serde(borrow)]
    content_type: Cow<'a, str>,
    #[serde(borrow)]
    etag: Cow<'a, str>,
}

impl Listing {
    /// Parses the bytes of a `manifest.json`.
    pub fn parse(bytes: &[u8]) -> anyhow::Result<Listing> {
        let manifest: Manifest = serde_json::from_slice(bytes)?;
        let size: usize = manifest
            .files
            .iter()
            .map(|row| row.url.len() + row.file.len() + row.etag.len())
            .sum();
        anyhow::ensure!(
            u32::try_from(size).is_ok(),
            "lists more than 4 GiB of names"
        );
        let mut listing = Listing {
            text: String::with_capacity(size),
            entries: Vec::with_capacity(manifest.files.len()),
            ..Listing::default()
        };
        for row in &manifest.files {
            let content_type = listing.content_type(&row.content_type);
            let spans = Spans {
                url: listing.push(&row.url),
                file: listing.push(&row.file),
                etag: listing.push(&row.etag),
                content_type,
            };
            listing.entries.push(spans);
        }
        drop(manifest);
        let text = &listing.text;
        // `generate` writes the manifest sorted by URL: this only checks it.
        listing
            .entries
            .sort_by(|a, b| span(text, a.url).cmp(span(text, b.url)));
        let mut by_file: Vec<u32> = (0..listing.entries.len() as u32).collect();
        // A file is listed once, so an unstable sort gives the same order,
        // sooner on a large tree.
        by_file.sort_unstable_by(|a, b| {
            let file = |at: &u32| span(text, listing.entries[*at as usize].file);
            file(a).cmp(file(b))
        });
        listing.by_file = by_file;
        Ok(listing)
    }

    /// How many files it lists.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it lists none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The file answering `url` (path and query string).
    pub fn by_url(&self, url: &str) -> Option<StaticEntry<'_>> {
        let at = self
            .entries
            .binary_search_by(|spans| span(&self.text, spans.url).cmp(url))
            .ok()?;
        Some(self.entry(at))
    }

    /// The URLs, in byte order, that start with `prefix`
    /// (`/assets/favicon.` finds the site's mark under its hashed names).
    pub fn urls_with<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let at = self
            .entries
            .partition_point(|spans| span(&self.text, spans.url) < prefix);
        self.entries[at..]
            .iter()
            .map(|spans| span(&self.text, spans.url))
            .take_while(move |url| url.starts_with(prefix))
    }

    /// The entry of a file of the tree (`public/developers/index.html`).
    pub fn by_file(&self, file: &str) -> Option<StaticEntry<'_>> {
        let at = self
            .by_file
            .binary_search_by(|at| span(&self.text, self.entries[*at as usize].file).cmp(file))
            .ok()?;
        Some(self.entry(self.by_file[at] as usize))
    }

    fn entry(&self, at: usize) -> StaticEntry<'_> {
        let spans = &self.entries[at];
        StaticEntry {
            file: span(&self.text, spans.file),
            content_type: &self.content_types[spans.content_type as usize],
            etag: span(&self.text, spans.etag),
        }
    }

    /// Appends `value` to the text; where it is.
    fn push(&mut self, value: &str) -> (u32, u32) {
        let start = self.text.len() as u32;
        self.text.push_str(value);
        (start, value.len() as u32)
    }

    /// The number of a content type, added when new.
    fn content_type(&mut self, value: &str) -> u32 {
        let at = match self.content_types.iter().position(|known| known == value) {
            Some(at) => at,
            None => {
                self.content_types.push(value.to_owned());
                self.content_types.len() - 1
            }
        };
        at as u32
    }
}

/// The text of a span.
fn span(text: &str, (start, len): (u32, u32)) -> &str {
    let range: Range<usize> = start as usize..(start + len) as usize;
    &text[range]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_url_and_by_file() {
        let manifest = br#"{"files": [
            {"url": "/b", "file": "public/b.html", "contentType": "text/html", "etag": "\"2\""},
            {"url": "/a\u00e9", "file": "public/z.json", "contentType": "application/json", "etag": "\"1\""},
            {"url": "/c", "file": "public/a.html", "contentType": "text/html", "etag": "\"3\""}
        ]}"#;
        let listing = Listing::parse(manifest).expect("manifest");
        assert_eq!(listing.len(), 3);
        let entry = listing.by_url("/a\u{e9}").expect("escaped URL");
        assert_eq!(
            entry,
            StaticEntry {
                file: "public/z.json",
                content_type: "application/json",
                etag: "\"1\""
            }
        );
        assert_eq!(listing.by_url("/c").expect("c").file, "public/a.html");
        assert_eq!(listing.by_file("public/b.html").expect("b").etag, "\"2\"");
        assert_eq!(
            listing.by_file("public/a.html").expect("a").content_type,
            "text/html"
        );
        assert_eq!(listing.by_url("/d"), None);
        assert_eq!(listing.by_file("public/c.html"), None);
        assert!(Listing::parse(b"[]").is_err());
    }
}
