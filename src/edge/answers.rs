//! Edge stage, answers: every API answer as bytes with their ETag, from
//! memory. The answers `generate` precomputed as lists (API info, the
//! catalogue, every default page of vehicles and deals) are computed once
//! when a tree loads and never evicted; every other answer (a vehicle's
//! detail, a model's prices, any query) is computed once through the index
//! and kept in a bounded cache owned by the loaded tree, so that a reload
//! drops it with the tree; the ETags of recent questions are kept longer
//! than their answers, so one asked again is computed but not hashed
//! again. HTTP handlers and MCP tools both answer here.
//! The same cache keeps the static files the edge serves (up to
//! [`MAX_CACHED_FILE`] each), read and hashed once per tree.
//! A computed answer made mostly of Summaries (a page of a list) is kept
//! instead on a shelf beside the cache, as its skeleton ([`Skeleton`]), a
//! twentieth of its size, so that far more of them stay than whole answers
//! would, and a walk through a long list does not push the other answers
//! out: asked again, it is fleshed out from the index for the request (one
//! copy; not computed, not hashed, but compressed again for a client that
//! asks gzip, as a computed answer would be).
//! Answers are kept by question; a request's URL is kept apart, pointing at
//! its question, so that the same URL again is answered without parsing
//! and an answer asked for under two spellings is kept once.

use std::sync::Arc;

use axum::http::HeaderValue;
use quick_cache::Weighter;
use quick_cache::sync::Cache;

// The fixed answers' maps: every request looks its URL up first, and
// SipHash over a long query string was a visible part of an answer's time.
use crate::api::HashMap;
use crate::api::ops::{Headline, Question, http_operations, op_of};
use crate::api::query::Operation;
use crate::api::{ApiError, Index};
pub use crate::edge::answer::{Answer, MAX_CACHED_FILE};
use crate::edge::skeleton::Skeleton;

/// Default memory budget of a tree's response cache: 64 MiB, of which 40
/// for whole answers (about 7,500 vehicle details), 16 for the skeletons of
/// about 12,000 pages of 100 versions, and 4 each for ETags and URLs.
pub const DEFAULT_CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Bookkeeping per cached answer besides its bytes (key, ETag, entry).
const ENTRY_OVERHEAD: u64 = 256;

/// The question a precomputed URL (`api::precomputed`) asks: one of an
/// operation whose precomputed answers are fixed at load; `None` for every
/// other URL (details and model prices are answered on demand).
fn of_listed_url(url: &str) -> Option<Question> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let (spec, _) = http_operations().find(|(_, http)| http.fixed_at_load && http.path == path)?;
    Question::of_request(op_of(spec.operation)?, path, query).ok()
}

/// A question's cache key, computed once per request: its operation,
/// whether in brief, and its query written back in one spelling
/// ([`Question::key`]).
fn key_of(question: &Question) -> Key {
    let (operation, brief, text) = question.key();
    Key::Question(operation, brief, text)
}

/// What the caches keep things by: an API question (see
/// [`Question::key`]: two questions that parse alike have one key), a
/// static file's URL path, or an API request's URL.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Question(Operation, bool, String),
    File(String),
    /// An API request's path and raw query, as sent: what the URLs' map
    /// keeps the question it parsed to by.
    Url(String),
}

impl Key {
    /// The length of its text (a path, a URL or a query), for weighing.
    fn text_len(&self) -> usize {
        match self {
            Key::File(path) | Key::Url(path) => path.len(),
            Key::Question(_, _, text) => text.len(),
        }
    }
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Key::Question(operation, brief, text) => {
                state.write_u8(0);
                (operation, brief, text).hash(state);
            }
            Key::File(path) => FileKey(path).hash(state),
            Key::Url(url) => UrlKey(url).hash(state),
        }
    }
}

/// An API request's URL as a key, borrowed.
struct UrlKey<'a>(&'a str);

impl std::hash::Hash for UrlKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u8(2);
        self.0.hash(state);
    }
}

impl quick_cache::Equivalent<Key> for UrlKey<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        matches!(key, Key::Url(url) if url == self.0)
    }
}

