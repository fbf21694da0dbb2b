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
    /// The one currency of every quote in the window (the weeks' `price`,
    /// in the version's [`HistoryWeek`]s).
    pub currency: Currency,
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

/// One calendar week (Argentine time) of a version's dealer-price history:
/// its time-weighted average in dollars (the figures the usual price is the
/// median of) and, when every quote of the window is in one currency, in
/// that currency. The signals compute it once; the record's
/// `history.weeks`, the chart and `historial.csv` publish it as it is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
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

/// Whether the ISO week starting on `week_start` (a Monday, Argentine date)
/// had ended by `at`: its average is final. The current week's moves with
/// every check, so what is published page by page (each version's chart and
/// `historial.csv`) shows completed weeks and the current price beside them,
/// and changes only when a week completes or the price changes.
pub fn week_completed(week_start: chrono::NaiveDate, at: crate::time::Time) -> bool {
    let today = at.with_timezone(&crate::time::argentina()).date_naive();
    week_start + chrono::Days::new(7) <= today
}
