//! API stage, payloads: the response shapes of `spec/api-v1.md`, borrowing
//! from the [`Catalogue`](crate::catalogue::Catalogue) so that building a
//! response copies nothing but what it serializes.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::api::facts::Facts;
use crate::api::links::Links;
pub use crate::api::query::DealKind;
use crate::api::query::{COMPARE_IDS, MAX_ID_CHARS, MAX_LIMIT, MAX_OFFSET};
use crate::catalogue::{Comparison, ExchangeRate, Quote, RecentChanges, Specs, Vehicle};
use crate::schema::{Constant, constant};
use crate::time::Time;
use crate::vocab::{BodyType, Currency, Fuel, Reason, Transmission, Window};

/// Version of the envelope schema.
pub const SCHEMA_VERSION: u32 = 1;
/// Version of the API.
pub const API_VERSION: &str = "1.0.0";

/// Wraps every successful payload except ApiInfo.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "{T}Response",
    deny_unknown_fields,
    description = "Envelope of a successful query."
)]
pub struct Envelope<T> {
    /// Always 1.
    #[schemars(schema_with = "constant::<SchemaVersion>")]
    pub schema_version: u32,
    /// Latest capture anywhere in the site; not the check date of every quote.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub snapshot_at: Time,
    /// When the catalogue was checked; reference time of recent-change windows.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub catalogue_observed_at: Time,
    /// Address of the original listing site.
    #[schemars(url)]
    pub source: String,
    /// Methodology page.
    #[schemars(url)]
    pub methodology_url: String,
    /// Developer documentation.
    #[schemars(url)]
    pub documentation_url: String,
    /// The endpoint's payload.
    pub data: T,
}

/// [`SCHEMA_VERSION`] as a schema constant.
struct SchemaVersion;

impl Constant for SchemaVersion {
    fn value() -> serde_json::Value {
        SCHEMA_VERSION.into()
    }
}

/// `GET /api/v1`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Entry point of the API (not enveloped)."
)]
pub struct ApiInfo {
    /// Service name.
    pub name: String,
    /// API version.
    pub version: &'static str,
    /// Latest capture in the snapshot.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub snapshot_at: Time,
    /// Developer documentation.
    #[schemars(url)]
    pub documentation_url: String,
    /// The OpenAPI description.
    #[schemars(url)]
    pub openapi_url: String,
    /// The MCP endpoint.
    #[schemars(url)]
    pub mcp_url: String,
    /// Absolute URL of every operation; path parameters in braces.
    #[schemars(extend("items" = { "type": "string", "format": "uri-template" }))]
    pub endpoints: Vec<String>,
}

/// Paging facts of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct Pagination {
    /// Matches before paging.
    pub total: usize,
    /// Page size applied.
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    pub limit: u32,
    /// Records skipped.
    #[schemars(range(max = MAX_OFFSET))]
    pub offset: u32,
    /// Offset of the next page; null when there is none.
    pub next_offset: Option<usize>,
}

/// A make and model pair.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields, description = "A make and model.")]
pub struct MakeModel {
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
}

/// `GET /api/v1/catalogue`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Catalogue",
    deny_unknown_fields,
    description = "Supported makes, models, filter values and coverage counts."
)]
pub struct CatalogueData {
    /// Published versions.
    pub vehicle_count: usize,
    /// Published models.
    pub model_count: usize,
    /// Published versions with official specifications.
    pub versions_with_specs: usize,
    /// Current opportunities.
    pub opportunity_count: usize,
    /// Makes, sorted.
    pub makes: Vec<String>,
    /// Models, sorted by make then model.
    pub models: Vec<MakeModel>,
    /// Filter name to the values present.
    #[schemars(
        extend("additionalProperties" = {
            "type": "array", "items": { "type": ["string", "number"] },
        })
    )]
    pub filters: BTreeMap<String, Vec<serde_json::Value>>,
    /// The current observed exchange rate: it converts dollar quotes for
    /// priceArs and the peso budgets, and every recent-change price. Null when
    /// no quote check observed a rate.
    pub exchange_rate: Option<CurrentRate>,
}

/// The current observed exchange rate, with the dollar it is when the
/// snapshot names it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "The newest exchange rate observed at any quote check."
)]
pub struct CurrentRate {
    /// ARS per USD.
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub ars_per_usd: f64,
    /// When it was observed.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub observed_at: Time,
    /// Which dollar it is, when the snapshot names it; null means the rate the
    /// listing site used at that check.
    pub source: Option<String>,
}

