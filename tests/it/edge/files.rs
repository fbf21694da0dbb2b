//! Static files: every non-API file of the tree served with its bytes,
//! content type and ETag; directories and pages; 404s in HTML and JSON; and
//! no way out of the tree, encoded or not.

use std::fs;

use axum::http::{Method, StatusCode};

use crate::harness::fixture;
use crate::harness::{get, send};

#[tokio::test]
async fn every_static_file_is_served_with_its_type_and_etag() {
    let fixture = fixture();
    let mut served = 0;
    for entry in &fixture.manifest.files {
        if entry.url.starts_with("/api/") || entry.url.starts_with("/_") {
            // Live API answers are checked by the parity test, the CDN's 404
            // body below; `/_*` are the tree's internals (edge data, CDN
            // rules), never served.
            continue;
        }
        let reply = get(&entry.url).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", entry.url);
        assert!(
            reply.body == fs::read(fixture.out.join(&entry.file)).expect("file"),
            "{}",
            entry.url
        );
        assert_eq!(
            reply.header("content-type"),
            entry.content_type,
            "{}",
            entry.url
        );
        assert_eq!(reply.header("etag"), entry.etag, "{}", entry.url);
        let cache = if entry.url.starts_with("/assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=300"
        };
        assert_eq!(reply.header("cache-control"), cache, "{}", entry.url);
        served += 1;
    }
    assert!(served >= 3, "openapi.json and the docs at least");
}

