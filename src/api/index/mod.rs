//! API stage, index: the published catalogue ready to answer queries. Built
//! once per tree, by `generate` from the computed catalogue and by the edge
//! from the edge data file, it holds each version's query facts and its
//! Summary and Vehicle JSON serialized once, the filter sets, every list
//! order, the model lists and the catalogue overview, so that an answer
//! costs what its page holds, not what the catalogue holds.

pub mod orders;
pub mod records;
pub mod select;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::value::{RawValue, to_raw_value};

pub use crate::api::facts::{
    Entry, Facts, INDEX_FILE_PATH, INDEX_FILE_VERSION, IndexFile, OLD_INDEX_FILE_PATH,
    PRICES_FILE_PATH, RECORDS_FILE_PATH, WindowFacts,
};
use crate::api::links::Links;
use crate::api::params::filter::Form;
use crate::api::params::table::{FILTERS, Kind, Param};
use crate::api::query::Filters;
use crate::api::reports::MarketData;
use crate::api::text::fold;
use crate::api::types::{
    CatalogueData, CurrentRate, Envelope, Listed, MakeModel, SCHEMA_VERSION, Summary, VehicleRecord,
};
use crate::catalogue::{Catalogue, CatalogueMeta, DealerPoint};
use crate::time::Time;
pub use orders::{Order, Orders};
pub use records::Records;
pub use select::{FilterIndex, Selection};

/// A catalogue ready to answer queries.
#[derive(Debug)]
pub struct Index {
    meta: CatalogueMeta,
    base_url: String,
    links: Links,
    /// Every published version's facts, sorted by ID in byte order: a
    /// version's position here is its number in every set and order.
    facts: Vec<Facts>,
    /// Each version's Summary JSON, by position.
    summaries: Vec<Box<RawValue>>,
    /// Each version's Vehicle JSON, by position.
    records: Records,
    /// Each version's dealer prices check by check (a JSON array of
    /// [`DealerPoint`]s), by position: what alerts at a price read.
    prices: Records,
    filters: FilterIndex,
    orders: Orders,
    models: HashMap<(String, String), ModelEntry>,
    catalogue: CatalogueData,
    /// The market report's answers (the edge reads them from their own
    /// file, `render::informes::MARKET_FILE_PATH`).
    market: MarketData,
}

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

impl Index {
    /// Indexes a computed catalogue whose site lives at `base_url`,
    /// serializing each version's Summary and Vehicle once, the records
    /// held in memory.
    pub fn from_catalogue(catalogue: &Catalogue, base_url: &str) -> Index {
        let written = Index::from_catalogue_with(catalogue, base_url, |records, prices| {
            Ok::<_, std::convert::Infallible>((Records::write(records), Records::write(prices)))
        });
        match written {
            Ok(index) => index,
        }
    }

