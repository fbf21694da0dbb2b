//! API stage, index records: each version's Vehicle JSON (detail, compare),
//! kept as the text `generate` wrote, one record a line, and parsed into a
//! raw JSON value only when a record is asked for (the edge then caches the
//! answer whole). `generate` writes the text to the records file as it
//! serializes it; then it, like the edge, keeps only each line's offset and
//! the open records file, and reads a record from it when asked: the
//! file's pages stay in the kernel's cache, not in the process's memory,
//! and the open file is the loaded tree's even after a new tree replaces it
//! on disk.

use std::fs::File;
use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

/// The Vehicle records of every version, in position order.
#[derive(Debug)]
pub struct Records {
    text: Text,
    /// Where each record starts, and where the last one ends.
    starts: Vec<usize>,
}

/// Where the records' text is.
#[derive(Debug)]
enum Text {
    /// In memory (an index built from a catalogue).
    Memory(String),
    /// In an open file, read when asked.
    File(File),
}

impl Records {
    /// Serializes every record, one a line, through the one serializer,
    /// held in memory (an index for tests and tools; `generate` writes
    /// them to their file with [`Records::write_to`]).
    pub fn write<T: Serialize>(records: impl Iterator<Item = T>) -> Records {
        let mut text = Vec::new();
        let starts = Records::write_to(records, &mut text)
            .expect("invariant: response types serialize to JSON, and a Vec takes every byte");
        let text = String::from_utf8(text).expect("invariant: serde_json writes UTF-8");
        Records {
            text: Text::Memory(text),
            starts: starts.into_iter().map(|start| start as usize).collect(),
        }
    }

    /// Serializes every record, one a line, into `out` as it goes (the
    /// records are one of the tree's largest files, whose text `generate`
    /// never holds); returns where each record starts and where the last
    /// one ends, for [`Records::open`].
    pub fn write_to<T: Serialize>(
        records: impl Iterator<Item = T>,
        out: impl Write,
    ) -> std::io::Result<Vec<u64>> {
        // serde_json writes a record in many small pieces: they go to a
        // line buffer, and `out` gets whole buffers of lines.
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        let mut line = Vec::new();
        let mut written = 0;
        let mut starts = Vec::with_capacity(records.size_hint().0 + 1);
        for record in records {
            starts.push(written);
            line.clear();
            serde_json::to_writer(&mut line, &record).map_err(std::io::Error::other)?;
            line.push(b'\n');
            out.write_all(&line)?;
            written += line.len() as u64;
        }
        starts.push(written);
        out.flush()?;
        Ok(starts)
    }

    /// The records of an open records file, which starts each at
    /// `starts` (and ends where the next starts, the last one at the last
    /// offset): they must ascend, each record holding at least its newline,
    /// and the last must be the file's size. The file's bytes are not read
    /// here: the edge checks them against the manifest's ETag, and the
    /// manifest and the offsets come from the same `generate` run.
    pub fn open(file: File, starts: Vec<u64>) -> Result<Records, String> {
        if starts.first() != Some(&0) || starts.windows(2).any(|pair| pair[0] >= pair[1]) {
            return Err("the record offsets do not ascend from 0".to_owned());
        }
        let size = file
            .metadata()
            .map_err(|err| format!("reading the records file's size: {err}"))?
            .len();
        let end = starts.last().copied().unwrap_or_default();
        if end != size {
            return Err(format!(
                "the records end at byte {end}, the records file holds {size}"
            ));
        }
        let starts = starts
            .into_iter()
            .map(usize::try_from)
            .collect::<Result<_, _>>()
            .map_err(|_| "a record offset is past this machine's address space".to_owned())?;
        Ok(Records {
            text: Text::File(file),
            starts,
        })
    }

