//! Render stage, price-history chart, what it draws: a version's weekly
//! averages, its usual price, its 180-day low and its current price, in the
//! currency shown, and what the caption says of that currency.

use chrono::NaiveDate;
use serde::Serialize;

use crate::time::Time;
use crate::vocab::Currency;

/// What the chart draws, all in the currency it is shown in (the dealers'
/// own when every quote of the window is in one currency). The drawing is a
/// function of it alone, so a page's key holds this rather than the drawing
/// (`render::site::kept`): a kept page is not drawn.
#[derive(Debug, Clone, Serialize)]
pub struct ChartData {
    /// Weekly averages, oldest first.
    pub weeks: Vec<ChartWeek>,
    /// The currency of every amount here.
    pub currency: Currency,
    /// The usual level in that currency, when known, with its legend name
    /// (`Precio habitual`, `Precio habitual en pesos`).
    pub typical: Option<(f64, &'static str)>,
    /// The lowest dealer price in the window, when known.
    pub lowest: Option<f64>,
    /// The current dealer price.
    pub current: f64,
    /// When the current price was observed.
    pub observed_at: Time,
    /// What the caption says of the currency (`en pesos, como cotizaron
    /// las concesionarias`).
    pub unit: String,
}

/// One week of the chart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChartWeek {
    /// Monday of the ISO week, Argentine date.
    pub week_start: NaiveDate,
    /// Time-weighted mean in the chart's currency.
    pub average: f64,
    /// The same week in dollars, at each check's rate (the signal's own
    /// figures), for the data table of a peso chart.
    pub average_usd: Option<f64>,
}
