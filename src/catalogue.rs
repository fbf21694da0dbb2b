//! The published catalogue: every published version with its computed signals.
//! The signal engine writes it, the API index reads it (`api::index`, which
//! also writes what the edge loads); it is plain serde data with no polars.

mod buyer;
mod changes;

pub use buyer::{
    DealerPoint, DealerSpread, FreightEstimate, LocationSpread, NO_LOCATION, PriceRange,
};
pub use changes::{Cause, ChangeDetail, Native, RecentChange, RecentChanges};

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::schema::{Constant, constant};
use crate::time::Time;
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Reason, Transmission};

/// History window of the usual-price benchmark, in days (spec: 180).
pub const WINDOW_DAYS: u32 = 180;

/// Every published version and the snapshot facts around them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalogue {
    /// Snapshot times and source.
    pub meta: CatalogueMeta,
    /// Published versions, sorted by ID in byte order.
    pub vehicles: Vec<Vehicle>,
}

/// The snapshot facts every response envelope repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueMeta {
    /// `S`: latest capture anywhere in the snapshot.
    #[serde(with = "crate::time::rfc3339")]
    pub snapshot_at: Time,
    /// `T`: the latest catalogue check.
    #[serde(with = "crate::time::rfc3339")]
    pub catalogue_observed_at: Time,
    /// Address of the listing site.
    pub source: String,
    /// Name of the listing site.
    pub site_name: String,
    /// Whether the data is synthetic.
    pub synthetic: bool,
    /// The newest observed exchange rate (ARS per USD) and when it was observed:
    /// the basis of every recent-change price and of every conversion the
    /// site shows.
    pub current_rate: Option<ExchangeRate>,
    /// Which dollar that rate is, when the snapshot names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_source: Option<String>,
}

/// An observed exchange rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Exchange rate observed at the quote check."
)]
pub struct ExchangeRate {
    /// ARS per USD; null when the check saw no rate.
    pub ars_per_usd: Option<f64>,
    /// When it was observed.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub observed_at: Time,
}

/// One published version with its signals: every Summary and Vehicle field of
/// the spec except the site's URLs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Vehicle {
    /// Catalogue ID, case-sensitive.
    pub id: String,
    /// Listing on the source site.
    pub source_url: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim.
    pub trim: String,
    /// Display form of the trim.
    pub trim_display: Option<String>,
    /// Body type.
    #[serde(rename = "type")]
    pub body_type: Option<BodyType>,
    /// Native tier code.
    pub tier: Option<String>,
    /// Native tier text.
    pub tier_label: Option<String>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Drivetrain (a filter; not a Summary field).
    pub drivetrain: Option<Drivetrain>,
    /// Seats, when known.
    pub seats: Option<u32>,
    /// Airbags, when known.
    pub airbags: Option<u32>,
    /// Fact name to source kind.
    pub fact_sources: BTreeMap<String, String>,
    /// When the detailed quotes were checked (the latest quote check).
    #[serde(with = "crate::time::rfc3339")]
    pub observed_at: Time,
    /// Lowest detailed quote in USD at `observed_at`.
    pub current_price_usd: f64,
    /// Comparison with the usual price.
    pub comparison: Comparison,
    /// Recent changes per window: the price drop if any, else the new opportunity.
    pub recent_changes: RecentChanges,
    /// Newly qualifying opportunity per window, whatever caused it (the
    /// `new_opportunities` deals list), even when a drop takes `recent_changes`.
    pub new_opportunities: RecentChanges,
    /// Number of current quotes.
    pub quote_count: usize,
    /// The lowest current quote (ties by quote ID).
    pub best_quote: Option<Quote>,
    /// Why the version is a deal; recent reasons cover seven days.
    pub reasons: Vec<Reason>,
    /// Every current quote, cheapest first (ties by quote ID).
    pub quotes: Vec<Quote>,
    /// Exchange rate at the latest quote check.
    pub exchange_rate: ExchangeRate,
    /// Official specifications, shared with the snapshot's version (a
    /// record is kilobytes, and a large catalogue's held twice were many
    /// megabytes more).
    pub specs: Option<Arc<Specs>>,
    /// Weekly dealer averages in the history window, oldest first (the chart).
    pub history: Vec<WeeklyAverage>,
    /// The price in pesos a peso budget compares with, in whole pesos: the
    /// best quote's price when quoted in ARS, else its dollar price at the
    /// current observed exchange rate; `None` for a dollar quote without a
    /// current rate.
    pub price_ars: Option<f64>,
    /// The dealer price in the currency it was quoted in, over the history
    /// window, when every quote in the window is in one currency (the
    /// site's history; never serialized: the API keeps the spec's fields).
    #[serde(skip)]
    pub quoted: Option<QuotedHistory>,
    /// The usual range, with sufficient history.
    #[serde(default)]
    pub price_range: Option<PriceRange>,
    /// What freight and paperwork add, from checks quoting it both ways.
    #[serde(default)]
    pub freight_estimate: Option<FreightEstimate>,
    /// Today's spread and where.
    #[serde(default)]
    pub dealers: Option<DealerSpread>,
    /// The dealer price check by check over the history window, for alerts
    /// at a price (the edge's own file; never in the API's records).
    #[serde(skip)]
    pub dealer_prices: Vec<DealerPoint>,
}

