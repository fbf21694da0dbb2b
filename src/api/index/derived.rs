//! API stage, index, what the facts give: the filter sets, every list
//! order, each model's versions cheapest first with their totals, and the
//! catalogue overview with the filter values present, derived once per
//! tree from the versions' facts.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::orders::Orders;
use super::select::FilterIndex;
use crate::api::facts::Facts;
use crate::api::params::filter::Form;
use crate::api::params::table::{FILTERS, Kind, Param};
use crate::api::query::Given;
use crate::api::text::fold;
use crate::api::types::{CatalogueData, CurrentRate, MakeModel};
use crate::catalogue::CatalogueMeta;
use crate::time::Time;

/// The published versions of one model, cheapest first (ties by ID), with
/// the facts its price list reports for the whole model.
#[derive(Debug, Clone)]
pub struct ModelEntry {
    /// Positions, cheapest first.
    pub positions: Vec<u32>,
    /// Oldest quote check of its versions.
    pub oldest: Time,
    /// Newest quote check of its versions.
    pub newest: Time,
    /// Its current opportunities.
    pub opportunity_count: usize,
}

/// What an index derives from its versions' facts: the filter sets, the
/// orders, the models and the catalogue's figures.
pub(super) struct Indexed {
    pub(super) filters: FilterIndex,
    pub(super) orders: Orders,
    pub(super) models: HashMap<(String, String), ModelEntry>,
    pub(super) catalogue: CatalogueData,
}

impl Indexed {
    /// Derives them (filters on a thread of their own).
    pub(super) fn of(meta: &CatalogueMeta, facts: &[Facts]) -> Indexed {
        // The filter sets take as long as the rest together: on a thread of
        // their own they cost a loading edge half the wait.
        std::thread::scope(|scope| {
            let filters = scope.spawn(|| FilterIndex::new(facts));
            let orders = Orders::new(facts);
            let models = model_entries(facts);
            let catalogue = catalogue_data(meta, facts);
            let filters = filters
                .join()
                .expect("invariant: indexing the filters does not panic");
            Indexed {
                filters,
                orders,
                models,
                catalogue,
            }
        })
    }
}

/// Every model's versions, cheapest first, with their totals.
fn model_entries(facts: &[Facts]) -> HashMap<(String, String), ModelEntry> {
    // Grouped by spelling first, then each spelling folded once: a model's
    // name repeats across its versions.
    let mut spelt: crate::api::HashMap<(&str, &str), Vec<u32>> = Default::default();
    for (f, position) in facts.iter().zip(0..) {
        let name = (f.identity.make.as_str(), f.identity.model.as_str());
        spelt.entry(name).or_default().push(position);
    }
    let mut models: HashMap<(String, String), Vec<u32>> = HashMap::new();
    for ((make, model), positions) in spelt {
        models
            .entry((fold(make), fold(model)))
            .or_default()
            .extend(positions);
    }
    models
        .into_iter()
        .map(|(key, mut positions)| {
            let fact = |position: &u32| &facts[*position as usize];
            // Equal prices in ID order (the positions' order).
            positions.sort_by(|a, b| {
                fact(a)
                    .current_price_usd
                    .total_cmp(&fact(b).current_price_usd)
                    .then(a.cmp(b))
            });
            let observed = positions.iter().map(|p| fact(p).observed_at);
            let first = fact(&positions[0]).observed_at;
            let entry = ModelEntry {
                oldest: observed.clone().min().unwrap_or(first),
                newest: observed.max().unwrap_or(first),
                opportunity_count: positions
                    .iter()
                    .filter(|p| fact(p).comparison.opportunity)
                    .count(),
                positions,
            };
            (key, entry)
        })
        .collect()
}

/// The catalogue overview of `facts`.
fn catalogue_data(meta: &CatalogueMeta, facts: &[Facts]) -> CatalogueData {
    // Borrowed until each pair is known once.
    let models: BTreeSet<(&str, &str)> = facts
        .iter()
        .map(|f| (f.identity.make.as_str(), f.identity.model.as_str()))
        .collect();
    let makes: BTreeSet<&str> = facts.iter().map(|f| f.identity.make.as_str()).collect();
    let filters = FILTERS
        .iter()
        .filter_map(|param| Some((param.name.to_owned(), present(param, facts)?)))
        .collect();
    CatalogueData {
        vehicle_count: facts.len(),
        model_count: models.len(),
        versions_with_specs: facts.iter().filter(|f| f.has_specs).count(),
        opportunity_count: facts.iter().filter(|f| f.comparison.opportunity).count(),
        makes: makes.into_iter().map(str::to_owned).collect(),
        models: models
            .into_iter()
            .map(|(make, model)| MakeModel {
                make: make.to_owned(),
                model: model.to_owned(),
            })
            .collect(),
        filters,
        exchange_rate: meta.current_rate.and_then(|rate| {
            Some(CurrentRate {
                ars_per_usd: rate.ars_per_usd?,
                observed_at: rate.observed_at,
                source: meta.rate_source.clone(),
            })
        }),
    }
}

/// The values of a shared filter present in `facts`, in order, when its row
/// is a choice (its spellings), a count (an integer minimum: its counts) or
/// a text among the form's further filters (the cities: each once, ignoring
/// case and accents, in the spelling most versions have, by folded name);
/// `None` for any other filter.
fn present(param: &Param, facts: &[Facts]) -> Option<Vec<serde_json::Value>> {
    let filter = param.filter()?;
    let all = || facts.iter().flat_map(|f| (filter.fact)(f));
    let values: Vec<serde_json::Value> = match param.kind {
        Kind::Choice { .. } => {
            let present: BTreeSet<&str> = all().filter_map(|v| v.text_of_choice()).collect();
            present.into_iter().map(serde_json::Value::from).collect()
        }
        Kind::Integer { .. } => {
            let present: BTreeSet<u32> = all().filter_map(|v| v.integer()).collect();
            present.into_iter().map(serde_json::Value::from).collect()
        }
        Kind::Text { .. } if matches!(filter.form, Form::Further(_)) => {
            // Counted by spelling, then each spelling folded once: a city
            // is spelt alike by thousands of versions.
            let mut counts: crate::api::HashMap<String, usize> = Default::default();
            for value in all() {
                if let Given::Text(text) = value {
                    *counts.entry(text).or_default() += 1;
                }
            }
            let mut spellings: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
            for (text, count) in counts {
                spellings
                    .entry(fold(&text))
                    .or_default()
                    .insert(text, count);
            }
            spellings
                .into_values()
                .filter_map(|counts| {
                    // The most common spelling; of equals, the first in byte order.
                    let most = counts.values().max().copied()?;
                    counts.into_iter().find(|(_, n)| *n == most).map(|(t, _)| t)
                })
                .map(serde_json::Value::from)
                .collect()
        }
        _ => return None,
    };
    Some(values)
}
