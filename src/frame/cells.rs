//! Table encoding, the cells: a column's values by type, texts in one
//! buffer.

/// Text cells in one buffer: a table of millions of short texts (IDs,
/// colours) holds their bytes and one offset each, not a heap allocation
/// per cell. The layout is Arrow's, so Parquet takes it without a copy.
#[derive(Debug, Clone, PartialEq)]
pub struct TextCells {
    pub(super) bytes: String,
    /// `offsets[i]..offsets[i + 1]` is cell `i`; starts with 0.
    pub(super) offsets: Vec<i64>,
    /// Whether each cell has a value (a missing one is empty in `bytes`).
    pub(super) present: Vec<bool>,
}

impl Default for TextCells {
    fn default() -> Self {
        TextCells {
            bytes: String::new(),
            offsets: vec![0],
            present: Vec::new(),
        }
    }
}

impl TextCells {
    /// Appends a cell.
    pub fn push(&mut self, cell: Option<&str>) {
        if let Some(text) = cell {
            self.bytes.push_str(text);
        }
        self.offsets.push(self.bytes.len() as i64);
        self.present.push(cell.is_some());
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.present.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.present.is_empty()
    }

    /// Cell `index`.
    pub fn get(&self, index: usize) -> Option<&str> {
        self.present[index].then(|| {
            let (start, end) = (self.offsets[index], self.offsets[index + 1]);
            &self.bytes[start as usize..end as usize]
        })
    }

    /// Every cell, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<&str>> + '_ {
        (0..self.len()).map(|index| self.get(index))
    }
}

impl<S: AsRef<str>> FromIterator<Option<S>> for TextCells {
    fn from_iter<I: IntoIterator<Item = Option<S>>>(cells: I) -> Self {
        let cells = cells.into_iter();
        let mut text = TextCells::default();
        text.offsets.reserve(cells.size_hint().0);
        text.present.reserve(cells.size_hint().0);
        for cell in cells {
            text.push(cell.as_ref().map(AsRef::as_ref));
        }
        text
    }
}

/// The cells of one column, by logical type; `None` is an empty cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// UTF-8 text.
    Text(TextCells),
    /// Signed integers.
    Integer(Vec<Option<i64>>),
    /// Floating-point numbers.
    Number(Vec<Option<f64>>),
    /// Booleans.
    Boolean(Vec<Option<bool>>),
    /// UTC instants in whole seconds since 1970 (RFC 3339 text in CSV, a
    /// UTC timestamp in Parquet).
    Time(Vec<Option<i64>>),
    /// Calendar days since 1970-01-01 (`2026-11-16` in CSV, a date in Parquet).
    Date(Vec<Option<i32>>),
}

impl Cells {
    /// Number of cells.
    pub fn len(&self) -> usize {
        match self {
            Cells::Text(v) => v.len(),
            Cells::Integer(v) | Cells::Time(v) => v.len(),
            Cells::Number(v) => v.len(),
            Cells::Boolean(v) => v.len(),
            Cells::Date(v) => v.len(),
        }
    }

    /// Whether the column has no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
