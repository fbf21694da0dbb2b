//! Edge stage, a held answer on the wire: its response, made by the policy
//! as for any request ([`Asked::finish_now`]), encoded as hyper encodes a
//! response, so that the fast lane sends the same bytes hyper would, and
//! sends them again for every request of the same form with only the
//! `Date` line new.

use std::cell::Cell;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, Version, header};
use http_body_util::BodyExt;

use crate::edge::answer::{BodyFile, Wire};
use crate::edge::answers::Answer;
use crate::edge::http::answer_response;
use crate::edge::policy::Asked;

/// `answer`'s response to `asked` (a request that [`Asked::is_plain`]),
/// encoded; `None` when it is not one hyper would send exactly so: a
/// header hyper writes or acts on itself (`Date`, `Connection`,
/// `Transfer-Encoding`), a body not at hand, or no `Content-Length` where
/// hyper would add one.
pub fn encode(answer: &Answer, asked: Asked) -> Option<Wire> {
    let (parts, body) = asked
        .finish_now(answer_response(answer.clone()))
        .into_parts();
    let headers = &parts.headers;
    let written_by_hyper = [header::DATE, header::CONNECTION, header::TRANSFER_ENCODING];
    if parts.version != Version::HTTP_11
        || written_by_hyper
            .iter()
            .any(|name| headers.contains_key(name))
    {
        return None;
    }
    let length = headers.get(header::CONTENT_LENGTH).cloned();
    // hyper writes a `Content-Length` of its own on any answer without one
    // but a 304 (and a 204, which a held answer never is).
    if length.is_none() && parts.status != StatusCode::NOT_MODIFIED {
        return None;
    }
    let reason = parts.status.canonical_reason()?;
    let mut head = Vec::with_capacity(1024);
    for part in [b"HTTP/1.1 ", parts.status.as_str().as_bytes(), b" "] {
        head.extend_from_slice(part);
    }
    head.extend_from_slice(reason.as_bytes());
    head.extend_from_slice(b"\r\n");
    for (name, value) in headers {
        for part in [name.as_str().as_bytes(), b": ", value.as_bytes(), b"\r\n"] {
            head.extend_from_slice(part);
        }
    }
    let body = at_hand(body)?;
    Some(Wire {
        head: Bytes::from(head),
        file: answer.lasting().then(|| BodyFile::of(&body)).flatten(),
        body,
        status: parts.status,
        length,
    })
}

/// The bytes of a body that is all in memory (an answer's is); `None` for
/// one that would have to wait.
fn at_hand(body: Body) -> Option<Bytes> {
    let mut body = pin!(body);
    let mut context = Context::from_waker(Waker::noop());
    let mut bytes = Bytes::new();
    loop {
        match pin!(body.as_mut().frame()).poll(&mut context) {
            Poll::Ready(None) => return Some(bytes),
            Poll::Ready(Some(Ok(frame))) => {
                let data = frame.into_data().ok()?;
                bytes = if bytes.is_empty() {
                    data
                } else {
                    Bytes::from([bytes, data].concat())
                };
            }
            Poll::Ready(Some(Err(_))) | Poll::Pending => return None,
        }
    }
}

/// Length of the line [`date_line`] gives.
pub const DATE_LINE: usize = "date: Mon, 30 Nov 2026 15:58:16 GMT\r\n\r\n".len();

/// The `Date` line and the end of the head, as hyper writes them when a
/// response has no `Date`: formatted once a second on each thread.
pub fn date_line() -> [u8; DATE_LINE] {
    thread_local! {
        static LINE: Cell<(u64, [u8; DATE_LINE])> = const { Cell::new((u64::MAX, [0; DATE_LINE])) };
    }
    let now = SystemTime::now();
    let second = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    LINE.with(|line| {
        let (at, mut text) = line.get();
        if at != second {
            let written = format!("date: {}\r\n\r\n", httpdate::fmt_http_date(now));
            text.copy_from_slice(written.as_bytes());
            line.set((second, text));
        }
        text
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_line_is_an_imf_fixdate_ending_the_head() {
        let second = |time: SystemTime| {
            time.duration_since(UNIX_EPOCH)
                .expect("after 1970")
                .as_secs()
        };
        let before = second(SystemTime::now());
        let line = date_line();
        let after = second(SystemTime::now());
        let text = std::str::from_utf8(&line).expect("ASCII");
        let date = text
            .strip_prefix("date: ")
            .and_then(|rest| rest.strip_suffix("\r\n\r\n"))
            .expect("a date line ending the head");
        let sent = second(httpdate::parse_http_date(date).expect("an HTTP date"));
        assert!(
            (before..=after).contains(&sent),
            "{date} is the time it was asked"
        );
    }
}
