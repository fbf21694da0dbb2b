//! Market stage, the report's rows as published: a group, an index row and
//! a dealers-against-the-catalogue row, with the share and the median they
//! are figured with.

use crate::api::types::report::{DealerRow, Group, GroupKind, IndexRow};
use crate::market::dealers::Side;
use crate::market::index::{Figures, round2};

/// A group.
pub(super) fn group(kind: GroupKind, value: Option<&str>) -> Group {
    Group {
        kind,
        value: value.map(str::to_owned),
    }
}

/// An index row as published.
pub(super) fn index_row(group: &Group, currency: &str, n: usize, figures: Figures) -> IndexRow {
    IndexRow {
        group: group.clone(),
        currency: currency.to_owned(),
        n,
        change_pct: figures.change_pct.map(round2),
        ytd_pct: figures.ytd_pct.map(round2),
        yoy_pct: figures.yoy_pct.map(round2),
        level: figures.level.map(round2),
    }
}

/// A dealers-against-the-catalogue row of a group's compared quotes.
pub(super) fn dealer_row(group: Group, mut gaps: Vec<(Side, f64)>) -> DealerRow {
    let count = |side: Side| gaps.iter().filter(|(s, _)| *s == side).count();
    let quotes = gaps.len();
    let (below, at, above) = (count(Side::Below), count(Side::At), count(Side::Above));
    let mut values: Vec<f64> = gaps.drain(..).map(|(_, gap)| gap).collect();
    DealerRow {
        group,
        quotes,
        below_pct: share(below, quotes),
        at_pct: share(at, quotes),
        above_pct: share(above, quotes),
        median_gap_pct: (!values.is_empty()).then(|| round2(median(&mut values))),
    }
}

/// `part` of `whole` in percent, rounded; `None` of nothing.
pub(super) fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| round2(part as f64 * 100.0 / whole as f64))
}

/// The median of non-empty `values` (the mean of the middle two for an
/// even count).
pub(super) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}
