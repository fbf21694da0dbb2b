//! API stage, queries: the service's operations ([`Operation`], each
//! answered by its file in `api::ops`) and the typed parameters of each
//! with the spec's defaults and bounds. A query is built by parsing (`api::params`, from an
//! HTTP query string or MCP's JSON arguments), which checks it once; the
//! generator builds its precomputed queries from these defaults and the
//! enums' `ALL` tables, which are valid by construction.

use std::collections::BTreeMap;

use crate::vocab::Window;

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

/// Default page size.
pub const DEFAULT_LIMIT: u32 = 20;
/// Largest page size.
pub const MAX_LIMIT: u32 = 100;
/// Largest offset.
pub const MAX_OFFSET: u32 = 100_000;
/// Longest `q`.
pub const MAX_Q_CHARS: usize = 200;
/// Longest make or model.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest vehicle ID.
pub const MAX_ID_CHARS: usize = 160;
/// Largest `minSeats`.
pub const MAX_SEATS: u32 = 100;
/// Largest `minAirbags`.
pub const MAX_AIRBAGS: u32 = 30;
/// Largest `minDiscountPct`.
pub const MAX_DISCOUNT_PCT: u32 = 100;
/// Fewest and most IDs in a comparison.
pub const COMPARE_IDS: std::ops::RangeInclusive<usize> = 2..=4;
/// Longest query string, in characters.
pub const MAX_QUERY_CHARS: usize = 4096;

/// `limit` and `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Page size, 1 to 100.
    pub limit: u32,
    /// Records skipped, 0 to 100000.
    pub offset: u32,
}

impl Default for Page {
    fn default() -> Self {
        Page {
            limit: DEFAULT_LIMIT,
            offset: 0,
        }
    }
}

/// A checked value, the same whichever way it came (HTTP text or MCP JSON).
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// Text within its bounds.
    Text(String),
    /// An integer within its bounds.
    Integer(u32),
    /// A finite number within its bounds.
    Number(f64),
    /// A boolean.
    Boolean(bool),
    /// One of the row's spellings.
    Choice(&'static str),
    /// Vehicle IDs, as given.
    Ids(Vec<String>),
}

impl Given {
    /// The text value, if this is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Given::Text(text) => Some(text.clone()),
            _ => None,
        }
    }

    /// The integer value, if this is one.
    pub fn integer(&self) -> Option<u32> {
        match self {
            Given::Integer(value) => Some(*value),
            _ => None,
        }
    }

    /// The number value, if this is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Given::Number(value) => Some(*value),
            _ => None,
        }
    }

    /// The boolean value, if this is one.
    pub fn boolean(&self) -> Option<bool> {
        match self {
            Given::Boolean(value) => Some(*value),
            _ => None,
        }
    }

    /// The spelling of a choice, if this is one.
    pub fn text_of_choice(&self) -> Option<&'static str> {
        match self {
            Given::Choice(spelling) => Some(spelling),
            _ => None,
        }
    }

    /// The value as a query string spells it (before percent-encoding):
    /// numbers as plain decimals, IDs joined by commas.
    pub fn to_text(&self) -> String {
        match self {
            Given::Text(text) => text.clone(),
            Given::Integer(value) => value.to_string(),
            // `+ 0.0` writes a negative zero as `0`, so equal values are
            // spelt alike.
            Given::Number(value) => (value + 0.0).to_string(),
            Given::Boolean(value) => value.to_string(),
            Given::Choice(spelling) => (*spelling).to_owned(),
            Given::Ids(ids) => ids.join(","),
        }
    }

    /// The choice, parsed into its type, if this is one.
    pub fn choice<T>(&self, parse: fn(&str) -> Option<T>) -> Option<T> {
        match self {
            Given::Choice(spelling) => parse(spelling),
            _ => None,
        }
    }
}

/// The shared search filters of deals and vehicles that a query asks: each
/// filter's checked value under its wire name. A filter is read and written
/// through its row of the parameter table (`api::params::table::FILTERS`):
/// generically by the row, or typed by the row's key
/// (`api::params::filter::Key`), so a new filter needs no field here.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters(BTreeMap<&'static str, Given>);

impl Filters {
    /// The value asked of the filter `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Given> {
        self.0.get(name)
    }

    /// Asks `value` of the filter `name`, or nothing with `None`.
    pub fn set(&mut self, name: &'static str, value: Option<Given>) {
        match value {
            Some(value) => self.0.insert(name, value),
            None => self.0.remove(name),
        };
    }
}

