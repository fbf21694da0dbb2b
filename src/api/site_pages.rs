//! API stage, the site's query pages: the pages whose answer depends on
//! their query (the search, the comparison and the search's feed), which
//! `generate` writes once with empty slots and the edge fills per request.
//! Their paths are said here once: the edge's routes and the pages it
//! loads, the CDN rules that pass them to the edge, the pages `generate`
//! writes, the links the API and the site write to them, and the pages the
//! comparison picks leave alone all read them.

/// One query page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryPage {
    /// Its path.
    pub path: &'static str,
    /// Its kind, as the site's pages name theirs (the body's class).
    pub kind: &'static str,
}

/// The search page: the form, the results and the deal lists.
pub const SEARCH: QueryPage = QueryPage {
    path: "/buscar",
    kind: "buscar",
};

/// The comparison page: two to four versions side by side.
pub const COMPARE: QueryPage = QueryPage {
    path: "/comparar",
    kind: "comparar",
};

/// The search's feed: the same query as an Atom feed, with its alerts.
pub const SEARCH_FEED: &str = "/buscar/feed.xml";

/// Every path the edge answers as a query page.
pub const EDGE_PATHS: [&str; 3] = [SEARCH.path, COMPARE.path, SEARCH_FEED];
