//! Market stage, the report's figures over the months: each group's
//! chained index (all versions, each body type, each make, pesos then
//! dollars), the reference dollar, the consumer price index's change and a
//! version's change in pesos.

use std::collections::BTreeMap;

use super::Market;
use super::rows::group;
use crate::api::types::report::{Dollar, Group, GroupKind};
use crate::market::index::{GroupIndex, chain, jevons, round2};
use crate::month::ArMonth;
use crate::snapshot::Version;

impl Market<'_> {
    /// Every group's index, in the order of the report: all versions,
    /// each body type, each make, pesos then dollars.
    pub(super) fn index_groups(&self) -> Vec<GroupIndex> {
        let mut groups: Vec<(Group, Vec<usize>)> = vec![(
            group(GroupKind::All, None),
            (0..self.snapshot.versions.len()).collect(),
        )];
        let by = |kind: GroupKind, key: fn(&Version) -> Option<&str>| {
            let mut members: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for (at, version) in self.snapshot.versions.iter().enumerate() {
                if let Some(value) = key(version) {
                    members.entry(value).or_default().push(at);
                }
            }
            members
                .into_iter()
                .map(move |(value, members)| (group(kind, Some(value)), members))
        };
        groups.extend(by(GroupKind::Type, |v| {
            v.identity.body_type.map(|t| t.as_str())
        }));
        groups.extend(by(GroupKind::Make, |v| Some(v.identity.make.as_str())));
        let mut rows = Vec::new();
        for (group, members) in groups {
            for currency in ["ARS", "USD"] {
                let price = |v: usize, i: usize| {
                    let price = self.prices[v][i];
                    if currency == "ARS" {
                        price.ars
                    } else {
                        price.usd
                    }
                };
                let links: Vec<_> = (0..self.months.len())
                    .map(|i| {
                        let pairs = members
                            .iter()
                            .filter_map(|&v| Some((price(v, i.checked_sub(1)?)?, price(v, i)?)));
                        jevons(pairs)
                    })
                    .collect();
                let relatives: Vec<Option<f64>> = links.iter().map(|link| link.relative).collect();
                let figures = chain(&self.months, &relatives);
                let priced = (0..self.months.len())
                    .map(|i| {
                        let priced = |v: usize| {
                            let price = self.prices[v][i];
                            price.ars.is_some() || price.usd.is_some()
                        };
                        members.iter().any(|&v| priced(v))
                    })
                    .collect();
                rows.push(GroupIndex {
                    group: group.clone(),
                    currency,
                    links,
                    figures,
                    priced,
                });
            }
        }
        rows
    }

    /// The reference dollar of each month.
    pub(super) fn dollars(&self) -> Vec<Dollar> {
        let means = &self.means;
        means
            .iter()
            .enumerate()
            .map(|(i, mean)| Dollar {
                ars_per_usd: mean.map(round2),
                change_pct: i
                    .checked_sub(1)
                    .and_then(|before| Some((mean.as_ref()? / means[before]? - 1.0) * 100.0))
                    .map(round2),
            })
            .collect()
    }

    /// The consumer price index's change in `month`, percent, unrounded;
    /// `None` without the index of the month and of the one before.
    pub(super) fn cpi_change(&self, month: ArMonth) -> Option<f64> {
        let value = |wanted: ArMonth| {
            let cpi = &self.snapshot.cpi;
            cpi.binary_search_by_key(&wanted, |row| row.month)
                .ok()
                .map(|at| cpi[at].value)
        };
        let before = self
            .months
            .iter()
            .position(|m| *m == month)?
            .checked_sub(1)?;
        Some((value(month)? / value(self.months[before])? - 1.0) * 100.0)
    }

    /// A version's change in pesos in month `i`, percent, unrounded.
    pub(super) fn change(&self, v: usize, i: usize) -> Option<f64> {
        let now = self.prices[v][i].ars?;
        let before = self.prices[v][i.checked_sub(1)?].ars?;
        Some((now / before - 1.0) * 100.0)
    }
}
