//! Snapshot stage, typed columns: each kind of cell the tables hold (text,
//! times, integers, numbers, booleans, vocabularies, and the bounded forms of
//! them the loader asks for), read the same from CSV text and Parquet
//! types, every rejection naming its file, row and column.

use anyhow::{Result, anyhow, bail};
use compact_str::CompactString;
use polars::prelude::{DataType, TimeUnit};

use super::table::{Need, Table};
use super::write::TableFormat;
use crate::time::{Time, parse_time};
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};

impl Table {
    /// A text column. Empty strings count as empty cells in both formats, so
    /// that CSV and Parquet snapshots of the same data load the same.
    pub(crate) fn strings(&self, name: &str, need: Need) -> Result<Vec<Option<String>>> {
        let cells = self.text(name)?;
        self.check_need(name, need, cells)
    }

    /// A text column of short values (quote IDs, colours), like
    /// [`Table::strings`] but kept inline where they fit.
    pub(crate) fn short_strings(
        &self,
        name: &str,
        need: Need,
    ) -> Result<Vec<Option<CompactString>>> {
        let cells = match self.native(name, "a string", |dtype| *dtype == DataType::String)? {
            None => vec![None; self.height()],
            Some(column) => column
                .str()?
                .iter()
                .map(|cell| {
                    cell.filter(|text| !text.is_empty())
                        .map(CompactString::from)
                })
                .collect(),
        };
        self.check_need(name, need, cells)
    }

