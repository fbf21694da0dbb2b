//! Edge stage, moved version pages: version pages lived at
//! `/versiones/{encoded ID}` (`api::text::encode_id_path`: capitals and
//! other bytes as `~XX`) before they moved to their readable page ids
//! (`api::page_id`). An old address of a published version, or of its
//! feed or chart data beside it, is answered with a permanent redirect to
//! the new one, so links shared before keep working. (IDs in lowercase
//! letters, digits, `-` and `_` have the same address under both.)

use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::Response;

use crate::api::Index;
use crate::api::links::Links;
use crate::api::text::decode_id;
use crate::edge::http::bytes_response;
use crate::html::escape;

/// What may follow a version page's address.
const BESIDE: [&str; 2] = ["/feed.xml", "/historial.csv"];

/// The current address of an old version address `path` (no query), when
/// it names a published version under the old scheme and has moved.
pub fn version_page(index: &Index, path: &str) -> Option<String> {
    let rest = path.strip_prefix("/versiones/")?;
    let (encoded, beside) = BESIDE
        .iter()
        .find_map(|beside| rest.strip_suffix(beside).map(|encoded| (encoded, *beside)))
        .unwrap_or((rest.strip_suffix('/').unwrap_or(rest), ""));
    // The old scheme cut long encodings into `/`-separated segments.
    let id = decode_id(&encoded.replace('/', ""))?;
    index.find(&id)?;
    let moved = format!("{}{beside}", Links::vehicle_path(&id));
    (moved.trim_end_matches('/') != path.trim_end_matches('/')).then_some(moved)
}

/// A `301` to `location` (a site path), with a link for clients that do not
/// follow it.
pub fn redirect(location: &str) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"es-AR\"><head><meta charset=\"utf-8\"><title>Página movida</title></head>\n<body><p>Esta página ahora está en <a href=\"{0}\">{0}</a>.</p></body></html>\n",
        escape(location)
    );
    let mut response = bytes_response(
        StatusCode::MOVED_PERMANENTLY,
        crate::headers::HTML,
        body.into_bytes(),
        false,
    );
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}
