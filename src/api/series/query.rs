//! API stage, monthly series, the query: the parameters' bounds and
//! choices, the series asked (each with its own mode and aggregation if it
//! gives them), the checked request, and its one spelling, the edge's
//! cache key.

use std::fmt::Write;

/// Most series one request may ask for.
pub const MAX_IDS: usize = 20;
/// Most rows of one answer (`limit`'s bound).
pub const MAX_ROWS: u32 = 1000;
/// Rows of an answer when `limit` is not given.
pub const DEFAULT_ROWS: u32 = 100;

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

/// The defaults of every parameter, with no id: what a request that names
/// only its ids asks.
impl Default for SeriesQuery {
    fn default() -> Self {
        SeriesQuery {
            ids: Vec::new(),
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
