//! API stage, version page paths: the readable path segment of a version's
//! page (`/versiones/{page id}`, the Summary's `url`), reversible and
//! collision-free. The ID with its ASCII capitals lowercased, every byte but
//! a lowercase letter, digit, `-` or `_` escaped as in [`encode_id`]
//! (`~` and two lowercase hex digits); then, when the ID has capitals, `~u`
//! and the byte positions of its capitals, dot-separated:
//! `Peugeot-208-16-Allure-AT` -> `peugeot-208-16-allure-at~u0.15.22.23`.
//! Lowercase throughout, so case twins never share a directory on a
//! case-insensitive file system; an escape is never followed by `u`, so the
//! suffix cannot be mistaken for one. Every ID has one page path and every
//! page path names one ID: [`decode_page_path`] accepts only what
//! [`page_path`] writes.

use crate::api::text::{cut_segments, decode_id, encode_id};

/// Marks the list of capitals.
const CAPITALS: &str = "~u";

/// The page path segment(s) of an ID: [`encode_page_id`] cut into segments
/// of at most [`crate::api::text::MAX_SEGMENT_CHARS`] joined by `/`.
pub fn page_path(id: &str) -> String {
    cut_segments(&encode_page_id(id))
}

/// The ID a page path names (its segments joined), or `None`.
pub fn decode_page_path(path: &str) -> Option<String> {
    decode_page_id(&path.replace('/', ""))
}

/// An ID as one readable, lowercase segment (see the module's header).
pub fn encode_page_id(id: &str) -> String {
    let capitals: Vec<String> = id
        .bytes()
        .enumerate()
        .filter(|(_, byte)| byte.is_ascii_uppercase())
        .map(|(position, _)| position.to_string())
        .collect();
    let mut out = encode_id(&id.to_ascii_lowercase());
    if !capitals.is_empty() {
        out.push_str(CAPITALS);
        out.push_str(&capitals.join("."));
    }
    out
}

/// Reverses [`encode_page_id`]; `None` for anything it cannot write.
pub fn decode_page_id(encoded: &str) -> Option<String> {
    let (text, capitals) = match encoded.split_once(CAPITALS) {
        Some((text, capitals)) => (text, Some(capitals)),
        None => (encoded, None),
    };
    let mut bytes = decode_id(text)?.into_bytes();
    // Capitals are written lowercase with their positions, never escaped.
    if bytes.iter().any(u8::is_ascii_uppercase) {
        return None;
    }
    if let Some(capitals) = capitals {
        let mut previous: Option<usize> = None;
        for position in capitals.split('.') {
            let canonical = !position.is_empty()
                && position.bytes().all(|b| b.is_ascii_digit())
                && (position == "0" || !position.starts_with('0'));
            let position: usize = position.parse().ok().filter(|_| canonical)?;
            if previous.is_some_and(|previous| position <= previous) {
                return None;
            }
            let byte = bytes.get_mut(position)?;
            if !byte.is_ascii_lowercase() {
                return None;
            }
            byte.make_ascii_uppercase();
            previous = Some(position);
        }
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_ids_are_readable_and_round_trip() {
        assert_eq!(
            encode_page_id("Peugeot-208-16-Allure-AT"),
            "peugeot-208-16-allure-at~u0.15.22.23"
        );
        assert_eq!(
            encode_page_id("toyota-hilux-28-tdi-srv-4x4-at"),
            "toyota-hilux-28-tdi-srv-4x4-at"
        );
        // `.` is byte 3, `É` two bytes (never lowercased: not ASCII), `/` escaped.
        assert_eq!(encode_page_id("Ab.É/x"), "ab~2e~c3~89~2fx~u0");
        for id in [
            "Peugeot-208-16-Allure-AT",
            "peugeot-208-16-allure-at",
            "PEUGEOT",
            "Ab.É/x",
            "~u0",
            "a~U1",
            "",
            "ñandú-ÑANDÚ",
        ] {
            let encoded = encode_page_id(id);
            assert!(
                !encoded.bytes().any(|b| b.is_ascii_uppercase() || b == b'/'),
                "{encoded}"
            );
            assert_eq!(decode_page_id(&encoded).as_deref(), Some(id), "{encoded}");
        }
    }

    #[test]
    fn every_short_text_over_a_tricky_alphabet_round_trips() {
        // Every text of up to four characters from the characters that meet
        // at the encoding's seams: capitals, `~`, `u`, digits, `.`, non-ASCII.
        let alphabet = ['a', 'A', 'u', 'U', '~', '0', '1', '.', 'É', '/'];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|text| {
                    text.chars().count() == texts.last().map_or(0, |t| t.chars().count())
                })
                .flat_map(|text| alphabet.iter().map(move |c| format!("{text}{c}")))
                .collect();
            texts.extend(longer);
        }
        let mut seen = std::collections::BTreeSet::new();
        for text in &texts {
            let encoded = encode_page_id(text);
            assert!(seen.insert(encoded.clone()), "{encoded} twice");
            assert_eq!(decode_page_id(&encoded).as_ref(), Some(text));
            // Read as a path, any such text decodes only to what encodes back to it.
            if let Some(id) = decode_page_id(text) {
                assert_eq!(&encode_page_id(&id), text);
            }
        }
        assert_eq!(texts.len(), 1 + 10 + 100 + 1000 + 10_000);
    }

    #[test]
    fn case_twins_get_different_lowercase_paths() {
        let twins = ["hilux", "Hilux", "HILUX", "hiluX"];
        let paths: std::collections::BTreeSet<String> =
            twins.iter().map(|id| encode_page_id(id)).collect();
        assert_eq!(paths.len(), twins.len());
    }

    #[test]
    fn decoding_accepts_only_what_encoding_writes() {
        for foreign in [
            "a~u",      // no positions
            "ab~u1.0",  // not increasing
            "ab~u0.0",  // repeated
            "ab~u01",   // leading zero
            "ab~u2",    // past the end
            "a-~u1",    // not a letter
            "~41b",     // an escaped capital
            "Ab",       // a raw capital
            "ab~u+1",   // not digits
            "ab~u0.",   // empty position
            "ab~u0~u1", // two lists
        ] {
            assert_eq!(decode_page_id(foreign), None, "{foreign}");
        }
        let long = "A".repeat(160);
        let path = page_path(&long);
        assert!(path.split('/').all(|segment| segment.len() <= 100));
        assert_eq!(decode_page_path(&path), Some(long));
    }
}
