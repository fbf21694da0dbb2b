//! Render stage, price-history chart: an inline SVG drawn here from a
//! version's weekly dealer-price averages (the 180-day window), its usual
//! price as a dashed line and its current price as a marker, with Spanish
//! axis labels and a text alternative. No chart library and no script; every
//! coordinate is printed with one decimal so the output is byte-stable.

use std::fmt::Write;

use chrono::{Datelike, NaiveDate, Timelike};
use serde::Serialize;

use super::format::{amount, date, day, month_abbreviation, usd};
use crate::catalogue::WeeklyAverage;
use crate::time::{Time, argentina};

/// What the chart draws.
#[derive(Debug, Clone, Copy)]
pub struct ChartData<'a> {
    /// Weekly averages, oldest first.
    pub history: &'a [WeeklyAverage],
    /// The usual price, when known.
    pub typical_usd: Option<f64>,
    /// The current price.
    pub current_usd: f64,
    /// When the current price was observed.
    pub observed_at: Time,
}

/// A drawn chart and its text alternatives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    /// The `<svg>` element.
    pub svg: String,
    /// One sentence saying what it shows (also its `<desc>`).
    pub summary: String,
    /// The plotted weekly averages, for the data table.
    pub rows: Vec<ChartRow>,
}

/// One weekly average in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartRow {
    /// `Semana del 16/11/2026`.
    pub week: String,
    /// `US$ 50.600`.
    pub average: String,
}

const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 52.0;
const LINE: &str = "#0b4f9c";
const TYPICAL: &str = "#57606a";
const CURRENT: &str = "#b3261e";
const GRID: &str = "#d0d7de";

/// Linear maps from days and dollars to the drawing.
struct Scale {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Scale {
    fn x(&self, days: f64) -> f64 {
        LEFT + (days - self.x0) / (self.x1 - self.x0) * (WIDTH - LEFT - RIGHT)
    }

    fn y(&self, usd: f64) -> f64 {
        HEIGHT - BOTTOM - (usd - self.y0) / (self.y1 - self.y0) * (HEIGHT - TOP - BOTTOM)
    }
}

/// Days since 1970-01-01 of a calendar day.
fn days_of(day: NaiveDate) -> f64 {
    f64::from(day.num_days_from_ce() - 719_163)
}

/// Days since 1970-01-01 of an instant, on the Argentine calendar.
fn days_at(time: Time) -> f64 {
    let local = time.with_timezone(&argentina());
    days_of(local.date_naive()) + f64::from(local.num_seconds_from_midnight()) / 86_400.0
}

/// The smallest round step (1, 2, 2.5 or 5 times a power of ten, whole
/// dollars at least) of at least `raw`; integer arithmetic, so no
/// platform's `log10` moves a tick.
fn nice_step(raw: f64) -> f64 {
    let mut power = 1u64;
    for _ in 0..12 {
        for m in [10, 20, 25, 50] {
            let step = (m * power) as f64 / 10.0;
            if step >= raw {
                return step;
            }
        }
        power *= 10;
    }
    (power as f64).max(raw)
}

/// Draws the chart; `None` without any weekly average.
pub fn render_chart(data: &ChartData) -> Option<Chart> {
    let first = data.history.first()?;
    let last = data.history.last()?;
    let scale = scale(data, first, last);
    let mut svg = String::with_capacity(4096);
    let summary = summary(data, first, last);
    let _ = write!(
        svg,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH:.0} {HEIGHT:.0}\" \
         role=\"img\" aria-labelledby=\"grafico-titulo grafico-desc\" font-size=\"12\">\
         <title id=\"grafico-titulo\">Historial de precios de los últimos 180 días</title>\
         <desc id=\"grafico-desc\">{}</desc>",
        escape(&summary)
    );
    draw_axes(&mut svg, &scale);
    draw_series(&mut svg, &scale, data);
    svg.push_str("</svg>");
    let rows = data
        .history
        .iter()
        .map(|w| ChartRow {
            week: format!("Semana del {}", day(w.week_start)),
            average: usd(w.average_usd),
        })
        .collect();
    Some(Chart { svg, summary, rows })
}

fn scale(data: &ChartData, first: &WeeklyAverage, last: &WeeklyAverage) -> Scale {
    let x0 = days_of(first.week_start);
    let x1 = (days_of(last.week_start) + 7.0)
        .max(days_at(data.observed_at) + 1.0)
        .max(x0 + 14.0);
    let values = data
        .history
        .iter()
        .map(|w| w.average_usd)
        .chain(data.typical_usd)
        .chain([data.current_usd]);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let span = if hi - lo > hi.abs() * 0.01 {
        hi - lo
    } else {
        hi.abs().max(100.0) * 0.04
    };
    let step = nice_step(span / 4.0);
    let mut y0 = (lo / step).floor() * step;
    let mut y1 = (hi / step).ceil() * step;
    if y1 - y0 < step * 2.0 {
        y0 -= step;
        y1 += step;
    }
    Scale {
        x0,
        x1,
        y0: y0.max(0.0),
        y1,
    }
}

fn draw_axes(svg: &mut String, scale: &Scale) {
    let step = nice_step((scale.y1 - scale.y0) / 5.0);
    let mut tick = scale.y0;
    while tick <= scale.y1 + step / 1000.0 {
        let y = scale.y(tick);
        let _ = write!(
            svg,
            "<line x1=\"{LEFT:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{GRID}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#4a525c\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            amount(tick)
        );
        tick += step;
    }
    let bottom = HEIGHT - BOTTOM;
    let _ = write!(
        svg,
        "<line x1=\"{LEFT:.1}\" x2=\"{:.1}\" y1=\"{bottom:.1}\" y2=\"{bottom:.1}\" stroke=\"#4a525c\"/>",
        WIDTH - RIGHT
    );
    for (days, label) in month_ticks(scale) {
        let x = scale.x(days);
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{bottom:.1}\" y2=\"{:.1}\" stroke=\"#4a525c\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#4a525c\">{label}</text>",
            bottom + 5.0,
            bottom + 18.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#1b1f24\">Semana (hora de Argentina)</text>\
         <text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\" fill=\"#1b1f24\">Precio en US$</text>",
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        HEIGHT - 8.0,
        TOP + (HEIGHT - TOP - BOTTOM) / 2.0
    );
}