impl Vehicle {
    /// A version with its ID, its quotes (the first the best) and when they
    /// were checked, nothing else known: no name, no facts, no history, no
    /// change, no peso price (the fixtures' version; set the rest with
    /// `Vehicle { .., ..Vehicle::bare(..) }`).
    pub fn bare(id: &str, quotes: Vec<Quote>, observed_at: Time) -> Self {
        Vehicle {
            id: id.into(),
            source_url: String::new(),
            make: String::new(),
            model: String::new(),
            trim: String::new(),
            trim_display: None,
            body_type: None,
            tier: None,
            tier_label: None,
            fuel: None,
            transmission: None,
            drivetrain: None,
            seats: None,
            airbags: None,
            fact_sources: BTreeMap::new(),
            observed_at,
            current_price_usd: quotes.first().map_or(0.0, |best| best.price_usd),
            comparison: Comparison {
                window_days: 180,
                typical_price_usd: None,
                lowest_price_usd: None,
                discount_pct: None,
                observed_weeks: 0,
                sufficient_history: false,
                opportunity: false,
            },
            recent_changes: RecentChanges::default(),
            new_opportunities: RecentChanges::default(),
            quote_count: quotes.len(),
            best_quote: quotes.first().cloned(),
            reasons: Vec::new(),
            quotes,
            exchange_rate: ExchangeRate {
                ars_per_usd: None,
                observed_at,
            },
            specs: None,
            history: Vec::new(),
            price_ars: None,
            quoted: None,
            price_range: None,
            freight_estimate: None,
            dealers: None,
            dealer_prices: Vec::new(),
        }
    }
}

/// A version's dealer price in its quoted currency over the history window:
/// weekly averages time-weighted exactly as the dollar ones, their median,
/// the lowest price, and the latest change, so that a peso price reads in
/// pesos and a devaluation never reads as a dealer's cut.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotedHistory {
    /// The one currency of every quote in the window.
    pub currency: Currency,
    /// Weekly averages, oldest first, rounded to cents.
    pub weeks: Vec<QuotedWeek>,
    /// Median of the weekly averages (the usual level in this currency).
    pub typical: f64,
    /// Lowest dealer price in the window.
    pub lowest: f64,
    /// The dealer price at the latest check.
    pub current: f64,
    /// The first check of the window since which the dealer price has been
    /// `current` without a break.
    pub since: Time,
    /// The dealer price at the check before `since`, when it is in the window.
    pub previous: Option<f64>,
    /// The 25th and 75th percentiles of the weekly averages, to the cent
    /// (`signals::range`; published only where the dollars' history is
    /// sufficient).
    pub range: Option<(f64, f64)>,
}

/// The weekly average of a dealer price in its quoted currency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuotedWeek {
    /// Monday of the ISO week, Argentine date.
    pub week_start: chrono::NaiveDate,
    /// Time-weighted mean, rounded to cents.
    pub average: f64,
}

impl Vehicle {
    /// Whether official specifications are available.
    pub fn has_specs(&self) -> bool {
        self.specs.is_some()
    }
}

