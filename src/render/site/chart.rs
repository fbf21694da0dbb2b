//! Render stage, price-history chart: from a version's weekly dealer-price
//! averages (the 180-day window), its usual price, its 180-day low and its
//! current price, computes what `templates/chart.svg.html` draws, in the
//! currency the dealers quoted. Two drawings of one chart, a wide one and a
//! narrow one (the stylesheet shows one), so its text is never smaller than
//! the page's at any width; the usual price, the low and the current price
//! are named in the legend beside the chart, never on the line, so no label
//! can cross the line or another label. Every coordinate is printed with one
//! decimal, so the output is byte-stable.

use serde::Serialize;

mod data;
mod drawing;

pub use data::{ChartData, ChartWeek};
pub use drawing::{Drawing, Tick};

use crate::format::{date, day, price};
use crate::vocab::Currency;
use drawing::drawing;

/// A drawn chart and its text alternatives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    /// The wide drawing (desktop).
    pub wide: Drawing,
    /// The narrow drawing (phones).
    pub narrow: Drawing,
    /// One sentence saying what it shows (also its `<desc>`).
    pub summary: String,
    /// The legend: the usual price, the low and the current price.
    pub legend: Vec<LegendItem>,
    /// What the caption says of the currency.
    pub unit: String,
    /// Whether the data table has a dollar column (a peso chart).
    pub dollar_column: bool,
    /// The plotted weekly averages, for the data table.
    pub rows: Vec<ChartRow>,
}

/// One legend entry: its swatch class and its text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegendItem {
    /// `typical`, `lowest` or `current`.
    pub kind: &'static str,
    /// `Precio habitual: $ 61.000.000`.
    pub text: String,
}

/// One weekly average in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartRow {
    /// `Semana del 16/11/2026`.
    pub week: String,
    /// In the chart's currency: `$ 63.900.000`.
    pub average: String,
    /// In dollars at each check's rate, for a peso chart: `US$ 43.909`.
    pub average_usd: Option<String>,
}

/// The two drawings: (size, width, height, font). The stylesheet shows the
/// wide one from 56rem, where it is at least 864 px wide (16 x 0.9 = 14.4 px
/// text), and the narrow one below, at most 34rem wide and at least 328 px
/// on a 360 px phone (13 x 0.96 = 12.5 px text).
const SIZES: [(&str, u32, u32, u32); 2] = [("wide", 960, 360, 16), ("narrow", 340, 300, 13)];

/// Draws the chart; `None` without any weekly average.
pub fn render_chart(data: &ChartData) -> Option<Chart> {
    let first = data.weeks.first()?;
    let last = data.weeks.last()?;
    let shown = |amount: f64| price(amount, data.currency);
    let mut legend = Vec::new();
    if let Some((typical, name)) = data.typical {
        legend.push(("typical", format!("{name}: {}", shown(typical))));
    }
    if let Some(lowest) = data.lowest {
        legend.push(("lowest", format!("Más bajo en 180 días: {}", shown(lowest))));
    }
    legend.push((
        "current",
        format!(
            "Precio actual: {} ({})",
            shown(data.current),
            date(data.observed_at)
        ),
    ));
    let [wide, narrow] = SIZES.map(|size| drawing(data, size));
    Some(Chart {
        wide,
        narrow,
        summary: summary(data, first, last),
        legend: legend
            .into_iter()
            .map(|(kind, text)| LegendItem { kind, text })
            .collect(),
        unit: data.unit.clone(),
        dollar_column: data.weeks.iter().any(|week| week.average_usd.is_some()),
        rows: data
            .weeks
            .iter()
            .map(|week| ChartRow {
                week: format!("Semana del {}", day(week.week_start)),
                average: shown(week.average),
                average_usd: week.average_usd.map(|usd| price(usd, Currency::Usd)),
            })
            .collect(),
    })
}

/// The chart in one sentence.
fn summary(data: &ChartData, first: &ChartWeek, last: &ChartWeek) -> String {
    let shown = |amount: f64| price(amount, data.currency);
    let (lo, hi) = data
        .weeks
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), w| {
            (lo.min(w.average), hi.max(w.average))
        });
    let mut text = if data.weeks.len() == 1 {
        format!(
            "Promedio de la semana del {}: {}.",
            day(first.week_start),
            shown(first.average)
        )
    } else {
        format!(
            "Promedio semanal del precio más bajo de las concesionarias en {} semanas, \
             del {} al {}: entre {} y {}.",
            data.weeks.len(),
            day(first.week_start),
            day(last.week_start),
            shown(lo),
            shown(hi)
        )
    };
    if let Some((typical, name)) = data.typical {
        text.push_str(&format!(" {name}: {}.", shown(typical)));
    }
    if let Some(lowest) = data.lowest {
        text.push_str(&format!(" Más bajo en 180 días: {}.", shown(lowest)));
    }
    text.push_str(&format!(
        " Precio actual: {} ({}).",
        shown(data.current),
        date(data.observed_at)
    ));
    text
}

#[cfg(test)]
mod tests;
