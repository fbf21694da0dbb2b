//! Snapshot stage, the optional `cpi` table (`data/README.md`): a consumer
//! price index by calendar month, which the market report sets beside the
//! prices. Without the table nothing about inflation is said anywhere.

use std::path::Path;

use anyhow::Result;

use super::model::CpiMonth;
use super::table::{Need, Table};
use crate::month::ArMonth;

/// The `cpi` table of `dir`, ascending by month; empty when the snapshot
/// has none. A malformed or repeated month is an error naming its row.
pub(super) fn load_cpi(dir: &Path) -> Result<Vec<CpiMonth>> {
    let present = ["cpi.parquet", "cpi.csv"]
        .iter()
        .any(|file| dir.join(file).is_file())
        || dir.join("cpi").is_dir();
    if !present {
        return Ok(Vec::new());
    }
    let table = Table::read(dir, "cpi")?;
    let months = table.text("month")?;
    let values = table.positives("value", Need::Required)?;
    let sources = table.text("source")?;
    let mut rows: Vec<(CpiMonth, usize)> = Vec::with_capacity(months.len());
    for (index, ((month, value), source)) in months.into_iter().zip(values).zip(sources).enumerate()
    {
        let text = month.unwrap_or_default();
        let month = ArMonth::parse(&text).ok_or_else(|| {
            table.cell_error(
                index,
                "month",
                format!("{text:?} is not a month written AAAA-MM"),
            )
        })?;
        let value = value.ok_or_else(|| table.cell_error(index, "value", "empty"))?;
        rows.push((
            CpiMonth {
                month,
                value,
                source,
            },
            index,
        ));
    }
    rows.sort_by_key(|(row, _)| row.month);
    if let Some(pair) = rows
        .windows(2)
        .find(|pair| pair[0].0.month == pair[1].0.month)
    {
        let (month, first, again) = (pair[0].0.month.label(), pair[0].1 + 1, pair[1].1);
        return Err(table.cell_error(
            again,
            "month",
            format!("month {month} repeated (first at row {first})"),
        ));
    }
    Ok(rows.into_iter().map(|(row, _)| row).collect())
}
