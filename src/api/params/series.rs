//! API stage, the series request's parameters: `GET /api/v1/series`'s
//! checked arguments (its rows of the parameter table) read into a
//! [`SeriesQuery`], with the rules the rows cannot state: `ids` with their
//! `:mode` and `:aggregation` suffixes, dates, a collapse finer than the
//! monthly series, a separator equal to the decimal mark.

use super::check::Args;
use crate::api::error::ApiError;
use crate::api::problem::Problem;
use crate::api::query::Given;
use crate::api::series::{AGGREGATIONS, Asked, DEFAULT_ROWS, MAX_IDS, MODES, SeriesQuery};

/// Reads a request's checked arguments (`api::params`' rows of the
/// operation) into a [`SeriesQuery`]; the rules the rows cannot state
/// (suffixes, dates, a collapse finer than a month) are 400s naming the
/// parameter.
pub fn series_query(mut args: Args) -> Result<SeriesQuery, ApiError> {
    let mut query = SeriesQuery::default();
    let mut problems: Vec<(&'static str, Problem)> = Vec::new();
    for (param, given) in args.values() {
        let choice = given.text_of_choice().unwrap_or_default();
        let text = given.text().unwrap_or_default();
        match param.name {
            "ids" => match asked_ids(given) {
                Ok(ids) => query.ids = ids,
                Err(problem) => problems.push(("ids", problem)),
            },
            "representation_mode" => query.mode = choice,
            "collapse" => match choice {
                "day" | "week" => problems.push(("collapse", Problem::FinerThanMonthly)),
                "quarter" => query.months_per_period = 3,
                "semester" => query.months_per_period = 6,
                "year" => query.months_per_period = 12,
                _ => query.months_per_period = 1,
            },
            "collapse_aggregation" => query.aggregation = choice,
            "start_date" | "end_date" => {
                let is_end = param.name == "end_date";
                match date_bound(&text, is_end) {
                    Some(month) if is_end => query.end = Some(month),
                    Some(month) => query.start = Some(month),
                    None => problems.push((param.name, Problem::SeriesDate)),
                }
            }
            "format" => query.csv = choice == "csv",
            "header" => query.header = choice,
            "sort" => query.descending = choice == "desc",
            "limit" => query.limit = given.integer().unwrap_or(DEFAULT_ROWS),
            "start" => query.offset = given.integer().unwrap_or(0),
            "decimal" => query.decimal = if choice == "," { ',' } else { '.' },
            "sep" => query.sep = text.chars().next().unwrap_or(','),
            "metadata" => query.metadata = choice,
            _ => {}
        }
    }
    if query.csv && query.sep == query.decimal && query.decimal == ',' {
        problems.push(("sep", Problem::SameAsDecimal));
    }
    for (name, problem) in problems {
        args.fail(name, problem);
    }
    args.finish(query)
}

/// The `ids` list: at most [`MAX_IDS`] pieces (split at literal commas,
/// each decoded: an encoded comma stays in its ID), each an id with
/// optional `:mode` and `:aggregation` suffixes in any order.
fn asked_ids(given: &Given) -> Result<Vec<Asked>, Problem> {
    let pieces: Vec<String> = match given {
        Given::Ids(ids) => ids.clone(),
        other => other.text().into_iter().collect(),
    };
    if pieces.is_empty() || pieces.len() > MAX_IDS || pieces.iter().any(String::is_empty) {
        return Err(Problem::SeriesCount { max: MAX_IDS });
    }
    // The same text twice asks nothing new (the OpenAPI document says the
    // items are unique); another mode of one series is another text.
    if let Some(twice) = pieces
        .iter()
        .enumerate()
        .find_map(|(at, id)| pieces[..at].contains(id).then_some(id))
    {
        return Err(Problem::DuplicateId(twice.clone()));
    }
    Ok(pieces
        .into_iter()
        .map(|written| {
            let mut id = written.as_str();
            let (mut mode, mut aggregation) = (None, None);
            // Suffixes come off the end while they are known words, so an
            // ID with a colon of its own keeps it.
            while let Some((head, tail)) = id.rsplit_once(':') {
                if let (None, Some(known)) = (mode, MODES.iter().find(|m| **m == tail)) {
                    mode = Some(*known);
                } else if let (None, Some(known)) =
                    (aggregation, AGGREGATIONS.iter().find(|a| **a == tail))
                {
                    aggregation = Some(*known);
                } else {
                    break;
                }
                id = head;
            }
            Asked {
                id: id.to_owned(),
                written: written.clone(),
                mode,
                aggregation,
            }
        })
        .collect())
}

/// `AAAA`, `AAAA-MM` or `AAAA-MM-DD` as the first (or, for an end, the
/// last) month it covers.
fn date_bound(text: &str, is_end: bool) -> Option<(i32, u32)> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = text.split('-').collect();
    let year: i32 = parts.first().filter(|y| digits(y, 4))?.parse().ok()?;
    match parts.as_slice() {
        [_] => Some((year, if is_end { 12 } else { 1 })),
        [_, month] | [_, month, _] if digits(month, 2) => {
            let month: u32 = month.parse().ok()?;
            if let [_, _, day] = parts.as_slice() {
                let day: u32 = day.parse().ok().filter(|_| digits(day, 2))?;
                chrono::NaiveDate::from_ymd_opt(year, month, day)?;
            }
            (1..=12).contains(&month).then_some((year, month))
        }
        _ => None,
    }
}
