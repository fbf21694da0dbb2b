//! API stage, parameter checks: one operation's arguments, from an HTTP query
//! string or from MCP's JSON object, checked against the parameter table
//! into [`Given`] values. Both ways share the table's bounds and the
//! [`Problem`] that rejects a value; only reading the raw value differs
//! (text that must parse, or a JSON value that must have the right type).

use serde_json::Value;

use crate::api::error::{ApiError, ErrorDetail};
use crate::api::params::table::{Given, Kind, Location, Param, params_of};
use crate::api::problem::Problem;
use crate::api::query::Operation;
use crate::api::text::{form_decode, percent_decode};

/// A value as it arrived, before its bounds are checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// Decoded HTTP text (any kind), a JSON string, or a page's decoded
    /// form value.
    Text(String),
    /// A JSON integer (fractionless numbers included).
    Integer(i64),
    /// A JSON number, or an amount a page read its own way (a peso budget).
    Number(f64),
    /// A JSON boolean.
    Boolean(bool),
    /// IDs: HTTP's split at literal commas, or MCP's array.
    Ids(Vec<String>),
}

/// The checked arguments of one call, with the problems found.
#[derive(Debug)]
pub struct Args {
    operation: Operation,
    values: Vec<(&'static Param, Given)>,
    details: Vec<ErrorDetail>,
    /// Where the bound problems (found in table order) start in `details`.
    bounds_from: usize,
}

impl Args {
    /// Reads an HTTP request: the raw path segment of the operation's path
    /// parameter, if it has one (percent-decoded: `+` stays), and the raw
    /// query string (form style: `&` between pairs, empty pairs skipped, the
    /// first `=` ends the name, `+` is a space). Bytes that are not UTF-8
    /// once decoded are an error rather than replaced.
    pub fn from_query(operation: Operation, path: Option<&str>, query: &str) -> Args {
        let mut raws: Vec<(&'static Param, Raw)> = Vec::new();
        let mut details = Vec::new();
        let in_path = params_of(operation).find(|param| param.location == Location::Path);
        if let (Some(param), Some(raw)) = (in_path, path) {
            match percent_decode(raw) {
                Some(value) => raws.push((param, Raw::Text(value))),
                None => details.push(ErrorDetail::new(param.name, Problem::NotUtf8)),
            }
        }
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (raw_name, raw_value) = match pair.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (pair, None),
            };
            let Some(name) = form_decode(raw_name) else {
                details.push(ErrorDetail::new(raw_name, Problem::NotUtf8));
                continue;
            };
            // A list of IDs is split before decoding, so an encoded comma
            // stays in its ID (its value is UTF-8 exactly when each piece
            // is: the pieces are cut at an ASCII comma).
            let is_ids = params_of(operation)
                .find(|param| param.name == name)
                .is_some_and(|param| matches!(param.kind, Kind::Ids { .. }));
            let raw = if is_ids {
                let ids: Option<Vec<String>> = raw_value.map_or(Some(Vec::new()), |raw| {
                    raw.split(',').map(form_decode).collect()
                });
                ids.map(Raw::Ids)
            } else {
                form_decode(raw_value.unwrap_or("")).map(Raw::Text)
            };
            let Some(raw) = raw else {
                details.push(ErrorDetail::new(name, Problem::NotUtf8));
                continue;
            };
            let Some(param) = query_param(operation, &name, &raws, &mut details) else {
                continue;
            };
            raws.push((param, raw));
        }
        details.dedup();
        Args::check(operation, raws, details)
    }

