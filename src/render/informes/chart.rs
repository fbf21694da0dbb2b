//! Render stage, the market report's charts: the index in pesos and in
//! dollars and the reference dollar over the last twelve months, and the
//! index of each body type, as standalone SVG files
//! (`templates/informe-grafico.svg.html`) that a page shows with `<img>`
//! and a newsroom embeds the same way: each carries its title, its base,
//! the source and the data's date inside the image. A final month's charts
//! read only months up to it, so they stay the same bytes.

use serde::Serialize;

use crate::api::types::report::{GroupKind, IndexRow};
use crate::format::month_abbreviation;
use crate::market::{MonthReport, day_and_time};

/// The chart's size in SVG units (it scales with its box).
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = WIDTH - 24.0;
const TOP: f64 = 92.0;
const BOTTOM: f64 = HEIGHT - 78.0;
/// Months a chart spans.
const MONTHS: usize = 12;
/// Line colours: blue, green and grey, told apart by dashes too.
const STYLES: [(&str, &str); 3] = [("#0b4f9c", ""), ("#0f5323", "8 5"), ("#57606a", "2 4")];

/// One chart, laid out for the template.
#[derive(Debug, Serialize)]
pub(super) struct Chart {
    /// Its file name beside the report (`indice.svg`).
    pub file: String,
    /// Its title.
    pub title: String,
    /// What the lines are, for `alt` and `<desc>`.
    pub summary: String,
    base: String,
    source: String,
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    bottom: f64,
    y_ticks: Vec<(f64, String)>,
    x_ticks: Vec<(f64, String)>,
    lines: Vec<Line>,
}

#[derive(Debug, Serialize)]
struct Line {
    name: String,
    color: &'static str,
    dash: &'static str,
    points: Vec<(f64, f64)>,
    legend: (f64, f64),
}

/// The month `at`'s charts: the index and the dollar, then one per body
/// type of that month's index.
pub(super) fn charts(reports: &[MonthReport], at: usize) -> Vec<Chart> {
    let window = &reports[(at + 1).saturating_sub(MONTHS)..=at];
    let level = |month: &MonthReport, kind: GroupKind, value: Option<&str>, currency: &str| {
        month
            .report
            .index
            .iter()
            .find(|row: &&IndexRow| {
                row.group.kind == kind
                    && row.group.value.as_deref() == value
                    && row.currency == currency
            })
            .and_then(|row| row.level)
    };
    let mut charts = Vec::new();
    let main = [
        (
            "Índice en pesos",
            window
                .iter()
                .map(|m| level(m, GroupKind::All, None, "ARS"))
                .collect(),
        ),
        (
            "Índice en dólares",
            window
                .iter()
                .map(|m| level(m, GroupKind::All, None, "USD"))
                .collect(),
        ),
        (
            "Dólar de referencia",
            window.iter().map(|m| m.report.dollar.ars_per_usd).collect(),
        ),
    ];
    charts.extend(chart(
        "indice.svg",
        "Precios de los 0 km en concesionarias y dólar de referencia",
        window,
        &main,
    ));
    let types: Vec<&str> = reports[at]
        .report
        .index
        .iter()
        .filter(|row| row.group.kind == GroupKind::Type && row.currency == "ARS")
        .filter_map(|row| row.group.value.as_deref())
        .collect();
    for body in types {
        let lines = [
            (
                "Índice en pesos",
                window
                    .iter()
                    .map(|m| level(m, GroupKind::Type, Some(body), "ARS"))
                    .collect(),
            ),
            (
                "Índice en dólares",
                window
                    .iter()
                    .map(|m| level(m, GroupKind::Type, Some(body), "USD"))
                    .collect(),
            ),
        ];
        let file = format!("tipo-{}.svg", crate::api::text::slug(body));
        charts.extend(chart(
            &file,
            &format!("Precios de los 0 km: {body}"),
            window,
            &lines,
        ));
    }
    charts
}

/// A chart of `lines` over `window`, each rebased to 100 at its first
/// value; `None` when no line has two values.
fn chart(
    file: &str,
    title: &str,
    window: &[MonthReport],
    lines: &[(&str, Vec<Option<f64>>)],
) -> Option<Chart> {
    let rebased: Vec<(&str, Vec<Option<f64>>)> = lines
        .iter()
        .map(|(name, values)| {
            let base = values.iter().flatten().next().copied();
            let points = values
                .iter()
                .map(|v| Some(v.as_ref()? / base? * 100.0))
                .collect();
            (*name, points)
        })
        .filter(|(_, values): &(&str, Vec<Option<f64>>)| values.iter().flatten().count() >= 2)
        .collect();
    if rebased.is_empty() {
        return None;
    }
    let all = rebased
        .iter()
        .flat_map(|(_, values)| values.iter().flatten().copied());
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let step = nice_step((high - low).max(1.0) / 4.0);
    let (low, high) = ((low / step).floor() * step, (high / step).ceil() * step);
    let y = |value: f64| BOTTOM - (value - low) / (high - low) * (BOTTOM - TOP);
    let count = window.len().max(2);
    let x = |at: usize| LEFT + (RIGHT - LEFT) * at as f64 / (count - 1) as f64;
    let round = |v: f64| (v * 10.0).round() / 10.0;
    let mut y_ticks = Vec::new();
    let mut tick = low;
    while tick <= high + step / 2.0 {
        y_ticks.push((round(y(tick)), format!("{tick:.0}")));
        tick += step;
    }
    let x_ticks = window
        .iter()
        .enumerate()
        .map(|(at, m)| {
            let label = match m.month.month {
                1 => format!("{} {}", month_abbreviation(1), m.month.year),
                month => month_abbreviation(month).to_owned(),
            };
            (round(x(at)), label)
        })
        .collect();
    let last = window.last().expect("invariant: a window has its month");
    let first = window.first().expect("invariant: a window has its month");
    let drawn: Vec<Line> = rebased
        .iter()
        .zip(STYLES)
        .enumerate()
        .map(|(k, ((name, values), (color, dash)))| Line {
            name: (*name).to_owned(),
            color,
            dash,
            points: values
                .iter()
                .enumerate()
                .filter_map(|(at, v)| Some((round(x(at)), round(y((*v)?)))))
                .collect(),
            legend: (LEFT + 200.0 * k as f64, HEIGHT - 40.0),
        })
        .collect();
    let names: Vec<&str> = drawn.iter().map(|line| line.name.as_str()).collect();
    Some(Chart {
        file: file.to_owned(),
        title: title.to_owned(),
        summary: format!(
            "{}, de {} a {}, base 100 en el primer mes de cada línea.",
            names.join(", "),
            first.month.spanish(),
            last.month.spanish()
        ),
        base: format!(
            "Base 100 = {} (cada línea, su primer mes con dato)",
            first.month.spanish()
        ),
        source: format!(
            "Fuente: autoprecios, informe de {}, con datos al {}",
            last.month.spanish(),
            day_and_time(last.report.as_of)
        ),
        width: WIDTH,
        height: HEIGHT,
        left: LEFT,
        right: RIGHT,
        bottom: BOTTOM,
        y_ticks,
        x_ticks,
        lines: drawn,
    })
}

/// A step of 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= raw)
        .unwrap_or(10.0 * power)
}