/// A version in list results.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    transform = feed_url_optional,
    description = "A vehicle version in list results."
)]
pub struct Summary<'a> {
    /// Original, case-sensitive catalogue ID.
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub id: &'a str,
    /// Canonical page on the service's website.
    #[schemars(url)]
    pub url: String,
    /// Per-version data feed.
    #[schemars(url)]
    pub feed_url: String,
    /// Original listing.
    #[schemars(url)]
    pub source_url: &'a str,
    /// Make.
    pub make: &'a str,
    /// Model.
    pub model: &'a str,
    /// Trim.
    pub trim: &'a str,
    /// Display form of trim.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub trim_display: Option<&'a str>,
    /// Body type.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BodyType")]
    pub body_type: Option<BodyType>,
    /// Native tier code.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", description = "Native tier label.")]
    pub tier: Option<&'a str>,
    /// Native tier label text; no tier is inferred from price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_label: Option<&'a str>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Seats.
    #[schemars(description = "Unknown is null.")]
    pub seats: Option<u32>,
    /// Airbags.
    #[schemars(description = "Unknown is null.")]
    pub airbags: Option<u32>,
    /// Catalogue fact name to its source kind (official, catalogue).
    pub fact_sources: &'a BTreeMap<String, String>,
    /// When this version's detailed quotes, stock and exchange rate were
    /// checked.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub observed_at: Time,
    /// Lowest detailed dealer quote in USD at observedAt; recent-change prices
    /// may be newer.
    pub current_price_usd: f64,
    /// The price in pesos, in whole pesos: the best quote's price when quoted
    /// in ARS, else its USD price at the current observed exchange rate
    /// (Catalogue exchangeRate). minPriceArs, maxPriceArs and the price_ars
    /// sorts read it. Null without a current rate.
    #[schemars(range(min = 0))]
    pub price_ars: Option<f64>,
    /// Comparison with the usual price.
    pub comparison: &'a Comparison,
    /// Official specifications available.
    pub has_specs: bool,
    /// Recent change per window.
    pub recent_changes: &'a RecentChanges,
    /// Number of quotes.
    pub quote_count: usize,
    /// The lowest quote, in its original currency.
    pub best_quote: Option<&'a Quote>,
    /// Always `InStock`.
    #[schemars(
        schema_with = "constant::<InStock>",
        description = "The listing had stock at observedAt."
    )]
    pub availability: &'static str,
    /// Why the version is a deal; recent reasons cover seven days.
    pub reasons: &'a [Reason],
}

/// The one `availability`, as a schema constant.
struct InStock;

impl Constant for InStock {
    fn value() -> serde_json::Value {
        "InStock".into()
    }
}

/// The spec makes `feedUrl` optional (a client of v1 may meet records
/// without it), though this server always sends it: the one Summary field
/// whose required-ness is not its Rust type's.
fn feed_url_optional(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| name != "feedUrl");
    }
}

impl<'a> Summary<'a> {
    /// The Summary of a catalogue version.
    pub fn of(vehicle: &'a Vehicle, links: &Links) -> Summary<'a> {
        Summary {
            id: &vehicle.id,
            url: links.vehicle(&vehicle.id),
            feed_url: links.vehicle_feed(&vehicle.id),
            source_url: &vehicle.source_url,
            make: &vehicle.make,
            model: &vehicle.model,
            trim: &vehicle.trim,
            trim_display: vehicle.trim_display.as_deref(),
            body_type: vehicle.body_type,
            tier: vehicle.tier.as_deref(),
            tier_label: vehicle.tier_label.as_deref(),
            fuel: vehicle.fuel,
            transmission: vehicle.transmission,
            seats: vehicle.seats,
            airbags: vehicle.airbags,
            fact_sources: &vehicle.fact_sources,
            observed_at: vehicle.observed_at,
            current_price_usd: vehicle.current_price_usd,
            price_ars: vehicle.price_ars,
            comparison: &vehicle.comparison,
            has_specs: vehicle.has_specs(),
            recent_changes: &vehicle.recent_changes,
            quote_count: vehicle.quote_count,
            best_quote: vehicle.best_quote.as_ref(),
            availability: "InStock",
            reasons: &vehicle.reasons,
        }
    }
}

/// The full record of a version.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Vehicle",
    deny_unknown_fields,
    description = "The full record of a version: Summary plus quotes, exchange rate and specifications."
)]
pub struct VehicleRecord<'a> {
    /// Every Summary field.
    #[serde(flatten)]
    pub summary: Summary<'a>,
    /// Every current quote.
    pub quotes: &'a [Quote],
    /// Exchange rate at the quote check.
    pub exchange_rate: &'a ExchangeRate,
    /// Official specifications.
    pub specs: Option<&'a Specs>,
    /// The weekly price history of the 180-day window.
    pub history: History,
}

