//! Edge stage, MCP origins: which browser origins may call `/mcp`. The
//! site's own origin (from the base URL of the loaded tree, so a reload that
//! changes it is followed) and the origins given with `--mcp-allowed-origin`;
//! a request without `Origin` is not from a browser page and is allowed.
//! Origins compare as RFC 6454 tuples: scheme and host ignore case, and a
//! scheme's default port is the same as no port.

/// An origin in canonical form (`https://example.com`, `http://localhost:8080`),
/// or `None` when `text` is not a `scheme://host[:port]` origin.
pub fn normalize_origin(text: &str) -> Option<String> {
    let (scheme, authority) = text.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    let forbidden = |c: char| matches!(c, '/' | '?' | '#' | '@' | '\\') || c.is_whitespace();
    if !scheme_ok || authority.is_empty() || authority.contains(forbidden) {
        return None;
    }
    let authority = authority.to_ascii_lowercase();
    // A colon after the last `]` separates the port (IPv6 hosts are bracketed).
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (authority.as_str(), None),
    };
    if host.is_empty() {
        return None;
    }
    let port = match port {
        Some(port) => Some(port.parse::<u16>().ok()?),
        None => None,
    };
    let default_port = match scheme.as_str() {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    };
    Some(match port.filter(|port| Some(*port) != default_port) {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// The origin of a site's base URL (`https://example.com/sub` gives
/// `https://example.com`).
pub fn origin_of_url(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    normalize_origin(&format!("{scheme}://{authority}"))
}

/// Parses a `--mcp-allowed-origin` value into canonical form.
pub fn parse_allowed_origin(text: &str) -> Result<String, String> {
    normalize_origin(text).ok_or_else(|| {
        format!(
            "{text:?} is not an origin: give scheme://host[:port], like https://app.example.com"
        )
    })
}

/// Whether a request's `Origin` header value may use the endpoint: the
/// site's own origin or one of `extra` (canonical forms).
pub fn is_allowed(origin: &[u8], base_url: &str, extra: &[String]) -> bool {
    let Some(origin) = std::str::from_utf8(origin).ok().and_then(normalize_origin) else {
        // `null` (sandboxed pages, file: URLs) and anything malformed.
        return false;
    };
    origin_of_url(base_url).as_deref() == Some(origin.as_str()) || extra.contains(&origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_as_tuples() {
        assert_eq!(
            normalize_origin("HTTPS://Example.COM:443").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(
            normalize_origin("http://localhost:8080").as_deref(),
            Some("http://localhost:8080")
        );
        assert_eq!(
            normalize_origin("http://[::1]:80").as_deref(),
            Some("http://[::1]")
        );
        assert_eq!(
            normalize_origin("http://[::1]").as_deref(),
            Some("http://[::1]")
        );
        for bad in [
            "null",
            "example.com",
            "https://",
            "https://a.com/",
            "https://a.com:99999",
            "https://u@a.com",
            "1http://a.com",
        ] {
            assert_eq!(normalize_origin(bad), None, "{bad}");
        }
        assert_eq!(
            origin_of_url("https://autoprecios.example/sub/").as_deref(),
            Some("https://autoprecios.example")
        );
    }

    #[test]
    fn own_and_configured_origins_are_allowed() {
        let base = "https://autoprecios.example";
        let extra = vec!["http://localhost:5173".to_owned()];
        assert!(is_allowed(b"https://autoprecios.example", base, &extra));
        assert!(is_allowed(b"https://AUTOPRECIOS.example:443", base, &extra));
        assert!(is_allowed(b"http://localhost:5173", base, &extra));
        assert!(!is_allowed(b"http://autoprecios.example", base, &extra));
        assert!(!is_allowed(b"https://evil.example", base, &extra));
        assert!(!is_allowed(b"null", base, &extra));
        assert!(!is_allowed(b"\xff", base, &extra));
    }
}
