//! Market stage, the report's lists: the cheapest versions at a month's
//! cut, the largest rises and falls with each make's median change, and
//! dealer quotes against the catalogue, for all versions and each make.

use std::collections::BTreeMap;

use super::rows::{dealer_row, group, median};
use super::{LIST_LEN, Market};
use crate::api::types::report::{CheapItem, DealerRow, GroupKind, MakeChange, Mover, Movers};
use crate::market::collect::Check;
use crate::market::dealers::Side;
use crate::market::index::round2;
use crate::time::Time;

impl Market<'_> {
    /// The cheapest versions published at `at`, and the cheapest of each
    /// body type.
    pub(super) fn cheapest(
        &self,
        i: usize,
        at: Time,
    ) -> (Vec<CheapItem>, BTreeMap<String, CheapItem>) {
        let newest_rate = self.rates[..self.rates.partition_point(|r| r.at <= at)]
            .last()
            .map(|r| r.usd);
        let mut priced: Vec<(f64, usize, Check)> = self
            .snapshot
            .versions
            .iter()
            .enumerate()
            .filter(|(_, version)| {
                version
                    .catalogue
                    .iter()
                    .any(|r| r.first_seen <= at && at <= r.last_seen)
            })
            .filter_map(|(v, _)| {
                let checks = &self.history.checks[v];
                let latest = *checks[..checks.partition_point(|c| c.at <= at)].last()?;
                let usd = latest.usd.filter(|_| latest.in_stock)?;
                let ars = latest.ars.or_else(|| Some(usd * newest_rate?))?;
                Some((ars, v, latest))
            })
            .collect();
        let versions = &self.snapshot.versions;
        priced.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then_with(|| versions[a.1].id.cmp(&versions[b.1].id))
        });
        let item = |(ars, v, check): &(f64, usize, Check)| {
            let version = &versions[*v];
            CheapItem {
                id: version.id.clone(),
                url: self.links.vehicle(&version.id),
                make: version.identity.make.clone(),
                model: version.identity.model.clone(),
                trim: version.identity.trim.clone(),
                body_type: version.identity.body_type.map(|t| t.as_str().to_owned()),
                price_ars: round2(*ars),
                current_price_usd: round2(check.usd.unwrap_or_default()),
                fees_included: check.fees,
                change_pct: self.change(*v, i).map(round2),
            }
        };
        let mut by_type = BTreeMap::new();
        for entry in &priced {
            if let Some(body) = versions[entry.1].identity.body_type {
                by_type
                    .entry(body.as_str().to_owned())
                    .or_insert_with(|| item(entry));
            }
        }
        (priced.iter().take(LIST_LEN).map(item).collect(), by_type)
    }

    /// The month's largest rises and falls, and each make's median change.
    pub(super) fn movers(&self, i: usize) -> Movers {
        let versions = &self.snapshot.versions;
        let mut changes: Vec<(f64, usize)> = (0..versions.len())
            .filter_map(|v| Some((self.change(v, i)?, v)))
            .collect();
        let mover = |(change, v): &(f64, usize)| Mover {
            id: versions[*v].id.clone(),
            url: self.links.vehicle(&versions[*v].id),
            make: versions[*v].identity.make.clone(),
            model: versions[*v].identity.model.clone(),
            trim: versions[*v].identity.trim.clone(),
            change_pct: round2(*change),
        };
        let by_id = |a: &(f64, usize), b: &(f64, usize)| versions[a.1].id.cmp(&versions[b.1].id);
        changes.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| by_id(a, b)));
        let rises = changes
            .iter()
            .filter(|c| c.0 > 0.0)
            .take(LIST_LEN)
            .map(mover)
            .collect();
        changes.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| by_id(a, b)));
        let falls = changes
            .iter()
            .filter(|c| c.0 < 0.0)
            .take(LIST_LEN)
            .map(mover)
            .collect();
        let mut makes: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for (change, v) in &changes {
            makes
                .entry(versions[*v].identity.make.as_str())
                .or_default()
                .push(*change);
        }
        let by_make = makes
            .into_iter()
            .map(|(make, mut changes)| MakeChange {
                make: make.to_owned(),
                n: changes.len(),
                median_change_pct: (changes.len() >= crate::market::index::MIN_MATCHED)
                    .then(|| median(&mut changes))
                    .map(round2),
            })
            .collect();
        Movers {
            rises,
            falls,
            by_make,
        }
    }

    /// Dealers against the catalogue: all versions, then each make.
    pub(super) fn dealer_rows(&self, gaps: &[(u32, Side, f32)]) -> Vec<DealerRow> {
        let mut makes: BTreeMap<&str, Vec<(Side, f64)>> = BTreeMap::new();
        for (v, side, gap) in gaps {
            makes
                .entry(self.snapshot.versions[*v as usize].identity.make.as_str())
                .or_default()
                .push((*side, f64::from(*gap)));
        }
        let all: Vec<(Side, f64)> = gaps
            .iter()
            .map(|(_, side, gap)| (*side, f64::from(*gap)))
            .collect();
        std::iter::once((group(GroupKind::All, None), all))
            .chain(
                makes
                    .into_iter()
                    .map(|(make, gaps)| (group(GroupKind::Make, Some(make)), gaps)),
            )
            .map(|(group, gaps)| dealer_row(group, gaps))
            .collect()
    }
}