impl<'a> VehicleRecord<'a> {
    /// The full record of a catalogue version.
    pub fn of(vehicle: &'a Vehicle, links: &Links) -> VehicleRecord<'a> {
        VehicleRecord {
            summary: Summary::of(vehicle, links),
            quotes: &vehicle.quotes,
            exchange_rate: &vehicle.exchange_rate,
            specs: vehicle.specs.as_ref(),
            history: History::of(vehicle),
        }
    }
}

/// A version's weekly dealer-price history over the 180-day window: each
/// week's time-weighted average in dollars (the figures the usual price is
/// the median of) and, when every quote of the window is in one currency,
/// in that currency too, with the usual level and the low in it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "The weekly dealer-price history of the 180-day window."
)]
pub struct History {
    /// The one currency of the window's quotes; null when they mix pesos and
    /// dollars.
    pub currency: Option<Currency>,
    /// Median of the weekly averages in currency (the usual level as quoted).
    pub usual_price: Option<f64>,
    /// Lowest dealer price of the window in currency.
    pub lowest_price: Option<f64>,
    /// Oldest first: the weeks typicalPriceUsd is the median of.
    pub weeks: Vec<HistoryWeek>,
}

/// One week of a [`History`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "One week's time-weighted average dealer price."
)]
pub struct HistoryWeek {
    /// Monday of the ISO week, Argentine date.
    pub week_start: chrono::NaiveDate,
    /// In the history's currency.
    pub price: Option<f64>,
    /// In USD at each check's rate.
    pub price_usd: f64,
}

impl History {
    /// The history of a catalogue version.
    pub fn of(vehicle: &Vehicle) -> History {
        let quoted = vehicle.quoted.as_ref();
        let in_quoted = |monday: chrono::NaiveDate| {
            quoted?
                .weeks
                .iter()
                .find(|week| week.week_start == monday)
                .map(|week| week.average)
        };
        History {
            currency: quoted.map(|quoted| quoted.currency),
            usual_price: quoted.map(|quoted| quoted.typical),
            lowest_price: quoted.map(|quoted| quoted.lowest),
            weeks: vehicle
                .history
                .iter()
                .map(|week| HistoryWeek {
                    week_start: week.week_start,
                    price: in_quoted(week.week_start),
                    price_usd: week.average_usd,
                })
                .collect(),
        }
    }
}

/// A version in a response, as the index holds it: its query facts, and its
/// Summary or Vehicle JSON as the serializer wrote it when the index was
/// built, which it serializes as (byte for byte).
#[derive(Debug, Clone)]
pub struct Listed<'a> {
    /// Its position in the index (and in the catalogue it was built from).
    pub position: u32,
    /// What queries read of the version (ID, names, price).
    pub facts: &'a Facts,
    json: Cow<'a, RawValue>,
}

impl<'a> Listed<'a> {
    /// The version at `position` with its JSON.
    pub fn new(position: u32, facts: &'a Facts, json: Cow<'a, RawValue>) -> Self {
        Listed {
            position,
            facts,
            json,
        }
    }
}

impl Serialize for Listed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

/// `GET /api/v1/vehicles`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Search",
    deny_unknown_fields,
    description = "A page of search results."
)]
pub struct SearchData<'a> {
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/deals`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Deals",
    deny_unknown_fields,
    description = "A page of deals."
)]
pub struct DealsData<'a> {
    /// Kind of list.
    pub kind: DealKind,
    /// Window applied.
    pub window: Window,
    /// The page of versions.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// Oldest and newest quote check of a model's versions.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct QuoteDates {
    /// Oldest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub oldest: Time,
    /// Newest.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub newest: Time,
}

/// `GET /api/v1/models/prices`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "ModelPrices",
    deny_unknown_fields,
    description = "Prices of one model; totals cover every version, not only the page."
)]
pub struct ModelPricesData<'a> {
    /// Make as the catalogue writes it.
    pub make: &'a str,
    /// Model as the catalogue writes it.
    pub model: &'a str,
    /// Model page.
    #[schemars(url)]
    pub url: String,
    /// Lowest current price of any version.
    pub from_price_usd: f64,
    /// Highest current price of any version.
    pub to_price_usd: f64,
    /// Published versions.
    pub version_count: usize,
    /// Current opportunities.
    pub opportunity_count: usize,
    /// The cheapest version.
    #[schemars(with = "Summary<'static>")]
    pub cheapest_version: Listed<'a>,
    /// Quote check dates.
    pub quote_dates: QuoteDates,
    /// The page of versions, cheapest first.
    #[schemars(with = "Vec<Summary<'static>>")]
    pub vehicles: Vec<Listed<'a>>,
    /// Paging.
    pub pagination: Pagination,
}

/// `GET /api/v1/vehicles/{id}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Detail",
    deny_unknown_fields,
    description = "The full record of one version."
)]
pub struct DetailData<'a> {
    /// The version (its Vehicle record).
    #[schemars(with = "VehicleRecord<'static>")]
    pub vehicle: Listed<'a>,
}

/// `GET /api/v1/compare`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Compare",
    deny_unknown_fields,
    description = "Versions compared, in the order asked."
)]
pub struct CompareData<'a> {
    /// The versions (Vehicle records), in the order asked.
    #[schemars(
        with = "Vec<VehicleRecord<'static>>",
        length(min = *COMPARE_IDS.start(), max = *COMPARE_IDS.end())
    )]
    pub vehicles: Vec<Listed<'a>>,
    /// Shareable comparison page.
    #[schemars(url)]
    pub url: String,
}
