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
    let [pesos, dollars] = index_lines(window, GroupKind::All, None);
    let dollar = window.iter().map(|m| m.report.dollar.ars_per_usd).collect();
    let main = [pesos, dollars, ("Dólar de referencia", dollar)];
    let mut charts = Vec::new();
    charts.extend(chart(
        "indice.svg",
        "Precios de los 0 km en concesionarias y dólar de referencia",
        window,
        &main,
    ));
    let types = (reports[at].report.index.iter())
        .filter(|row| row.group.kind == GroupKind::Type && row.currency == "ARS")
        .filter_map(|row| row.group.value.as_deref());
    for body in types {
        let file = format!("tipo-{}.svg", crate::api::text::slug(body));
        charts.extend(chart(
            &file,
            &format!("Precios de los 0 km: {body}"),
            window,
            &index_lines(window, GroupKind::Type, Some(body)),
        ));
    }
    charts
}

/// A line of values by month, named.
type Series<'a> = (&'a str, Vec<Option<f64>>);

/// The index of one group over `window`, in pesos and in dollars.
fn index_lines(
    window: &[MonthReport],
    kind: GroupKind,
    value: Option<&str>,
) -> [Series<'static>; 2] {
    let line = |currency: &str| {
        (window.iter())
            .map(|month| level(month, kind, value, currency))
            .collect()
    };
    [
        ("Índice en pesos", line("ARS")),
        ("Índice en dólares", line("USD")),
    ]
}

/// The index level of one group in one currency in `month`, if published.
fn level(month: &MonthReport, kind: GroupKind, value: Option<&str>, currency: &str) -> Option<f64> {
    (month.report.index.iter())
        .find(|row: &&IndexRow| {
            row.group.kind == kind
                && row.group.value.as_deref() == value
                && row.currency == currency
        })
        .and_then(|row| row.level)
}

/// A chart of `lines` over `window`, each rebased to 100 at its first
/// value; `None` when no line has two values.
fn chart(file: &str, title: &str, window: &[MonthReport], lines: &[Series]) -> Option<Chart> {
    let rebased = rebase(lines);
    if rebased.is_empty() {
        return None;
    }
    let scale = Scale::of(&rebased);
    let count = window.len().max(2);
    let x = |at: usize| LEFT + (RIGHT - LEFT) * at as f64 / (count - 1) as f64;
    let x_ticks = (window.iter().enumerate())
        .map(|(at, m)| {
            let label = match m.month.month {
                1 => format!("{} {}", month_abbreviation(1), m.month.year),
                month => month_abbreviation(month).to_owned(),
            };
            (round(x(at)), label)
        })
        .collect();
    let drawn: Vec<Line> = (rebased.iter().zip(STYLES).enumerate())
        .map(|(k, ((name, values), (color, dash)))| Line {
            name: (*name).to_owned(),
            color,
            dash,
            points: (values.iter().enumerate())
                .filter_map(|(at, v)| Some((round(x(at)), round(scale.y((*v)?)))))
                .collect(),
            legend: (LEFT + 200.0 * k as f64, HEIGHT - 40.0),
        })
        .collect();
    let names: Vec<&str> = drawn.iter().map(|line| line.name.as_str()).collect();
    let last = window.last().expect("invariant: a window has its month");
    let first = window.first().expect("invariant: a window has its month");
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
        y_ticks: scale.ticks(),
        x_ticks,
        lines: drawn,
    })
}

/// Each line divided by its first value, times 100; only lines with two
/// values or more.
fn rebase<'a>(lines: &[Series<'a>]) -> Vec<Series<'a>> {
    (lines.iter())
        .map(|(name, values)| {
            let base = values.iter().flatten().next().copied();
            let points = (values.iter())
                .map(|v| Some(v.as_ref()? / base? * 100.0))
                .collect();
            (*name, points)
        })
        .filter(|(_, values): &Series| values.iter().flatten().count() >= 2)
        .collect()
}

/// The vertical axis: from a round value under the lowest point to one
/// over the highest, in about four nice steps.
struct Scale {
    low: f64,
    high: f64,
    step: f64,
}

impl Scale {
    fn of(lines: &[Series]) -> Scale {
        let all = lines
            .iter()
            .flat_map(|(_, values)| values.iter().flatten().copied());
        let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let step = nice_step((high - low).max(1.0) / 4.0);
        Scale {
            low: (low / step).floor() * step,
            high: (high / step).ceil() * step,
            step,
        }
    }

    /// Where `value` is drawn.
    fn y(&self, value: f64) -> f64 {
        BOTTOM - (value - self.low) / (self.high - self.low) * (BOTTOM - TOP)
    }

    /// Each step's place and label, from the bottom.
    fn ticks(&self) -> Vec<(f64, String)> {
        let mut ticks = Vec::new();
        let mut tick = self.low;
        while tick <= self.high + self.step / 2.0 {
            ticks.push((round(self.y(tick)), format!("{tick:.0}")));
            tick += self.step;
        }
        ticks
    }
}

/// A coordinate to a tenth of a unit, as the SVG writes it.
fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
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
