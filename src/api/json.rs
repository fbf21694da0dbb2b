//! API stage, bytes: the one JSON serializer and the one ETag function used
//! for every response, static or live, so both give identical bytes.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Serializes a response: compact JSON, keys in declaration order (maps are
/// ordered), numbers as serde_json writes them (shortest round-trip form),
/// one trailing newline.
pub fn to_json_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    to_json_bytes_about(value, 0)
}

/// [`to_json_bytes`] for a response of about `expected` bytes (a list's
/// items as the index holds them): written into room made once, where a
/// growing buffer would copy a large answer over and over as it doubles.
pub fn to_json_bytes_about<T: Serialize + ?Sized>(value: &T, expected: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(expected.saturating_add(SLACK));
    serde_json::to_writer(&mut bytes, value).expect("invariant: response types serialize to JSON");
    bytes.push(b'\n');
    // A held answer keeps no more spare room than a doubled buffer would.
    if bytes.capacity() - bytes.len() > bytes.len() {
        bytes.shrink_to_fit();
    }
    bytes
}

/// Room for what surrounds a response's items (envelope, links, paging).
const SLACK: usize = 4096;

/// The strong ETag of a response: the quoted hex sha256 of its bytes.
pub fn etag(bytes: &[u8]) -> String {
    etag_of_digest(&Sha256::digest(bytes))
}

/// The strong ETag of bytes whose SHA-256 is `digest` (hashed as they
/// were written).
pub fn etag_of_digest(digest: &[u8]) -> String {
    format!("\"{}\"", hex(digest))
}

/// Lowercase hex of `bytes` (digests, in ETags and records).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

/// A number as `serde_json` writes it (`5.0`, `3.49`): how a line of text
/// quotes a value of the JSON it describes.
pub fn json_number(value: f64) -> String {
    serde_json::Number::from_f64(value).map_or_else(|| "null".to_owned(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_quoted_as_the_json_writes_it() {
        assert_eq!(json_number(5.0), "5.0");
        assert_eq!(json_number(3.49), "3.49");
        assert_eq!(json_number(63_900_000.0), "63900000.0");
    }

    #[test]
    fn etag_is_the_quoted_sha256_of_the_bytes() {
        assert_eq!(
            etag(b""),
            "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\""
        );
        assert_eq!(
            to_json_bytes(&serde_json::json!({"b": 1, "a": 2.5})),
            b"{\"b\":1,\"a\":2.5}\n"
        );
        assert_eq!(hex(&[0x00, 0x0f, 0x10, 0xa5, 0xff]), "000f10a5ff");
    }
}
