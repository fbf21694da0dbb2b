//! HTML and XML escaping, the one definition the templates' formatter, the
//! generator's hand-built fragments and the edge's composed pages share, so
//! every page escapes alike. Catalogue strings are untrusted input.

/// Text for HTML content or a quoted attribute (the templates' escaping
/// too, so the edge's words and the rendered fragments escape alike).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Text for XML (feeds, sitemaps, SVG): as [`escape`], with the characters
/// XML 1.0 does not allow (C0 controls other than tab and line breaks,
/// U+FFFE, U+FFFF) left out, since a reader rejects the whole document for
/// one of them.
pub fn escape_xml(text: &str) -> String {
    let allowed = |c: &char| {
        !((*c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}'))
    };
    if text.chars().all(|c| allowed(&c)) {
        return escape(text);
    }
    escape(&text.chars().filter(allowed).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_attributes_and_xml_drops_what_it_cannot_hold() {
        assert_eq!(
            escape("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(
            escape("a/b\u{1}"),
            "a/b\u{1}",
            "slashes and controls stay in HTML"
        );
        assert_eq!(escape_xml("a<\u{1}b\u{fffe}\tc"), "a&lt;b\tc");
    }
}
