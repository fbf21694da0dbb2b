//! API stage, index records: each version's Vehicle JSON (detail, compare),
//! kept as the text `generate` wrote, one record a line, and parsed into a
//! raw JSON value only when a record is asked for: loading a tree then
//! reads the records without parsing them, and an answer made from one is
//! cached whole by the edge.

use serde::Serialize;
use serde_json::value::RawValue;

/// The Vehicle records of every version, in position order.
#[derive(Debug, Clone, Default)]
pub struct Records {
    text: String,
    /// Where each record starts in `text`, and where the text ends.
    starts: Vec<usize>,
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
        Records { text, starts }
    }

    /// Reads the records file: `expected` lines, each a record.
    pub fn read(text: String, expected: usize) -> Result<Records, String> {
        let mut starts = vec![0];
        starts.extend(
            text.match_indices('\n')
                .map(|(newline, _)| newline + 1)
                .take(expected + 1),
        );
        if starts.len() != expected + 1 || starts.last() != Some(&text.len()) {
            return Err(format!(
                "holds {} records, the edge data lists {expected} versions",
                text.matches('\n').count()
            ));
        }
        Ok(Records { text, starts })
    }

    /// The whole file, as [`Records::read`] reads it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The record at `position`, as a raw JSON value.
    pub fn get(&self, position: u32) -> Box<RawValue> {
        let position = position as usize;
        let line = &self.text[self.starts[position]..self.starts[position + 1] - 1];
        RawValue::from_string(line.to_owned())
            .expect("invariant: the records file holds the JSON generate wrote (its ETag is checked at load)")
    }
}
