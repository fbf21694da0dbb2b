//! API stage, index records: each version's Vehicle JSON (detail, compare),
//! kept as the text `generate` wrote, one record a line, and parsed into a
//! raw JSON value only when a record is asked for (the edge then caches the
//! answer whole). `generate` holds the text in memory; the edge keeps only
//! each line's offset and the open records file, and reads a record from it
//! when asked: the file's pages stay in the kernel's cache, not in the
//! server's memory, and the open file is the loaded tree's even after a new
//! tree replaces it on disk.

use std::fs::File;
use std::io::BufRead;

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
    /// Serializes every record, one a line, through the one serializer.
    pub fn write<T: Serialize>(records: impl Iterator<Item = T>) -> Records {
        let mut text = Vec::new();
        let mut starts = Vec::new();
        for record in records {
            starts.push(text.len());
            serde_json::to_writer(&mut text, &record)
                .expect("invariant: response types serialize to JSON");
            text.push(b'\n');
        }
        starts.push(text.len());
        let text = String::from_utf8(text).expect("invariant: serde_json writes UTF-8");
        Records {
            text: Text::Memory(text),
            starts,
        }
    }

    /// The records of an open records file whose bytes `text` yields (the
    /// file read once, a line at a time, to find and check them): lines of
    /// UTF-8, each a record ([`crate::api::Index::from_file`] checks that
    /// there is one a version). Only the offsets and the file are kept.
    pub fn open(file: File, mut text: impl BufRead) -> Result<Records, String> {
        let mut starts = vec![0];
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = text
                .read_until(b'\n', &mut line)
                .map_err(|err| format!("reading: {err}"))?;
            if read == 0 {
                break;
            }
            if std::str::from_utf8(&line).is_err() {
                return Err(format!("record {} is not UTF-8", starts.len()));
            }
            if line.last() != Some(&b'\n') {
                return Err("ends without a newline".to_owned());
            }
            starts.push(starts.last().copied().unwrap_or_default() + read);
        }
        Ok(Records {
            text: Text::File(file),
            starts,
        })
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole text, for `generate` to write; `None` for a file's records.
    pub fn text(&self) -> Option<&str> {
        match &self.text {
            Text::Memory(text) => Some(text),
            Text::File(_) => None,
        }
    }

    /// The record at `position`, as a raw JSON value.
    pub fn get(&self, position: u32) -> Box<RawValue> {
        let position = position as usize;
        let (start, end) = (self.starts[position], self.starts[position + 1] - 1);
        let line = match &self.text {
            Text::Memory(text) => text[start..end].to_owned(),
            Text::File(file) => read_line(file, start, end),
        };
        RawValue::from_string(line)
            .expect("invariant: the records hold the JSON generate wrote (the file's ETag is checked at load)")
    }
}

/// Reads `start..end` of the open records file.
fn read_line(file: &File, start: usize, end: usize) -> String {
    use std::os::unix::fs::FileExt;
    let mut bytes = vec![0; end - start];
    file.read_exact_at(&mut bytes, start as u64)
        .expect("invariant: the open records file keeps the bytes read at load");
    String::from_utf8(bytes).expect("invariant: the records file was checked to be UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The records of `text`, scanned from it and kept in a file holding it.
    fn open(text: &[u8]) -> Result<Records, String> {
        let mut file = tempfile::tempfile().expect("a temporary file");
        file.write_all(text).expect("write the records");
        Records::open(file, text)
    }

    #[test]
    fn an_opened_records_file_is_read_a_line_a_record() {
        let records = open(b"{\"a\":1}\n{\"b\":[2]}\n").expect("two records");
        assert_eq!(records.len(), 2);
        assert_eq!(records.get(1).get(), "{\"b\":[2]}");
    }

    #[test]
    fn a_records_file_must_hold_utf8_lines() {
        let unended = open(b"{\"a\":1}\n{\"b\":2}").expect_err("no final newline");
        assert!(unended.contains("newline"), "{unended}");
        let bytes = open(b"{\"a\":1}\n\"\xff\"\n").expect_err("not UTF-8");
        assert!(bytes.contains("record 2 is not UTF-8"), "{bytes}");
    }
}
