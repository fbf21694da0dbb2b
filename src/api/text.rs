//! API stage, names: folding for case- and accent-insensitive matching, slugs
//! for page URLs, percent-encoding both ways, and the reversible, case-safe
//! encoding of IDs in file names.

use unicode_normalization::UnicodeNormalization;

/// Folds text for matching: canonical decomposition, combining marks dropped,
/// lowercased (`Citroën` and `CITROEN` fold alike).
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        // The same result without decomposing: ASCII has no marks.
        return text.to_ascii_lowercase();
    }
    text.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Folds names, each distinct spelling once: a catalogue repeats its makes,
/// models and cities thousands of times, and folding a name with an accent
/// decomposes it.
#[derive(Default)]
pub struct Folder<'a>(crate::api::HashMap<&'a str, String>);

impl<'a> Folder<'a> {
    /// [`fold`] of `name`.
    pub fn fold(&mut self, name: &'a str) -> &str {
        self.0.entry(name).or_insert_with(|| fold(name))
    }
}

/// Everything but RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
const RESERVED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn percent_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, RESERVED).to_string()
}

/// Decodes `%XX` escapes (a `+` stays a `+`: this is a path, not a form). A
/// `%` not followed by two hex digits is kept as it is. `None` when the
/// result is not UTF-8.
pub fn percent_decode(raw: &str) -> Option<String> {
    // Most parameters have no escape; the decoder walks byte by byte.
    if !raw.contains('%') {
        return Some(raw.to_owned());
    }
    percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

/// Decodes one form-encoded component of a query string: `+` is a space,
/// then `%XX` escapes. `None` when the result is not UTF-8.
pub fn form_decode(raw: &str) -> Option<String> {
    if raw.contains('+') {
        percent_decode(&raw.replace('+', " "))
    } else {
        percent_decode(raw)
    }
}

/// A readable URL slug: folded, runs of anything but ASCII letters and digits
/// turned into one `-` (`Clase C` -> `clase-c`). Not unique on its own: the
/// caller disambiguates.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in fold(text).chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() { "-".to_owned() } else { out }
}

/// Encodes an ID as one path segment that is safe in file names and URLs and
/// never collides, even on case-insensitive file systems: lowercase ASCII
/// letters, digits, `-` and `_` stay; every other byte (capitals, `.`, `/`,
/// `%`, `~`, non-ASCII) becomes `~` and two lowercase hex digits.
/// `Hilux-SRV` -> `~48ilux-~53~52~56`.
pub fn encode_id(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        match byte {
            b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => out.push(char::from(byte)),
            _ => out.push_str(&format!("~{byte:02x}")),
        }
    }
    out
}

/// Longest run of encoded text in one segment of [`encode_id_path`]: even
/// with a prefix and a suffix around it (`make-….model-….json`), a file name
/// stays under the 255 bytes file systems allow.
pub const MAX_SEGMENT_CHARS: usize = 100;

/// [`encode_id`] as a relative path for file names and page URLs: the encoded
/// text cut into segments of at most [`MAX_SEGMENT_CHARS`] joined by `/`,
/// because the longest ID (160 characters) encodes to up to 1,920. The same as
/// `encode_id` for shorter texts; still reversible (drop the `/`s, which the
/// encoding never emits) and collision-free.
pub fn encode_id_path(id: &str) -> String {
    cut_segments(&encode_id(id))
}

/// Encoded text cut into segments of at most [`MAX_SEGMENT_CHARS`] joined by
/// `/` (which no encoding emits, so dropping them gives the text back).
pub fn cut_segments(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len() + encoded.len() / MAX_SEGMENT_CHARS);
    for (index, c) in encoded.chars().enumerate() {
        if index > 0 && index % MAX_SEGMENT_CHARS == 0 {
            out.push('/');
        }
        out.push(c);
    }
    out
}

