//! Edge stage, an answer's skeleton: a list answer kept without the
//! Summaries it is mostly made of, which the index already holds.
//!
//! Why: a page of 20 to 100 versions is 10 to 200 KB, nearly all of it
//! Summaries copied from the index, so a cache of whole answers holds a few
//! thousand of them and a varied load (many distinct queries, each asked
//! now and then) finds few of its answers there. A skeleton keeps the
//! bytes between the Summaries and, for each Summary, its version's
//! position: about a twentieth of the answer. Fleshing it out again is one
//! copy of the bytes, where computing the answer anew selects, sorts and
//! serializes (BENCHMARKS.md, "The edge against nginx and Datasette").
//!
//! A skeleton is exact by construction: a Summary is cut out only where
//! the answer's bytes are that Summary's bytes, byte for byte, so
//! [`Skeleton::flesh`] gives back the very bytes [`Skeleton::of`] was given
//! (with the index of the same loaded tree).

use memchr::memmem;

use crate::api::Index;

/// How every Summary starts: its `id` member first.
const SUMMARY_START: &[u8] = b"{\"id\":\"";

/// An answer without its Summaries.
#[derive(Debug)]
pub struct Skeleton {
    /// The answer's bytes outside its Summaries, in order.
    rest: Box<[u8]>,
    /// Each Summary cut out, in order.
    cuts: Box<[Cut]>,
    /// The whole answer's length.
    len: usize,
}

/// One Summary cut out of an answer.
#[derive(Debug, Clone, Copy)]
struct Cut {
    /// Where in the skeleton's `rest` it goes back in.
    at: u32,
    /// The position of its version in the index.
    position: u32,
}

impl Skeleton {
    /// The skeleton of `bytes`, an answer made from `index`: `None` when
    /// its Summaries are not most of it (a detail, a comparison, a short
    /// page), where a skeleton would save little.
    pub fn of(bytes: &[u8], index: &Index) -> Option<Skeleton> {
        let finder = memmem::Finder::new(SUMMARY_START);
        let mut rest = Vec::new();
        let mut cuts = Vec::new();
        let (mut kept_to, mut from) = (0, 0);
        while let Some(found) = finder.find(&bytes[from..]) {
            let start = from + found;
            let id_start = start + SUMMARY_START.len();
            from = id_start;
            let Some((position, summary)) = summary_at(bytes, id_start, index) else {
                continue;
            };
            if bytes[start..].starts_with(summary.as_bytes()) {
                rest.extend_from_slice(&bytes[kept_to..start]);
                cuts.push(Cut {
                    at: u32::try_from(rest.len()).ok()?,
                    position,
                });
                kept_to = start + summary.len();
                from = kept_to;
            }
        }
        rest.extend_from_slice(&bytes[kept_to..]);
        (rest.len() * 2 < bytes.len()).then(|| Skeleton {
            rest: rest.into_boxed_slice(),
            cuts: cuts.into_boxed_slice(),
            len: bytes.len(),
        })
    }

    /// The answer's bytes again, its Summaries taken from `index` (the
    /// one it was made from).
    pub fn flesh(&self, index: &Index) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.len);
        let mut copied = 0;
        for cut in &self.cuts {
            let at = cut.at as usize;
            bytes.extend_from_slice(&self.rest[copied..at]);
            bytes.extend_from_slice(index.summary_json(cut.position).as_bytes());
            copied = at;
        }
        bytes.extend_from_slice(&self.rest[copied..]);
        bytes
    }

    /// The bytes it holds, for a cache's budget.
    pub fn weight(&self) -> usize {
        self.rest.len() + std::mem::size_of_val(&*self.cuts)
    }

    /// How many Summaries were cut out.
    pub fn summaries(&self) -> usize {
        self.cuts.len()
    }
}

/// The position and Summary of the version whose ID starts at `id_start`
/// in `bytes` (an ID is a slug: it has no escapes, and one that had would
/// not be found); `None` when no published version has that ID.
fn summary_at<'a>(bytes: &[u8], id_start: usize, index: &'a Index) -> Option<(u32, &'a str)> {
    let id_len = memchr::memchr(b'"', &bytes[id_start..])?;
    let id = std::str::from_utf8(&bytes[id_start..id_start + id_len]).ok()?;
    let position = index.find(id)?;
    Some((position, index.summary_json(position)))
}
