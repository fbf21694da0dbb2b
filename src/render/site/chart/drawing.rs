//! Render stage, price-history chart, one drawing's geometry: the price and
//! day domains widened to round ticks, the month ticks whose labels keep
//! apart, and every coordinate printed with one decimal.

use chrono::{Datelike, NaiveDate, Timelike};
use serde::Serialize;

use super::data::ChartData;
use crate::format::{month_abbreviation, number, price};
use crate::time::{Time, argentina};
use crate::vocab::Currency;

/// One drawing's geometry, as `templates/chart.svg.html` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drawing {
    /// `wide` or `narrow` (CSS class and ID suffix).
    pub size: &'static str,
    /// viewBox width and height.
    pub width: u32,
    /// viewBox height.
    pub height: u32,
    /// Font size in viewBox units.
    pub font: u32,
    /// Plot edges: left, right, top, bottom.
    pub left: String,
    /// Right edge of the plot.
    pub right: String,
    /// Top edge of the plot.
    pub top: String,
    /// Bottom edge of the plot (the x axis).
    pub bottom: String,
    /// Price grid lines with their labels.
    pub y_ticks: Vec<Tick>,
    /// Month ticks with their labels.
    pub x_ticks: Vec<Tick>,
    /// The usual price's y, when known.
    pub typical_y: Option<String>,
    /// The 180-day low's y, when known.
    pub lowest_y: Option<String>,
    /// The weekly averages as `x,y` pairs.
    pub points: Vec<(String, String)>,
    /// The current price's marker.
    pub current: (String, String),
}

/// A tick: its position on its axis and its label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tick {
    /// x for a month tick, y for a price tick.
    pub at: String,
    /// Where the label's baseline or centre goes.
    pub text_at: String,
    /// `jun 2026`, `$ 64 M`.
    pub label: String,
}

