//! Signals stage, the usual range: the 25th and 75th percentiles of the same
//! weekly averages the usual price is the median of, by linear
//! interpolation between order statistics (the value at position
//! `p × (n − 1)` of the sorted averages, numpy's default), decided exactly
//! and rounded to the cent as published. Only with sufficient history: a
//! range of two weeks would say nothing a buyer could trust.

use crate::signals::exact::{self, Exact};

/// The `quarter`-th quartile (1: the 25th percentile, 3: the 75th) of
/// `sorted`, values in ascending order; `None` when empty.
fn quartile(sorted: &[&Exact], quarter: usize) -> Option<Exact> {
    let last = sorted.len().checked_sub(1)?;
    // Position quarter × last / 4: an index and a remainder in quarters.
    let (at, rem) = ((quarter * last) / 4, (quarter * last) % 4);
    let low = sorted[at];
    Some(match sorted.get(at + 1) {
        Some(high) if rem > 0 => {
            let rem = i64::try_from(rem).unwrap_or(0);
            low + &((*high - low) * exact::ratio(rem, 4))
        }
        _ => low.clone(),
    })
}

/// The 25th and 75th percentiles of `values`, each rounded to the cent.
/// The values are sorted once for both: comparing two rationals is the
/// costly part of a version's signals.
pub fn usual_range<'a>(values: impl Iterator<Item = &'a Exact>) -> Option<(f64, f64)> {
    let mut sorted: Vec<&Exact> = values.collect();
    sorted.sort_unstable();
    let low = quartile(&sorted, 1)?;
    let high = quartile(&sorted, 3)?;
    Some((exact::cents(&low), exact::cents(&high)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(values: &[i64]) -> Option<(f64, f64)> {
        let values: Vec<Exact> = values.iter().map(|v| exact::whole(*v)).collect();
        usual_range(values.iter())
    }

    #[test]
    fn quartiles_interpolate_between_order_statistics() {
        // Six weeks: positions 1.25 and 3.75 of the sorted values.
        // 10, 20, 30, 40, 50, 60 -> 20 + 0.25 × 10 = 22.5; 40 + 0.75 × 10 = 47.5
        assert_eq!(range(&[60, 10, 40, 20, 50, 30]), Some((22.5, 47.5)));
        // Seven weeks: positions 1.5 and 4.5.
        // 10..70 -> 20 + 0.5 × 10 = 25; 50 + 0.5 × 10 = 55
        assert_eq!(range(&[70, 10, 60, 20, 50, 30, 40]), Some((25.0, 55.0)));
        // Twenty-six weeks 1..=26: positions 6.25 and 18.75 -> 7.25, 19.75.
        let weeks: Vec<i64> = (1..=26).rev().collect();
        assert_eq!(range(&weeks), Some((7.25, 19.75)));
        // Five weeks: positions 1 and 3, exactly order statistics.
        assert_eq!(range(&[5, 1, 4, 2, 3]), Some((2.0, 4.0)));
        // One value is its own range; none has none.
        assert_eq!(range(&[42]), Some((42.0, 42.0)));
        assert_eq!(range(&[]), None);
    }

    #[test]
    fn a_range_is_rounded_only_when_published() {
        // A quarter and three quarters of a cent: 1.0025 and 1.0075.
        let values = [exact::ratio(100, 100), exact::ratio(101, 100)];
        let (low, high) = usual_range(values.iter()).expect("range");
        assert_eq!(low, 1.0);
        assert_eq!(high, 1.01);
    }
}