    /// Reads a site page's query, read once into decoded pairs with the
    /// page's own rules applied (peso budgets, deal kinds, blanks): each name
    /// looked up and each value checked as an HTTP query's would be, so a
    /// page is refused what the API refuses, without writing its pairs out
    /// as text to parse them again.
    pub fn from_pairs(operation: Operation, pairs: Vec<(String, Raw)>) -> Args {
        let mut raws: Vec<(&'static Param, Raw)> = Vec::new();
        let mut details = Vec::new();
        for (name, raw) in pairs {
            if let Some(param) = query_param(operation, &name, &raws, &mut details) {
                raws.push((param, raw));
            }
        }
        details.dedup();
        Args::check(operation, raws, details)
    }

    /// Reads MCP's JSON arguments (`None`: none sent). A value of the wrong
    /// JSON type is refused here with the problem its bounds would give;
    /// an item of `ids` that is not a string is its own detail (`ids[1]`).
    pub fn from_json(operation: Operation, args: Option<&serde_json::Map<String, Value>>) -> Args {
        let mut raws = Vec::new();
        let mut details = Vec::new();
        for (name, value) in args.into_iter().flatten() {
            let Some(param) = params_of(operation).find(|param| param.name == name) else {
                details.push(ErrorDetail::new(name.as_str(), Problem::Unknown));
                continue;
            };
            match json_raw(param, value, &mut details) {
                Some(raw) => raws.push((param, raw)),
                None => details.push(ErrorDetail::new(
                    name.as_str(),
                    wrong_type(param.kind, value),
                )),
            }
        }
        Args::check(operation, raws, details)
    }

    /// Checks the bounds of every value, in table order; a parameter with a
    /// problem already (repeated, not UTF-8, of the wrong type) is not
    /// checked again, nor called missing.
    fn check(
        operation: Operation,
        raws: Vec<(&'static Param, Raw)>,
        mut details: Vec<ErrorDetail>,
    ) -> Args {
        let mut values = Vec::with_capacity(raws.len());
        let bounds_from = details.len();
        for param in params_of(operation) {
            if details.iter().any(|detail| detail.path == param.name) {
                continue;
            }
            match raws.iter().find(|(given, _)| given.name == param.name) {
                Some((_, raw)) => match checked(param.kind, raw) {
                    Ok(given) => values.push((param, given)),
                    Err(problem) => details.push(ErrorDetail::new(param.name, problem)),
                },
                None if param.required => {
                    details.push(ErrorDetail::new(param.name, Problem::Required))
                }
                None => {}
            }
        }
        Args {
            operation,
            values,
            details,
            bounds_from,
        }
    }

    /// Every value given, with its row, in table order.
    pub fn values(&self) -> impl Iterator<Item = &(&'static Param, Given)> {
        self.values.iter()
    }

    /// Adds a problem found by a rule across the shared filters: reported
    /// after the filters' own bound problems, before the other parameters'.
    pub fn fail(&mut self, name: &str, problem: Problem) {
        if self.details.iter().any(|detail| detail.path == name) {
            return;
        }
        let operation = self.operation;
        let is_filter =
            |path: &str| params_of(operation).any(|param| param.name == path && param.is_filter());
        let at = self.details[self.bounds_from..]
            .iter()
            .position(|detail| !is_filter(&detail.path))
            .map_or(self.details.len(), |at| self.bounds_from + at);
        self.details.insert(at, ErrorDetail::new(name, problem));
    }

    /// `value` when no problem was found, else the 400 naming each.
    pub fn finish<T>(self, value: T) -> Result<T, ApiError> {
        if self.details.is_empty() {
            Ok(value)
        } else {
            Err(ApiError::InvalidParameters(self.details))
        }
    }
}

/// The query parameter `name` of `operation`, when it takes one not given
/// already; else the problem, added to `details`.
fn query_param(
    operation: Operation,
    name: &str,
    raws: &[(&'static Param, Raw)],
    details: &mut Vec<ErrorDetail>,
) -> Option<&'static Param> {
    let found =
        params_of(operation).find(|param| param.name == name && param.location == Location::Query);
    let Some(param) = found else {
        details.push(ErrorDetail::new(name, Problem::Unknown));
        return None;
    };
    if raws.iter().any(|(taken, _)| taken.name == param.name) {
        details.push(ErrorDetail::new(name, Problem::Repeated));
        return None;
    }
    Some(param)
}

/// What a wrong JSON type of `kind` is told.
fn wrong_type(kind: Kind, value: &Value) -> Problem {
    let expected = match kind {
        Kind::Text { .. } | Kind::Choice { .. } => "a JSON string",
        Kind::Integer { .. } => "a JSON integer",
        Kind::Number { .. } => "a JSON number",
        Kind::Boolean => "a JSON boolean",
        Kind::Ids { min, max } => return Problem::IdArray { min, max },
    };
    let given = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("the boolean {flag}"),
        Value::Number(number) => format!("the number {number}"),
        Value::String(text) => format!("the string {}", Value::String(text.clone())),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    };
    Problem::JsonType { expected, given }
}

/// A JSON value of the type `param` takes; `None` when it has another type.
fn json_raw(param: &Param, value: &Value, details: &mut Vec<ErrorDetail>) -> Option<Raw> {
    Some(match (param.kind, value) {
        (Kind::Text { .. } | Kind::Choice { .. }, Value::String(text)) => Raw::Text(text.clone()),
        // Identity text that agents and clients send as a number (models
        // such as 208, 2008 or 500; numeric IDs): its decimal text. Only
        // free text is so forgiving; a choice stays exact.
        (Kind::Text { .. }, Value::Number(number)) => Raw::Text(number.to_string()),
        (Kind::Integer { .. }, Value::Number(number)) => Raw::Integer(
            number
                .as_i64()
                .or_else(|| number.as_u64().map(|_| i64::MAX))
                .or_else(|| {
                    let float = number.as_f64()?;
                    // `20.0` is the integer 20, as in JSON Schema.
                    (float.fract() == 0.0).then_some(float as i64)
                })?,
        ),
        (Kind::Number { .. }, Value::Number(number)) => Raw::Number(number.as_f64()?),
        (Kind::Boolean, Value::Bool(flag)) => Raw::Boolean(*flag),
        (Kind::Ids { .. }, Value::Array(items)) => {
            let mut ids = Vec::with_capacity(items.len());
            for (position, item) in items.iter().enumerate() {
                match item {
                    Value::String(id) => ids.push(id.clone()),
                    _ => {
                        let path = format!("{}[{position}]", param.name);
                        details.push(ErrorDetail::new(path, Problem::NotText));
                    }
                }
            }
            Raw::Ids(ids)
        }
        _ => return None,
    })
}

/// The problem of a value out of `kind`'s bounds.
fn bounds(kind: Kind) -> Problem {
    match kind {
        Kind::Text { min, max } => Problem::TextLength { min, max },
        Kind::Integer { min, max, .. } => Problem::IntegerRange { min, max },
        Kind::Number { min, max } => Problem::NumberRange { min, max },
        Kind::Boolean => Problem::Boolean,
        Kind::Choice { values, .. } => Problem::OneOf(values),
        Kind::Ids { .. } => wrong_type(kind, &Value::Null),
    }
}

/// A raw value checked against `kind`: the same rule for HTTP text and for
/// the JSON value of the matching type.
fn checked(kind: Kind, raw: &Raw) -> Result<Given, Problem> {
    let given = match (kind, raw) {
        (Kind::Text { min, max }, Raw::Text(text)) => {
            let chars = text.chars().count();
            (min..=max)
                .contains(&chars)
                .then(|| Given::Text(text.clone()))
        }
        (Kind::Integer { min, max, .. }, raw) => {
            let value = match raw {
                Raw::Integer(value) => Some(*value),
                Raw::Text(text) => integer_text(text),
                _ => None,
            };
            value
                .and_then(|value| u32::try_from(value).ok())
                .filter(|value| (min..=max).contains(value))
                .map(Given::Integer)
        }
        (Kind::Number { min, max }, raw) => {
            let value = match raw {
                Raw::Number(value) => Some(*value),
                Raw::Text(text) => number_text(text),
                _ => None,
            };
            value
                .filter(|n| n.is_finite() && *n >= min && max.is_none_or(|max| *n <= max))
                .map(Given::Number)
        }
        (Kind::Boolean, Raw::Boolean(flag)) => Some(Given::Boolean(*flag)),
        (Kind::Boolean, Raw::Text(text)) => match text.as_str() {
            "true" => Some(Given::Boolean(true)),
            "false" => Some(Given::Boolean(false)),
            _ => None,
        },
        (Kind::Choice { values, .. }, Raw::Text(text)) => values
            .iter()
            .find(|value| **value == text)
            .map(|value| Given::Choice(value)),
        (Kind::Ids { .. }, Raw::Ids(ids)) => Some(Given::Ids(ids.clone())),
        _ => None,
    };
    given.ok_or_else(|| bounds(kind))
}

/// Plain decimal digits (at most nine, so they fit), as HTTP sends an integer.
fn integer_text(text: &str) -> Option<i64> {
    let digits = !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

/// A plain decimal number (digits, point, sign; no exponent, `NaN` or `inf`).
fn number_text(text: &str) -> Option<f64> {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    plain.then(|| text.parse().ok()).flatten()
}
