//! The connections' fast lane on a real socket: it sends hyper's bytes for
//! every API URL and form, takes only the requests it should, hands a
//! connection on to hyper mid-stream without losing a byte, and closes idle
//! connections when the server stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use autoprecios::edge::answer::FROM_FILE;
use autoprecios::edge::connection::{MAX_FIELDS, answers_itself};
use autoprecios::edge::{ConnectionLimits, app};

use super::Server;
use crate::harness::{computed_urls, state};

/// One response read off `stream`, its `Date` value blanked: the head, and
/// the body its `Content-Length` announces (none for a HEAD or a 304).
fn response(stream: &mut BufReader<TcpStream>, head_only: bool) -> Vec<u8> {
    let mut head = String::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).expect("a head line");
        assert!(line.ends_with("\r\n"), "a whole line: {head}{line}");
        if let Some(value) = line.strip_prefix("content-length: ") {
            length = value.trim().parse().expect("a length");
        }
        if line.starts_with("date: ") {
            line = "date: -\r\n".to_owned();
        }
        head.push_str(&line);
        if line == "\r\n" {
            break;
        }
    }
    if head_only || head.starts_with("HTTP/1.1 304") {
        length = 0;
    }
    let mut sent = head.into_bytes();
    let start = sent.len();
    sent.resize(start + length, 0);
    stream.read_exact(&mut sent[start..]).expect("the body");
    sent
}

/// The head of a response [`response`] read.
fn head(sent: &[u8]) -> String {
    let end = sent
        .windows(4)
        .position(|end| end == b"\r\n\r\n")
        .expect("a head");
    String::from_utf8(sent[..end + 4].to_vec()).expect("an ASCII head")
}

/// A keep-alive connection to `server`.
fn connection(server: &Server) -> BufReader<TcpStream> {
    BufReader::new(server.connect())
}

/// `request` sent on `stream`, and its response.
fn exchange(stream: &mut BufReader<TcpStream>, request: &str) -> Vec<u8> {
    stream
        .get_mut()
        .write_all(request.as_bytes())
        .expect("write");
    response(stream, request.starts_with("HEAD "))
}

/// A connection handed on to hyper: its first request is not the lane's.
fn handed_on(server: &Server) -> BufReader<TcpStream> {
    let mut stream = connection(server);
    let first = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    assert_eq!(answers_itself(&app(state()), first.as_bytes()), Some(false));
    assert!(exchange(&mut stream, first).starts_with(b"HTTP/1.1 200"));
    stream
}

#[test]
fn the_lane_sends_what_hyper_sends_for_every_api_url_and_form() {
    let server = Server::start(state(), ConnectionLimits::default());
    let app = app(state());
    let mut lane = connection(&server);
    let mut hyper = handed_on(&server);
    let urls = autoprecios::api::precomputed::urls();
    assert!(urls.len() > 20, "{} precomputed URLs", urls.len());
    let mut largest = 0;
    for url in urls.into_iter().chain(computed_urls()) {
        let get = format!("GET {url} HTTP/1.1\r\nHost: x\r\n\r\n");
        if answers_itself(&app, get.as_bytes()) == Some(false) {
            // An error: hyper's to answer (on this connection it would hand
            // the lane's connection on for good).
            let by_hyper = exchange(&mut hyper, &get);
            assert!(!by_hyper.starts_with(b"HTTP/1.1 200"), "{url}");
            continue;
        }
        let plain = exchange(&mut lane, &get);
        let tag = head(&plain)
            .lines()
            .find_map(|line| line.strip_prefix("etag: "))
            .expect("an ETag")
            .to_owned();
        largest = largest.max(plain.len() - head(&plain).len());
        for (method, headers) in [
            ("GET", vec![]),
            ("GET", vec!["Accept-Encoding: gzip".to_owned()]),
            ("GET", vec!["Accept-Encoding: gzip;q=0, br".to_owned()]),
            ("HEAD", vec!["Accept-Encoding: gzip".to_owned()]),
            ("GET", vec![format!("If-None-Match: {tag}")]),
            (
                "GET",
                vec![
                    format!("If-None-Match: \"other\", W/{tag}"),
                    "accept-encoding: gzip, deflate".to_owned(),
                ],
            ),
            ("HEAD", vec!["If-None-Match: \"other\"".to_owned()]),
            (
                "GET",
                vec![
                    "Connection: keep-alive".to_owned(),
                    "User-Agent: Mozilla/5.0".to_owned(),
                    "Accept: application/json".to_owned(),
                ],
            ),
        ] {
            let fields: String = headers.iter().map(|field| format!("{field}\r\n")).collect();
            let request = format!("{method} {url} HTTP/1.1\r\nHost: x\r\n{fields}\r\n");
            assert_eq!(
                answers_itself(&app, request.as_bytes()),
                Some(true),
                "the lane answers {request:?}"
            );
            let sent = exchange(&mut lane, &request);
            let by_hyper = exchange(&mut hyper, &request);
            assert_eq!(head(&sent), head(&by_hyper), "{request:?}");
            assert!(sent == by_hyper, "{request:?}: the same body");
            assert_eq!(head(&sent).matches("\r\ndate: ").count(), 1, "{request:?}");
        }
    }
    // Bodies sent from a file (`sendfile`) are among them.
    assert!(largest >= FROM_FILE, "the largest body, {largest} B");
}

