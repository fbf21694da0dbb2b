//! API stage, monthly series, the rows: the periods a collapse makes of
//! the table's months, each asked series' column in its mode and
//! aggregation (rounded as published), and the rows the asked dates and
//! the series' values hold.

use std::borrow::Cow;

use super::query::{Asked, SeriesQuery};
use super::table::Series;

/// The answer's rows, oldest first: each period's first day and the asked
/// series' values in it, within the asked dates.
pub(super) fn rows(
    found: &[(&Asked, Cow<Series>)],
    months: &[(i32, u32)],
    query: &SeriesQuery,
) -> Vec<(String, Vec<Option<f64>>)> {
    let periods = periods(months, query.months_per_period);
    let columns: Vec<Vec<Option<f64>>> = found
        .iter()
        .map(|(asked, series)| column(series, &periods, query, asked, months))
        .collect();
    // Whether a period holds a value of any series asked, before its mode:
    // a series' rows run from its first value to its last (a change from
    // the month before has none in the first, and is null there).
    let held: Vec<bool> = periods
        .iter()
        .map(|period| {
            found.iter().any(|(_, series)| {
                period.months.iter().any(|month| {
                    let at = months.binary_search(month).ok();
                    at.and_then(|at| series.values.get(at).copied().flatten())
                        .is_some()
                })
            })
        })
        .collect();
    let mut rows: Vec<(usize, String, Vec<Option<f64>>)> = periods
        .iter()
        .enumerate()
        .filter(|(_, period)| {
            let (first, last) = (
                period.months[0],
                *period.months.last().expect("a period has months"),
            );
            query.start.is_none_or(|start| last >= start)
                && query.end.is_none_or(|end| first <= end)
        })
        .map(|(at, period)| {
            (
                at,
                period.date.clone(),
                columns.iter().map(|c| c[at]).collect(),
            )
        })
        .collect();
    // Periods before any series has a value, or after all have stopped,
    // are not rows (a version first seen in 2026 does not start in 2025).
    let first = held.iter().position(|held| *held).unwrap_or(held.len());
    let last = held
        .iter()
        .rposition(|held| *held)
        .map_or(first, |last| last + 1);
    rows.retain(|(at, _, _)| (first..last).contains(at));
    rows.into_iter()
        .map(|(_, date, values)| (date, values))
        .collect()
}

/// One period of the answer: its first day and its months.
struct Period {
    date: String,
    months: Vec<(i32, u32)>,
}

/// The periods of `months_per` months that `months` touch, each with the
/// months of it the table holds (a period in progress holds fewer).
fn periods(months: &[(i32, u32)], months_per: u32) -> Vec<Period> {
    let mut periods: Vec<Period> = Vec::new();
    for &(year, month) in months {
        let first = (month - 1) / months_per * months_per + 1;
        let date = format!("{year:04}-{first:02}-01");
        match periods.last_mut() {
            Some(period) if period.date == date => period.months.push((year, month)),
            _ => periods.push(Period {
                date,
                months: vec![(year, month)],
            }),
        }
    }
    periods
}

/// A series' values in each period, in its mode, rounded as published:
/// values and changes to two decimals, percentages (as fractions, the
/// national API's unit: 0.0123 is 1.23 %) to four.
fn column(
    series: &Series,
    periods: &[Period],
    query: &SeriesQuery,
    asked: &Asked,
    months: &[(i32, u32)],
) -> Vec<Option<f64>> {
    let aggregation = asked.aggregation.unwrap_or(query.aggregation);
    let mode = asked.mode.unwrap_or(query.mode);
    let index_of = |month: (i32, u32)| months.binary_search(&month).ok();
    let values: Vec<Option<f64>> = periods
        .iter()
        .map(|period| {
            let held: Vec<f64> = period
                .months
                .iter()
                .filter_map(|m| series.values.get(index_of(*m)?).copied().flatten())
                .collect();
            if held.is_empty() {
                return None;
            }
            Some(match aggregation {
                "sum" => held.iter().sum(),
                "min" => held.iter().copied().fold(f64::INFINITY, f64::min),
                "max" => held.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                "end_of_period" => *held.last().expect("not empty"),
                _ => held.iter().sum::<f64>() / held.len() as f64,
            })
        })
        .collect();
    let per_year = (12 / query.months_per_period) as usize;
    let monthly_links = query.months_per_period == 1 && !series.links.is_empty();
    let link = |at: usize| series.links.get(at).copied().flatten();
    (0..values.len())
        .map(|at| {
            let back = |lag: usize| Some((values[at]?, values[at.checked_sub(lag)?]?));
            match mode {
                "change" => back(1).map(|(now, before)| round(now - before, 2)),
                "change_a_year_ago" => back(per_year).map(|(now, before)| round(now - before, 2)),
                "percent_change" if monthly_links => link(at).map(|r| round(r - 1.0, 4)),
                "percent_change" => back(1).map(|(now, before)| round(now / before - 1.0, 4)),
                "percent_change_a_year_ago" if monthly_links => {
                    let from = at.checked_sub(11).filter(|from| *from >= 1)?;
                    (from..=at)
                        .try_fold(1.0, |product, k| Some(product * link(k)?))
                        .map(|r| round(r - 1.0, 4))
                }
                "percent_change_a_year_ago" => {
                    back(per_year).map(|(now, before)| round(now / before - 1.0, 4))
                }
                _ => values[at].map(|value| round(value, 2)),
            }
        })
        .collect()
}

/// `value` to `places` decimals, never negative zero.
fn round(value: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    let rounded = (value * scale).round() / scale;
    if rounded == 0.0 { 0.0 } else { rounded }
}
