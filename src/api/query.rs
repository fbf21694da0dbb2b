//! API stage, queries: the typed parameters of each operation with the spec's
//! defaults and bounds. A query is built by parsing (`api::params`, from an
//! HTTP query string or MCP's JSON arguments), which checks it once; the
//! generator builds its precomputed queries from these defaults and the
//! enums' `ALL` tables, which are valid by construction.

use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};

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

/// The shared search filters of deals and vehicles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    /// Words that must each match make, model or version.
    pub q: Option<String>,
    /// Exact make, ignoring case and accents.
    pub make: Option<String>,
    /// Exact model, ignoring case and accents.
    pub model: Option<String>,
    /// Body type.
    pub body_type: Option<BodyType>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Minimum current price in USD.
    pub min_price_usd: Option<f64>,
    /// Maximum current price in USD.
    pub max_price_usd: Option<f64>,
    /// Minimum price in pesos (`priceArs`).
    pub min_price_ars: Option<f64>,
    /// Maximum price in pesos (`priceArs`).
    pub max_price_ars: Option<f64>,
    /// Minimum confirmed seats.
    pub min_seats: Option<u32>,
    /// Minimum confirmed airbags.
    pub min_airbags: Option<u32>,
    /// Drivetrain.
    pub drivetrain: Option<Drivetrain>,
    /// Confirmed low-speed AEB (true) or confirmed absence (false).
    pub aeb: Option<bool>,
    /// Official specifications available.
    pub has_specs: Option<bool>,
    /// Minimum discount below the usual price, with sufficient history.
    pub min_discount_pct: Option<f64>,
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
