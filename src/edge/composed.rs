//! Edge stage, query pages: every page of `api::site_pages` asked with a
//! query (`/buscar?...`, `/comparar?...`), the static page with its results
//! filled in from the loaded tree's fragments by its composer
//! (`crate::composed::COMPOSERS`), so search and compare work without
//! JavaScript. Without
//! a query, or for a tree without the fragments, the static page is served
//! as any other file. A refused query is the page with the reasons, sent
//! with the API's status for it.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;

use crate::api::site_pages;
use crate::composed::alerts::Bound;
use crate::composed::picked::Picking;
use crate::composed::{COMPOSERS, Composer, PageQuery, feed, follow};
use crate::edge::alerts::kept;
use crate::edge::files;
use crate::edge::http::{answer_response, bytes_response, error_response};
use crate::edge::state::AppState;

/// Content type of the pages.
use crate::headers::HTML;

/// The query pages' routes (one per composer) and the search's feed.
pub fn routes() -> Router<AppState> {
    let mut router = Router::new().route(site_pages::SEARCH_FEED, get(feed));
    for composer in COMPOSERS {
        router = router.route(
            composer.page.path,
            get(move |state, uri| fill(state, uri, composer)),
        );
    }
    router
}

/// `/buscar/feed.xml?...`: the Atom feed of a search (`composed::follow`),
/// with a price bound its alerts (`composed::alerts`), computed once per
/// query and loaded tree and kept in the tree's bounded cache, under the
/// feed's address as the page reads it.
async fn feed(State(state): State<AppState>, uri: Uri) -> Response {
    let site = state.site();
    let query = uri.query().unwrap_or_default();
    let sent = PageQuery::read(query);
    let bound = match Bound::read(query) {
        Ok(bound) => bound,
        Err(error) => return error_response(&error),
    };
    let key = follow::feed_path(&sent, bound);
    if let Some(answer) = site.answers().file(&key) {
        return answer_response(answer);
    }
    let Some(pages) = site.pages() else {
        return files::serve(State(state), uri).await;
    };
    match feed::search_feed(site.index(), &pages.fragments, &sent, bound) {
        Ok(xml) => kept(&site, &key, xml),
        Err(error) => error_response(&error),
    }
}

/// A query page for `uri`'s query, as its composer fills it; without a
/// query, or for a tree without the fragments, the static page as any
/// other file.
async fn fill(State(state): State<AppState>, uri: Uri, composer: Composer) -> Response {
    let site = state.site();
    let (Some(query), Some(pages)) = (uri.query().filter(|q| !q.is_empty()), site.pages()) else {
        return files::serve(State(state), uri).await;
    };
    let composed = (composer.compose)(site.index(), &pages.fragments, query);
    let status = composed.error.as_ref().map_or(StatusCode::OK, |error| {
        StatusCode::from_u16(error.status()).unwrap_or(StatusCode::BAD_REQUEST)
    });
    // The page's links keep its query as the page read it (blank fields and
    // parameters no form has left out).
    let picking = Picking::new(
        uri.path(),
        &PageQuery::read(query),
        &(composer.picked)(query),
        &pages.fragments,
    );
    let html = composed.fill_picked(pages.page(&composer.page), Some(&picking));
    bytes_response(status, HTML, html.into_bytes(), status == StatusCode::OK)
}
