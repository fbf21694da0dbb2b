//! Snapshot stage, drafts: the versions being assembled from the tables,
//! each with the rows its parts came from (for messages), and the money
//! columns that catalogue prices and quotes share.

use std::collections::BTreeMap;

use anyhow::Result;

use super::columns::filled;
use super::model::{CatalogueRun, EarlierCheck, Money, QuoteCheck, Version};
use super::table::{Need, Table};
use crate::time::Time;
use crate::vocab::Currency;

/// A version being assembled, with the rows its parts came from (for messages).
pub(super) struct Draft {
    pub(super) row: usize,
    pub(super) version: Version,
    pub(super) runs: Vec<(usize, CatalogueRun)>,
    /// Each check the signals read with its row, by time.
    pub(super) checks: Vec<(usize, QuoteCheck)>,
    /// Each check kept in brief, by time, all before `checks`.
    pub(super) earlier: Vec<EarlierCheck>,
}

impl Draft {
    /// The index in `checks` of the check at `at`, if there is one.
    pub(super) fn check_at(&self, at: Time) -> Option<usize> {
        self.checks
            .binary_search_by(|(_, check)| check.observed_at.cmp(&at))
            .ok()
    }

    /// The index of the earlier check at `at`, if there is one.
    pub(super) fn earlier_at(&self, at: Time) -> Option<usize> {
        self.earlier
            .binary_search_by(|check| check.observed_at.cmp(&at))
            .ok()
    }
}

/// Every version being assembled, in `versions` row order, with an index by ID.
pub(super) struct Drafts {
    pub(super) drafts: Vec<Draft>,
    pub(super) by_id: BTreeMap<String, usize>,
}

impl Drafts {
    /// The position of the version with this exact ID.
    pub(super) fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The position of the version each row of `table` names, or an
    /// unknown-version error naming the row.
    pub(super) fn rows_of(&self, table: &Table) -> Result<Vec<usize>> {
        rows_of(&self.by_id, table)
    }

    /// The versions in ID byte order (the order the model promises).
    pub(super) fn finish(self) -> Vec<Version> {
        let mut drafts: Vec<Option<Draft>> = self.drafts.into_iter().map(Some).collect();
        let mut versions = Vec::with_capacity(drafts.len());
        for position in self.by_id.into_values() {
            let draft = drafts[position]
                .take()
                .expect("invariant: each position is indexed once");
            let mut version = draft.version;
            version.catalogue = draft.runs.into_iter().map(|(_, run)| run).collect();
            version.checks = draft.checks.into_iter().map(|(_, check)| check).collect();
            version.earlier = draft.earlier;
            versions.push(version);
        }
        versions
    }
}

/// The position of the version each row of `table` names, by the index
/// `by_id` of [`Drafts`], or an unknown-version error naming the row.
pub(super) fn rows_of(by_id: &BTreeMap<String, usize>, table: &Table) -> Result<Vec<usize>> {
    table.lookups(
        "versionId",
        |id| by_id.get(id).copied(),
        |id| format!("unknown version {id:?}"),
    )
}

/// The `price` and `currency` columns as money: positive prices, known currencies.
pub(super) fn money_columns(t: &Table) -> Result<Vec<Money>> {
    let amounts = filled(t.positives("price", Need::Required)?);
    let currencies = t.vocab::<Currency>("currency", Need::Required)?;
    let money = amounts.into_iter().zip(filled(currencies));
    Ok(money
        .map(|(amount, currency)| Money { amount, currency })
        .collect())
}
