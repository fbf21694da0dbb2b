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
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::os::unix::fs::FileExt;

use rmp::Marker;

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
    /// same file, open) to read them from. A version's value is skipped by
    /// its MessagePack lengths, never decoded.
    pub fn skim(stream: impl BufRead, file: File) -> anyhow::Result<FileFragments> {
        let mut skim = Skimmer { stream, at: 0 };
        let (mut compare_rows, mut spans) = (None, None);
        for _ in 0..skim.map_len()? {
            match skim.text()?.as_str() {
                "compareRows" => {
                    let rows = skim.array_len()?;
                    compare_rows = Some((0..rows).map(|_| skim.text()).collect::<io::Result<_>>()?);
                }
                "vehicles" => {
                    let count = skim.map_len()?;
                    let mut listed = Vec::with_capacity(count.min(1 << 20) as usize);
                    for _ in 0..count {
                        let id = skim.text()?.into_boxed_str();
                        let start = skim.at;
                        skim.skip_value()?;
                        listed.push((id, start, skim.at));
                    }
                    spans = Some(listed);
                }
                _ => skim.skip_value()?,
            }
        }
        let (Some(compare_rows), Some(mut spans)) = (compare_rows, spans) else {
            anyhow::bail!("no compareRows or no vehicles: not the page fragments");
        };
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

/// A MessagePack reader that skips what it does not keep, and counts where
/// it is in the file.
struct Skimmer<R> {
    stream: R,
    at: u64,
}

impl<R: BufRead> Skimmer<R> {
    fn marker(&mut self) -> io::Result<Marker> {
        Ok(Marker::from_u8(self.number(1)? as u8))
    }

    /// A big-endian unsigned number of `bytes` bytes.
    fn number(&mut self, bytes: usize) -> io::Result<u64> {
        let mut buf = [0; 8];
        self.stream.read_exact(&mut buf[8 - bytes..])?;
        self.at += bytes as u64;
        Ok(u64::from_be_bytes(buf))
    }

    fn skip(&mut self, mut bytes: u64) -> io::Result<()> {
        self.at += bytes;
        while bytes > 0 {
            let available = self.stream.fill_buf()?.len() as u64;
            if available == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let skipped = available.min(bytes);
            self.stream.consume(skipped as usize);
            bytes -= skipped;
        }
        Ok(())
    }

    fn map_len(&mut self) -> io::Result<u64> {
        match self.marker()? {
            Marker::FixMap(len) => Ok(u64::from(len)),
            Marker::Map16 => self.number(2),
            Marker::Map32 => self.number(4),
            marker => Err(unexpected("a map", marker)),
        }
    }

    fn array_len(&mut self) -> io::Result<u64> {
        match self.marker()? {
            Marker::FixArray(len) => Ok(u64::from(len)),
            Marker::Array16 => self.number(2),
            Marker::Array32 => self.number(4),
            marker => Err(unexpected("an array", marker)),
        }
    }

    fn text(&mut self) -> io::Result<String> {
        let len = match self.marker()? {
            Marker::FixStr(len) => u64::from(len),
            Marker::Str8 => self.number(1)?,
            Marker::Str16 => self.number(2)?,
            Marker::Str32 => self.number(4)?,
            marker => return Err(unexpected("a string", marker)),
        };
        let mut bytes = Vec::new();
        (&mut self.stream).take(len).read_to_end(&mut bytes)?;
        if bytes.len() as u64 != len {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        self.at += len;
        String::from_utf8(bytes).map_err(io::Error::other)
    }

    /// Skips one value, however deeply nested: each marker says how many
    /// bytes or values follow it.
    fn skip_value(&mut self) -> io::Result<()> {
        let mut pending: u64 = 1;
        while pending > 0 {
            pending -= 1;
            let bytes = match self.marker()? {
                Marker::FixPos(_)
                | Marker::FixNeg(_)
                | Marker::Null
                | Marker::True
                | Marker::False => 0,
                Marker::U8 | Marker::I8 => 1,
                Marker::U16 | Marker::I16 => 2,
                Marker::U32 | Marker::I32 | Marker::F32 => 4,
                Marker::U64 | Marker::I64 | Marker::F64 => 8,
                Marker::FixStr(len) => u64::from(len),
                Marker::Str8 | Marker::Bin8 => self.number(1)?,
                Marker::Str16 | Marker::Bin16 => self.number(2)?,
                Marker::Str32 | Marker::Bin32 => self.number(4)?,
                Marker::FixExt1 => 2,
                Marker::FixExt2 => 3,
                Marker::FixExt4 => 5,
                Marker::FixExt8 => 9,
                Marker::FixExt16 => 17,
                Marker::Ext8 => self.number(1)? + 1,
                Marker::Ext16 => self.number(2)? + 1,
                Marker::Ext32 => self.number(4)? + 1,
                Marker::FixArray(len) => {
                    pending += u64::from(len);
                    0
                }
                Marker::Array16 => {
                    pending += self.number(2)?;
                    0
                }
                Marker::Array32 => {
                    pending += self.number(4)?;
                    0
                }
                Marker::FixMap(len) => {
                    pending += 2 * u64::from(len);
                    0
                }
                Marker::Map16 => {
                    pending += 2 * self.number(2)?;
                    0
                }
                Marker::Map32 => {
                    pending += 2 * self.number(4)?;
                    0
                }
                Marker::Reserved => return Err(unexpected("a value", Marker::Reserved)),
            };
            self.skip(bytes)?;
        }
        Ok(())
    }
}

/// The error of a value that is not what the file's shape asks for.
fn unexpected(wanted: &str, marker: Marker) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{wanted} was expected, the file has {marker:?}: not the page fragments"),
    )
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
            // Every length class: fixed, 8-, 16- and 32-bit strings,
            // arrays and (with 20 versions) maps.
            vehicles: ["a", "b-2", "zz", "Citroën/C3"]
                .iter()
                .map(|id| (*id).to_owned())
                .chain((0..16).map(|n| format!("v{n:02}")))
                .enumerate()
                .map(|(at, id)| {
                    let mut fragments = vehicle(&id, at * 7);
                    fragments.card = fragments.card.repeat([1, 9, 300, 3_000][at % 4]);
                    (id, fragments)
                })
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

    #[test]
    fn the_fuzz_seed_skims_and_every_cut_of_it_is_refused() {
        let seed = include_bytes!("../../../fuzz/seeds/fragments_skim/s1");
        let null = || File::open("/dev/null").expect("/dev/null");
        let read = FileFragments::skim(&seed[..], null()).expect("the seed skims");
        assert_eq!(read.compare_rows(), ["<th>x</th>"]);
        assert!(read.publishes("a") && !read.publishes("b"));
        assert_eq!(
            read.spans[0].2,
            seed.len() as u64,
            "the last value ends the file"
        );
        for cut in 0..seed.len() {
            assert!(FileFragments::skim(&seed[..cut], null()).is_err(), "{cut}");
        }
    }
}