/// Sort orders of `/vehicles`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchSort {
    /// Cheapest first (default).
    #[default]
    PriceAsc,
    /// Most expensive first.
    PriceDesc,
    /// Largest discount first; unknown last.
    DiscountDesc,
    /// Make, model, trim, ignoring case and accents.
    Name,
    /// Cheapest first in pesos (`priceArs`; unknown last).
    PriceArsAsc,
    /// Most expensive first in pesos (`priceArs`; unknown last).
    PriceArsDesc,
}

/// Sort orders of `/deals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DealSort {
    /// By discount, drop or recency depending on the kind (default).
    #[default]
    Recommended,
    /// Most recent change first.
    Recent,
    /// Cheapest first.
    PriceAsc,
    /// Largest discount first.
    DiscountDesc,
    /// Cheapest first in pesos (`priceArs`; unknown last).
    PriceArsAsc,
}

/// `GET /api/v1/vehicles`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchQuery {
    /// Shared filters.
    pub filters: Filters,
    /// Only current opportunities (`false` is the same as absent).
    pub opportunities_only: Option<bool>,
    /// Order.
    pub sort: SearchSort,
    /// Paging.
    pub page: Page,
}

/// `GET /api/v1/deals`.
#[derive(Debug, Clone, PartialEq)]
pub struct DealsQuery {
    /// Shared filters.
    pub filters: Filters,
    /// Kind of list.
    pub kind: DealKind,
    /// Window for price drops and new opportunities.
    pub window: Window,
    /// Order.
    pub sort: DealSort,
    /// Paging.
    pub page: Page,
}

impl Default for DealsQuery {
    fn default() -> Self {
        DealsQuery {
            filters: Filters::default(),
            kind: DealKind::Opportunities,
            window: Window::D7,
            sort: DealSort::Recommended,
            page: Page::default(),
        }
    }
}

/// `GET /api/v1/models/prices`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelQuery {
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Paging.
    pub page: Page,
}

/// `GET /api/v1/compare`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareQuery {
    /// 2 to 4 distinct IDs, once [`CompareQuery::commas_separate`] is applied.
    pub ids: Vec<String>,
    /// Whether the encoded commas of a list sent as one item (no literal
    /// comma) separate IDs when the item is not a published ID: true for
    /// HTTP, whose `ids` reaches the service with every comma encoded
    /// (`%2C`) from standard URL builders and CDN proxies; false for MCP's
    /// array, whose items are IDs exactly.
    pub commas_separate: bool,
}

/// Spellings of the sort and kind enums.
impl SearchSort {
    /// Every value with its spelling.
    pub const ALL: [(SearchSort, &'static str); 6] = [
        (SearchSort::PriceAsc, "price_asc"),
        (SearchSort::PriceDesc, "price_desc"),
        (SearchSort::DiscountDesc, "discount_desc"),
        (SearchSort::Name, "name"),
        (SearchSort::PriceArsAsc, "price_ars_asc"),
        (SearchSort::PriceArsDesc, "price_ars_desc"),
    ];
}

impl DealSort {
    /// Every value with its spelling.
    pub const ALL: [(DealSort, &'static str); 5] = [
        (DealSort::Recommended, "recommended"),
        (DealSort::Recent, "recent"),
        (DealSort::PriceAsc, "price_asc"),
        (DealSort::DiscountDesc, "discount_desc"),
        (DealSort::PriceArsAsc, "price_ars_asc"),
    ];
}

/// Kind of deal list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DealKind {
    /// Current opportunities.
    Opportunities,
    /// Recent price drops.
    PriceDrops,
    /// Newly qualifying opportunities.
    NewOpportunities,
}

/// A plain string enum of the spellings, written in place. (The derive
/// would make a `oneOf` branch of each documented variant.)
impl schemars::JsonSchema for DealKind {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DealKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names = DealKind::ALL.map(|(_, name)| name);
        schemars::json_schema!({ "type": "string", "enum": names })
    }
}

impl DealKind {
    /// Every value with its spelling.
    pub const ALL: [(Self, &'static str); 3] = [
        (Self::Opportunities, "opportunities"),
        (Self::PriceDrops, "price_drops"),
        (Self::NewOpportunities, "new_opportunities"),
    ];
}

/// Looks a spelling up in an `ALL` table.
pub fn spelling_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(v, _)| *v == value)
        .map_or("", |(_, s)| s)
}
