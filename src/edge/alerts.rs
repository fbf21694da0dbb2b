//! Edge stage, alerts at a price: a version's feed asked with a price
//! bound (`/versiones/<page>/feed.xml?hasta=...`) is answered with its
//! alerts (`composed::alerts`) rather than its static file.

use axum::http::Uri;
use axum::response::Response;

use crate::composed::alerts::{self, Bound};
use crate::composed::atom::ATOM;
use crate::edge::answers::Answer;
use crate::edge::http::{answer_response, error_response};
use crate::edge::state::Site;

/// `/versiones/<page>/feed.xml?hasta=...` (or `hastaUsd`): a version's
/// alerts at a price (`composed::alerts`), kept in the tree's bounded cache
/// under the address with the bound as a query writes it. `None` for any
/// other address, or one without a bound (the version's static feed).
pub fn version_alerts(site: &Site, uri: &Uri) -> Option<Response> {
    let query = uri.query()?;
    let position = alerts::feed_version(site.index(), uri.path())?;
    let bound = match Bound::read(query) {
        Ok(bound) => bound?,
        Err(error) => return Some(error_response(&error)),
    };
    let key = format!("{}?{}={}", uri.path(), bound.name(), bound.spelt());
    if let Some(answer) = site.answers().file(&key) {
        return Some(answer_response(answer));
    }
    let xml = alerts::version_feed(site.index(), position, bound);
    Some(kept(site, &key, xml))
}

/// An Atom feed kept under `key` in the tree's cache, and answered.
pub fn kept(site: &Site, key: &str, xml: String) -> Response {
    let answer = Answer::new(ATOM, xml.into_bytes())
        .expect("invariant: the Atom content type is a header value");
    site.answers().keep_file(key, &answer);
    answer_response(answer)
}
