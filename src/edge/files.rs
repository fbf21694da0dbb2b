//! Edge stage, static files: answers every URL that is not an API route from
//! the tree: the manifest's URL map first, then a traversal-safe mapping of
//! the path to a file (`index.html` for directories), then a redirect for a
//! version page's old address (`moved.rs`), then a 404 (JSON under `/api/`,
//! the site's HTML page elsewhere).

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;

use crate::api::ApiError;
use crate::api::error::Missing;
use crate::api::text::percent_decode;
use crate::composed::{PageQuery, picked, picks};
use crate::edge::answers::Answer;
use crate::edge::http::{answer_response, bytes_response, error_response};
use crate::edge::moved;
use crate::edge::state::{AppState, Site};
use crate::headers::content_type_of;
use crate::manifest::PUBLIC_DIR;

/// Top-level names of the public directory that are not pages of the site:
/// the CDN's rule files, which the CDN reads and never serves. (The edge's
/// data and the manifest are beside the public directory, out of reach.)
const INTERNAL: [&str; 2] = ["_redirects", "_headers"];
/// The site's 404 page, when the tree has one.
const NOT_FOUND_PAGE: &str = "404.html";

/// The fallback of every URL the API routes do not answer. What a path
/// answers is fixed for the loaded tree, so it is read and hashed once and
/// then served from the tree's cache.
pub async fn serve(State(state): State<AppState>, uri: Uri) -> Response {
    let site = state.site();
    let path = uri.path();
    // Under the API only its routes answer: a file of the tree, such as
    // `api/404.json` (the CDN's 404 body), is not an API resource.
    if is_api_path(path) {
        // The same body as the tree's `api/404.json`, so the CDN and the
        // edge answer alike.
        return error_response(&ApiError::NotFound(Missing::Resource));
    }
    // A version's feed with a price bound is its alerts, not its file.
    if let Some(alerts) = super::alerts::version_alerts(&site, &uri) {
        return alerts;
    }
    if let Some(answer) = site.answers().file(path) {
        return with_picks(&site, &uri, &answer).unwrap_or_else(|| answer_response(answer));
    }
    let mut files = listed_file(&site, path).into_iter().collect::<Vec<_>>();
    files.extend(
        candidates(path)
            .unwrap_or_default()
            .into_iter()
            .map(|name| format!("{PUBLIC_DIR}/{name}")),
    );
    for file in files {
        if let Some(answer) = read_file(&site, &file).await {
            site.answers().keep_file(path, &answer);
            return with_picks(&site, &uri, &answer).unwrap_or_else(|| answer_response(answer));
        }
    }
    if let Some(location) = moved::version_page(site.index(), path) {
        return moved::redirect(&location);
    }
    not_found_page(&site).await
}

/// Any other page of the site asked with comparison picks
/// (`?comparar=...`): the static page with them applied, kept in the
/// tree's bounded cache under its URL like the page itself. `None` when the
/// answer is not a page or the query has no picks.
pub fn with_picks(site: &Site, uri: &Uri, answer: &Answer) -> Option<Response> {
    let query = uri.query().filter(|query| query.contains("comparar="))?;
    let pages = site.pages()?;
    if !answer.content_type.as_bytes().starts_with(b"text/html") {
        return None;
    }
    let key = format!("{}?{query}", uri.path());
    if let Some(picked) = site.answers().file(&key) {
        return Some(answer_response(picked));
    }
    let html = std::str::from_utf8(&answer.bytes).ok()?;
    let html = picked::apply(
        html,
        uri.path(),
        &PageQuery::read(query),
        &picks::read(query),
        &pages.fragments,
    );
    let picked = Answer::new(HTML_PAGE, html.into_bytes())?;
    site.answers().keep_file(&key, &picked);
    Some(answer_response(picked))
}

/// Content type of a page with picks applied.
use crate::headers::HTML as HTML_PAGE;

