//! API stage, the operations table: every operation of the service once
//! (its name, which is both the OpenAPI `operationId` and the MCP tool name;
//! its HTTP path, documentation, response component and how the CDN serves
//! it; its MCP tool title and description). It drives the edge's router,
//! `ApiInfo.endpoints`, the OpenAPI paths, the MCP tools list and the CDN
//! rules. Every HTTP operation answers the same methods ([`METHODS`]);
//! their parameters are the parameter table's rows that name them
//! (`api::params::table`). What each consumer does with an operation
//! (parse its query, answer a tool call) is a `match` on [`Operation`],
//! which the compiler keeps exhaustive.

/// One operation of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `GET /api/v1` (`get_api_info`).
    ApiInfo,
    /// `GET /api/v1/deals` (`find_deals`).
    Deals,
    /// `GET /api/v1/models/prices` (`get_model_prices`).
    ModelPrices,
    /// `GET /api/v1/vehicles` (`search_vehicles`).
    Search,
    /// `GET /api/v1/vehicles/{id}` (`get_vehicle`).
    Vehicle,
    /// `GET /api/v1/compare` (`compare_vehicles`).
    Compare,
    /// `GET /api/v1/catalogue` (`get_catalogue`).
    Catalogue,
    /// `GET /api/v1/reports` (`list_market_reports`).
    Reports,
    /// `GET /api/v1/reports/{month}` (`get_market_report`).
    Report,
    /// `GET /api/v1/series` (`get_series`).
    Series,
    /// MCP `search`: discovery by words (connector shape).
    ConnectorSearch,
    /// MCP `fetch`: one sourced record (connector shape).
    ConnectorFetch,
}

/// The methods every HTTP operation answers (HEAD as GET without a body,
/// OPTIONS as the CORS preflight); any other gives 405.
pub const METHODS: &str = "GET, HEAD, OPTIONS";

/// How a static host in front of the edge serves an operation's URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cdn {
    /// Its one answer is a file of the tree, the URL rewritten to it.
    File(&'static str),
    /// The edge answers (query strings reach it).
    Edge,
}

/// An operation's HTTP side.
#[derive(Debug, Clone, Copy)]
pub struct Http {
    /// Its path (`{id}` for the path parameter).
    pub path: &'static str,
    /// Its OpenAPI tag.
    pub tag: &'static str,
    /// Its OpenAPI summary.
    pub summary: &'static str,
    /// Its OpenAPI description.
    pub description: &'static str,
    /// The component schema of its 200 body.
    pub body: &'static str,
    /// Whether it can answer 404 (every operation answers 304, 400, 405,
    /// 414 and 503).
    pub not_found: bool,
    /// How the CDN serves it.
    pub cdn: Cdn,
    /// Whether the edge computes its precomputed answers (the URLs the
    /// manifest lists) once when a tree loads; the others are computed on
    /// demand and cached.
    pub fixed_at_load: bool,
    /// Whether it also answers CSV (`format=csv`).
    pub csv: bool,
}

/// An operation's MCP tool.
#[derive(Debug, Clone, Copy)]
pub struct McpTool {
    /// Its title.
    pub title: &'static str,
    /// What `tools/list` tells an agent.
    pub description: &'static str,
}

/// One row of [`OPERATIONS`].
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Which operation.
    pub operation: Operation,
    /// Its name: the OpenAPI `operationId` and the MCP tool name.
    pub name: &'static str,
    /// Its HTTP side, if HTTP serves it.
    pub http: Option<Http>,
    /// Its MCP tool, if MCP has one.
    pub tool: Option<McpTool>,
}

impl Operation {
    /// This operation's row.
    pub fn spec(self) -> &'static Spec {
        OPERATIONS
            .iter()
            .find(|spec| spec.operation == self)
            .expect("invariant: every operation has a row")
    }

    /// The path and tree file (without its leading `/`) of an operation whose
    /// one answer is a file ([`Cdn::File`]).
    pub fn file(self) -> Option<(&'static str, &'static str)> {
        let http = self.spec().http.as_ref()?;
        match http.cdn {
            Cdn::File(file) => Some((http.path, file.trim_start_matches('/'))),
            Cdn::Edge => None,
        }
    }
}

