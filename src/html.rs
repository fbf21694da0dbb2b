//! HTML and XML escaping, the one definition the templates' formatter, the
//! generator's hand-built fragments and the edge's composed pages share, so
//! every page escapes alike. Catalogue strings are untrusted input.

/// Text for HTML content or a quoted attribute (the templates' escaping
/// too, so the edge's words and the rendered fragments escape alike).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text).expect("invariant: writing to a String does not fail");
    out
}

/// [`escape`] written to `out`: the runs between the five characters that
/// need it are copied whole (a page renders thousands of values).
pub fn escape_into(out: &mut impl std::fmt::Write, text: &str) -> std::fmt::Result {
    let mut copied = 0;
    for (at, byte) in text.bytes().enumerate() {
        let entity = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        // An ASCII byte: `at` is a character boundary.
        out.write_str(&text[copied..at])?;
        out.write_str(entity)?;
        copied = at + 1;
    }
    out.write_str(&text[copied..])
}

/// The text an attribute value stands for: [`escape`] undone. The edge's
/// HTML rewriter hands attribute values back as written, entities and all,
/// and the templates write them through [`escape`], so its five entities
/// (and `&apos;`, `&#x27;`) are what a value can hold; any other `&` stays.
pub fn unescape(value: &str) -> std::borrow::Cow<'_, str> {
    const ENTITIES: [(&str, char); 7] = [
        ("&amp;", '&'),
        ("&lt;", '<'),
        ("&gt;", '>'),
        ("&quot;", '"'),
        ("&#39;", '\''),
        ("&#x27;", '\''),
        ("&apos;", '\''),
    ];
    if !value.contains('&') {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let (entity, text) = ENTITIES
            .iter()
            .find(|(entity, _)| rest.starts_with(entity))
            .map_or(("&", '&'), |(entity, text)| (*entity, *text));
        out.push(text);
        rest = &rest[entity.len()..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
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

/// Text for HTML content (escaped as [`escape`]) with every amount and
/// percentage kept on one line: `US$ 47.296`, `$ 63.900.000`, `-US$ 300`
/// and `7 %` each in a `<span class="nw">` (`white-space: nowrap`), so a
/// narrow column never breaks a figure between its sign and its digits or
/// inside them.
pub fn escape_keeping_figures(text: &str) -> String {
    let text = escape(text);
    let bytes = text.as_bytes();
    let digit = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        // A money figure: `$ ` and a digit, with `US` and a sign before it.
        let money = bytes[at] == b'$' && bytes.get(at + 1) == Some(&b' ') && digit(at + 2);
        // A percentage: digits, then ` %`, not inside a longer number.
        let percent = digit(at)
            && (at == 0
                || !(bytes[at - 1].is_ascii_digit() || matches!(bytes[at - 1], b'.' | b',')));
        if !money && !percent {
            at += 1;
            continue;
        }
        let mut start = at;
        let mut end = if money { at + 2 } else { at };
        while digit(end) || (matches!(bytes.get(end), Some(b'.' | b',')) && digit(end + 1)) {
            end += 1;
        }
        if percent && !money {
            if !text[end..].starts_with(" %") {
                at = end;
                continue;
            }
            end += 2;
        }
        if money && text[..start].ends_with("US") {
            start -= 2;
        }
        if text[..start].ends_with('-') {
            start -= 1;
        }
        out.push_str(&text[copied..start]);
        out.push_str("<span class=\"nw\">");
        out.push_str(&text[start..end]);
        out.push_str("</span>");
        copied = end;
        at = end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_stay_on_one_line() {
        assert_eq!(
            escape_keeping_figures("de $ 67.910.000 a US$ 43.909 (7 %), -US$ 300 & 2026"),
            "de <span class=\"nw\">$ 67.910.000</span> a <span class=\"nw\">US$ 43.909</span> \
             (<span class=\"nw\">7 %</span>), <span class=\"nw\">-US$ 300</span> &amp; 2026"
        );
        assert_eq!(
            escape_keeping_figures("12,5 % y 1.455,28"),
            "<span class=\"nw\">12,5 %</span> y 1.455,28"
        );
        assert_eq!(escape_keeping_figures("$ x <b>"), "$ x &lt;b&gt;");
    }

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
        assert_eq!(
            escape("<ñ&é>\"ü'"),
            "&lt;ñ&amp;é&gt;&quot;ü&#39;",
            "runs of letters of any width between escapes, at both ends"
        );
    }

    #[test]
    fn unescaping_undoes_escaping() {
        let text = "<a href='x'>&\"</a> & &copy; ñ";
        assert_eq!(unescape(&escape(text)), text);
        assert_eq!(unescape("a &#x27;b&apos; &amp;lt; &"), "a 'b' &lt; &");
        assert!(matches!(unescape("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
