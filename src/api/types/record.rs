//! API stage, payloads: the two shapes of a version, its Summary in lists
//! and its full record (with its weekly history), and the listed form the
//! index serializes byte for byte.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::api::facts::Facts;
use crate::api::links::Links;
use crate::api::query::MAX_ID_CHARS;
use crate::catalogue::{
    Comparison, DealerSpread, ExchangeRate, FreightEstimate, HistoryWeek, Identity, PriceRange,
    Quote, RecentChanges, Specs, Vehicle,
};
use crate::schema::{Constant, constant};
use crate::time::Time;
use crate::vocab::{Currency, Reason};

/// A version in list results.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    transform = additions_optional,
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
    /// Every field from `sourceUrl` to `factSources`.
    #[serde(flatten)]
    pub identity: &'a Identity,
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
    /// The usual range; null without sufficient history.
    pub price_range: Option<&'a PriceRange>,
    /// Dealers with a current quote (`dealers.count` of the Vehicle).
    pub dealer_count: u32,
}

/// The one `availability`, as a schema constant.
struct InStock;

impl Constant for InStock {
    fn value() -> serde_json::Value {
        "InStock".into()
    }
}

/// Fields this server always sends that a client of v1 may meet records
/// without: `feedUrl`, which the spec makes optional, and the additions to
/// the spec's records (the usual range, the dealers, the freight estimate). Their
/// required-ness is not their Rust types'.
const NOT_REQUIRED: [&str; 5] = [
    "feedUrl",
    "priceRange",
    "dealerCount",
    "freightEstimate",
    "dealers",
];

/// Drops [`NOT_REQUIRED`] from a record schema's required fields.
fn additions_optional(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| !NOT_REQUIRED.iter().any(|field| name == field));
    }
}

impl<'a> Summary<'a> {
    /// The Summary of a catalogue version.
    pub fn of(vehicle: &'a Vehicle, links: &Links) -> Summary<'a> {
        Summary {
            id: &vehicle.id,
            url: links.vehicle(&vehicle.id),
            feed_url: links.vehicle_feed(&vehicle.id),
            identity: &vehicle.identity,
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
            price_range: vehicle.price_range.as_ref(),
            dealer_count: vehicle.dealers.as_ref().map_or(0, |d| d.count),
        }
    }
}

/// The full record of a version.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Vehicle",
    deny_unknown_fields,
    transform = additions_optional,
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
    pub history: History<'a>,
    /// What freight and paperwork add, as observed; null when unknown.
    pub freight_estimate: Option<&'a FreightEstimate>,
    /// Today's spread and where.
    pub dealers: Option<&'a DealerSpread>,
}

impl<'a> VehicleRecord<'a> {
    /// The full record of a catalogue version.
    pub fn of(vehicle: &'a Vehicle, links: &Links) -> VehicleRecord<'a> {
        VehicleRecord {
            summary: Summary::of(vehicle, links),
            quotes: &vehicle.quotes,
            exchange_rate: &vehicle.exchange_rate,
            specs: vehicle.specs.as_deref(),
            history: History::of(vehicle),
            freight_estimate: vehicle.freight_estimate.as_ref(),
            dealers: vehicle.dealers.as_ref(),
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
pub struct History<'a> {
    /// The one currency of the window's quotes; null when they mix pesos and
    /// dollars.
    pub currency: Option<Currency>,
    /// Median of the weekly averages in currency (the usual level as quoted).
    pub usual_price: Option<f64>,
    /// Lowest dealer price of the window in currency.
    pub lowest_price: Option<f64>,
    /// Oldest first: the weeks typicalPriceUsd is the median of.
    pub weeks: &'a [HistoryWeek],
}

impl<'a> History<'a> {
    /// The history of a catalogue version, its weeks as the signals
    /// computed them.
    pub fn of(vehicle: &'a Vehicle) -> History<'a> {
        let quoted = vehicle.quoted.as_ref();
        History {
            currency: quoted.map(|quoted| quoted.currency),
            usual_price: quoted.map(|quoted| quoted.typical),
            lowest_price: quoted.map(|quoted| quoted.lowest),
            weeks: &vehicle.history,
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

    /// Its JSON, as listed.
    pub fn json(&self) -> &RawValue {
        &self.json
    }

    /// The bytes of `listed`'s JSON together: what a list answer mostly is.
    pub fn json_len(listed: &[Listed<'_>]) -> usize {
        listed.iter().map(|one| one.json.get().len() + 1).sum()
    }
}

impl Serialize for Listed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}