/// Every operation: the spec's seven HTTP operations in its order, the
/// market's three (its reports and series), then MCP's two connector
/// tools. The order is that of `ApiInfo.endpoints`, the OpenAPI paths and
/// `tools/list`.
pub static OPERATIONS: [Spec; 12] = [
    Spec {
        operation: Operation::ApiInfo,
        name: "get_api_info",
        http: Some(Http {
            path: "/api/v1",
            tag: "service",
            summary: "Entry point: version, snapshot date and links",
            description: "Returns ApiInfo directly, not inside the envelope. Takes no parameters.",
            body: "ApiInfo",
            not_found: false,
            cdn: Cdn::File("/api/v1/index.json"),
            fixed_at_load: true,
            csv: false,
        }),
        tool: None,
    },
    Spec {
        operation: Operation::Deals,
        name: "find_deals",
        http: Some(Http {
            path: "/api/v1/deals",
            tag: "deals",
            summary: "Find buying opportunities",
            description: "Current opportunities, recent price drops or newly qualifying \
            opportunities, filtered by the shared search filters. `recommended` ranks \
            opportunities by discount, price drops by percentage reduction and new \
            opportunities by recency; ties break by price, then by ID. A recent-deal search \
            may legitimately return an empty list.",
            body: "DealsResponse",
            not_found: false,
            cdn: Cdn::Edge,
            fixed_at_load: true,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Find deals",
            description: "Buying opportunities: versions at least 5% below their own usual price (kind=opportunities), \
             recent catalogue price cuts (price_drops) or versions newly qualifying (new_opportunities) within \
             1d, 3d or 7d, with search_vehicles' filters. Same JSON as GET /api/v1/deals. Signals compare asking \
             prices with their history; they are not manufacturer discounts.",
        }),
    },
    Spec {
        operation: Operation::ModelPrices,
        name: "get_model_prices",
        http: Some(Http {
            path: "/api/v1/models/prices",
            tag: "models",
            summary: "Prices of every version of a model",
            description: "Versions are ordered by price, cheapest first. fromPriceUsd, \
            toPriceUsd, versionCount, opportunityCount, cheapestVersion and quoteDates cover \
            the whole model even when versions are paginated. Make and model match ignoring \
            case and accents; an unknown model gives 404.",
            body: "ModelPricesResponse",
            not_found: true,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Get a model's prices",
            description: "Price range and every published version of one model (spelled as in get_catalogue), \
             cheapest first. Same JSON as GET /api/v1/models/prices; an unknown model is an error.",
        }),
    },
    Spec {
        operation: Operation::Search,
        name: "search_vehicles",
        http: Some(Http {
            path: "/api/v1/vehicles",
            tag: "vehicles",
            summary: "Search vehicle versions",
            description: "Versions matching the shared search filters, cheapest first by \
            default; ties break by ID. Follow pagination.nextOffset until it is null, and \
            restart at offset 0 if snapshotAt changes between pages.",
            body: "SearchResponse",
            not_found: false,
            cdn: Cdn::Edge,
            fixed_at_load: true,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Search vehicles",
            description: "Search the published new-car versions in Argentina with filters (words, make, model, body type, fuel, \
             transmission, price range in USD or in pesos, seats, airbags, drivetrain, AEB, specifications, discount), \
             a sort order and paging. Returns the same JSON as GET /api/v1/vehicles: an envelope whose data holds \
             vehicles (summaries) and pagination. currentPriceUsd is the dealer quote at its own check; \
             recentChanges prices are catalogue prices at today's rate.",
        }),
    },
    Spec {
        operation: Operation::Vehicle,
        name: "get_vehicle",
        http: Some(Http {
            path: "/api/v1/vehicles/{id}",
            tag: "vehicles",
            summary: "Full record of one version",
            description: "Every current quote, the exchange rate and the sourced specifications \
            of one version. An unknown ID or a version outside the current priced catalogue \
            gives 404.",
            body: "DetailResponse",
            not_found: true,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Get a vehicle",
            description: "The full record of one version by ID: every current dealer quote, the usual-price comparison, \
             recent changes and sourced specifications. Same JSON as GET /api/v1/vehicles/{id}; an unpublished ID \
             is an error.",
        }),
    },
    Spec {
        operation: Operation::Compare,
        name: "compare_vehicles",
        http: Some(Http {
            path: "/api/v1/compare",
            tag: "vehicles",
            summary: "Compare 2 to 4 versions",
            description: "Full records of the versions, in the order asked, and a shareable \
            comparison page. Duplicate IDs give 400; an unknown ID gives 404. Missing \
            specifications remain unknown.",
            body: "CompareResponse",
            not_found: true,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Compare vehicles",
            description: "Full records of 2 to 4 distinct versions side by side, with a shareable comparison page URL. \
             Same JSON as GET /api/v1/compare.",
        }),
    },
    Spec {
        operation: Operation::Catalogue,
        name: "get_catalogue",
        http: Some(Http {
            path: "/api/v1/catalogue",
            tag: "service",
            summary: "Catalogue overview",
            description: "Supported makes and models, the filter values present and coverage \
            counts. Takes no parameters.",
            body: "CatalogueResponse",
            not_found: false,
            cdn: Cdn::File("/api/v1/catalogue.json"),
            fixed_at_load: true,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Get the catalogue",
            description: "What is published: counts, makes, models, the filter values present and the current exchange \
             rate. Call it first to spell makes and models. Same JSON as GET /api/v1/catalogue.",
        }),
    },
    Spec {
        operation: Operation::Reports,
        name: "list_market_reports",
        http: Some(Http {
            path: "/api/v1/reports",
            tag: "market",
            summary: "The monthly market reports",
            description: "Every calendar month (Argentine time) the publication covers, newest \
            first: provisional for the month in progress, final once it ended, with its page \
            and its API URL. Takes no parameters.",
            body: "ReportsResponse",
            not_found: false,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: false,
        }),
        tool: None,
    },
    Spec {
        operation: Operation::Report,
        name: "get_market_report",
        http: Some(Http {
            path: "/api/v1/reports/{month}",
            tag: "market",
            summary: "The market in one month",
            description: "How much new-car dealer prices changed in one calendar month \
            (Argentine time), in pesos and in dollars (a Jevons index over the versions priced \
            in both months, by body type and make; no number under 5 versions), the reference \
            dollar, the 10 cheapest versions, the largest rises and falls, dealer quotes against \
            the listing site's catalogue price, and coverage. A malformed month gives 400; a \
            month the publication does not cover gives 404. A final month's answer is the same \
            bytes in every later publication; its envelope carries the month's own times.",
            body: "ReportResponse",
            not_found: true,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: false,
        }),
        tool: Some(McpTool {
            title: "Get a monthly market report",
            description: "The new-car market in one calendar month in Argentina: how much dealer prices changed in pesos \
             and in dollars (an index over the versions priced in both months, by body type and make), the reference \
             dollar, the 10 cheapest versions, the largest rises and falls, dealer quotes against the listing site's \
             catalogue price, and coverage. month is AAAA-MM; without it, the latest final month. Same JSON as \
             GET /api/v1/reports/{month}; the first text line is the report's headline.",
        }),
    },
    Spec {
        operation: Operation::Series,
        name: "get_series",
        http: Some(Http {
            path: "/api/v1/series",
            tag: "market",
            summary: "Monthly series, as the national time-series API",
            description: "The market's monthly series (indices, the reference dollar, each \
            version's monthly price) with the parameters and meanings of Argentina's national \
            time-series API: ids with :mode and :aggregation suffixes, representation_mode, \
            collapse, collapse_aggregation, dates, format (json or csv), header, sort, limit, \
            start, decimal, sep and metadata. Percent changes are fractions (0.0123 is 1.23 %), \
            as there. An unknown id, a collapse finer than a month or a malformed date gives \
            400 naming the parameter.",
            body: "SeriesResponse",
            not_found: false,
            cdn: Cdn::Edge,
            fixed_at_load: false,
            csv: true,
        }),
        tool: None,
    },
    Spec {
        operation: Operation::ConnectorSearch,
        name: "search",
        http: None,
        tool: Some(McpTool {
            title: "Search",
            description: "Discover vehicle versions by make, model or version words. Returns {\"results\": [{\"id\", \"title\", \
             \"url\"}]}: up to 20 matching versions, cheapest first, each with its ID (for fetch, get_vehicle, \
             compare_vehicles) and the absolute URL of its page. Words matching nothing are read as a misspelling, \
             alias or body type, named in readAs. Use search_vehicles for filters and paging.",
        }),
    },
    Spec {
        operation: Operation::ConnectorFetch,
        name: "fetch",
        http: None,
        tool: Some(McpTool {
            title: "Fetch a vehicle record",
            description: "The sourced record of one version by the ID that search returned: {\"id\", \"title\", \"text\", \"url\", \
             \"metadata\"}, where text is the JSON of GET /api/v1/vehicles/{id} (quotes, prices, specifications and \
             their sources) and url is the version's page.",
        }),
    },
];

/// The HTTP operations with their HTTP side, in table order.
pub fn http_operations() -> impl Iterator<Item = (&'static Spec, &'static Http)> {
    OPERATIONS
        .iter()
        .filter_map(|spec| spec.http.as_ref().map(|http| (spec, http)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_one_row_and_a_way_to_be_asked() {
        for (at, spec) in OPERATIONS.iter().enumerate() {
            assert!(
                std::ptr::eq(spec.operation.spec(), &OPERATIONS[at]),
                "{}",
                spec.name
            );
            assert!(spec.http.is_some() || spec.tool.is_some(), "{}", spec.name);
        }
        let paths: Vec<&str> = http_operations().map(|(_, http)| http.path).collect();
        assert_eq!(
            paths.len(),
            10,
            "the spec's seven operations and the market's three"
        );
        assert_eq!(paths[0], "/api/v1");
    }
}
