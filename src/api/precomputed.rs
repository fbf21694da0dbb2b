//! The answers the edge computes once per tree, by the URLs clients ask
//! them with: API info, the catalogue, and the default first page of every
//! search sort and of every deal list (kind, window and sort). It keeps
//! them for the tree's life. The CDN serves none of the lists (every list
//! URL is the edge's), so `generate` writes no file for them.

use crate::api::query::{DealSort, SearchSort, spelling_of};
use crate::api::types::DealKind;
use crate::vocab::Window;

/// Every precomputed URL (path and query), the bare paths first.
pub fn urls() -> Vec<String> {
    let mut urls: Vec<String> = [
        "/api/v1",
        "/api/v1/catalogue",
        "/api/v1/vehicles",
        "/api/v1/deals",
    ]
    .map(str::to_owned)
    .into();
    for (_, name) in SearchSort::ALL {
        urls.push(format!("/api/v1/vehicles?sort={name}"));
    }
    for (kind, _) in DealKind::ALL {
        for window in Window::ALL {
            for (sort, _) in DealSort::ALL {
                urls.push(format!(
                    "/api/v1/deals?kind={}&window={}&sort={}",
                    spelling_of(&DealKind::ALL, kind),
                    window.as_str(),
                    spelling_of(&DealSort::ALL, sort)
                ));
            }
        }
    }
    urls
}