    /// Indexes a computed catalogue as [`Index::from_catalogue`] does, its
    /// records kept by `store`: given every version's Vehicle, then every
    /// version's dealer prices, in position order, it returns each as
    /// [`Records`] (`generate` writes them to their files as they are
    /// serialized, and reads them from there). The
    /// records, the largest part, are serialized on a thread of their own
    /// while the rest of the index is built, rather than before it with a
    /// core idle.
    pub fn from_catalogue_with<'c, E: Send>(
        catalogue: &'c Catalogue,
        base_url: &str,
        store: impl FnOnce(
            &mut dyn Iterator<Item = VehicleRecord<'c>>,
            &mut dyn Iterator<Item = &'c [DealerPoint]>,
        ) -> Result<(Records, Records), E>
        + Send,
    ) -> Result<Index, E> {
        let vehicles = &catalogue.vehicles;
        let links = Links::new(
            base_url,
            vehicles.iter().map(|v| (v.make.as_str(), v.model.as_str())),
        );
        let meta = catalogue.meta.clone();
        let (indexed, facts, summaries, records) = std::thread::scope(|scope| {
            let records = scope.spawn(|| {
                store(
                    &mut vehicles
                        .iter()
                        .map(|vehicle| VehicleRecord::of(vehicle, &links)),
                    &mut vehicles.iter().map(|vehicle| &vehicle.dealer_prices[..]),
                )
            });
            let facts: Vec<Facts> = vehicles.iter().map(Facts::of).collect();
            let summaries = vehicles
                .iter()
                .map(|vehicle| raw_json(&Summary::of(vehicle, &links)))
                .collect();
            let indexed = Indexed::of(&meta, &facts);
            let records = records
                .join()
                .expect("invariant: serializing the records does not panic");
            (indexed, facts, summaries, records)
        });
        let (records, prices) = records?;
        let parts = Parts {
            facts,
            summaries,
            records,
            prices,
        };
        Ok(indexed.with(meta, base_url, links, parts))
    }

    /// Indexes the edge data `generate` wrote: the data file and the open
    /// records and prices files. Its vehicles must be sorted by ID (lookups
    /// binary-search them) and it must place one line a vehicle in each
    /// of the two files ([`Records::open`]).
    pub fn from_file(
        file: IndexFile,
        records: std::fs::File,
        prices: std::fs::File,
    ) -> Result<Index, String> {
        if !file
            .vehicles
            .windows(2)
            .all(|pair| pair[0].facts.id.as_bytes() < pair[1].facts.id.as_bytes())
        {
            return Err("vehicles are not sorted by ID".to_owned());
        }
        if file.record_starts.len() != file.vehicles.len() + 1 {
            return Err(format!(
                "{} record offsets for {} versions",
                file.record_starts.len(),
                file.vehicles.len()
            ));
        }
        if file.price_starts.len() != file.vehicles.len() + 1 {
            return Err(format!(
                "{} price offsets for {} versions",
                file.price_starts.len(),
                file.vehicles.len()
            ));
        }
        let records = Records::open(records, file.record_starts)?;
        let prices = Records::open(prices, file.price_starts)?;
        let links = Links::new(
            &file.base_url,
            file.vehicles
                .iter()
                .map(|e| (e.facts.make.as_str(), e.facts.model.as_str())),
        );
        let mut facts = Vec::with_capacity(file.vehicles.len());
        let mut summaries = Vec::with_capacity(file.vehicles.len());
        for entry in file.vehicles {
            let summary = RawValue::from_string(entry.summary)
                .map_err(|err| format!("the Summary of {:?} is not JSON: {err}", entry.facts.id))?;
            facts.push(entry.facts);
            summaries.push(summary);
        }
        let parts = Parts {
            facts,
            summaries,
            records,
            prices,
        };
        Ok(Index::build(file.meta, &file.base_url, links, parts))
    }

    fn build(meta: CatalogueMeta, base_url: &str, links: Links, parts: Parts) -> Index {
        Indexed::of(&meta, &parts.facts).with(meta, base_url, links, parts)
    }

    /// The market's answers: reports and series.
    pub fn market(&self) -> &MarketData {
        &self.market
    }

    /// Sets the market's answers (read from their own file).
    pub fn set_market(&mut self, market: MarketData) {
        self.market = market;
    }

    /// The edge data file of this index, for `generate` to write.
    pub fn to_file(&self) -> IndexFile<Vec<Entry<&Facts, &str>>> {
        IndexFile {
            format_version: INDEX_FILE_VERSION,
            base_url: self.base_url.clone(),
            meta: self.meta.clone(),
            vehicles: self
                .facts
                .iter()
                .zip(&self.summaries)
                .map(|(facts, summary)| Entry {
                    facts,
                    summary: summary.get(),
                })
                .collect(),
            record_starts: self.records.starts(),
            price_starts: self.prices.starts(),
        }
    }

    /// The prices file of this index (one version's dealer prices a line)
    /// when it holds them in memory; `None` when they are in a file.
    pub fn prices_file(&self) -> Option<&str> {
        self.prices.text()
    }

    /// The dealer prices, check by check, of the version at `position`.
    pub fn dealer_prices(&self, position: u32) -> Vec<DealerPoint> {
        serde_json::from_str(self.prices.get(position).get())
            .expect("invariant: the prices file holds the points generate wrote (its ETag is checked at load)")
    }

    /// The records file of this index (one Vehicle a line) when it holds
    /// them in memory ([`Index::from_catalogue`]); `None` when they are in a
    /// file.
    pub fn records_file(&self) -> Option<&str> {
        self.records.text()
    }

    /// Snapshot times and source.
    pub fn meta(&self) -> &CatalogueMeta {
        &self.meta
    }

    /// The service's URLs.
    pub fn links(&self) -> &Links {
        &self.links
    }

    /// How many versions are published.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Whether no version is published.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// The facts of every version, in ID order.
    pub fn facts(&self) -> &[Facts] {
        &self.facts
    }

    /// The version at `position` as a list item (its Summary).
    pub fn summary(&self, position: u32) -> Listed<'_> {
        let at = position as usize;
        Listed::new(
            position,
            &self.facts[at],
            Cow::Borrowed(&self.summaries[at]),
        )
    }

    /// The version at `position` as a full record (its Vehicle).
    pub fn record(&self, position: u32) -> Listed<'_> {
        let facts = &self.facts[position as usize];
        Listed::new(position, facts, Cow::Owned(self.records.get(position)))
    }

    /// The position of the published version with exactly this ID
    /// (case-sensitive, byte order).
    pub fn find(&self, id: &str) -> Option<u32> {
        self.facts
            .binary_search_by(|facts| facts.id.as_bytes().cmp(id.as_bytes()))
            .ok()
            .map(|position| position as u32)
    }

    /// The catalogue's own words, each with how many versions have it (what
    /// `q` matches against; the site's search forgives by them).
    pub fn words(&self) -> impl Iterator<Item = (&str, usize)> {
        self.filters.words()
    }

    /// The versions every filter admits.
    pub fn select(&self, filters: &Filters, opportunities_only: bool) -> Selection {
        self.filters.select(filters, opportunities_only)
    }

    /// Every list order.
    pub fn orders(&self) -> &Orders {
        &self.orders
    }

    /// A model's versions, by make and model ignoring case and accents.
    pub fn model(&self, make: &str, model: &str) -> Option<&ModelEntry> {
        self.models.get(&(fold(make), fold(model)))
    }

    /// The catalogue overview: counts, makes, models and filter values present.
    pub fn catalogue_data(&self) -> &CatalogueData {
        &self.catalogue
    }

    /// Wraps a payload in the envelope.
    pub fn envelope<T>(&self, data: T) -> Envelope<T> {
        Envelope {
            schema_version: SCHEMA_VERSION,
            snapshot_at: self.meta.snapshot_at,
            catalogue_observed_at: self.meta.catalogue_observed_at,
            source: self.meta.source.clone(),
            methodology_url: self.links.methodology(),
            documentation_url: self.links.documentation(),
            data,
        }
    }
}

