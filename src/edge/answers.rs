//! Edge stage, answers: every API answer as bytes with their ETag, from
//! memory. The answers `generate` precomputed as lists (API info, the
//! catalogue, every default page of vehicles and deals) are computed once
//! when a tree loads and never evicted; every other answer (a vehicle's
//! detail, a model's prices, any query) is computed once through the index
//! and kept in a bounded cache owned by the loaded tree, so that a reload
//! drops it with the tree. HTTP handlers and MCP tools both answer here.
//! The same cache keeps the static files the edge serves (up to
//! [`MAX_CACHED_FILE`] each), read and hashed once per tree.

/// The fixed answers' maps: every request looks its URL up first, and
/// SipHash over a long query string was a visible part of an answer's
/// time; the keys are the tree's own URLs, never a request's.
type HashMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;
use std::io::Write;
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::http::HeaderValue;
use quick_cache::Weighter;
use quick_cache::sync::Cache;

use crate::api::endpoints::{
    compare_vehicles, find_deals, get_api_info, get_catalogue, get_model_prices, get_vehicle,
    search_vehicles,
};
use crate::api::error::Missing;
use crate::api::json::{etag, to_json_bytes};
use crate::api::operations::{Operation, http_operations};
use crate::api::params::TypedQuery;
use crate::api::params::{
    Args, compare_query, deals_query, model_query, no_arguments, optional_text, search_query,
    series_query, text_argument,
};
use crate::api::query::{CompareQuery, DealsQuery, ModelQuery, SearchQuery};
use crate::api::reports::{default_month, get_report, get_reports};
use crate::api::series::{SeriesQuery, answer_series};
use crate::api::{ApiError, Index};

/// Default memory budget of a tree's response cache: 64 MiB, about 3,000
/// pages of 20 versions or 12,000 vehicle details.
pub const DEFAULT_CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Bookkeeping per cached answer besides its bytes (key, ETag, entry).
const ENTRY_OVERHEAD: u64 = 256;

/// Largest static file kept in the cache; larger ones are read each time.
pub const MAX_CACHED_FILE: usize = 1024 * 1024;

/// Content type of every API answer.
use crate::headers::JSON;

/// One API request, parsed and validated: what an answer is computed from,
/// and its cache key: two requests that parse alike (parameter order,
/// percent-encoding, defaults written out or not) are one question.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// `GET /api/v1`.
    ApiInfo,
    /// `GET /api/v1/catalogue`.
    Catalogue,
    /// `GET /api/v1/vehicles`.
    Search(SearchQuery),
    /// `GET /api/v1/deals`.
    Deals(DealsQuery),
    /// `GET /api/v1/models/prices`.
    Model(ModelQuery),
    /// `GET /api/v1/vehicles/{id}`.
    Vehicle(String),
    /// `GET /api/v1/compare`.
    Compare(CompareQuery),
    /// `GET /api/v1/reports`.
    Reports,
    /// `GET /api/v1/reports/{month}`, the month as given (checked when
    /// answered); in MCP, `None` asks for the latest final month.
    Report(Option<String>),
    /// `GET /api/v1/series`.
    Series(SeriesQuery),
}

impl Question {
    /// The question an HTTP request of `operation` asks: its raw (still
    /// percent-encoded) query string, and for a vehicle the raw path
    /// segment after the operation's path prefix, decoded by the parser
    /// rather than by the router, so that every byte of an ID (`/` as
    /// `%2F`, `+`, `%`) survives exactly once-decoded.
    pub fn of_request(operation: Operation, path: &str, query: &str) -> Result<Question, ApiError> {
        let prefix = operation.spec().http.map_or("", |http| http.path);
        // A path parameter is the path's last segment (`{id}`, `{month}`).
        let raw_id = prefix
            .ends_with('}')
            .then(|| prefix.rfind('{'))
            .flatten()
            .map(|start| path.strip_prefix(&prefix[..start]).unwrap_or_default());
        Question::of_args(operation, Args::from_query(operation, raw_id, query), true)
    }

    /// The one dispatch from an operation and its checked arguments to the
    /// question they ask, for HTTP and MCP alike (`commas_separate`: HTTP's
    /// rule for `ids`, see [`CompareQuery::commas_separate`]). The
    /// connector's two tools ask no question of the API's answers: not
    /// found.
    pub fn of_args(
        operation: Operation,
        args: Args,
        commas_separate: bool,
    ) -> Result<Question, ApiError> {
        match operation {
            Operation::ApiInfo => no_arguments(args).map(|()| Question::ApiInfo),
            Operation::Catalogue => no_arguments(args).map(|()| Question::Catalogue),
            Operation::Search => search_query(args).map(Question::Search),
            Operation::Deals => deals_query(args).map(Question::Deals),
            Operation::ModelPrices => model_query(args).map(Question::Model),
            Operation::Compare => compare_query(args, commas_separate).map(Question::Compare),
            Operation::Vehicle => text_argument(args).map(Question::Vehicle),
            Operation::Reports => no_arguments(args).map(|()| Question::Reports),
            Operation::Report => optional_text(args).map(Question::Report),
            Operation::Series => series_query(args).map(Question::Series),
            // MCP's connector tools have no question of the API's.
            Operation::ConnectorSearch | Operation::ConnectorFetch => {
                Err(ApiError::NotFound(Missing::Resource))
            }
        }
    }