    /// A time column: RFC 3339 text converted to UTC, or in Parquet a
    /// timestamp with a time zone (an instant, as `/datos` publishes times).
    /// Rows of one check repeat the same text, so the last parse is reused.
    pub(crate) fn times(&self, name: &str, need: Need) -> Result<Vec<Option<Time>>> {
        if self.format == TableFormat::Parquet
            && let DataType::Datetime(unit, zone) = self.column(name)?.dtype()
        {
            if zone.is_none() {
                bail!(
                    "{}: column \"{name}\": wrong type: expected an RFC 3339 string or a timestamp with a time zone, found a timestamp without one",
                    self.file
                );
            }
            let per_second: i64 = match unit {
                TimeUnit::Milliseconds => 1_000,
                TimeUnit::Microseconds => 1_000_000,
                TimeUnit::Nanoseconds => 1_000_000_000,
            };
            let column = self.column(name)?.datetime()?;
            let cells = self.convert(name, column.physical().iter().collect(), |ticks| {
                let (seconds, rest) = (ticks.div_euclid(per_second), ticks.rem_euclid(per_second));
                let nanos = u32::try_from(rest * (1_000_000_000 / per_second)).ok();
                nanos
                    .and_then(|nanos| chrono::DateTime::from_timestamp(seconds, nanos))
                    .ok_or_else(|| format!("timestamp {ticks} is out of range"))
            })?;
            return self.check_need(name, need, cells);
        }
        let last: std::cell::RefCell<Option<(String, Option<Time>)>> = Default::default();
        let cells = self.parse_text(name, "an RFC 3339 time", |text| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some((previous, time)) if previous == text => *time,
                _ => {
                    let time = parse_time(text);
                    *last = Some((text.to_owned(), time));
                    time
                }
            }
        })?;
        self.check_need(name, need, cells)
    }

    /// Maps every cell of a required text column through `lookup` (such as a
    /// version ID to its position) without copying the text; a cell that
    /// `lookup` rejects is an error naming its row.
    pub(crate) fn lookups(
        &self,
        name: &str,
        mut lookup: impl FnMut(&str) -> Option<usize>,
        rejected: impl Fn(&str) -> String,
    ) -> Result<Vec<usize>> {
        let column = self.column(name)?;
        if *column.dtype() != DataType::String {
            bail!(
                "{}: column \"{name}\": wrong type: expected a string, found {}",
                self.file,
                column.dtype()
            );
        }
        let mut last: Option<(&str, usize)> = None;
        let mut out = Vec::with_capacity(self.height());
        for (index, cell) in column.str()?.iter().enumerate() {
            let text = cell.filter(|text| !text.is_empty());
            let Some(text) = text else {
                return Err(self.cell_error(index, name, "empty cell in a required column"));
            };
            let found = match last {
                Some((previous, position)) if previous == text => Some(position),
                _ => lookup(text),
            };
            let Some(position) = found else {
                return Err(self.cell_error(index, name, rejected(text)));
            };
            last = Some((text, position));
            out.push(position);
        }
        Ok(out)
    }

    /// An integer column: any Parquet integer type, or decimal digits in CSV.
    pub(crate) fn integers(&self, name: &str, need: Need) -> Result<Vec<Option<i64>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "an integer", |text| text.parse().ok())?,
            TableFormat::Parquet => {
                match self.native(name, "an integer type", DataType::is_integer)? {
                    None => vec![None; self.height()],
                    Some(column) => {
                        let column = column.strict_cast(&DataType::Int64).map_err(|err| {
                            anyhow!(
                                "{}: column \"{name}\": integer out of range: {err}",
                                self.file
                            )
                        })?;
                        column.i64()?.iter().collect()
                    }
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A number column: any Parquet integer or floating type, or `.`-decimal
    /// text in CSV. Infinities and NaN are rejected in both formats.
    pub(crate) fn numbers(&self, name: &str, need: Need) -> Result<Vec<Option<f64>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "a number", |text| {
                text.parse::<f64>().ok().filter(|v| v.is_finite())
            })?,
            TableFormat::Parquet => {
                match self.native(name, "an integer or floating type", is_number)? {
                    None => vec![None; self.height()],
                    Some(column) => {
                        let column = column.cast(&DataType::Float64)?;
                        let cells: Vec<Option<f64>> = column.f64()?.iter().collect();
                        if let Some(index) =
                            cells.iter().position(|v| v.is_some_and(|v| !v.is_finite()))
                        {
                            return Err(self.cell_error(index, name, "expected a finite number"));
                        }
                        cells
                    }
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A boolean column: Parquet boolean, or `true` / `false` in CSV.
    pub(crate) fn booleans(&self, name: &str, need: Need) -> Result<Vec<Option<bool>>> {
        let cells = match self.format {
            TableFormat::Csv => self.parse_text(name, "true or false", |text| match text {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            })?,
            TableFormat::Parquet => {
                match self.native(name, "boolean", |dtype| *dtype == DataType::Boolean)? {
                    None => vec![None; self.height()],
                    Some(column) => column.bool()?.iter().collect(),
                }
            }
        };
        self.check_need(name, need, cells)
    }

    /// A column of one closed vocabulary (currency, fuel, ...), spelled exactly.
    pub(crate) fn vocab<E: Vocab>(&self, name: &str, need: Need) -> Result<Vec<Option<E>>> {
        let column = self.native(name, "a string", |dtype| *dtype == DataType::String)?;
        let Some(column) = column else {
            return self.check_need(name, need, (0..self.height()).map(|_| None).collect());
        };
        let mut cells = Vec::with_capacity(self.height());
        for (index, cell) in column.str()?.iter().enumerate() {
            let value = match cell.filter(|text| !text.is_empty()) {
                None => None,
                Some(text) => Some(E::parse(text).ok_or_else(|| {
                    let expected = E::names().join(", ");
                    self.cell_error(
                        index,
                        name,
                        format!("unknown value {text:?}, expected one of {expected}"),
                    )
                })?),
            };
            cells.push(value);
        }
        self.check_need(name, need, cells)
    }

    /// A text column of at most `max` characters (not bytes: any character is allowed).
    pub(crate) fn bounded_strings(
        &self,
        name: &str,
        need: Need,
        max: usize,
    ) -> Result<Vec<Option<String>>> {
        let cells = self.strings(name, need)?;
        self.convert(name, cells, |text| match text.chars().count() {
            chars if chars > max => Err(format!("{chars} characters, at most {max} allowed")),
            _ => Ok(text),
        })
    }

    /// A number column whose values must be positive (prices, exchange rates).
    pub(crate) fn positives(&self, name: &str, need: Need) -> Result<Vec<Option<f64>>> {
        let cells = self.numbers(name, need)?;
        self.convert(name, cells, |value| {
            if value > 0.0 {
                Ok(value)
            } else {
                Err(format!("expected a positive number, found \"{value}\""))
            }
        })
    }

    /// An integer column of counts (seats, airbags): non-negative.
    pub(crate) fn counts(&self, name: &str, need: Need) -> Result<Vec<Option<u32>>> {
        let cells = self.integers(name, need)?;
        self.convert(name, cells, |value| {
            u32::try_from(value)
                .map_err(|_| format!("expected a non-negative integer, found \"{value}\""))
        })
    }

    /// Converts every non-empty cell, naming the row of the first rejection.
    pub(crate) fn convert<T, U>(
        &self,
        name: &str,
        cells: Vec<Option<T>>,
        convert: impl Fn(T) -> Result<U, String>,
    ) -> Result<Vec<Option<U>>> {
        cells
            .into_iter()
            .enumerate()
            .map(|(index, cell)| {
                cell.map(&convert)
                    .transpose()
                    .map_err(|message| self.cell_error(index, name, message))
            })
            .collect()
    }
}

/// A closed vocabulary of `crate::vocab`, for [`Table::vocab`].
pub(crate) trait Vocab: Sized {
    /// Parses the canonical spelling exactly.
    fn parse(text: &str) -> Option<Self>;
    /// The canonical spellings, for messages.
    fn names() -> Vec<&'static str>;
}

macro_rules! vocab {
    ($($name:ty),+) => {$(
        impl Vocab for $name {
            fn parse(text: &str) -> Option<Self> {
                <$name>::parse(text)
            }
            fn names() -> Vec<&'static str> {
                <$name>::names()
            }
        }
    )+};
}

vocab!(Currency, BodyType, Fuel, Transmission, Drivetrain);

/// The values of a column read with [`Need::Required`], which has no empty cell.
pub(crate) fn filled<T>(cells: Vec<Option<T>>) -> Vec<T> {
    debug_assert!(
        cells.iter().all(Option::is_some),
        "filled() on a nullable column"
    );
    cells.into_iter().flatten().collect()
}

/// Parquet `number`: any integer or floating type.
fn is_number(dtype: &DataType) -> bool {
    dtype.is_integer() || dtype.is_float()
}
