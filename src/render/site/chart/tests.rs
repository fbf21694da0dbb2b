//! The chart at its boundaries: round ticks, the quoted currency, labels
//! that keep apart in both drawings, every mark inside the plot.

use chrono::NaiveDate;

use super::drawing::{GLYPH, nice_step, tick_label};
use super::*;
use crate::time::parse_time;

fn week(day: &str, average: f64) -> ChartWeek {
    ChartWeek {
        week_start: NaiveDate::parse_from_str(day, "%Y-%m-%d").expect("day"),
        average,
        average_usd: None,
    }
}

/// 26 weeks from 25/05/2026, around US$ 44,000, in pesos at `rate` (with
/// the dollars beside them) or in dollars (`rate` 1).
fn half_year(rate: f64) -> Vec<ChartWeek> {
    (0..26)
        .map(|index| {
            let start = NaiveDate::from_ymd_opt(2026, 5, 25).expect("day")
                + chrono::Duration::days(7 * index);
            let usd = 44_000.0 + f64::from((index % 5) as i32) * 150.0;
            ChartWeek {
                week_start: start,
                average: usd * rate,
                average_usd: (rate != 1.0).then_some(usd),
            }
        })
        .collect()
}

/// The chart of `weeks`: in pesos when `rate` is not 1, with the usual
/// price US$ 44 300, the low US$ 43 100 and the current price in that
/// currency.
fn data(weeks: &[ChartWeek], rate: f64) -> ChartData {
    let pesos = rate != 1.0;
    ChartData {
        weeks: weeks.to_vec(),
        currency: if pesos { Currency::Ars } else { Currency::Usd },
        typical: Some((
            44_300.0 * rate,
            if pesos {
                "Precio habitual en pesos"
            } else {
                "Precio habitual"
            },
        )),
        lowest: Some(43_100.0 * rate),
        current: if pesos { 63_900_000.0 } else { 43_909.0 },
        observed_at: parse_time("2026-11-21T23:00:00Z").expect("time"),
        unit: if pesos { "en pesos" } else { "en dólares" }.to_owned(),
    }
}

fn number_of(text: &str) -> f64 {
    text.parse().expect("a coordinate")
}

#[test]
fn steps_and_tick_labels_are_round_and_short() {
    assert_eq!(nice_step(900.0), 1000.0);
    assert_eq!(nice_step(1200.0), 2000.0);
    assert_eq!(nice_step(2100.0), 2500.0);
    assert_eq!(nice_step(0.3), 1.0, "whole units at least");
    assert_eq!(nice_step(2_100_000.0), 2_500_000.0);
    assert_eq!(tick_label(64_000_000.0, Currency::Ars), "$ 64 M");
    assert_eq!(tick_label(63_500_000.0, Currency::Ars), "$ 63,5 M");
    assert_eq!(tick_label(59_000.0, Currency::Usd), "US$ 59.000");
    assert_eq!(tick_label(1_250_000.0, Currency::Usd), "US$ 1,3 M");
}

#[test]
fn a_peso_quoted_version_is_drawn_in_pesos() {
    let history = half_year(1_455.28);
    let chart = render_chart(&data(&history, 1_455.28)).expect("chart");
    // 44 300 x 1 455,28 = 64 468 904; 43 100 x 1 455,28 = 62 722 568.
    assert_eq!(
        chart.legend[0].text,
        "Precio habitual en pesos: $ 64.468.904"
    );
    assert_eq!(chart.legend[1].text, "Más bajo en 180 días: $ 62.722.568");
    assert_eq!(
        chart.legend[2].text,
        "Precio actual: $ 63.900.000 (21/11/2026)"
    );
    assert!(
        chart
            .summary
            .contains("Más bajo en 180 días: $ 62.722.568.")
    );
    assert!(chart.unit.starts_with("en pesos"));
    assert_eq!(chart.rows[0].average, "$ 64.032.320");
    assert_eq!(chart.rows[0].average_usd.as_deref(), Some("US$ 44.000"));
    assert!(chart.dollar_column);
    assert!(chart.wide.y_ticks.iter().all(|t| t.label.ends_with(" M")));
    let history = half_year(1.0);
    let dollars = render_chart(&data(&history, 1.0)).expect("chart");
    assert!(!dollars.dollar_column);
    assert_eq!(dollars.legend[0].text, "Precio habitual: US$ 44.300");
    assert_eq!(dollars.unit, "en dólares");
}

#[test]
fn labels_keep_apart_and_marks_stay_inside_the_plot() {
    for rate in [1_455.28, 1.0] {
        let history = half_year(rate);
        let chart = render_chart(&data(&history, rate)).expect("chart");
        for drawing in [&chart.wide, &chart.narrow] {
            let font = f64::from(drawing.font);
            let (left, right) = (number_of(&drawing.left), number_of(&drawing.right));
            let (top, bottom) = (number_of(&drawing.top), number_of(&drawing.bottom));
            let ys: Vec<f64> = drawing.y_ticks.iter().map(|t| number_of(&t.at)).collect();
            assert!(ys.len() >= 3, "{}: {} price ticks", drawing.size, ys.len());
            assert!(ys.windows(2).all(|pair| pair[0] - pair[1] >= font * 1.9));
            let widest = drawing
                .y_ticks
                .iter()
                .map(|t| t.label.chars().count())
                .max();
            assert!(widest.unwrap_or(0) as f64 * font * GLYPH < left);
            let months = &drawing.x_ticks;
            assert!(
                months.len() >= 3,
                "{}: {} months",
                drawing.size,
                months.len()
            );
            assert!(months[0].label.ends_with(" 2026"));
            for pair in months.windows(2) {
                let gap = number_of(&pair[1].at) - number_of(&pair[0].at);
                let room = (pair[0].label.chars().count() + pair[1].label.chars().count()) as f64
                    * font
                    * GLYPH
                    / 2.0;
                assert!(
                    gap >= room,
                    "{}: {} and {} touch",
                    drawing.size,
                    pair[0].label,
                    pair[1].label
                );
            }
            let marks = drawing
                .points
                .iter()
                .chain([&drawing.current])
                .map(|(x, y)| (number_of(x), number_of(y)));
            for (x, y) in marks {
                assert!((left..=right).contains(&x) && (top..=bottom).contains(&y));
            }
            for y in [&drawing.typical_y, &drawing.lowest_y] {
                let y = number_of(y.as_deref().expect("drawn"));
                assert!((top..=bottom).contains(&y));
            }
        }
    }
}

#[test]
fn the_chart_is_deterministic_and_absent_without_history() {
    let history = [week("2026-10-26", 25_000.0), week("2026-11-02", 24_000.0)];
    let chart = data(&history, 1.0);
    assert_eq!(render_chart(&chart), render_chart(&chart));
    let drawn = render_chart(&chart).expect("chart");
    assert_eq!(drawn.rows[1].week, "Semana del 02/11/2026");
    assert!(drawn.summary.contains("entre US$ 24.000 y US$ 25.000"));
    let empty = ChartData {
        weeks: Vec::new(),
        ..chart
    };
    assert!(render_chart(&empty).is_none());
}
