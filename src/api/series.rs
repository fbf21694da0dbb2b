//! API stage, monthly series (`GET /api/v1/series`): the market report's
//! numbers as time series, asked for with the parameters and meanings of
//! the national time-series API (`ids` with `:mode` and `:aggregation`
//! suffixes, `representation_mode`, `collapse`, `collapse_aggregation`,
//! `start_date`, `end_date`, `format`, `header`, `sort`, `limit`, `start`,
//! `decimal`, `sep`, `metadata`), so that analysts' code and spreadsheets
//! written for it read ours. The series are computed by `generate` (the
//! same numbers as the reports) and answered from memory by the edge.

mod answer;
mod query;
mod rows;
mod table;

use crate::api::error::{ApiError, ErrorDetail};
use crate::api::problem::Problem;
use rows::rows;
use table::lookup;

/// Content type of a CSV answer.
pub use crate::headers::CSV;
pub use answer::SeriesAnswer;
pub use query::{
    AGGREGATIONS, Asked, COLLAPSES, DEFAULT_ROWS, MAX_IDS, MAX_ROWS, MODES, SeriesQuery,
};
pub use table::{Series, SeriesTable};

/// Answers a series request: its bytes and content type. An id the table
/// does not hold is a 400 naming it.
pub fn answer_series(
    table: &SeriesTable,
    query: &SeriesQuery,
) -> Result<(Vec<u8>, &'static str), ApiError> {
    let mut found = Vec::with_capacity(query.ids.len());
    let mut unknown = Vec::new();
    for asked in &query.ids {
        match lookup(table, &asked.id) {
            Some(series) => found.push((asked, series)),
            None => unknown.push(ErrorDetail::new(
                "ids",
                Problem::UnknownSeries(asked.written.clone()),
            )),
        }
    }
    if !unknown.is_empty() {
        unknown.dedup();
        return Err(ApiError::InvalidParameters(unknown));
    }
    let mut rows = rows(&found, &table.months, query);
    if query.descending {
        rows.reverse();
    }
    let count = rows.len();
    let page: Vec<_> = rows
        .into_iter()
        .skip(query.offset as usize)
        .take(query.limit as usize)
        .collect();
    if query.csv {
        return Ok((answer::csv(&found, &page, query).into_bytes(), CSV));
    }
    let bytes = answer::json(&found, &page, count, query, &table.source);
    Ok((bytes, crate::headers::JSON))
}

#[cfg(test)]
mod tests;