/// A static file's key, borrowed: looked up without building a [`Key`].
struct FileKey<'a>(&'a str);

impl std::hash::Hash for FileKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u8(1);
        self.0.hash(state);
    }
}

impl quick_cache::Equivalent<Key> for FileKey<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        matches!(key, Key::File(path) if path == self.0)
    }
}

/// Weighs a cached answer by its bytes.
#[derive(Debug, Clone, Copy)]
struct ByBytes;

impl Weighter<Key, Answer> for ByBytes {
    fn weight(&self, key: &Key, answer: &Answer) -> u64 {
        answer.bytes.len() as u64 + key.text_len() as u64 + ENTRY_OVERHEAD
    }
}

/// Whether `key` asks for a page of Summaries (a search, deals, a model's
/// prices, not in brief): the answers worth a skeleton. Others are not
/// looked through, although [`Skeleton::of`] would refuse them: a detail
/// or a comparison holds IDs that it would look up for nothing.
fn lists_summaries(key: &Key) -> bool {
    matches!(
        key,
        Key::Question(
            Operation::Search | Operation::Deals | Operation::ModelPrices,
            false,
            _
        )
    )
}

/// What the shelf keeps of an answer: its skeleton, and what the answer
/// carries besides its bytes.
#[derive(Debug)]
struct Bare {
    skeleton: Skeleton,
    content_type: HeaderValue,
    etag: HeaderValue,
    headline: Option<Arc<Headline>>,
}

impl Bare {
    /// What the shelf keeps of `answer`, made from `index`; `None` when
    /// it is not mostly Summaries ([`Skeleton::of`]).
    fn of(answer: &Answer, index: &Index) -> Option<Arc<Bare>> {
        Some(Arc::new(Bare {
            skeleton: Skeleton::of(&answer.bytes, index)?,
            content_type: answer.content_type.clone(),
            etag: answer.etag.clone(),
            headline: answer.headline.clone(),
        }))
    }

    /// The answer again, for one request.
    fn answer(&self, index: &Index) -> Answer {
        Answer::passing(
            self.skeleton.flesh(index),
            self.content_type.clone(),
            self.etag.clone(),
            self.headline.clone(),
        )
    }
}

/// Weighs a shelved answer by its skeleton.
#[derive(Debug, Clone, Copy)]
struct BareWeight;

impl Weighter<Key, Arc<Bare>> for BareWeight {
    fn weight(&self, key: &Key, bare: &Arc<Bare>) -> u64 {
        (bare.skeleton.weight() + key.text_len()) as u64 + BARE_OVERHEAD
    }
}

/// Bookkeeping per shelved answer besides its skeleton and key (entry,
/// content type, ETag, headline).
const BARE_OVERHEAD: u64 = 192;

/// The shelf's share of the response cache's budget: a quarter, room for
/// the skeletons of about 12,000 pages of 100 versions in the default
/// 64 MiB.
const SHELF_SHARE: u64 = 4;

/// Weighs a URL's question by both texts.
#[derive(Debug, Clone, Copy)]
struct UrlWeight;

impl Weighter<Key, Arc<Key>> for UrlWeight {
    fn weight(&self, url: &Key, question: &Arc<Key>) -> u64 {
        (url.text_len() + question.text_len()) as u64 + URL_OVERHEAD
    }
}

/// Bookkeeping per URL besides its two texts.
const URL_OVERHEAD: u64 = 96;

/// The URLs' share of the response cache's budget: a sixteenth, room for
/// about 14,000 URLs in the default 64 MiB.
const URL_SHARE: u64 = 16;

