//! The answers the edge computes once per tree, by the URLs clients ask
//! them with: API info, the catalogue, and the first page of every search
//! sort and of every deal list (kind, window and sort). It keeps them for
//! the tree's life. The CDN serves none of the lists (every list URL is
//! the edge's), so `generate` writes no file for them. Each URL is a typed
//! query written back by the parameter table (`TypedQuery::to_query`).

use crate::api::params::TypedQuery;
use crate::api::params::typed::with_query;
use crate::api::query::{DealSort, DealsQuery, SearchQuery, SearchSort};
use crate::api::types::DealKind;
use crate::vocab::Window;

/// Every precomputed URL (path and query), the bare paths first.
pub fn urls() -> Vec<String> {
    let mut urls: Vec<String> = ["/api/v1", "/api/v1/catalogue"].map(str::to_owned).into();
    for (sort, _) in SearchSort::ALL {
        let query = SearchQuery {
            sort,
            ..SearchQuery::default()
        };
        urls.push(url("/api/v1/vehicles", &query));
    }
    for (kind, _) in DealKind::ALL {
        for &window in Window::ALL {
            for (sort, _) in DealSort::ALL {
                let query = DealsQuery {
                    kind,
                    window,
                    sort,
                    ..DealsQuery::default()
                };
                urls.push(url("/api/v1/deals", &query));
            }
        }
    }
    urls
}

/// `path`, with the query's string when it has one.
fn url(path: &str, query: &impl TypedQuery) -> String {
    with_query(path, &query.to_query())
}
