//! Market stage, the index: a group's month-on-month change as the
//! geometric mean of its matched versions' price relatives (Jevons), and
//! the chained level, the change since December and over twelve months.
//! The one threshold, [`MIN_MATCHED`] versions, is a count; the rest are
//! published floats.

use crate::api::types::report::Group;
use crate::month::ArMonth;

/// Fewer matched versions than this publish no number.
pub const MIN_MATCHED: usize = 5;

/// A group's link from one month to the next: its matched versions and,
/// with enough of them, the geometric mean of their relatives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    /// Versions priced in both months.
    pub n: usize,
    /// The geometric mean of their relatives; `None` under [`MIN_MATCHED`].
    pub relative: Option<f64>,
}

/// The link of `pairs` (last month's price, this month's).
pub fn jevons(pairs: impl Iterator<Item = (f64, f64)>) -> Link {
    let (mut n, mut logs) = (0usize, 0.0);
    for (before, now) in pairs {
        n += 1;
        logs += (now / before).ln();
    }
    Link {
        n,
        relative: (n >= MIN_MATCHED).then(|| (logs / n as f64).exp()),
    }
}

/// A group's published figures in one month, in percent (the level in
/// points).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Figures {
    /// Month-on-month change.
    pub change_pct: Option<f64>,
    /// Change since December.
    pub ytd_pct: Option<f64>,
    /// Change over the last twelve months.
    pub yoy_pct: Option<f64>,
    /// The chained level: 100 in the first month.
    pub level: Option<f64>,
}

/// The figures of each of `months` (consecutive) from each month's
/// relative to the month before (the first month's is ignored). A missing
/// relative breaks the chain: no level from that month on, and no change
/// since December or over twelve months that would cross it.
pub fn chain(months: &[ArMonth], relatives: &[Option<f64>]) -> Vec<Figures> {
    let product = |from: usize, to: usize| -> Option<f64> {
        (from..=to).try_fold(1.0, |product, k| Some(product * relatives[k]?))
    };
    let percent = |relative: f64| (relative - 1.0) * 100.0;
    let mut level = Some(100.0);
    months
        .iter()
        .enumerate()
        .map(|(i, month)| {
            if i == 0 {
                return Figures {
                    level,
                    ..Figures::default()
                };
            }
            level = level
                .zip(relatives[i])
                .map(|(level, relative)| level * relative);
            // The December before is `month.month` months back.
            let december = i.checked_sub(month.month as usize);
            Figures {
                change_pct: relatives[i].map(percent),
                ytd_pct: december.and_then(|d| product(d + 1, i)).map(percent),
                yoy_pct: i
                    .checked_sub(11)
                    .filter(|&k| k >= 1)
                    .and_then(|k| product(k, i))
                    .map(percent),
                level,
            }
        })
        .collect()
}

/// One group's index in one currency, every month.
pub struct GroupIndex {
    /// The versions it covers.
    pub group: Group,
    /// `ARS` or `USD`.
    pub currency: &'static str,
    /// Each month's link to the month before.
    pub links: Vec<Link>,
    /// Each month's published figures, unrounded.
    pub figures: Vec<Figures>,
    /// Whether any of its versions has a price in each month (in either
    /// currency): the months whose reports list it.
    pub priced: Vec<bool>,
}

/// Rounded to two decimals, as the JSON publishes; never negative zero.
pub fn round2(value: f64) -> f64 {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 { 0.0 } else { rounded }
}