/// Average glyph width as a share of the font size (a generous guess for
/// the system sans-serif digits and letters), for label room.
pub(super) const GLYPH: f64 = 0.62;

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
/// units at least) of at least `raw`; integer arithmetic, so no platform's
/// `log10` moves a tick.
pub(super) fn nice_step(raw: f64) -> f64 {
    let mut power = 1u64;
    for _ in 0..14 {
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

/// A price tick label, short: `US$ 59.000`, `$ 64 M`, `$ 63,5 M`.
pub(super) fn tick_label(value: f64, currency: Currency) -> String {
    if value >= 1_000_000.0 {
        let symbol = if currency == Currency::Usd {
            "US$"
        } else {
            "$"
        };
        // Tenths of a million, whole (ticks are round: no float noise shows).
        let tenths = (value / 100_000.0).round();
        format!("{symbol} {} M", number(tenths / 10.0))
    } else {
        price(value, currency)
    }
}

/// The value domain in the shown currency: every plotted value, widened to
/// round ticks, never below zero.
fn value_domain(data: &ChartData, count: usize) -> (f64, f64, f64) {
    let values = data
        .weeks
        .iter()
        .map(|week| week.average)
        .chain(data.typical.map(|(typical, _)| typical))
        .chain(data.lowest)
        .chain([data.current]);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let span = if hi - lo > hi.abs() * 0.01 {
        hi - lo
    } else {
        hi.abs().max(100.0) * 0.04
    };
    let step = nice_step(span / count as f64);
    let y0 = ((lo / step).floor() * step).max(0.0);
    let y1 = ((hi / step).ceil() * step).max(y0 + step);
    (y0, y1, step)
}

/// The price domain and its round ticks, in the shown currency.
fn price_ticks(data: &ChartData, count: usize) -> (f64, f64, Vec<f64>) {
    let (y0, y1, step) = value_domain(data, count);
    let mut ticks = Vec::new();
    let mut tick = y0;
    while tick <= y1 + step / 1000.0 {
        ticks.push(tick);
        tick += step;
    }
    (y0, y1, ticks)
}

/// The days the chart spans: from its first week to the end of its last
/// week or the current price's day, two weeks at least.
fn day_domain(data: &ChartData) -> (f64, f64) {
    let x0 = data.weeks.first().map_or(0.0, |w| days_of(w.week_start));
    let x1 = data
        .weeks
        .last()
        .map_or(x0, |w| days_of(w.week_start) + 7.0);
    (x0, x1.max(days_at(data.observed_at) + 1.0).max(x0 + 14.0))
}

/// One drawing of the chart at `size`: its plot, ticks, lines and points.
pub(super) fn drawing(
    data: &ChartData,
    (size, width, height, font): (&'static str, u32, u32, u32),
) -> Drawing {
    let currency = data.currency;
    let font_f = f64::from(font);
    let (top, bottom) = (font_f * 0.8, f64::from(height) - font_f * 2.0);
    // Price ticks at least two lines apart.
    let most = ((bottom - top) / (font_f * 2.0)).floor().max(2.0) as usize;
    let (y0, y1, y_values) = price_ticks(data, most - 1);
    let labels: Vec<String> = y_values.iter().map(|v| tick_label(*v, currency)).collect();
    let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
    let left = (widest as f64 * font_f * GLYPH + font_f).ceil();
    let right = f64::from(width) - font_f * 0.75;
    let (x0, x1) = day_domain(data);
    let x = |days: f64| left + (days - x0) / (x1 - x0) * (right - left);
    let y = |shown: f64| bottom - (shown - y0) / (y1 - y0) * (bottom - top);
    let f1 = |v: f64| format!("{v:.1}");
    Drawing {
        size,
        width,
        height,
        font,
        left: f1(left),
        right: f1(right),
        top: f1(top),
        bottom: f1(bottom),
        y_ticks: y_values
            .iter()
            .zip(labels)
            .map(|(value, label)| Tick {
                at: f1(y(*value)),
                text_at: f1(y(*value) + font_f * 0.35),
                label,
            })
            .collect(),
        x_ticks: month_ticks(x0, x1, font_f, &x)
            .into_iter()
            .map(|(at, label)| Tick {
                at: f1(at),
                text_at: f1(bottom + font_f * 1.4),
                label,
            })
            .collect(),
        typical_y: data.typical.map(|(typical, _)| f1(y(typical))),
        lowest_y: data.lowest.map(|lowest| f1(y(lowest))),
        points: data
            .weeks
            .iter()
            .map(|w| {
                let at = x(days_of(w.week_start) + 3.5);
                (f1(at), f1(y(w.average)))
            })
            .collect(),
        current: (
            f1(x(days_at(data.observed_at)).min(right)),
            f1(y(data.current)),
        ),
    }
}

/// First days of the months inside `[x0, x1]`, labelled `jun`, with the year
/// on January and on the first label; a month whose label would touch the
/// previous one (or stick out of the drawing) is left unlabelled and out.
fn month_ticks(x0: f64, x1: f64, font: f64, x: &dyn Fn(f64) -> f64) -> Vec<(f64, String)> {
    let mut ticks: Vec<(f64, String)> = Vec::new();
    let Some(start) = NaiveDate::from_num_days_from_ce_opt(x0 as i32 + 719_163) else {
        return ticks;
    };
    let (mut year, mut month) = (start.year(), start.month());
    let half_width = |label: &str| label.chars().count() as f64 * font * GLYPH / 2.0;
    let mut last_end = f64::NEG_INFINITY;
    while let Some(first) = NaiveDate::from_ymd_opt(year, month, 1) {
        let days = days_of(first);
        if days > x1 {
            break;
        }
        if days >= x0 {
            let label = if ticks.is_empty() || month == 1 {
                format!("{} {year}", month_abbreviation(month))
            } else {
                month_abbreviation(month).to_owned()
            };
            let at = x(days);
            let half = half_width(&label);
            if at - half >= last_end + font * 0.75 && at - half >= 0.0 {
                last_end = at + half;
                ticks.push((at, label));
            }
        }
        (year, month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
    }
    ticks
}