#[test]
fn the_lane_takes_plain_requests_for_api_urls_and_hands_on_the_rest() {
    let app = app(state());
    let asks = |request: &str| answers_itself(&app, request.as_bytes());
    let held = "/api/v1/catalogue";
    let get = |fields: &str| format!("GET {held} HTTP/1.1\r\nHost: x\r\n{fields}\r\n");
    assert_eq!(asks(&get("")), Some(true));
    assert_eq!(asks(&format!("HEAD {held} HTTP/1.1\r\n\r\n")), Some(true));
    assert_eq!(asks(&get("CONNECTION: Keep-Alive\r\n")), Some(true));
    // hyper's: the connection's framing, another version or method, a byte
    // range, a URL of no API answer, a head it cannot read, more fields than the
    // lane reads.
    for fields in [
        "Connection: close\r\n",
        "Content-Length: 0\r\n",
        "Transfer-Encoding: chunked\r\n",
        "Expect: 100-continue\r\n",
        "Upgrade: websocket\r\n",
        "Range: bytes=0-9\r\n",
    ] {
        assert_eq!(asks(&get(fields)), Some(false), "{fields:?}");
    }
    assert_eq!(asks(&format!("GET {held} HTTP/1.0\r\n\r\n")), Some(false));
    assert_eq!(asks(&format!("POST {held} HTTP/1.1\r\n\r\n")), Some(false));
    assert_eq!(
        asks(&format!("OPTIONS {held} HTTP/1.1\r\n\r\n")),
        Some(false)
    );
    assert_eq!(asks("GET /api/v1/catalogue? HTTP/1.1\r\n\r\n"), Some(true));
    assert_eq!(
        asks("GET http://x/api/v1/catalogue HTTP/1.1\r\n\r\n"),
        Some(false)
    );
    assert_eq!(asks("GET / HTTP/1.1\r\n\r\n"), Some(false));
    // A computed answer is the lane's; an error, or a target hyper reads
    // otherwise (a fragment it drops), is hyper's.
    let detail = &computed_urls()[0];
    assert_eq!(asks(&format!("GET {detail} HTTP/1.1\r\n\r\n")), Some(true));
    assert_eq!(
        asks(&format!("GET {detail}#x HTTP/1.1\r\n\r\n")),
        Some(false)
    );
    assert_eq!(
        asks("GET /api/v1/vehicles/no-such-version HTTP/1.1\r\n\r\n"),
        Some(false)
    );
    assert_eq!(asks("GET\0/ HTTP/1.1\r\n\r\n"), Some(false));
    // `Host` and then fields up to the lane's most, and one more.
    let fields = |count: usize| -> String { (1..count).map(|n| format!("X-{n}: v\r\n")).collect() };
    assert_eq!(asks(&get(&fields(MAX_FIELDS))), Some(true));
    assert_eq!(asks(&get(&fields(MAX_FIELDS + 1))), Some(false));
    // Not all there yet.
    assert_eq!(asks(&format!("GET {held} HTTP/1.1\r\nHost:")), None);
    assert_eq!(asks(""), None);
}

#[test]
fn pipelined_requests_are_answered_in_order_across_the_hand_on() {
    let server = Server::start(state(), ConnectionLimits::default());
    let mut alone = connection(&server);
    let catalogue = exchange(&mut alone, "GET /api/v1/catalogue HTTP/1.1\r\n\r\n");
    assert!(
        catalogue.starts_with(b"HTTP/1.1 200"),
        "{}",
        head(&catalogue)
    );

    let mut stream = connection(&server);
    // The lane's, hyper's (a body to read), then the lane's again, which
    // hyper now answers: all in one write, the last closing.
    stream
        .get_mut()
        .write_all(
            b"GET /api/v1/catalogue HTTP/1.1\r\n\r\n\
              GET /api/v1/catalogue HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc\
              GET /api/v1/catalogue HTTP/1.1\r\nConnection: close\r\n\r\n",
        )
        .expect("write");
    for answered in 0..2 {
        let sent = response(&mut stream, false);
        assert!(sent == catalogue, "answer {answered}: {}", head(&sent));
    }
    let last = response(&mut stream, false);
    let closing = head(&last);
    assert!(closing.contains("\r\nconnection: close\r\n"), "{closing}");
    assert!(
        last[closing.len()..] == catalogue[head(&catalogue).len()..],
        "the last, closing: the catalogue"
    );
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).expect("closed");
    assert!(rest.is_empty(), "nothing after the close");
}

#[test]
fn idle_connections_in_the_lane_and_handed_on_close_when_the_server_stops() {
    // Heads may take a minute here: only the stop closes these connections
    // before the reads' 10 s timeout.
    let limits = ConnectionLimits {
        header_read_timeout: Duration::from_secs(60),
        ..ConnectionLimits::default()
    };
    let server = Server::start(state(), limits);
    // Connected first: the server accepts in order, so once the others
    // are answered it holds this one too (a connection still waiting to be
    // accepted when the listener closes is reset by the kernel instead).
    let mut silent = connection(&server);
    let mut lane = connection(&server);
    let first = exchange(&mut lane, "GET /api/v1/catalogue HTTP/1.1\r\n\r\n");
    assert!(first.starts_with(b"HTTP/1.1 200"));
    let mut hyper = handed_on(&server);
    // The server stops on another thread: its drop waits for every
    // connection to end, up to the grace period (35 s), so a connection the
    // stop left open fails the reads below at their timeout instead.
    let stopping = std::thread::spawn(move || drop(server));
    for (name, stream) in [
        ("lane", &mut lane),
        ("hyper", &mut hyper),
        ("silent", &mut silent),
    ] {
        let mut rest = Vec::new();
        stream
            .read_to_end(&mut rest)
            .unwrap_or_else(|err| panic!("{name}: still open: {err}"));
        assert!(rest.is_empty(), "{name}: closed without another answer");
    }
    stopping.join().expect("stopped");
}