/// Reverses [`encode_id`]; `None` for anything `encode_id` cannot produce.
pub fn decode_id(encoded: &str) -> Option<String> {
    let bytes = encoded.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => {
                out.push(bytes[index]);
                index += 1;
            }
            b'~' => {
                let hex = encoded.get(index + 1..index + 3)?;
                // Exactly two lowercase hex digits, as encoding writes them:
                // `from_str_radix` alone also takes `+0` and capitals, and two
                // file names would then decode to one ID.
                if !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
                    return None;
                }
                let byte = u8::from_str_radix(hex, 16).ok()?;
                if matches!(byte, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_') {
                    return None;
                }
                out.push(byte);
                index += 3;
            }
            _ => return None,
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_is_for_paths() {
        assert_eq!(percent_decode("a%2Fb+c%25").as_deref(), Some("a/b+c%"));
        assert_eq!(percent_decode("%C3%B1%").as_deref(), Some("ñ%"));
        assert_eq!(
            percent_decode("%zz%+1").as_deref(),
            Some("%zz%+1"),
            "not escapes: kept"
        );
        assert_eq!(percent_decode("%ff"), None);
    }

    #[test]
    fn form_decoding_makes_plus_a_space_and_refuses_what_is_not_utf8() {
        assert_eq!(form_decode("a+b%2Bc").as_deref(), Some("a b+c"));
        assert_eq!(form_decode("citro%C3%ABn").as_deref(), Some("citroën"));
        assert_eq!(form_decode("%FF"), None);
        assert_eq!(form_decode("fiat%C3"), None, "a cut multi-byte character");
    }

    #[test]
    fn folding_ignores_case_and_accents() {
        assert_eq!(fold("Citroën"), fold("CITROEN"));
        assert_eq!(fold("Ñandú"), "nandu");
        assert_eq!(slug("Clase C 200 (AMG)"), "clase-c-200-amg");
    }

    #[test]
    fn names_folded_apart_are_their_text_folded_whole() {
        // The search index folds each name alone and splits the words;
        // these are the characters where text could fold otherwise: marks
        // on either side of the space, marks out of canonical order,
        // lowercasing that changes length, a final sigma, ASCII.
        let names = [
            "Citroën",
            "\u{301}e\u{301}",
            "a\u{327}\u{301}",
            "a\u{301}\u{327}",
            "İSTANBUL",
            "STRAßE",
            "ΟΔΟΣ",
            "Ñandú 1.6 MT",
            "208 GT",
        ];
        for first in names {
            for second in names {
                let apart = format!("{} {}", fold(first), fold(second));
                assert_eq!(
                    fold(&format!("{first} {second}")),
                    apart,
                    "{first:?} {second:?}"
                );
            }
        }
    }

    #[test]
    fn id_encoding_round_trips_and_separates_case_twins() {
        for id in ["Hilux-SRV", "hilux-srv", "../a/b%2F?#x y", "ñ~.", "", "~41"] {
            let encoded = encode_id(id);
            assert!(
                encoded
                    .bytes()
                    .all(|b| !b.is_ascii_uppercase() && b != b'/' && b != b'.')
            );
            assert_eq!(decode_id(&encoded).as_deref(), Some(id));
        }
        assert_ne!(
            encode_id("Hilux").to_lowercase(),
            encode_id("hilux").to_lowercase()
        );
        assert_eq!(decode_id("~41"), Some("A".to_owned()));
        assert_eq!(decode_id("~61"), None, "a plain letter is never escaped");
        assert_eq!(decode_id("A"), None);
        assert_eq!(decode_id("~4"), None);
    }

    #[test]
    fn decoding_accepts_only_what_encoding_writes() {
        // Found by fuzz/id_codec: `~+0` decoded to NUL, whose encoding is `~00`.
        for foreign in ["~+0", "~+a", "~-1", "~4A", "~ 1", "~0g"] {
            assert_eq!(decode_id(foreign), None, "{foreign}");
        }
        assert_eq!(decode_id("~00").as_deref(), Some("\0"));
    }

    #[test]
    fn long_ids_are_cut_into_short_path_segments() {
        assert_eq!(encode_id_path("Hilux-SRV"), encode_id("Hilux-SRV"));
        let longest = "🚗".repeat(160);
        let path = encode_id_path(&longest);
        assert_eq!(path.len(), 1920 + 19, "1,920 encoded characters, 19 cuts");
        assert!(
            path.split('/')
                .all(|s| s.len() == MAX_SEGMENT_CHARS || s.len() == 20)
        );
        assert_eq!(decode_id(&path.replace('/', "")), Some(longest));
        let exact = "a".repeat(MAX_SEGMENT_CHARS);
        assert_eq!(encode_id_path(&exact), exact, "no empty last segment");
    }
}
