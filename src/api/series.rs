//! API stage, monthly series (`GET /api/v1/series`): the market report's
//! numbers as time series, asked for with the parameters and meanings of
//! the national time-series API (`ids` with `:mode` and `:aggregation`
//! suffixes, `representation_mode`, `collapse`, `collapse_aggregation`,
//! `start_date`, `end_date`, `format`, `header`, `sort`, `limit`, `start`,
//! `decimal`, `sep`, `metadata`), so that analysts' code and spreadsheets
//! written for it read ours. The series are computed by `generate` (the
//! same numbers as the reports) and answered from memory by the edge.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::api::error::{ApiError, ErrorDetail};
use crate::api::problem::Problem;
use crate::api::text::slug;

/// Most series one request may ask for.
pub const MAX_IDS: usize = 20;
/// Most rows of one answer, and the default.
pub const MAX_ROWS: u32 = 1000;
/// Rows of an answer when `limit` is not given.
pub const DEFAULT_ROWS: u32 = 100;
/// Content type of a CSV answer.
pub use crate::headers::CSV;

/// Every monthly series of a publication.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesTable {
    /// Each month, `(year, month)`, consecutive, oldest first.
    pub months: Vec<(i32, u32)>,
    /// Each series by its id, but the versions'.
    pub series: BTreeMap<String, Series>,
    /// Each version's monthly price, pesos and dollars, by version ID (a
    /// version's series, `version.{id}.ars` and `.usd`, is named and
    /// described when it is asked for: tens of thousands of versions would
    /// otherwise hold their words in every edge).
    pub versions: BTreeMap<String, [Vec<Option<f64>>; 2]>,
    /// Where the numbers come from (the site), for the metadata.
    pub source: String,
}

/// One monthly series.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Short name, the CSV header with `header=titles`.
    pub title: String,
    /// What it measures, the header with `header=descriptions`.
    pub description: String,
    /// Its unit.
    pub units: String,
    /// Its value in each month, as published (rounded).
    pub values: Vec<Option<f64>>,
    /// An index's relative to the month before, each month: its
    /// `percent_change` is the report's own change, published even where
    /// the chained level is not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Option<f64>>,
}

/// The JSON answer's shape, for the OpenAPI document (the answer itself is
/// written as `serde_json` values, in the national API's shape).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(rename = "SeriesResponse", deny_unknown_fields)]
pub struct SeriesAnswer {
    /// The rows, absent with `metadata=only`: each the first day of its
    /// period (`AAAA-MM-DD`), then one value per id, in the order asked
    /// (null where a series has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Vec<Vec<Value>>>,
    /// Rows before paging, absent with `metadata=only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// Absent with `metadata=none`: the frequency and the dates of the rows
    /// given, then one `{"field": {id, title, description, units,
    /// representation_mode, collapse_aggregation}}` per id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Vec<Value>>,
}

/// `representation_mode`: what each value says.
pub const MODES: &[&str] = &[
    "value",
    "change",
    "percent_change",
    "change_a_year_ago",
    "percent_change_a_year_ago",
];
/// `collapse`: the frequency of the answer (the series are monthly).
pub const COLLAPSES: &[&str] = &["day", "week", "month", "quarter", "semester", "year"];
/// `collapse_aggregation`: how the months of a longer period become one value.
pub const AGGREGATIONS: &[&str] = &["avg", "sum", "end_of_period", "min", "max"];

/// One series asked for, with its own mode and aggregation if it gave them.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// As written (the CSV header with `header=ids`).
    pub written: String,
    /// The id without its suffixes.
    pub id: String,
    /// Its `:mode`, if given.
    pub mode: Option<&'static str>,
    /// Its `:aggregation`, if given.
    pub aggregation: Option<&'static str>,
}