#[tokio::test]
async fn directories_serve_their_index_with_or_without_a_slash() {
    let file =
        fs::read(fixture().out.join("public/developers/index.html")).expect("developer guide");
    for uri in [
        "/developers",
        "/developers/",
        "/developers/index.html",
        "/developers?utm=x",
        "/%64evelopers/",
    ] {
        let reply = get(uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        assert!(reply.body == file, "{uri}");
        assert!(
            reply.header("content-type").starts_with("text/html"),
            "{uri}"
        );
        let tag = reply.header("etag").to_owned();
        let again = send(Method::GET, uri, &[("if-none-match", &tag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{uri}");
    }
}

#[tokio::test]
async fn unknown_pages_are_html_404s_and_unknown_api_urls_json_404s() {
    let page = get("/no/such/page").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.header("content-type").starts_with("text/html"));
    assert_eq!(page.header("cache-control"), "no-store");
    assert_eq!(page.header("etag"), "");
    for uri in [
        "/api/v1/vehicles.json",
        "/api/v1/index.json",
        "/api/v1/_q/vehicles/sort-name.json",
        "/api/404.json",
        "/api/404.json?x=1",
    ] {
        let reply = get(uri).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{uri}: files are not API URLs"
        );
        assert_eq!(reply.json()["error"]["code"], "not_found", "{uri}");
        assert_eq!(reply.header("cache-control"), "no-store", "{uri}");
    }
    let cdn_404 = fs::read(fixture().out.join("public/api/404.json")).expect("api/404.json");
    assert!(
        get("/api/v1/nothing").await.body == cdn_404,
        "the edge's JSON 404 is the CDN's"
    );
}

#[tokio::test]
async fn paths_never_leave_the_tree() {
    for uri in [
        "/../Cargo.toml",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2fmanifest.json",
        "/..%2F..%2F..%2Fetc%2Fpasswd",
        "/%252e%252e/%252e%252e/etc/passwd",
        "/developers/%2e%2e/%2e%2e/Cargo.toml",
        "/%5c..%5c..%5cCargo.toml",
        "/..\\..\\Cargo.toml",
        "/developers\\..\\..\\Cargo.toml",
        "/developers%00.html",
        "/developers/index.html%00",
        "/%2fetc/passwd",
        "//etc/passwd",
        "/manifest.json",
        "/_edge/catalogue.msgpack",
        "/_edge/",
        "/_redirects",
        "/%5Fredirects",
        "/api/../manifest.json",
        "/%ff%fe",
    ] {
        for method in [Method::GET, Method::HEAD] {
            let reply = send(method.clone(), uri, &[]).await;
            assert!(
                matches!(
                    reply.status,
                    StatusCode::NOT_FOUND | StatusCode::BAD_REQUEST
                ),
                "{method} {uri}: {}",
                reply.status
            );
        }
    }
}

#[tokio::test]
async fn a_version_page_s_old_address_moves_permanently_to_its_page_id() {
    // `Peugeot-208-16-Allure-AT` under the old `~XX` scheme and its page id.
    let old = "/versiones/~50eugeot-208-16-~41llure-~41~54";
    let new = "/versiones/peugeot-208-16-allure-at~u0.15.22.23";
    for (from, to) in [
        (old.to_owned(), new.to_owned()),
        (format!("{old}/"), new.to_owned()),
        (format!("{old}/feed.xml"), format!("{new}/feed.xml")),
        (
            format!("{old}/historial.csv"),
            format!("{new}/historial.csv"),
        ),
    ] {
        let reply = get(&from).await;
        assert_eq!(reply.status, StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(reply.header("location"), to, "{from}");
        assert_eq!(get(&to).await.status, StatusCode::OK, "{to}");
    }
    // Not a published version, not the old scheme, or not moved: a 404.
    for path in [
        "/versiones/~58nope",
        "/versiones/~2e~2e",
        "/versiones/~5e",
        "/versiones/Peugeot-208-16-Allure-AT",
        "/versiones/peugeot-208-16-allure-at/otra",
    ] {
        assert_eq!(get(path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn a_file_is_sent_in_part_when_a_range_is_asked() {
    let fixture = fixture();
    let url = "/datos/catalogo.parquet";
    let file = fs::read(fixture.public.join(&url[1..])).expect("the file");
    let length = file.len();
    let whole = get(url).await;
    assert_eq!(whole.header("accept-ranges"), "bytes");
    let etag = whole.header("etag").to_owned();
    // A Parquet reader's first two asks: the footer's length, then the footer.
    for (range, start, end) in [
        ("bytes=0-3".to_owned(), 0, 3),
        (format!("bytes={}-", length - 8), length - 8, length - 1),
        ("bytes=-8".to_owned(), length - 8, length - 1),
        (format!("bytes=10-{}", length * 2), 10, length - 1),
    ] {
        let part = send(Method::GET, url, &[("range", &range)]).await;
        assert_eq!(part.status, StatusCode::PARTIAL_CONTENT, "{range}");
        assert_eq!(part.body, file[start..=end], "{range}");
        assert_eq!(
            part.header("content-range"),
            format!("bytes {start}-{end}/{length}"),
            "{range}"
        );
        assert_eq!(part.header("etag"), etag, "{range}");
    }
    let past = send(Method::GET, url, &[("range", &format!("bytes={length}-"))]).await;
    assert_eq!(past.status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(past.header("content-range"), format!("bytes */{length}"));
    assert!(past.body.is_empty());
    for (if_range, status) in [(etag.as_str(), 206), ("\"another\"", 200)] {
        let reply = send(
            Method::GET,
            url,
            &[("range", "bytes=0-3"), ("if-range", if_range)],
        )
        .await;
        assert_eq!(reply.status.as_u16(), status, "If-Range {if_range}");
    }
    let several = send(Method::GET, url, &[("range", "bytes=0-3,8-9")]).await;
    assert_eq!(
        (several.status, several.body.len()),
        (StatusCode::OK, length)
    );
    // A text answer sent gzip-encoded: the range is of the gzip bytes.
    let gzipped = send(Method::GET, "/metodologia", &[("accept-encoding", "gzip")]).await;
    assert_eq!(gzipped.header("content-encoding"), "gzip");
    let head = send(
        Method::GET,
        "/metodologia",
        &[("accept-encoding", "gzip"), ("range", "bytes=0-9")],
    )
    .await;
    assert_eq!(head.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(head.body, gzipped.body[..10]);
}
