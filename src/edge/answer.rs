//! Edge stage, an answer: bytes with their content type and ETag, and the
//! forms made of them when first asked for and kept with them: the gzip
//! form, and the responses the connections' fast lane sends as they are
//! (`edge::connection`).

use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode};

use crate::api::json::etag;
use crate::api::ops::{Headline, Reply};

/// Largest static file kept in the cache; larger ones are read each time.
pub const MAX_CACHED_FILE: usize = 1024 * 1024;

/// How many forms of one answer may be kept as [`Wire`]s.
pub const WIRE_FORMS: usize = 16;

/// An answer's response for one form of request, ready to send but for its
/// `Date`: the head (status line and headers, up to the date line) and the
/// body, with what the request log writes of it.
#[derive(Debug, Clone)]
pub struct Wire {
    /// The status line and the headers, each line ending in CRLF.
    pub head: Bytes,
    /// The body (empty for a 304 or a HEAD).
    pub body: Bytes,
    /// The body in a file as well, when it is large enough to be sent with
    /// `sendfile` rather than copied ([`BodyFile::of`]).
    pub file: Option<Arc<BodyFile>>,
    /// The status, for the request log.
    pub status: StatusCode,
    /// The `Content-Length` sent, for the request log.
    pub length: Option<HeaderValue>,
}

/// Smallest body sent from a file: below it, copying the bytes into the
/// socket costs less than a second system call.
pub const FROM_FILE: usize = 16 * 1024;

/// Most bodies held in files at once: each holds a file descriptor, and
/// the process's limit is often 1,024.
const MAX_FILES: usize = 256;

/// How many [`BodyFile`]s are open.
static FILES: AtomicUsize = AtomicUsize::new(0);

/// A body's bytes in an anonymous file in memory (`memfd_create`), which
/// the kernel sends to a socket from its own pages (`sendfile`), as nginx
/// sends a file, instead of copying them from the process's memory for
/// each request.
#[derive(Debug)]
pub struct BodyFile {
    /// The file, its bytes from offset 0.
    pub file: File,
    /// Its length.
    pub length: u64,
}

impl BodyFile {
    /// `body` in a file; `None` when it is shorter than [`FROM_FILE`], when
    /// `MAX_FILES` are open, or when the system gives no file.
    pub fn of(body: &[u8]) -> Option<Arc<BodyFile>> {
        if body.len() < FROM_FILE {
            return None;
        }
        if FILES.fetch_add(1, Ordering::Relaxed) >= MAX_FILES {
            FILES.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let written = rustix::fs::memfd_create("autoprecios-body", rustix::fs::MemfdFlags::CLOEXEC)
            .map_err(std::io::Error::from)
            .and_then(|fd| {
                let mut file = File::from(fd);
                file.write_all(body)?;
                Ok(file)
            });
        match written {
            Ok(file) => Some(Arc::new(BodyFile {
                file,
                length: body.len() as u64,
            })),
            Err(_) => {
                FILES.fetch_sub(1, Ordering::Relaxed);
                None
            }
        }
    }
}

impl Drop for BodyFile {
    fn drop(&mut self) {
        FILES.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The forms of an answer, each made once.
#[derive(Debug, Default)]
struct Forms {
    /// Whether the answer is made for one request and dropped after it
    /// ([`Answer::passing`]).
    passing: bool,
    gzip: OnceLock<Option<Bytes>>,
    /// Made with the first form sent: most answers are never sent by the
    /// fast lane, and sixteen empty slots are not worth their room.
    wires: OnceLock<Box<[OnceLock<Option<Wire>>; WIRE_FORMS]>>,
}

/// Smallest body worth compressing in transit: below a packet, gzip's
/// header and the extra work buy nothing.
const MIN_COMPRESSED: usize = 1024;

/// A successful answer: the bytes, their content type and strong ETag, and
/// the forms made of them when first needed and kept with the answer (so
/// with its cache entry): the gzip form, and each [`Wire`] form the
/// connections' fast lane sent. Cloning shares all of it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The response body.
    pub bytes: Bytes,
    /// Its `Content-Type`.
    pub content_type: HeaderValue,
    /// Its ETag header value.
    pub etag: HeaderValue,
    /// What an operation's answer answered, in one line (MCP's headline
    /// starts with it); `None` for a static file.
    pub headline: Option<Arc<Headline>>,
    forms: Arc<Forms>,
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
            headline: None,
            forms: Arc::default(),
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
        self.forms
            .gzip
            .get_or_init(|| {
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                encoder.write_all(&self.bytes).ok()?;
                let gzip = encoder.finish().ok()?;
                (gzip.len() < self.bytes.len()).then(|| Bytes::from(gzip))
            })
            .clone()
    }

    /// The answer's response in the form numbered `form` (below
    /// [`WIRE_FORMS`]; the policy numbers them, `policy::Form::number`),
    /// encoded by `encode` the first time it is sent and kept; `None` when
    /// `encode` found it cannot be sent as it is.
    pub fn wire(&self, form: usize, encode: impl FnOnce() -> Option<Wire>) -> Option<Wire> {
        self.forms
            .wires
            .get_or_init(|| Box::new(std::array::from_fn(|_| OnceLock::new())))[form]
            .get_or_init(encode)
            .clone()
    }

    /// An answer made again for one request from what the cache keeps of
    /// it (`edge::skeleton`): its forms are made for that request alone,
    /// and none is put in a file, which would cost more than the copy it
    /// saves.
    pub(super) fn passing(
        bytes: Vec<u8>,
        content_type: HeaderValue,
        etag: HeaderValue,
        headline: Option<Arc<Headline>>,
    ) -> Answer {
        Answer {
            bytes: Bytes::from(bytes),
            content_type,
            etag,
            headline,
            forms: Arc::new(Forms {
                passing: true,
                ..Forms::default()
            }),
        }
    }

    /// Whether the answer and its forms are kept beyond one request (all
    /// but one made again from a skeleton for one request).
    pub fn lasting(&self) -> bool {
        !self.forms.passing
    }

    /// An operation's answer.
    pub(super) fn of_reply(reply: Reply) -> Answer {
        let tag = HeaderValue::from_str(&etag(&reply.bytes))
            .expect("invariant: an ETag is a quoted hex digest");
        Answer::of_reply_tagged(reply, tag)
    }

    /// An operation's answer whose ETag is `etag`, the one of its bytes.
    pub(super) fn of_reply_tagged(reply: Reply, etag: HeaderValue) -> Answer {
        Answer {
            content_type: HeaderValue::from_static(reply.content_type),
            bytes: Bytes::from(reply.bytes),
            etag,
            headline: Some(Arc::new(reply.headline)),
            forms: Arc::default(),
        }
    }
}