    /// The question a precomputed URL (`api::precomputed`) asks: one of an
    /// operation whose precomputed answers are fixed at load; `None` for
    /// every other URL (details and model prices are answered on demand).
    fn of_listed_url(url: &str) -> Option<Question> {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let (spec, _) =
            http_operations().find(|(_, http)| http.fixed_at_load && http.path == path)?;
        Question::of_request(spec.operation, path, query).ok()
    }

    /// The question's cache key, computed once per request: its
    /// operation and its query written back by the table's rows
    /// (`TypedQuery::to_query`, one spelling per query; a negative zero is
    /// written as zero), or the vehicle's ID.
    fn key(&self) -> Key {
        let (operation, text, commas) = match self {
            Question::ApiInfo => (0, String::new(), false),
            Question::Catalogue => (1, String::new(), false),
            Question::Search(query) => (2, query.to_query(), false),
            Question::Deals(query) => (3, query.to_query(), false),
            Question::Model(query) => (4, query.to_query(), false),
            Question::Vehicle(id) => (5, id.clone(), false),
            Question::Compare(query) => (6, query.to_query(), query.commas_separate),
            Question::Reports => (7, String::new(), false),
            Question::Report(month) => (8, month.clone().unwrap_or_default(), month.is_none()),
            // Its own spelling of every field: two requests that parse
            // alike are one question.
            Question::Series(query) => (9, query.key(), false),
        };
        Key::Question(operation, text, commas)
    }

    /// Computes the answer through the operation's one function and the one
    /// serializer, with its content type.
    fn compute(&self, index: &Index) -> Result<(Vec<u8>, &'static str), ApiError> {
        let market = index.market();
        Ok(match self {
            Question::Reports => (get_reports(market), JSON),
            Question::Report(month) => {
                let month = month
                    .as_deref()
                    .or_else(|| default_month(market))
                    .unwrap_or("");
                (get_report(market, month)?, JSON)
            }
            Question::Series(query) => answer_series(&market.series, query)?,
            _ => (self.compute_json(index)?, JSON),
        })
    }

    /// The answer of an operation whose answer is JSON of `api::endpoints`.
    fn compute_json(&self, index: &Index) -> Result<Vec<u8>, ApiError> {
        Ok(match self {
            Question::ApiInfo => to_json_bytes(&get_api_info(index)),
            Question::Catalogue => to_json_bytes(&get_catalogue(index)),
            Question::Search(query) => to_json_bytes(&search_vehicles(index, query)?),
            Question::Deals(query) => to_json_bytes(&find_deals(index, query)?),
            Question::Model(query) => to_json_bytes(&get_model_prices(index, query)?),
            Question::Vehicle(id) => to_json_bytes(&get_vehicle(index, id)?),
            Question::Compare(query) => to_json_bytes(&compare_vehicles(index, query)?),
            Question::Reports | Question::Report(_) | Question::Series(_) => {
                unreachable!("invariant: the market's answers are computed by `compute`")
            }
        })
    }
}

/// Smallest body worth compressing in transit: below a packet, gzip's
/// header and the extra work buy nothing.
const MIN_COMPRESSED: usize = 1024;

/// What the cache keeps answers by: an API question (see
/// [`Question::key`]: two questions that parse alike have one key), or a
/// static file's URL path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Question(u8, String, bool),
    File(String),
    /// An API request's path and raw query, as sent: the question it
    /// parsed to, kept again so that the same URL again is answered
    /// without parsing.
    Url(String),
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Key::Question(operation, text, commas) => {
                state.write_u8(0);
                (operation, text, commas).hash(state);
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

/// A successful answer: the bytes, their content type and strong ETag, and
/// their gzip form, made the first time a client accepts it and kept with
/// the answer (so with its cache entry). Cloning shares all of it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The response body.
    pub bytes: Bytes,
    /// Its `Content-Type`.
    pub content_type: HeaderValue,
    /// Its ETag header value.
    pub etag: HeaderValue,
    gzip: Arc<OnceLock<Option<Bytes>>>,
}

impl Answer {
    /// Bytes of `content_type` (a manifest's, or a known type: `None` when
    /// it is not a valid header value), hashed once.
    pub fn new(content_type: &str, bytes: Vec<u8>) -> Option<Answer> {
        let etag = HeaderValue::from_str(&etag(&bytes))
            .expect("invariant: an ETag is a quoted hex digest");
        Some(Answer {
            content_type: HeaderValue::from_str(content_type).ok()?,
            bytes: Bytes::from(bytes),
            etag,
            gzip: Arc::default(),
        })
    }