/// The answers of one loaded tree.
pub struct Answers {
    fixed: HashMap<Key, Answer>,
    /// The fixed answers again, by the URL they were computed for:
    /// a request for exactly that URL is answered before any routing or
    /// parsing (`edge::shortcut`).
    listed: HashMap<String, Answer>,
    cache: Cache<Key, Answer, ByBytes>,
    /// The ETag of every question answered lately, kept longer than its
    /// answer: a question asked again after its answer left the cache is
    /// computed again but not hashed again. A question answers the same
    /// bytes within one tree, and hashing them was the largest part of a
    /// computed answer's time (bench/HISTORY.md, "The routine run after the
    /// history key").
    etags: Cache<Key, HeaderValue, EtagWeight>,
    /// The skeletons of the answers computed lately that are mostly
    /// Summaries, by question.
    shelf: Cache<Key, Arc<Bare>, BareWeight>,
    /// The question each URL asked lately (path and raw query, as sent)
    /// parsed to: a request for exactly that URL again is answered without
    /// parsing (`edge::shortcut`). A URL points at its question's entry,
    /// so an answer is kept once however many spellings asked for it.
    /// (Shared, so that looking a URL up copies no text.)
    urls: Cache<Key, Arc<Key>, UrlWeight>,
}

/// Weighs a remembered ETag by its key and the tag.
#[derive(Debug, Clone, Copy)]
struct EtagWeight;

impl Weighter<Key, HeaderValue> for EtagWeight {
    fn weight(&self, key: &Key, etag: &HeaderValue) -> u64 {
        (key.text_len() + etag.len()) as u64 + ETAG_OVERHEAD
    }
}

/// Bookkeeping per remembered ETag besides its key and tag.
const ETAG_OVERHEAD: u64 = 64;

/// The ETags' share of the response cache's budget: a sixteenth, room for
/// about 20,000 questions in the default 64 MiB.
const ETAG_SHARE: u64 = 16;

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("fixed", &self.fixed.len())
            .field("cached", &self.cache.len())
            .field("cached_bytes", &self.cache.weight())
            .field("shelved", &self.shelf.len())
            .field("urls", &self.urls.len())
            .finish()
    }
}

