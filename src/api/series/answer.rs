//! API stage, monthly series, the answer's bytes: the JSON answer in the
//! national API's shape (its rows, their count and the series' metadata)
//! and its shape for the OpenAPI document, and the CSV answer with the
//! asked header, separator and decimal mark.

use std::borrow::Cow;
use std::fmt::Write;

use serde::Serialize;
use serde_json::{Value, json};

use super::query::{Asked, SeriesQuery};
use super::table::Series;

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

/// The JSON answer: the rows of the page and the count before paging
/// (but with `metadata=only`), then the metadata (but with
/// `metadata=none`), `source` among it with `metadata=full`.
pub(super) fn json(
    found: &[(&Asked, Cow<Series>)],
    page: &[(String, Vec<Option<f64>>)],
    count: usize,
    query: &SeriesQuery,
    source: &str,
) -> Vec<u8> {
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
        for (asked, series) in found {
            let mut field = json!({
                "id": asked.id,
                "title": series.title,
                "description": series.description,
                "units": series.units,
                "representation_mode": asked.mode.unwrap_or(query.mode),
                "collapse_aggregation": asked.aggregation.unwrap_or(query.aggregation),
            });
            if query.metadata == "full" {
                field["source"] = json!(source);
                field["license"] = json!("CC BY 4.0");
            }
            meta.push(json!({ "field": field }));
        }
        body.insert("meta".into(), Value::Array(meta));
    }
    let mut bytes =
        serde_json::to_vec(&Value::Object(body)).expect("invariant: JSON values serialize");
    bytes.push(b'\n');
    bytes
}

/// The CSV answer: `indice_tiempo` and one column per series, with the
/// asked separator and decimal mark; a field holding either is quoted.
pub(super) fn csv(
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
