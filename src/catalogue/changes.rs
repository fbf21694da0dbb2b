//! The published catalogue, recent changes: a version's price drop or new
//! opportunity per window, with what the site says of it (the listed
//! prices, the cause).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::schema::{Constant, constant};
use crate::time::Time;
use crate::vocab::{ChangeKind, Currency, Window};

/// A recent change per window; each entry is optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(
    deny_unknown_fields,
    description = "Recent change per window, measured back from catalogueObservedAt."
)]
pub struct RecentChanges {
    /// Within one day of `catalogueObservedAt`.
    #[serde(rename = "1d")]
    pub d1: Option<RecentChange>,
    /// Within three days.
    #[serde(rename = "3d")]
    pub d3: Option<RecentChange>,
    /// Within seven days.
    #[serde(rename = "7d")]
    pub d7: Option<RecentChange>,
}

impl RecentChanges {
    /// The change in `window`.
    pub fn get(&self, window: Window) -> Option<&RecentChange> {
        match window {
            Window::D1 => self.d1.as_ref(),
            Window::D3 => self.d3.as_ref(),
            Window::D7 => self.d7.as_ref(),
        }
    }

    /// Sets the change in `window`.
    pub fn set(&mut self, window: Window, change: Option<RecentChange>) {
        match window {
            Window::D1 => self.d1 = change,
            Window::D3 => self.d3 = change,
            Window::D7 => self.d7 = change,
        }
    }
}

/// A detected price drop or a newly qualifying opportunity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields, transform = honest_before_optional)]
pub struct RecentChange {
    /// Drop or new opportunity.
    pub kind: ChangeKind,
    /// Detected catalogue change time; null for qualification without a new
    /// price change.
    #[serde(with = "crate::time::rfc3339::option")]
    #[schemars(with = "Option<Time>")]
    pub changed_at: Option<Time>,
    /// Monitoring-window boundary for a newly qualifying opportunity without a
    /// price change; not an exact event time.
    #[serde(with = "crate::time::rfc3339::option")]
    #[schemars(with = "Option<Time>")]
    pub qualified_since: Option<Time>,
    /// Positive reduction in percent, truncated to two decimals.
    #[schemars(description = "Positive percentage reduction; null when there was no reduction.")]
    pub drop_pct: Option<f64>,
    /// Reference catalogue price at the current observed exchange rate.
    pub previous_price_usd: Option<f64>,
    /// Current catalogue price at the same rate.
    pub current_price_usd: f64,
    /// For a price drop, the lowest catalogue price in effect during the
    /// 30 days before it, at the same rate; null otherwise.
    #[serde(rename = "lowest30dUsd")]
    #[schemars(
        description = "For a price drop: the lowest catalogue price in effect during the 30 days before changedAt, [changedAt − 30 days, changedAt), at the current observed exchange rate like previousPriceUsd. Null for a new opportunity. An addition to the v1 contract."
    )]
    pub lowest_30d_usd: Option<f64>,
    /// For a price drop, whether the current price is not below that lowest
    /// price (a return to an earlier price, not a cut); null otherwise.
    #[schemars(
        description = "For a price drop: true when the current catalogue price is not below the lowest of the 30 days before the drop, so the drop returns to a price the version already had rather than cutting it. The price_drop rule itself is unchanged. Null for a new opportunity. An addition to the v1 contract."
    )]
    pub returns_to_earlier_price: Option<bool>,
    /// Always `current_observed_exchange_rate`.
    #[schemars(schema_with = "constant::<ConversionBasis>")]
    pub conversion_basis: String,
    /// What the website says beyond the API record (never serialized: the
    /// API's RecentChange keeps the spec's fields).
    #[serde(skip)]
    pub detail: ChangeDetail,
}

/// The honest "before" of a drop is an addition to the v1 contract: always
/// sent, but a client of v1 may meet changes without it.
fn honest_before_optional(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| name != "lowest30dUsd" && name != "returnsToEarlierPrice");
    }
}

/// A catalogue price in its own currency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Native {
    /// Amount in `currency`.
    pub amount: f64,
    /// ARS or USD.
    pub currency: Currency,
}

/// The website's detail of a recent change: the catalogue prices as listed
/// (a peso price in pesos) and, for a new opportunity, what made it qualify.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChangeDetail {
    /// The reference catalogue price before a cut.
    pub previous: Option<Native>,
    /// The current catalogue price.
    pub current: Option<Native>,
    /// For a price drop, the lowest catalogue price of the 30 days before
    /// it, and the last time it was listed at that price before the drop.
    pub lowest_30d: Option<(Native, Time)>,
    /// Why a new opportunity qualified; `None` for a price drop.
    pub cause: Option<Cause>,
}

/// What made a version newly qualify as an opportunity, comparing the last
/// monitoring time at which it was not one with `T`. Without a catalogue cut
/// the first that applies, in this order, is the cause.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cause {
    /// A catalogue cut between that time and the next check.
    CatalogueCut,
    /// It was not published then (out of stock or without quotes).
    Returned,
    /// Its history was not yet sufficient then.
    HistorySufficient,
    /// The lowest dealer quote is lower in dollars than then (USD then).
    LowerQuote {
        /// The dealer price then, in USD.
        before_usd: f64,
    },
    /// The same peso quote or a higher one is lower in dollars: the dollar rose.
    DollarUp {
        /// The dealer price then, in USD.
        before_usd: f64,
    },
    /// The usual price rose (the dealer price did not fall).
    HigherUsual {
        /// The usual price then, in USD.
        before_usd: f64,
    },
}

/// The one `conversionBasis`, as a schema constant.
struct ConversionBasis;

impl Constant for ConversionBasis {
    fn value() -> serde_json::Value {
        "current_observed_exchange_rate".into()
    }
}

impl RecentChange {
    /// When it happened, for `recent` sorting: `changed_at`, else `qualified_since`.
    pub fn recency(&self) -> Option<Time> {
        self.changed_at.or(self.qualified_since)
    }
}
