//! The published catalogue: every published version with its computed signals.
//! The signal engine writes it, the API index reads it (`api::index`, which
//! also writes what the edge loads); it is plain serde data with no polars.

mod buyer;
mod changes;
mod history;
mod identity;
mod specs;

pub use buyer::{
    DealerPoint, DealerSpread, FreightEstimate, LocationSpread, NO_LOCATION, PriceRange,
};
pub use changes::{Cause, ChangeDetail, Native, RecentChange, RecentChanges};
pub use history::{Comparison, HistoryWeek, QuotedHistory, WINDOW_DAYS, week_completed};
pub use identity::{FactSources, Identity, shared_sources};
pub use specs::{SpecSource, Specs};

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::time::Time;
use crate::vocab::{Currency, Drivetrain, Reason};

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
    /// Names and facts, as the snapshot states them.
    pub identity: Identity,
    /// Drivetrain (a filter; not a Summary field).
    pub drivetrain: Option<Drivetrain>,
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
    /// Weekly dealer averages in the history window, oldest first: the
    /// record's `history.weeks`, the chart and `historial.csv`.
    pub history: Vec<HistoryWeek>,
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
            identity: Identity::default(),
            drivetrain: None,
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

impl Vehicle {
    /// Whether official specifications are available.
    pub fn has_specs(&self) -> bool {
        self.specs.is_some()
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