/// First days of the months inside the domain, labelled `jun`, with the
/// year on January and on the first tick; every other month when crowded.
fn month_ticks(scale: &Scale) -> Vec<(f64, String)> {
    let mut ticks = Vec::new();
    let start = NaiveDate::from_num_days_from_ce_opt(scale.x0 as i32 + 719_163);
    let Some(start) = start else {
        return ticks;
    };
    let (mut year, mut month) = (start.year(), start.month());
    while let Some(first) = NaiveDate::from_ymd_opt(year, month, 1) {
        let days = days_of(first);
        if days > scale.x1 {
            break;
        }
        if days >= scale.x0 {
            let label = if ticks.is_empty() || month == 1 {
                format!("{} {year}", month_abbreviation(month))
            } else {
                month_abbreviation(month).to_owned()
            };
            ticks.push((days, label));
        }
        (year, month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
    }
    if ticks.len() > 8 {
        ticks = ticks.into_iter().step_by(2).collect();
    }
    ticks
}

fn draw_series(svg: &mut String, scale: &Scale, data: &ChartData) {
    if let Some(typical) = data.typical_usd {
        let y = scale.y(typical);
        let _ = write!(
            svg,
            "<line x1=\"{LEFT:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{TYPICAL}\" \
             stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"{TYPICAL}\">Precio habitual</text>",
            WIDTH - RIGHT,
            LEFT + 4.0,
            y - 5.0
        );
    }
    let points: Vec<String> = data
        .history
        .iter()
        .map(|w| {
            let (x, y) = (scale.x(days_of(w.week_start) + 3.5), scale.y(w.average_usd));
            format!("{x:.1},{y:.1}")
        })
        .collect();
    let _ = write!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"2\"/>",
        points.join(" ")
    );
    for point in &points {
        let (x, y) = point.split_once(',').unwrap_or(("0", "0"));
        let _ = write!(
            svg,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"2.5\" fill=\"{LINE}\"/>"
        );
    }
    let (x, y) = (
        scale.x(days_at(data.observed_at)),
        scale.y(data.current_usd),
    );
    let _ = write!(
        svg,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"{CURRENT}\" stroke=\"#fff\" stroke-width=\"1.5\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{CURRENT}\">Actual</text>",
        x - 8.0,
        y - 8.0
    );
}

/// The chart in one sentence.
fn summary(data: &ChartData, first: &WeeklyAverage, last: &WeeklyAverage) -> String {
    let (lo, hi) = data
        .history
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), w| {
            (lo.min(w.average_usd), hi.max(w.average_usd))
        });
    let weeks = data.history.len();
    let mut text = if weeks == 1 {
        format!(
            "Promedio de la semana del {}: {}.",
            day(first.week_start),
            usd(first.average_usd)
        )
    } else {
        format!(
            "Promedio semanal del precio más bajo de las concesionarias en {weeks} semanas, \
             del {} al {}: entre {} y {}.",
            day(first.week_start),
            day(last.week_start),
            usd(lo),
            usd(hi)
        )
    };
    if let Some(typical) = data.typical_usd {
        let _ = write!(text, " Precio habitual: {}.", usd(typical));
    }
    let _ = write!(
        text,
        " Precio actual: {} ({}).",
        usd(data.current_usd),
        date(data.observed_at)
    );
    text
}

/// Escapes text for XML content and attributes: the HTML escaping, with
/// the characters XML 1.0 forbids dropped rather than escaped.
pub fn escape(text: &str) -> String {
    let allowed = |c: &char| {
        !((*c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}'))
    };
    if text.chars().all(|c| allowed(&c)) {
        return crate::pages::escape(text);
    }
    crate::pages::escape(&text.chars().filter(allowed).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    fn week(day: &str, average_usd: f64) -> WeeklyAverage {
        WeeklyAverage {
            week_start: NaiveDate::parse_from_str(day, "%Y-%m-%d").expect("day"),
            average_usd,
        }
    }

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(900.0), 1000.0);
        assert_eq!(nice_step(1200.0), 2000.0);
        assert_eq!(nice_step(2100.0), 2500.0);
        assert_eq!(nice_step(0.3), 1.0, "whole dollars at least");
    }

    #[test]
    fn chart_is_labelled_and_deterministic() {
        let history = [week("2026-10-26", 25_000.0), week("2026-11-02", 24_000.0)];
        let data = ChartData {
            history: &history,
            typical_usd: Some(24_500.0),
            current_usd: 23_300.0,
            observed_at: parse_time("2026-11-05T15:00:00Z").expect("time"),
        };
        let chart = render_chart(&data).expect("chart");
        assert_eq!(chart, render_chart(&data).expect("chart"));
        assert!(chart.svg.starts_with("<svg"));
        assert!(chart.svg.contains("Precio habitual") && chart.svg.contains("nov"));
        assert!(chart.summary.contains("entre US$ 24.000 y US$ 25.000"));
        assert!(
            chart
                .summary
                .contains("Precio actual: US$ 23.300 (05/11/2026)")
        );
        assert_eq!(chart.rows[1].week, "Semana del 02/11/2026");
        let empty = ChartData {
            history: &[],
            ..data
        };
        assert!(render_chart(&empty).is_none());
    }
}
