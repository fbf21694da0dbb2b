//! The published catalogue, what a buyer sees beside the usual price: the
//! dealer price check by check (for alerts at a price), the usual range,
//! today's spread between dealers and where, and freight as observed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::time::Time;
use crate::vocab::Currency;

/// The dealer price at one quote check, in both currencies: the lowest
/// quote in dollars at the check's rate (to the cent), and the lowest in
/// pesos, as quoted or dollars at that rate (whole pesos); either `None`
/// when no quote converts. Written as `["time", usd, ars]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DealerPoint {
    /// When the check was made.
    pub at: Time,
    /// Lowest quote in USD.
    pub usd: Option<f64>,
    /// Lowest quote in ARS.
    pub ars: Option<f64>,
}

impl Serialize for DealerPoint {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (crate::time::format_time(self.at), self.usd, self.ars).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for DealerPoint {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (at, usd, ars) = <(String, Option<f64>, Option<f64>)>::deserialize(deserializer)?;
        let at = crate::time::parse_time(&at)
            .ok_or_else(|| serde::de::Error::custom(format!("{at:?} is not an RFC 3339 time")))?;
        Ok(DealerPoint { at, usd, ars })
    }
}

/// The usual range of a version's dealer price (`priceRange`): the 25th and
/// 75th percentiles of the weekly averages its usual price is the median
/// of, by linear interpolation (position `p × (n − 1)` of the sorted
/// averages). Only with sufficient history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "The usual range: the 25th and 75th percentiles of the weekly averages the usual price is the median of (linear interpolation at position p × (n − 1) of the sorted averages). Null without sufficient history."
)]
pub struct PriceRange {
    /// 25th percentile of the weekly averages in USD.
    pub low_usd: f64,
    /// 75th percentile of the weekly averages in USD.
    pub high_usd: f64,
    /// 25th percentile in `currency`; null when the window's quotes are in
    /// both currencies.
    pub low: Option<f64>,
    /// 75th percentile in `currency`; null as `low`.
    pub high: Option<f64>,
    /// The one currency of every quote in the window, if there is one.
    pub currency: Option<Currency>,
    /// Weekly averages it is computed from (`comparison.observedWeeks`).
    pub weeks: u32,
}

/// Today's spread and where (`dealers`): the latest check's quotes, lowest,
/// median and highest, in dollars at the check's rate and in pesos; its
/// dealers (`sellerId`; a quote without one is its own dealer) and those
/// with stock; and per city the dealers and the cheapest quote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Today's spread and where: the latest quote check's quotes (lowest, median, highest; USD at that check's rate, ARS as quoted or USD at that rate), its dealers (sellerId; a quote without one counts as its own dealer), how many report stock (stock > 0), and per location (\"sin dato\" without one) the dealers and the cheapest quote, cheapest location first. An addition to the v1 contract."
)]
pub struct DealerSpread {
    /// Dealers with a current quote.
    pub count: u32,
    /// Of them, those with stock.
    pub with_stock: u32,
    /// Lowest quote, USD.
    pub lowest_usd: Option<f64>,
    /// Median quote (the middle one, or the mean of the two middle ones), USD.
    pub median_usd: Option<f64>,
    /// Highest quote, USD.
    pub highest_usd: Option<f64>,
    /// Lowest quote, ARS.
    pub lowest_ars: Option<f64>,
    /// Median quote, ARS.
    pub median_ars: Option<f64>,
    /// Highest quote, ARS.
    pub highest_ars: Option<f64>,
    /// Per location, the cheapest first.
    pub by_location: Vec<LocationSpread>,
}

/// The location of the quotes that name none, in a [`DealerSpread`].
pub const NO_LOCATION: &str = "sin dato";

/// One location of a [`DealerSpread`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct LocationSpread {
    /// As the quotes give it; `sin dato` for quotes without one.
    pub location: String,
    /// Dealers quoting there.
    pub dealers: u32,
    /// Its cheapest quote, USD.
    pub lowest_usd: Option<f64>,
    /// Its cheapest quote, ARS.
    pub lowest_ars: Option<f64>,
}

/// Freight and paperwork as the data shows them (`freightEstimate`): at
/// each check of the 180-day window that has quotes both including and not
/// including them, the cheapest of each compared, in USD at that check's
/// rate; the medians over those checks, with at least three.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    deny_unknown_fields,
    description = "Freight and paperwork as observed: at each quote check of the 180-day window with quotes both including and excluding them, the cheapest including minus the cheapest excluding (USD at that check's rate), and that gap as a percent of the cheapest excluding; the medians over those checks, given with at least 3. May be negative. Not registration, not every dealer's charge. Null when unknown."
)]
pub struct FreightEstimate {
    /// Median gap in USD, to the cent.
    pub amount_usd: f64,
    /// Median gap as a percent of the cheapest quote without them,
    /// truncated to two decimals.
    pub pct: f64,
    /// Checks with quotes of both kinds.
    pub checks: u32,
}
