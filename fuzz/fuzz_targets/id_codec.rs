//! Fuzz target: the reversible encoding of IDs in file names and page URLs
//! (`api::text`), of version page paths (`api::page_id`), and the edge's
//! path decoding. Every ID round-trips, file
//! names stay short, safe and case-insensitively distinct; decoding any text
//! never panics and accepts only what encoding produces.

#![no_main]

use autoprecios::api::page_id::{decode_page_id, decode_page_path, encode_page_id, page_path};
use autoprecios::api::text::percent_decode;
use autoprecios::api::text::{MAX_SEGMENT_CHARS, decode_id, encode_id, encode_id_path, fold, slug};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Any text as an ID.
    let encoded = encode_id(&text);
    assert!(
        encoded
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'~')),
        "{encoded}"
    );
    assert_eq!(decode_id(&encoded).as_deref(), Some(text.as_ref()));
    let path = encode_id_path(&text);
    assert!(
        path.split('/')
            .all(|segment| segment.len() <= MAX_SEGMENT_CHARS)
    );
    assert_eq!(path.replace('/', ""), encoded);
    // Case twins never share a file name, even case-folded.
    let twin = text.to_uppercase();
    if twin != text {
        assert_ne!(encode_id(&twin).to_lowercase(), encoded.to_lowercase());
    }
    // Any text as a file name: decoding is the exact inverse of encoding.
    if let Some(id) = decode_id(&text) {
        assert_eq!(encode_id(&id), text, "{text:?} decodes to {id:?}");
    }
    // Page paths: lowercase, round-trip, case twins apart, decoding exact.
    let page = encode_page_id(&text);
    assert!(
        !page.bytes().any(|b| b.is_ascii_uppercase() || b == b'/'),
        "{page}"
    );
    assert_eq!(decode_page_id(&page).as_deref(), Some(text.as_ref()));
    assert_eq!(
        decode_page_path(&page_path(&text)).as_deref(),
        Some(text.as_ref())
    );
    if twin != text {
        assert_ne!(encode_page_id(&twin), page);
    }
    if let Some(id) = decode_page_id(&text) {
        assert_eq!(encode_page_id(&id), text, "{text:?} decodes to {id:?}");
    }
    let _ = percent_decode(&text);
    let _ = slug(&text);
    let _ = fold(&text);
});