/// How the current price compares with the version's usual price.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "How the current price compares with the usual price."
)]
pub struct Comparison {
    /// History window in days; always 180.
    #[schemars(schema_with = "constant::<WindowDays>")]
    pub window_days: u32,
    /// Usual price: median of weekly dealer averages over the window.
    pub typical_price_usd: Option<f64>,
    /// Lowest price in the window.
    pub lowest_price_usd: Option<f64>,
    /// Percent below the usual price (negative: above), truncated to two
    /// decimals; null when unknown or history insufficient.
    #[schemars(
        description = "Percent below the usual price (negative: above); not a manufacturer discount. Null when unknown or history is insufficient."
    )]
    pub discount_pct: Option<f64>,
    /// Weeks with at least one quote check in the window.
    pub observed_weeks: u32,
    /// Whether history meets the opportunity rule.
    pub sufficient_history: bool,
    /// The qualified signal; use it rather than discountPct alone.
    pub opportunity: bool,
}

/// [`WINDOW_DAYS`] as a schema constant.
struct WindowDays;

impl Constant for WindowDays {
    fn value() -> serde_json::Value {
        WINDOW_DAYS.into()
    }
}

/// One dealer quote as published.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "One dealer quote; registration fees are excluded."
)]
pub struct Quote {
    /// Quote identifier.
    pub id: String,
    /// Price in the original currency.
    pub price: f64,
    /// Original currency.
    pub currency: Currency,
    /// USD equivalent at the check's exchange rate, rounded to cents.
    #[schemars(description = "USD equivalent at the exchange rate observed at the quote check.")]
    pub price_usd: f64,
    /// Freight and paperwork included.
    pub fees_included: Option<bool>,
    /// Colour.
    pub color: Option<String>,
    /// Units in stock.
    pub stock: Option<i64>,
    /// Dealer location.
    pub location: Option<String>,
    /// Dealer identifier.
    pub seller_id: Option<String>,
}

impl Quote {
    /// A quote with its ID and price (in its currency and in dollars),
    /// nothing else known (the fixtures' quote; set the rest with
    /// `Quote { .., ..Quote::bare(..) }`).
    pub fn bare(id: &str, price: f64, currency: Currency, price_usd: f64) -> Self {
        Quote {
            id: id.into(),
            price,
            currency,
            price_usd,
            fees_included: None,
            color: None,
            stock: None,
            location: None,
            seller_id: None,
        }
    }
}

/// The dealer-price average of one calendar week (Argentine time).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeeklyAverage {
    /// Monday of the ISO week, Argentine date.
    pub week_start: chrono::NaiveDate,
    /// Time-weighted mean dealer price in USD, rounded to cents.
    pub average_usd: f64,
}

/// Whether the ISO week starting on `week_start` (a Monday, Argentine date)
/// had ended by `at`: its average is final. The current week's moves with
/// every check, so what is published page by page (each version's chart and
/// `historial.csv`) shows completed weeks and the current price beside them,
/// and changes only when a week completes or the price changes.
pub fn week_completed(week_start: chrono::NaiveDate, at: crate::time::Time) -> bool {
    let today = at.with_timezone(&crate::time::argentina()).date_naive();
    week_start + chrono::Days::new(7) <= today
}

/// The sourced specification record of a version, passed through as published.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Sourced official specifications, or null. Missing, null or a recorded gap means unknown, unclear or disputed; it never means absent."
)]
pub struct Specs {
    /// When the record was assembled.
    pub collected_at: String,
    /// Short label of the main source.
    pub source_label: Option<String>,
    /// Original sourced values by name. Unit suffixes on names: Mm, Kg, L, Kw,
    /// Nm, Kmh, L100km; power carries powerUnit. Equipment values are true,
    /// false or "optional".
    pub values: BTreeMap<String, serde_json::Value>,
    /// Value name to an entry key in sources.
    pub source_of: BTreeMap<String, String>,
    /// Sources by key.
    pub sources: BTreeMap<String, SpecSource>,
    /// Missing, disputed, contradictory, unreadable or unassigned source
    /// values.
    pub gaps: BTreeMap<String, serde_json::Value>,
}

/// One source document of a specification record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct SpecSource {
    /// Who published it.
    pub publisher: String,
    /// Document title.
    pub title: String,
    /// Where it is.
    #[schemars(url)]
    pub url: String,
    /// Kind of source (`official`, ...).
    pub kind: String,
    /// Date printed on the document.
    pub document_date: Option<String>,
    /// When it was retrieved.
    pub retrieved_at: String,
}
