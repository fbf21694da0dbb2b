//! The response headers the CDN and the edge both send, in one table: the
//! security headers of every response, the caching of successes and
//! errors, CORS, and the content type of a file by its name. `generate`
//! writes them into the tree's `_headers` (`render::cdn`) and the edge sets
//! them itself (`edge::policy`, `edge::files`), so the two cannot drift.

/// Shared-cache lifetime of successful responses (spec: five minutes).
pub const CACHE_SUCCESS: &str = "public, max-age=300";
/// Errors are never cached.
pub const CACHE_ERROR: &str = "no-store";
/// Files whose names carry a hash of their bytes (`/assets/site.3f2a9c1e.css`):
/// a change gives a new name, so they are cached for a year, never revalidated.
pub const CACHE_IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Where the hashed assets are.
pub const ASSETS_PREFIX: &str = "/assets/";
/// Headers a browser script may read on a cross-origin response.
pub const EXPOSE_HEADERS: &str = "ETag";

/// Headers of every site response: no MIME sniffing, short referrers, no
/// framing, and a policy that runs only the site's own script files (no
/// inline script).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    ("x-frame-options", "DENY"),
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    ),
];

/// HTML pages.
pub const HTML: &str = "text/html; charset=utf-8";
/// JSON (the API, the descriptors).
pub const JSON: &str = "application/json";
/// Plain text.
pub const PLAIN: &str = "text/plain; charset=utf-8";
/// Markdown.
pub const MARKDOWN: &str = "text/markdown; charset=utf-8";
/// CSV.
pub const CSV: &str = "text/csv; charset=utf-8";
/// XML other than the feeds (the sitemaps).
pub const XML: &str = "application/xml; charset=utf-8";
/// SVG images (the charts, the mark).
pub const SVG: &str = "image/svg+xml";
/// PNG images.
pub const PNG: &str = "image/png";
/// Gzipped files.
pub const GZIP: &str = "application/gzip";
/// Parquet files.
pub const PARQUET: &str = "application/vnd.apache.parquet";
/// SQLite databases.
pub const SQLITE: &str = "application/vnd.sqlite3";

/// Content types by file name, first match wins: exact names, then
/// extensions. Anything else is `application/octet-stream`. Every file the
/// tree holds takes its type from here ([`content_type_of`]); the named
/// types above are for answers that are not files.
pub const CONTENT_TYPES: [(&str, &str); 22] = [
    ("SHA256SUMS", PLAIN),
    // The CDN's rules.
    ("_headers", PLAIN),
    ("_redirects", PLAIN),
    // The Atom feeds: a version's, the report's and the deals' (`/feeds/`).
    ("feed.xml", ATOM),
    ("ofertas.xml", ATOM),
    (".html", HTML),
    (".json", JSON),
    (".jsonl", "application/jsonl"),
    (".css", "text/css; charset=utf-8"),
    (".js", "text/javascript; charset=utf-8"),
    (".svg", SVG),
    (".xml", XML),
    (".txt", PLAIN),
    (".md", MARKDOWN),
    // Citation File Format: YAML, shown as text.
    (".cff", PLAIN),
    (".csv", CSV),
    (".gz", GZIP),
    (".parquet", PARQUET),
    (".sqlite", SQLITE),
    (".png", PNG),
    (".ico", "image/x-icon"),
    (".webmanifest", "application/manifest+json"),
];

/// Content type of the site's Atom feeds.
pub const ATOM: &str = "application/atom+xml; charset=utf-8";

/// The content type of a file by its name (the last path segment), as
/// [`CONTENT_TYPES`] gives it.
pub fn content_type_of(file: &str) -> &'static str {
    let name = file.rsplit('/').next().unwrap_or(file);
    let lower = name.to_ascii_lowercase();
    CONTENT_TYPES
        .iter()
        .find(|(pattern, _)| {
            if pattern.starts_with('.') {
                lower.ends_with(pattern)
            } else {
                name == *pattern
            }
        })
        .map_or("application/octet-stream", |(_, content_type)| content_type)
}

/// Whether a body of this content type is worth compressing in transit
/// (text formats; gzip, Parquet and images are compressed already).
pub fn compressible(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.starts_with("text/")
        || matches!(
            essence,
            "application/json"
                | "application/jsonl"
                | "application/xml"
                | "application/atom+xml"
                | "application/manifest+json"
                | "image/svg+xml"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_go_by_name_then_extension() {
        assert_eq!(
            content_type_of("datos/SHA256SUMS"),
            "text/plain; charset=utf-8"
        );
        assert_eq!(content_type_of("versiones/x/feed.xml"), ATOM);
        assert_eq!(
            content_type_of("sitemap.xml"),
            "application/xml; charset=utf-8",
            "as the sitemaps are written and the CDN serves them"
        );
        assert_eq!(
            content_type_of("datos/versiones.csv.gz"),
            "application/gzip"
        );
        assert_eq!(
            content_type_of("x/historial.csv"),
            "text/csv; charset=utf-8"
        );
        assert_eq!(content_type_of("INDEX.HTML"), "text/html; charset=utf-8");
        assert_eq!(
            content_type_of("api/v1/vehicles/abc"),
            "application/octet-stream"
        );
    }

    #[test]
    fn only_text_formats_are_compressed_in_transit() {
        assert!(compressible("application/json"));
        assert!(compressible("text/html; charset=utf-8"));
        assert!(compressible(ATOM));
        assert!(!compressible("application/gzip"));
        assert!(!compressible("application/vnd.apache.parquet"));
        assert!(!compressible("image/png"));
    }
}
