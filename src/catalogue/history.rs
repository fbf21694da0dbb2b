//! The published catalogue, price history: the comparison with the usual
//! price over the history window, the weekly dealer averages in dollars
//! and in the quoted currency, and when a week's average is final.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::schema::{Constant, constant};
use crate::time::Time;
use crate::vocab::Currency;

/// History window of the usual-price benchmark, in days (spec: 180).
pub const WINDOW_DAYS: u32 = 180;

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