/// What an index is built from: each version's facts and JSON forms, by
/// position.
struct Parts {
    facts: Vec<Facts>,
    summaries: Vec<Box<RawValue>>,
    records: Records,
    prices: Records,
}

/// Every model's versions, cheapest first, with their totals.
fn model_entries(facts: &[Facts]) -> HashMap<(String, String), ModelEntry> {
    let mut models: HashMap<(String, String), Vec<u32>> = HashMap::new();
    for (f, position) in facts.iter().zip(0..) {
        models
            .entry((fold(&f.make), fold(&f.model)))
            .or_default()
            .push(position);
    }
    models
        .into_iter()
        .map(|(key, mut positions)| {
            let fact = |position: &u32| &facts[*position as usize];
            // Stable: equal prices stay in ID order.
            positions.sort_by(|a, b| {
                fact(a)
                    .current_price_usd
                    .total_cmp(&fact(b).current_price_usd)
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
    let models: BTreeSet<MakeModel> = facts
        .iter()
        .map(|f| MakeModel {
            make: f.make.clone(),
            model: f.model.clone(),
        })
        .collect();
    let makes: BTreeSet<&str> = facts.iter().map(|f| f.make.as_str()).collect();
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
        models: models.into_iter().collect(),
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
            let mut spellings: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
            for text in all().filter_map(|v| v.text()) {
                *spellings
                    .entry(fold(&text))
                    .or_default()
                    .entry(text)
                    .or_default() += 1;
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

/// The raw JSON of a value, through the one serializer.
pub fn raw_json<T: serde::Serialize>(value: &T) -> Box<RawValue> {
    to_raw_value(value).expect("invariant: response types serialize to JSON")
}

/// What an index derives from its versions' facts: the filter sets, the
/// orders, the models and the catalogue's figures.
struct Indexed {
    filters: FilterIndex,
    orders: Orders,
    models: HashMap<(String, String), ModelEntry>,
    catalogue: CatalogueData,
}

impl Indexed {
    /// Derives them (filters on a thread of their own).
    fn of(meta: &CatalogueMeta, facts: &[Facts]) -> Indexed {
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

    /// The index of `parts`, whose facts these were derived from.
    fn with(self, meta: CatalogueMeta, base_url: &str, links: Links, parts: Parts) -> Index {
        let Parts {
            facts,
            summaries,
            records,
            prices,
        } = parts;
        Index {
            meta,
            base_url: base_url.to_owned(),
            links,
            filters: self.filters,
            orders: self.orders,
            models: self.models,
            catalogue: self.catalogue,
            facts,
            summaries,
            records,
            prices,
            market: MarketData::default(),
        }
    }
}