impl Answers {
    /// Computes the answer of every precomputed URL in `urls`
    /// (`api::precomputed::urls`) and sets up an empty cache of
    /// `cache_bytes`.
    pub fn new<'a>(index: &Index, urls: impl Iterator<Item = &'a str>, cache_bytes: u64) -> Self {
        let (mut fixed, mut listed) = (HashMap::default(), HashMap::default());
        for (url, question) in urls.filter_map(|url| Some((url, of_listed_url(url)?))) {
            // `/api/v1/vehicles` and `?sort=price_asc` ask the same question:
            // computed once, listed under both URLs.
            let key = key_of(&question);
            let answer = match fixed.get(&key) {
                Some(answer) => Answer::clone(answer),
                None => match question.answer(index) {
                    Ok(reply) => Answer::of_reply(reply),
                    Err(_) => continue,
                },
            };
            listed.insert(url.to_owned(), answer.clone());
            fixed.insert(key, answer);
        }
        // Estimates for the caches' sizing: about 16 KiB an answer, 200
        // bytes a remembered ETag, 1.5 KiB a skeleton, 300 bytes a URL.
        let etag_bytes = cache_bytes / ETAG_SHARE;
        let shelf_bytes = cache_bytes / SHELF_SHARE;
        let url_bytes = cache_bytes / URL_SHARE;
        let answer_bytes = cache_bytes - etag_bytes - shelf_bytes - url_bytes;
        let items =
            |bytes: u64, each: u64| usize::try_from(bytes / each).unwrap_or(usize::MAX).max(16);
        Answers {
            fixed,
            listed,
            cache: Cache::with_weighter(items(answer_bytes, 16 * 1024), answer_bytes, ByBytes),
            etags: Cache::with_weighter(items(etag_bytes, 200), etag_bytes, EtagWeight),
            shelf: Cache::with_weighter(items(shelf_bytes, 1536), shelf_bytes, BareWeight),
            urls: Cache::with_weighter(items(url_bytes, 300), url_bytes, UrlWeight),
        }
    }

    /// The fixed answer of a URL (path and raw query) exactly as
    /// `api::precomputed` spells it, if it is one.
    pub fn listed(&self, url: &str) -> Option<Answer> {
        self.listed.get(url).cloned()
    }

    /// The answer to `question`: from the fixed answers, else from the
    /// cache, else from the shelf, else computed now and kept: on the
    /// shelf if it has a skeleton, else in the cache. Errors are never
    /// kept (they cost no more than parsing). With the `url` it was asked
    /// by (path and raw query, as sent), that URL is kept as well, for the
    /// next request for exactly it to be answered without parsing
    /// ([`Answers::by_url`]).
    pub fn answer(
        &self,
        index: &Index,
        question: &Question,
        url: Option<&str>,
    ) -> Result<Answer, ApiError> {
        let key = key_of(question);
        let answer = self.find_or_compute(index, &key, question)?;
        if let Some(url) = url {
            self.urls.insert(Key::Url(url.to_owned()), Arc::new(key));
        }
        Ok(answer)
    }

    /// [`Answers::answer`] by `key`, without computing it: `None` when
    /// neither the fixed answers, the cache nor the shelf holds it.
    fn kept(&self, index: &Index, key: &Key) -> Option<Answer> {
        if let Some(answer) = self.fixed.get(key) {
            return Some(answer.clone());
        }
        self.cache
            .get(key)
            .or_else(|| self.shelf.get(key).map(|bare| bare.answer(index)))
    }

    /// [`Answers::answer`] by `key`.
    fn find_or_compute(
        &self,
        index: &Index,
        key: &Key,
        question: &Question,
    ) -> Result<Answer, ApiError> {
        if let Some(answer) = self.kept(index, key) {
            return Ok(answer);
        }
        let reply = question.answer(index)?;
        let answer = match self.etags.get(key) {
            // The tag its bytes had when the same question was answered
            // before, in the same tree.
            Some(etag) => {
                debug_assert_eq!(
                    etag.to_str().ok(),
                    Some(crate::api::json::etag(&reply.bytes).as_str()),
                    "a question answers the same bytes within one tree"
                );
                Answer::of_reply_tagged(reply, etag)
            }
            None => {
                let answer = Answer::of_reply(reply);
                self.etags.insert(key.clone(), answer.etag.clone());
                answer
            }
        };
        // An answer with a skeleton is kept as that alone: whole, a walk
        // through every page of a long list would push out of the cache the
        // answers that cannot be made again from the index.
        let bare = lists_summaries(key)
            .then(|| Bare::of(&answer, index))
            .flatten();
        match bare {
            Some(bare) => self.shelf.insert(key.clone(), bare),
            None => self.cache.insert(key.clone(), answer.clone()),
        }
        Ok(answer)
    }

    /// The answer a request for exactly this URL (path and raw query)
    /// got earlier, if it is still kept, whole or as a skeleton (fleshed
    /// out from `index`, the tree's).
    pub fn by_url(&self, index: &Index, url: &str) -> Option<Answer> {
        let question = self.urls.get(&UrlKey(url))?;
        self.kept(index, &question)
    }

    /// The static file a URL path answered earlier.
    pub fn file(&self, path: &str) -> Option<Answer> {
        self.cache.get(&FileKey(path))
    }

    /// Keeps the static file a URL path answers, unless it is over
    /// [`MAX_CACHED_FILE`].
    pub fn keep_file(&self, path: &str, answer: &Answer) {
        if answer.bytes.len() <= MAX_CACHED_FILE {
            self.cache
                .insert(Key::File(path.to_owned()), answer.clone());
        }
    }

    /// How many answers were computed at load.
    pub fn fixed_len(&self) -> usize {
        self.fixed.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(operation: Operation, query: &str) -> Key {
        let op = op_of(operation).expect("an operation of the API");
        let path = op.spec().http.map_or("", |http| http.path);
        key_of(&Question::of_request(op, path, query).expect("a valid query"))
    }

    #[test]
    fn requests_that_parse_alike_share_one_key() {
        let search = |query| key(Operation::Search, query);
        assert_eq!(search(""), search("sort=price_asc&limit=20&offset=0"));
        assert_eq!(search("make=Fiat&q=a%20b"), search("q=a+b&make=Fiat"));
        assert_eq!(search("minPriceUsd=-0"), search("minPriceUsd=0.0"));
        assert_ne!(search("minPriceUsd=1"), search("maxPriceUsd=1"));
        assert_ne!(search(""), key(Operation::Deals, ""));
        assert_eq!(
            key(Operation::Deals, "kind=opportunities&window=7d"),
            key(Operation::Deals, "")
        );
    }
}
