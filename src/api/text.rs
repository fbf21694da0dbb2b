//! API stage, names: folding for case- and accent-insensitive matching, slugs
//! for page URLs, and the reversible, case-safe encoding of IDs in file names.

use unicode_normalization::UnicodeNormalization;

/// Folds text for matching: canonical decomposition, combining marks dropped,
/// lowercased (`Citroën` and `CITROEN` fold alike).
pub fn fold(text: &str) -> String {
    text.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
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
                if hex.bytes().any(|b| b.is_ascii_uppercase()) {
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
    fn folding_ignores_case_and_accents() {
        assert_eq!(fold("Citroën"), fold("CITROEN"));
        assert_eq!(fold("Ñandú"), "nandu");
        assert_eq!(slug("Clase C 200 (AMG)"), "clase-c-200-amg");
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
}