/// A checked `GET /api/v1/series` request.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesQuery {
    /// The series, in the order asked.
    pub ids: Vec<Asked>,
    /// The mode of the series that give none.
    pub mode: &'static str,
    /// Months a period holds: 1, 3, 6 or 12.
    pub months_per_period: u32,
    /// The aggregation of the series that give none.
    pub aggregation: &'static str,
    /// The first month asked, `(year, month)`.
    pub start: Option<(i32, u32)>,
    /// The last month asked.
    pub end: Option<(i32, u32)>,
    /// CSV rather than JSON.
    pub csv: bool,
    /// `titles`, `ids` or `descriptions`.
    pub header: &'static str,
    /// Newest first.
    pub descending: bool,
    /// Rows.
    pub limit: u32,
    /// Rows skipped.
    pub offset: u32,
    /// The CSV's decimal separator.
    pub decimal: char,
    /// The CSV's field separator.
    pub sep: char,
    /// `none`, `simple`, `full` or `only`.
    pub metadata: &'static str,
}

impl SeriesQuery {
    /// Its own spelling of every field, one per query: two requests that
    /// parse alike have one (the edge's cache key). Each id as written,
    /// length first, so no text of one can read as another's.
    pub fn key(&self) -> String {
        let mut key =
            String::with_capacity(64 + self.ids.iter().map(|a| a.written.len() + 4).sum::<usize>());
        for asked in &self.ids {
            let _ = write!(key, "{}:{}", asked.written.len(), asked.written);
        }
        let _ = write!(
            key,
            "|{}|{}|{}|{:?}|{:?}|{}|{}|{}|{}|{}|{}|{}|{}",
            self.mode,
            self.months_per_period,
            self.aggregation,
            self.start,
            self.end,
            u8::from(self.csv),
            self.header,
            u8::from(self.descending),
            self.limit,
            self.offset,
            self.decimal,
            self.sep,
            self.metadata,
        );
        key
    }
}

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
    let periods = periods(&table.months, query.months_per_period);
    let columns: Vec<Vec<Option<f64>>> = found
        .iter()
        .map(|(asked, series)| column(series, &periods, query, asked, &table.months))
        .collect();
    // Whether a period holds a value of any series asked, before its mode:
    // a series' rows run from its first value to its last (a change from
    // the month before has none in the first, and is null there).
    let held: Vec<bool> = periods
        .iter()
        .map(|period| {
            found.iter().any(|(_, series)| {
                period.months.iter().any(|month| {
                    let at = table.months.binary_search(month).ok();
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
    let mut rows: Vec<(String, Vec<Option<f64>>)> = rows
        .into_iter()
        .map(|(_, date, values)| (date, values))
        .collect();
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
        return Ok((csv(&found, &page, query).into_bytes(), CSV));
    }
    let frequency = match query.months_per_period {
        12 => "year",
        6 => "semester",
        3 => "quarter",
        _ => "month",
    };
    let mut body = serde_json::Map::new();
    if query.metadata != "only" {
        let data: Vec<Value> = page
            .iter()
            .map(|(date, values)| {
                let mut row = vec![json!(date)];
                row.extend(values.iter().map(|v| json!(v)));
                Value::Array(row)
            })
            .collect();
        body.insert("data".into(), Value::Array(data));
        body.insert("count".into(), json!(count));
    }
    if query.metadata != "none" {
        let mut meta = vec![json!({
            "frequency": frequency,
            "start_date": page.first().map(|row| &row.0),
            "end_date": page.last().map(|row| &row.0),
        })];
        for (asked, series) in &found {
            let mut field = json!({
                "id": asked.id,
                "title": series.title,
                "description": series.description,
                "units": series.units,
                "representation_mode": asked.mode.unwrap_or(query.mode),
                "collapse_aggregation": asked.aggregation.unwrap_or(query.aggregation),
            });
            if query.metadata == "full" {
                field["source"] = json!(table.source);
                field["license"] = json!("CC BY 4.0");
            }
            meta.push(json!({ "field": field }));
        }
        body.insert("meta".into(), Value::Array(meta));
    }
    let mut bytes =
        serde_json::to_vec(&Value::Object(body)).expect("invariant: JSON values serialize");
    bytes.push(b'\n');
    Ok((bytes, crate::headers::JSON))
}

/// The series of `id`: exactly, or an index of a make or a body type whose
/// name is spelt another way (`Citroën`, `citroen`: the ids are slugs).
fn lookup<'a>(table: &'a SeriesTable, id: &str) -> Option<Cow<'a, Series>> {
    if let Some(series) = table.series.get(id) {
        return Some(Cow::Borrowed(series));
    }
    if let Some(version) = id.strip_prefix("version.") {
        let (version, currency) = version.rsplit_once('.')?;
        let (at, unit, words) = match currency {
            "ars" => (0, "Pesos", "pesos"),
            "usd" => (1, "Dólares", "dólares"),
            _ => return None,
        };
        let values = table.versions.get(version)?[at].clone();
        return Some(Cow::Owned(Series {
            title: format!("precio_{}_{}", slug(version).replace('-', "_"), currency),
            description: format!(
                "Precio mensual de concesionaria de la versión {version} (promedio ponderado por tiempo), en {words}"
            ),
            units: unit.to_owned(),
            values,
            links: Vec::new(),
        }));
    }
    let (group, rest) = id
        .strip_prefix("indice.marca.")
        .map(|r| ("indice.marca.", r))
        .or_else(|| id.strip_prefix("indice.tipo.").map(|r| ("indice.tipo.", r)))?;
    let (name, currency) = rest.rsplit_once('.')?;
    table
        .series
        .get(&format!(
            "{group}{}.{}",
            slug(name),
            currency.to_ascii_lowercase()
        ))
        .map(Cow::Borrowed)
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

/// The CSV answer: `indice_tiempo` and one column per series, with the
/// asked separator and decimal mark; a field holding either is quoted.
fn csv(
    found: &[(&Asked, Cow<Series>)],
    rows: &[(String, Vec<Option<f64>>)],
    query: &SeriesQuery,
) -> String {
    let sep = query.sep;
    let field = |text: &str| {
        if text.contains(sep) || text.contains('"') || text.contains('\n') {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_owned()
        }
    };
    let mut out = String::from("indice_tiempo");
    for (asked, series) in found {
        let name = match query.header {
            "ids" => &asked.written,
            "descriptions" => &series.description,
            _ => &series.title,
        };
        out.push(sep);
        out.push_str(&field(name));
    }
    out.push('\n');
    for (date, values) in rows {
        out.push_str(date);
        for value in values {
            out.push(sep);
            if let Some(value) = value {
                let text = format!("{value}");
                let text = if query.decimal == ',' {
                    text.replace('.', ",")
                } else {
                    text
                };
                let _ = write!(out, "{}", field(&text));
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(written: &str) -> Asked {
        Asked {
            written: written.to_owned(),
            id: written.split(':').next().unwrap_or_default().to_owned(),
            mode: None,
            aggregation: None,
        }
    }

    fn query(ids: &[&str]) -> SeriesQuery {
        SeriesQuery {
            ids: ids.iter().map(|id| asked(id)).collect(),
            mode: "value",
            months_per_period: 1,
            aggregation: "avg",
            start: None,
            end: None,
            csv: false,
            header: "titles",
            descending: false,
            limit: DEFAULT_ROWS,
            offset: 0,
            decimal: '.',
            sep: ',',
            metadata: "simple",
        }
    }

    #[test]
    fn a_query_has_one_key_and_every_field_changes_it() {
        let base = query(&["indice.ars", "dolar"]);
        assert_eq!(base.key(), query(&["indice.ars", "dolar"]).key());
        let changed: Vec<SeriesQuery> = vec![
            query(&["dolar", "indice.ars"]),
            query(&["indice.ars"]),
            // The ids' texts cannot run into each other.
            query(&["indice.ars1:", "dolar"]),
            SeriesQuery {
                mode: "change",
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                months_per_period: 3,
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                aggregation: "sum",
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                start: Some((2026, 1)),
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                end: Some((2026, 1)),
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                csv: true,
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                header: "ids",
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                descending: true,
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                limit: 5,
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                offset: 5,
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                decimal: ',',
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                sep: ';',
                ..query(&["indice.ars", "dolar"])
            },
            SeriesQuery {
                metadata: "full",
                ..query(&["indice.ars", "dolar"])
            },
        ];
        let mut keys: Vec<String> = changed.iter().map(SeriesQuery::key).collect();
        keys.push(base.key());
        let count = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), count, "every field is in the key");
    }
}