    /// Where each record starts, and where the last one ends: what the edge
    /// data file says of the records file.
    pub fn starts(&self) -> Vec<u64> {
        self.starts.iter().map(|start| *start as u64).collect()
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole text, when held in memory ([`Records::write`]); `None` for
    /// a file's records.
    pub fn text(&self) -> Option<&str> {
        match &self.text {
            Text::Memory(text) => Some(text),
            Text::File(_) => None,
        }
    }

    /// The record at `position`, as a raw JSON value.
    pub fn get(&self, position: u32) -> Box<RawValue> {
        RawValue::from_string(self.line(position))
            .expect("invariant: the records hold the JSON generate wrote (the file's ETag is checked at load)")
    }

    /// The record at `position`, its text as written, not checked as JSON
    /// again: what [`Records::get`] holds.
    ///
    /// Panics as [`Records::append_to`] does, or when the record is not
    /// UTF-8 (the file was rewritten since load).
    pub fn line(&self, position: u32) -> String {
        let mut bytes = Vec::with_capacity(self.len_of(position));
        self.append_to(position, &mut bytes);
        String::from_utf8(bytes).expect(
            "invariant: the records file is the UTF-8 generate wrote (its ETag is checked at load)",
        )
    }

    /// The length in bytes of the record at `position`, its newline left out.
    pub fn len_of(&self, position: u32) -> usize {
        let (start, end) = self.span(position);
        end - start
    }

    /// Appends the record at `position` to `out`, its bytes as written (no
    /// newline), not checked as UTF-8 or JSON again: for an answer that
    /// holds it as it is, read straight into the answer's buffer.
    ///
    /// Panics when the open file no longer holds the bytes read at load (it
    /// was truncated or rewritten in place, which `generate` never does: a
    /// new tree is a new directory): a broken invariant, which the HTTP
    /// routes and the MCP handlers answer as an internal error.
    pub fn append_to(&self, position: u32, out: &mut Vec<u8>) {
        let (start, end) = self.span(position);
        match &self.text {
            Text::Memory(text) => out.extend_from_slice(&text.as_bytes()[start..end]),
            Text::File(file) => {
                use std::os::unix::fs::FileExt;
                let at = out.len();
                out.resize(at + end - start, 0);
                file.read_exact_at(&mut out[at..], start as u64)
                    .expect("invariant: the open records file keeps the bytes read at load");
            }
        }
    }

    /// Where the record at `position` starts and ends, its newline left out.
    fn span(&self, position: u32) -> (usize, usize) {
        let position = position as usize;
        (self.starts[position], self.starts[position + 1] - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records of `text` at `starts`, kept in a file holding `text`.
    fn open(text: &[u8], starts: &[u64]) -> Result<Records, String> {
        let mut file = tempfile::tempfile().expect("a temporary file");
        file.write_all(text).expect("write the records");
        Records::open(file, starts.to_vec())
    }

    #[test]
    fn records_are_read_from_the_file_at_their_offsets() {
        let text = b"{\"a\":1}\n{\"b\":[2]}\n";
        let written = Records::write(
            [serde_json::json!({"a": 1}), serde_json::json!({"b": [2]})].into_iter(),
        );
        assert_eq!(written.text().map(str::as_bytes), Some(&text[..]));
        let records = open(text, &written.starts()).expect("two records");
        assert_eq!(records.len(), 2);
        assert_eq!(records.get(1).get(), "{\"b\":[2]}");
    }

    #[test]
    fn offsets_must_ascend_to_the_end_of_the_file() {
        let text = b"{\"a\":1}\n{\"b\":2}\n";
        let short = open(text, &[0, 8]).expect_err("the file holds more");
        assert!(short.contains("end at byte 8"), "{short}");
        let long = open(text, &[0, 8, 16, 20]).expect_err("past the file");
        assert!(long.contains("holds 16"), "{long}");
        let unsorted = open(text, &[0, 8, 8, 16]).expect_err("an empty record");
        assert!(unsorted.contains("ascend"), "{unsorted}");
    }
}