/// Paths answered with JSON errors rather than HTML pages: the API, and
/// paths under the MCP endpoint (`/mcp` itself is routed to it).
pub fn is_api_path(path: &str) -> bool {
    ["/api", "/mcp"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The public file the manifest lists for a URL path, except the CDN's
/// rule files. (The edge's own files are listed too, but not public.)
fn listed_file(site: &Site, path: &str) -> Option<String> {
    let first = percent_decode(
        path.trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default(),
    )?;
    if INTERNAL.contains(&first.as_str()) {
        return None;
    }
    site.by_url(path)
        .filter(|entry| {
            entry
                .file
                .strip_prefix(PUBLIC_DIR)
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .map(|entry| entry.file.to_owned())
}

/// The files a URL path may name, relative to the public directory, in
/// order: the file itself, the directory's `index.html`, the page
/// `<path>.html`. `None` for any path that could
/// leave the tree or reach its internals, decoded or not: `..` and `.`
/// segments, empty inner segments, backslashes, NUL, drive colons, invalid
/// UTF-8, and the tree's internal files.
pub fn candidates(raw_path: &str) -> Option<Vec<String>> {
    let path = percent_decode(raw_path)?;
    let relative = path.strip_prefix('/')?;
    if relative.contains(['\\', '\0', ':']) {
        return None;
    }
    let (directory, trimmed) = match relative.strip_suffix('/') {
        Some(trimmed) => (true, trimmed),
        None => (false, relative),
    };
    if trimmed.is_empty() {
        return Some(vec!["index.html".to_owned()]);
    }
    let segments: Vec<&str> = trimmed.split('/').collect();
    if segments
        .iter()
        .any(|segment| matches!(*segment, "" | "." | ".."))
    {
        return None;
    }
    if INTERNAL.contains(&segments[0]) {
        return None;
    }
    let index = format!("{trimmed}/index.html");
    Some(if directory {
        vec![index]
    } else {
        vec![trimmed.to_owned(), index, format!("{trimmed}.html")]
    })
}

/// Reads a public file of the tree (a regular file whose real path is
/// inside the public directory, so a stray symlink cannot leak anything),
/// with its content type and the ETag of the bytes actually read.
async fn read_file(site: &Site, file: &str) -> Option<Answer> {
    let path = site.root().join(file);
    let real = tokio::fs::canonicalize(&path).await.ok()?;
    if !real.starts_with(site.root().join(PUBLIC_DIR))
        || !tokio::fs::metadata(&real).await.ok()?.is_file()
    {
        return None;
    }
    let bytes = match tokio::fs::read(&real).await {
        Ok(bytes) => bytes,
        Err(err) => {
            tracing::warn!(file = %real.display(), %err, "reading a static file");
            return None;
        }
    };
    let content_type = site
        .by_file(file)
        .map_or_else(|| content_type_of(file), |entry| entry.content_type);
    let answer = Answer::new(content_type, bytes);
    if answer.is_none() {
        // Only a corrupt manifest lists a content type that is not a header value.
        tracing::error!(
            file,
            content_type,
            "a static file's content type is not a header value"
        );
    }
    answer
}

/// The tree's own 404 page, or a minimal one when it has none.
async fn not_found_page(site: &Site) -> Response {
    const FALLBACK: &str = "<!doctype html>\n<html lang=\"es-AR\"><head><meta charset=\"utf-8\"><title>Página no encontrada</title></head>\n<body><h1>Página no encontrada</h1><p><a href=\"/\">Ir al inicio</a></p></body></html>\n";
    let page = tokio::fs::read(site.root().join(PUBLIC_DIR).join(NOT_FOUND_PAGE))
        .await
        .unwrap_or_else(|_| FALLBACK.as_bytes().to_vec());
    bytes_response(StatusCode::NOT_FOUND, crate::headers::HTML, page, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_to_files_inside_the_tree_only() {
        assert_eq!(candidates("/").expect("root"), ["index.html"]);
        assert_eq!(
            candidates("/developers/").expect("dir"),
            ["developers/index.html"]
        );
        assert_eq!(
            candidates("/developers").expect("page"),
            ["developers", "developers/index.html", "developers.html"]
        );
        for bad in [
            "/../Cargo.toml",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/..%2fmanifest.json",
            "/a/%2E%2E/%2E%2E/b",
            "/a\\..\\b",
            "/a%5c..%5cb",
            "/a%00b",
            "/a//b",
            "/./a",
            "/c:/windows",
            "/_redirects",
            "/_headers",
            "/%5fheaders",
            "/%ff",
        ] {
            assert_eq!(candidates(bad), None, "{bad}");
        }
        assert_eq!(
            candidates("/%252e%252e/x").expect("literal name"),
            ["%2e%2e/x", "%2e%2e/x/index.html", "%2e%2e/x.html"]
        );
    }

    #[test]
    fn api_paths_are_recognised_by_segment() {
        assert!(is_api_path("/api"));
        assert!(is_api_path("/api/v2/x"));
        assert!(is_api_path("/mcp"));
        assert!(!is_api_path("/apis"));
        assert!(!is_api_path("/mcpx/"));
    }
}
