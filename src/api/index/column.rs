//! API stage, index column: a numeric fact (price, seats, airbags,
//! discount) sorted by value, answering a bound or a range as the set of
//! versions inside it for the shared search filters.

use fixedbitset::FixedBitSet;

/// Ranks between two of a [`Column`]'s stored sets of the lowest ranks.
const STEP: usize = 512;

/// A numeric field of the facts sorted by value: positions in ascending
/// order of the value (ties by position), for the versions whose value is
/// known, and every [`STEP`]th set of the lowest ranks, so that a range's
/// set is two stored sets and at most half a step of single positions, not
/// one insertion per selected version.
#[derive(Debug, Clone)]
pub struct Column {
    values: Vec<f64>,
    positions: Vec<u32>,
    /// `lowest[k]`: the positions of the `k * STEP` lowest ranks (all of
    /// them for the last).
    lowest: Vec<FixedBitSet>,
}

impl Column {
    /// Sorts each version's value, in position order (`None` when unknown).
    pub fn new(values: impl ExactSizeIterator<Item = Option<f64>>) -> Column {
        let len = values.len();
        let mut known: Vec<(f64, u32)> = values
            .zip(0..)
            .filter_map(|(value, position)| value.map(|value| (value, position)))
            .collect();
        known.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let positions: Vec<u32> = known.iter().map(|(_, position)| *position).collect();
        let mut lowest = vec![FixedBitSet::with_capacity(len)];
        for step in positions.chunks(STEP) {
            let mut next = lowest[lowest.len() - 1].clone();
            next.extend(step.iter().map(|p| *p as usize));
            lowest.push(next);
        }
        Column {
            values: known.iter().map(|(value, _)| *value).collect(),
            positions,
            lowest,
        }
    }

    /// The versions whose value is at least `min` and at most `max`.
    pub fn between(&self, min: Option<f64>, max: Option<f64>) -> FixedBitSet {
        let start = min.map_or(0, |min| self.values.partition_point(|value| *value < min));
        let end = max.map_or(self.values.len(), |max| {
            self.values.partition_point(|value| *value <= max)
        });
        let mut set = self.below(end.max(start));
        if start > 0 {
            set.difference_with(&self.below(start));
        }
        set
    }

    /// The positions of the `rank` lowest ranks: the nearest stored set,
    /// with the ranks between it and `rank` added or taken away.
    fn below(&self, rank: usize) -> FixedBitSet {
        let stored = ((rank + STEP / 2) / STEP).min(self.lowest.len() - 1);
        let mut set = self.lowest[stored].clone();
        let at = (stored * STEP).min(self.positions.len());
        if at < rank {
            set.extend(self.positions[at..rank].iter().map(|p| *p as usize));
        } else {
            for position in &self.positions[rank..at] {
                set.remove(*position as usize);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions whose value lies in the bounds, by a pass over them.
    fn by_hand(values: &[Option<f64>], min: Option<f64>, max: Option<f64>) -> Vec<usize> {
        values
            .iter()
            .enumerate()
            .filter(|(_, value)| {
                value.is_some_and(|v| {
                    min.is_none_or(|min| v >= min) && max.is_none_or(|max| v <= max)
                })
            })
            .map(|(position, _)| position)
            .collect()
    }

    #[test]
    fn a_range_is_the_versions_inside_it_at_every_rank_around_a_stored_set() {
        // Three steps and a half of versions, a tenth with no value, values
        // repeated (ties are ordered by position), so that the ranks of the
        // bounds fall on, before and after each stored set.
        let values: Vec<Option<f64>> = (0..STEP * 7 / 2)
            .map(|i| (i % 10 != 3).then(|| ((i * 7919) % 1000) as f64 / 4.0))
            .collect();
        let column = Column::new(values.iter().copied());
        let mut known: Vec<f64> = values.iter().flatten().copied().collect();
        known.sort_by(f64::total_cmp);
        let mut bounds: Vec<Option<f64>> = vec![None, Some(-1.0), Some(1e9)];
        for rank in [
            0,
            1,
            STEP / 2 - 1,
            STEP / 2,
            STEP - 1,
            STEP,
            STEP + 1,
            2 * STEP + 300,
        ] {
            bounds.push(Some(known[rank]));
            bounds.push(Some(known[rank] + 0.1));
        }
        bounds.push(known.last().copied());
        for min in &bounds {
            for max in &bounds {
                let found: Vec<usize> = column.between(*min, *max).ones().collect();
                assert_eq!(found, by_hand(&values, *min, *max), "{min:?}..={max:?}");
            }
        }
    }
}