    /// Whether the answer is sent compressed to a client that accepts gzip:
    /// a text format, at least `MIN_COMPRESSED` and at most
    /// [`MAX_CACHED_FILE`] bytes (larger files are not kept, and would be
    /// compressed again for every request).
    pub fn compressible(&self) -> bool {
        (MIN_COMPRESSED..=MAX_CACHED_FILE).contains(&self.bytes.len())
            && self
                .content_type
                .to_str()
                .is_ok_and(crate::headers::compressible)
    }

    /// The gzip form of the bytes, compressed once; `None` when the answer
    /// is not [`Answer::compressible`] or does not get smaller.
    pub fn gzipped(&self) -> Option<Bytes> {
        if !self.compressible() {
            return None;
        }
        self.gzip
            .get_or_init(|| {
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                encoder.write_all(&self.bytes).ok()?;
                let gzip = encoder.finish().ok()?;
                (gzip.len() < self.bytes.len()).then(|| Bytes::from(gzip))
            })
            .clone()
    }

    /// An answer of one of the API's own content types.
    fn typed(content_type: &'static str, bytes: Vec<u8>) -> Answer {
        Answer::new(content_type, bytes)
            .expect("invariant: the API's content types are header values")
    }
}

/// Weighs a cached answer by its bytes.
#[derive(Debug, Clone, Copy)]
struct ByBytes;

impl Weighter<Key, Answer> for ByBytes {
    fn weight(&self, key: &Key, answer: &Answer) -> u64 {
        let key = match key {
            Key::File(path) | Key::Url(path) => path.len(),
            Key::Question(_, text, _) => text.len(),
        };
        answer.bytes.len() as u64 + key as u64 + ENTRY_OVERHEAD
    }
}

/// The answers of one loaded tree.
pub struct Answers {
    fixed: HashMap<Key, Answer>,
    /// The fixed answers again, by the URL they were computed for:
    /// a request for exactly that URL is answered before any parsing.
    listed: HashMap<String, Answer>,
    cache: Cache<Key, Answer, ByBytes>,
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("fixed", &self.fixed.len())
            .field("cached", &self.cache.len())
            .field("cached_bytes", &self.cache.weight())
            .finish()
    }
}

impl Answers {
    /// Computes the answer of every precomputed URL in `urls`
    /// (`api::precomputed::urls`) and sets up an empty cache of
    /// `cache_bytes`.
    pub fn new<'a>(index: &Index, urls: impl Iterator<Item = &'a str>, cache_bytes: u64) -> Self {
        let (mut fixed, mut listed) = (HashMap::default(), HashMap::default());
        for (url, question) in urls.filter_map(|url| Some((url, Question::of_listed_url(url)?))) {
            // `/api/v1/vehicles` and `?sort=price_asc` ask the same question:
            // computed once, listed under both URLs.
            let key = question.key();
            let answer = match fixed.get(&key) {
                Some(answer) => Answer::clone(answer),
                None => match question.compute(index) {
                    Ok((bytes, content_type)) => Answer::typed(content_type, bytes),
                    Err(_) => continue,
                },
            };
            listed.insert(url.to_owned(), answer.clone());
            fixed.insert(key, answer);
        }
        // An estimate for the cache's sizing: about 16 KiB an answer.
        let items = usize::try_from(cache_bytes / (16 * 1024)).unwrap_or(usize::MAX);
        Answers {
            fixed,
            listed,
            cache: Cache::with_weighter(items.max(16), cache_bytes, ByBytes),
        }
    }

    /// The fixed answer of a URL (path and raw query) exactly as
    /// `api::precomputed` spells it, if it is one.
    pub fn listed(&self, url: &str) -> Option<Answer> {
        self.listed.get(url).cloned()
    }

    /// The answer to `question`: from the fixed answers, else from the
    /// cache, else computed now and cached. Errors are never cached (they
    /// cost no more than parsing).
    pub fn answer(&self, index: &Index, question: &Question) -> Result<Answer, ApiError> {
        let key = question.key();
        if let Some(answer) = self.fixed.get(&key) {
            return Ok(answer.clone());
        }
        if let Some(answer) = self.cache.get(&key) {
            return Ok(answer);
        }
        let (bytes, content_type) = question.compute(index)?;
        let answer = Answer::typed(content_type, bytes);
        self.cache.insert(key, answer.clone());
        Ok(answer)
    }

    /// The answer a request for exactly this URL (path and raw query)
    /// got earlier, if it is still kept ([`Answers::keep_url`]).
    pub fn by_url(&self, url: &str) -> Option<Answer> {
        self.cache.get(&UrlKey(url))
    }

    /// Keeps `answer` as the answer to exactly `url` as well: the next
    /// request for it skips parsing. Its bytes are shared with the
    /// question's entry but weighed again, so the cache's budget bounds
    /// memory whichever entry goes first.
    pub fn keep_url(&self, url: &str, answer: &Answer) {
        self.cache.insert(Key::Url(url.to_owned()), answer.clone());
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
        let path = operation.spec().http.map_or("", |http| http.path);
        Question::of_request(operation, path, query)
            .expect("a valid query")
            .key()
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
