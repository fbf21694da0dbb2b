//! Connections on a real socket: a client that sends its headers slowly, or
//! idles on a keep-alive connection, is disconnected at the header deadline;
//! one that stalls in the middle of a body gets a 408 at the request
//! deadline; an oversized head gets a 431 while a long query still gets the
//! spec's 414.
//!
//! No test asserts how long anything took: the deadlines here are 1 s, and
//! [`Server::connect`]'s read timeout (10 s) is the only clock, a guard that
//! fails a test whose server never acts rather than a threshold a slow or
//! busy machine could miss.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use autoprecios::edge::ConnectionLimits;

use super::Server;
use crate::harness::state;

/// Limits with short deadlines, so the tests take seconds.
fn quick() -> ConnectionLimits {
    ConnectionLimits {
        header_read_timeout: Duration::from_secs(1),
        request_timeout: Duration::from_secs(1),
        ..ConnectionLimits::default()
    }
}

/// Whether the server closed `stream` (EOF or reset) rather than answering.
fn closed_without_answer(stream: &mut TcpStream) -> bool {
    let mut buffer = [0u8; 256];
    match stream.read(&mut buffer) {
        Ok(0) => true,
        Ok(n) => panic!("answered: {:?}", String::from_utf8_lossy(&buffer[..n])),
        Err(err) => matches!(
            err.kind(),
            ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe
        ),
    }
}

#[test]
fn a_client_stalling_in_a_body_gets_a_408_at_the_request_deadline() {
    let server = Server::start(state(), quick());
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"json",
        )
        .expect("head and a bit of body");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:.120}");
    assert!(answer.contains("\"timeout\""), "{answer}");
}

#[test]
fn a_client_dripping_its_headers_is_cut_off_at_the_deadline() {
    let server = Server::start(state(), quick());
    let mut stream = server.connect();
    stream
        .write_all(b"GET /api/v1 HTTP/1.1\r\n")
        .expect("request line");
    // One header byte every 100 ms: each write is well inside the deadline,
    // so only a deadline on the whole head ends this.
    let mut cut_off = false;
    for byte in b"X-Slow: ".iter().cycle().take(60) {
        std::thread::sleep(Duration::from_millis(100));
        if stream.write_all(&[*byte]).is_err() {
            cut_off = true;
            break;
        }
    }
    assert!(
        cut_off || closed_without_answer(&mut stream),
        "never cut off"
    );
}

#[test]
fn a_silent_client_and_an_idle_keep_alive_connection_are_closed() {
    let server = Server::start(state(), quick());
    let mut silent = server.connect();
    assert!(closed_without_answer(&mut silent), "silent client");

    let mut idle = server.connect();
    idle.write_all(b"GET /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("request");
    let mut answer = vec![0u8; 64 * 1024];
    let read = idle.read(&mut answer).expect("the answer");
    assert!(answer[..read].starts_with(b"HTTP/1.1 200"));
    // Reading on: the rest of the body (if any) and then the close.
    loop {
        match idle.read(&mut answer) {
            Ok(0) => break,
            Ok(_) => continue,
            Err(err) if err.kind() == ErrorKind::ConnectionReset => break,
            Err(err) => panic!("idle connection still open: {err}"),
        }
    }
}

#[test]
fn an_oversized_head_gets_431_and_a_long_query_still_gets_414() {
    let server = Server::start(state(), ConnectionLimits::default());
    let big = "a".repeat(ConnectionLimits::default().max_header_bytes + 1);
    let answer = server.raw(
        format!("GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:.80}");

    let many: String = (0..2000).map(|n| format!("X-H{n}: v\r\n")).collect();
    let answer = server.raw(
        format!("GET /api/v1 HTTP/1.1\r\nHost: x\r\n{many}Connection: close\r\n\r\n").as_bytes(),
    );
    assert!(
        answer.starts_with("HTTP/1.1 431"),
        "too many headers: {answer:.80}"
    );

    let query = format!("q={}", "a".repeat(8000));
    let answer = server.raw(
        format!("GET /api/v1/vehicles?{query} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 414"), "{answer:.80}");
}
