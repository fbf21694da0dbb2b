//! Edge stage, MCP origins: which browser origins may call `/mcp`. The
//! site's own origin (from the base URL of the loaded tree, so a reload that
//! changes it is followed) and the origins given with `--mcp-allowed-origin`;
//! a request without `Origin` is not from a browser page and is allowed.
//! Origins compare as RFC 6454 tuples: scheme and host ignore case, and a
//! scheme's default port is the same as no port.
//!
//! A page of this edge on a loopback address calling its own `/mcp` (the
//! edge listening on another port than the base URL names, as a local user
//! easily runs it) is same-origin: its `Origin` is `http://` and the
//! request's `Host`, a loopback host. Only loopback: a DNS-rebinding page
//! on a name of its own sends that name as both `Origin` and `Host`, and
//! stays refused.

use crate::api::links::{host_of, is_loopback_host};

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
/// site's own origin, one of `extra` (canonical forms), or the request's
/// own loopback `host` (same origin).
pub fn is_allowed(origin: &[u8], base_url: &str, extra: &[String], host: Option<&[u8]>) -> bool {
    let Some(origin) = std::str::from_utf8(origin).ok().and_then(normalize_origin) else {
        // `null` (sandboxed pages, file: URLs) and anything malformed.
        return false;
    };
    let same_loopback = host
        .and_then(|host| std::str::from_utf8(host).ok())
        .and_then(|host| normalize_origin(&format!("http://{host}")))
        .is_some_and(|own| own == origin && is_loopback(&own));
    origin_of_url(base_url).as_deref() == Some(origin.as_str())
        || extra.contains(&origin)
        || same_loopback
}

/// Whether a canonical `http://` origin's host is this machine's.
fn is_loopback(origin: &str) -> bool {
    is_loopback_host(&host_of(origin))
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
        assert!(is_allowed(
            b"https://autoprecios.example",
            base,
            &extra,
            None
        ));
        assert!(is_allowed(
            b"https://AUTOPRECIOS.example:443",
            base,
            &extra,
            None
        ));
        assert!(is_allowed(b"http://localhost:5173", base, &extra, None));
        assert!(!is_allowed(
            b"http://autoprecios.example",
            base,
            &extra,
            None
        ));
        assert!(!is_allowed(b"https://evil.example", base, &extra, None));
        assert!(!is_allowed(b"null", base, &extra, None));
        assert!(!is_allowed(b"\xff", base, &extra, None));
    }

    #[test]
    fn a_loopback_page_of_this_edge_is_same_origin_and_a_rebound_name_is_not() {
        let base = "http://127.0.0.1:8080";
        let allowed = |origin: &[u8], host: &[u8]| is_allowed(origin, base, &[], Some(host));
        // The edge on another port than the base URL names.
        assert!(allowed(b"http://127.0.0.1:3000", b"127.0.0.1:3000"));
        assert!(allowed(b"http://localhost:3000", b"localhost:3000"));
        assert!(allowed(b"http://[::1]:3000", b"[::1]:3000"));
        // Another port, or another host, is another origin.
        assert!(!allowed(b"http://127.0.0.1:3001", b"127.0.0.1:3000"));
        assert!(!allowed(b"http://localhost:3000", b"127.0.0.1:3000"));
        // DNS rebinding: the attacker's name as Origin and Host alike.
        assert!(!allowed(b"http://evil.example:3000", b"evil.example:3000"));
        assert!(!allowed(
            b"http://127.0.0.1.evil.example",
            b"127.0.0.1.evil.example"
        ));
        // HTTPS pages are not served by a loopback edge.
        assert!(!allowed(b"https://localhost:3000", b"localhost:3000"));
        assert!(!is_allowed(b"http://127.0.0.1:3000", base, &[], None));
    }
}
