//! API stage, the site's query pages: the pages whose answer depends on
//! their query (the search and the comparison), which `generate` writes
//! once with empty slots and the edge fills per request, and the search's
//! feed. They are said here once, in [`ALL`]: the edge's routes and the
//! pages it loads, the CDN rules that pass them to the edge, the pages
//! `generate` writes, the templates' links to them, the links the API
//! writes, and the pages the comparison picks leave alone all read it.
//!
//! A new page with a query is four files: a row here, its template, and
//! its composer (a file of the composed pages' folder and a row of its
//! `COMPOSERS`, which a test holds to [`ALL`]). A page whose static form
//! lists data of its own (the search's makes and models) adds it where
//! the site writes the query pages' static forms.

/// One query page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryPage {
    /// Its path.
    pub path: &'static str,
    /// Its kind, as the site's pages name theirs (the body's class).
    pub kind: &'static str,
    /// Its name among the templates' `pages` (`pages.search`).
    pub name: &'static str,
    /// The template of its static form.
    pub template: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Its description, for search engines and link previews.
    pub description: &'static str,
    /// Its name in the breadcrumbs.
    pub crumb: &'static str,
    /// Whether the sitemap lists it: a comparison without versions is not
    /// a page to index.
    pub in_sitemap: bool,
}

/// The search page: the form, the results and the deal lists.
pub const SEARCH: QueryPage = QueryPage {
    path: "/buscar",
    kind: "buscar",
    name: "search",
    template: "search.html",
    title: "Buscar versiones",
    description: "Buscá autos 0 km por marca, modelo, carrocería, combustible, precio, \
                  seguridad y descuento sobre su precio habitual.",
    crumb: "Buscar",
    in_sitemap: true,
};

/// The comparison page: two to four versions side by side.
pub const COMPARE: QueryPage = QueryPage {
    path: "/comparar",
    kind: "comparar",
    name: "compare",
    template: "compare.html",
    title: "Comparar versiones",
    description: "Compará lado a lado precios de concesionarias, precio habitual y ficha \
                  técnica de dos a cuatro versiones de autos 0 km.",
    crumb: "Comparar",
    in_sitemap: false,
};

/// Every query page.
pub const ALL: [QueryPage; 2] = [SEARCH, COMPARE];

/// The search's feed: the same query as an Atom feed, with its alerts.
pub const SEARCH_FEED: &str = "/buscar/feed.xml";

/// Every path the edge answers as a query page or its feed.
pub fn edge_paths() -> impl Iterator<Item = &'static str> {
    ALL.iter().map(|page| page.path).chain([SEARCH_FEED])
}
