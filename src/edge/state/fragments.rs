//! Edge stage, state, the query pages' fragments as a loaded tree holds
//! them: the comparison's row headings, and where each version's fragments
//! lie in `_edge/pages.msgpack`, which stays open. A page reads and decodes
//! the fragments of the versions it shows, a few dozen at most, when it is
//! composed. Decoding every version's HTML at load took a large share of
//! the load and of a loaded tree's memory (BENCHMARKS.md, "The edge:
//! start-up, memory and files"); the file's pages stay in the kernel's
//! cache, as the records' do, and the open file is the loaded tree's even
//! after a newer tree replaces it on disk.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use crate::composed::{Fragments, VehicleFragments};

/// The fragments of one loaded tree, read from its file when asked.
#[derive(Debug)]
pub struct FileFragments {
    compare_rows: Vec<String>,
    /// Each version's ID, and where its fragments start and end in the
    /// file, by ID.
    spans: Vec<(Box<str>, u64, u64)>,
    file: File,
}

impl FileFragments {
    /// Reads the fragments file from `stream` to its end, keeping the row
    /// headings and where each version's fragments lie, and `file` (the
    /// same file, open) to read them from.
    pub fn skim(stream: impl Read, file: File) -> Result<FileFragments, rmp_serde::decode::Error> {
        let at = Cell::new(0);
        let mut decoder = rmp_serde::Deserializer::new(Counted {
            inner: stream,
            at: &at,
        });
        let (compare_rows, mut spans) =
            serde::Deserializer::deserialize_map(&mut decoder, Skim { at: &at })?;
        // `generate` writes them by ID: this only checks it.
        spans.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(FileFragments {
            compare_rows,
            spans,
            file,
        })
    }

    /// Where the fragments of `id` lie in the file.
    fn span(&self, id: &str) -> Option<(u64, u64)> {
        let at = self
            .spans
            .binary_search_by(|(listed, _, _)| (**listed).cmp(id))
            .ok()?;
        let (_, start, end) = self.spans[at];
        Some((start, end))
    }
}

impl Fragments for FileFragments {
    fn compare_rows(&self) -> &[String] {
        &self.compare_rows
    }

    fn vehicle(&self, id: &str) -> Option<Cow<'_, VehicleFragments>> {
        let (start, end) = self.span(id)?;
        let mut bytes = vec![0; (end - start) as usize];
        self.file
            .read_exact_at(&mut bytes, start)
            .expect("invariant: the open fragments file keeps the bytes read at load");
        let fragments = rmp_serde::from_slice(&bytes).expect(
            "invariant: the fragments file holds what generate wrote (its tag is checked at load)",
        );
        Some(Cow::Owned(fragments))
    }

    fn publishes(&self, id: &str) -> bool {
        self.span(id).is_some()
    }
}

/// A reader that counts the bytes read through it: where the decoder is.
struct Counted<'a, R> {
    inner: R,
    at: &'a Cell<u64>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.at.set(self.at.get() + read as u64);
        Ok(read)
    }
}

/// The file's map: the row headings decoded, the versions' spans noted.
struct Skim<'a> {
    at: &'a Cell<u64>,
}

/// What [`Skim`] keeps: the row headings, and each version's ID and span.
type Skimmed = (Vec<String>, Vec<(Box<str>, u64, u64)>);

impl<'de> Visitor<'de> for Skim<'_> {
    type Value = Skimmed;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("the page fragments: a map of compareRows and vehicles")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skimmed, A::Error> {
        let (mut rows, mut spans) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "compareRows" => rows = Some(map.next_value()?),
                "vehicles" => spans = Some(map.next_value_seed(Spans { at: self.at })?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok((
            rows.ok_or_else(|| de::Error::missing_field("compareRows"))?,
            spans.ok_or_else(|| de::Error::missing_field("vehicles"))?,
        ))
    }
}

/// The versions' map: each ID with where its value starts and ends. The
/// decoder reads a value's first byte only when it decodes the value, so
/// the count after a key is where the value starts.
struct Spans<'a> {
    at: &'a Cell<u64>,
}

impl<'de> DeserializeSeed<'de> for Spans<'_> {
    type Value = Vec<(Box<str>, u64, u64)>;

    fn deserialize<D: de::Deserializer<'de>>(self, decoder: D) -> Result<Self::Value, D::Error> {
        decoder.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Spans<'_> {
    type Value = Vec<(Box<str>, u64, u64)>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a map of version IDs to their fragments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut spans = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(id) = map.next_key::<String>()? {
            let start = self.at.get();
            map.next_value::<IgnoredAny>()?;
            spans.push((id.into_boxed_str(), start, self.at.get()));
        }
        Ok(spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composed::PageFragments;

    fn vehicle(id: &str, cells: usize) -> VehicleFragments {
        VehicleFragments {
            card: format!("<article class=\"card\">{id} «ñ»</article>"),
            head: format!("<a href=\"/autos/{id}/\">{id}</a>"),
            cells: (0..cells).map(|cell| format!("<td>{cell}</td>")).collect(),
            name: format!("Auto {id}"),
            scores: (0..cells)
                .map(|cell| (cell % 2 == 0).then_some(cell as f64))
                .collect(),
        }
    }

    #[test]
    fn each_version_reads_back_as_written_and_no_other_is_published() {
        let held = PageFragments {
            compare_rows: vec!["<th scope=\"row\">Precio</th>".into(), "<th>x</th>".into()],
            vehicles: ["a", "b-2", "zz", "Citroën/C3"]
                .iter()
                .enumerate()
                .map(|(at, id)| ((*id).to_owned(), vehicle(id, at * 40)))
                .collect(),
        };
        let bytes = crate::msgpack::to_vec(&held).expect("encode");
        let path = std::env::temp_dir().join(format!("fragments-{}.msgpack", std::process::id()));
        std::fs::write(&path, &bytes).expect("write");
        let file = File::open(&path).expect("open");
        let read = FileFragments::skim(&bytes[..], file).expect("skim");
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(read.compare_rows(), held.compare_rows());
        for id in held.vehicles.keys() {
            assert!(read.publishes(id));
            assert_eq!(read.vehicle(id), held.vehicle(id), "{id}");
        }
        for id in ["", "c", "a ", "zzz"] {
            assert!(!read.publishes(id) && read.vehicle(id).is_none(), "{id}");
        }
    }

    #[test]
    fn a_file_that_is_not_the_fragments_map_is_an_error() {
        let scratch = std::env::temp_dir();
        for bytes in [
            crate::msgpack::to_vec(&vec![1, 2]).expect("encode"),
            crate::msgpack::to_vec(&std::collections::BTreeMap::from([("compareRows", 1)]))
                .expect("encode"),
            Vec::new(),
        ] {
            let file = File::open(&scratch).expect("a directory opens for reading");
            assert!(FileFragments::skim(&bytes[..], file).is_err(), "{bytes:?}");
        }
    }
}
