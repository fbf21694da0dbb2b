//! API stage, index selection: the shared search filters answered from
//! structures built once per catalogue: a bitset per enum value and flag,
//! position lists per folded make, model and quote city, value-sorted
//! columns for the
//! numeric bounds, and a suffix array over the folded words for `q`. A
//! filter costs the size of what it selects, never a pass over every
//! version's text.

use std::hash::Hash;

use fixedbitset::FixedBitSet;

use crate::api::HashMap;
use crate::api::facts::Facts;
use crate::api::index::column::Column;
use crate::api::params::table::{
    AEB, BODY_TYPE, DRIVETRAIN, FUEL, HAS_SPECS, LOCATION, MAKE, MAX_PRICE_ARS, MAX_PRICE_USD,
    MIN_AIRBAGS, MIN_DISCOUNT_PCT, MIN_PRICE_ARS, MIN_PRICE_USD, MIN_SEATS, MODEL, Q, TRANSMISSION,
};
use crate::api::query::Filters;
use crate::api::text::{Folder, fold};

/// Each folded name with the positions that have it (a position once,
/// however many of its names fold alike), from `(name, position)` pairs in
/// the order of the positions.
fn lists_by_name<'a>(names: impl Iterator<Item = (&'a str, u32)>) -> HashMap<String, Vec<u32>> {
    let mut folder = Folder::default();
    let mut lists: HashMap<String, Vec<u32>> = HashMap::default();
    for (name, position) in names {
        let folded = folder.fold(name);
        let list = match lists.get_mut(folded) {
            Some(list) => list,
            None => lists.entry(folded.to_owned()).or_default(),
        };
        // Two spellings of one city are one city.
        if list.last() != Some(&position) {
            list.push(position);
        }
    }
    lists
}

/// Which versions a query selects: every one, or those in a set.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    /// No filter: every published version.
    All,
    /// The versions whose positions are set.
    Only(FixedBitSet),
}

impl Selection {
    /// Whether the version at `position` is selected.
    pub fn contains(&self, position: u32) -> bool {
        match self {
            Selection::All => true,
            Selection::Only(set) => set.contains(position as usize),
        }
    }

    /// Narrows the selection to `set`.
    fn and(self, set: FixedBitSet) -> Selection {
        match self {
            Selection::All => Selection::Only(set),
            Selection::Only(mut current) => {
                current.intersect_with(&set);
                Selection::Only(current)
            }
        }
    }
}

/// The folded words of every version, for `q`: each distinct word with the
/// versions it appears in, and every suffix of every word in order, so the
/// words containing a query word are one binary search away.
#[derive(Debug, Clone, Default)]
struct Words {
    words: Vec<String>,
    postings: Vec<Vec<u32>>,
    /// (word, byte offset of the suffix), sorted by suffix text.
    suffixes: Vec<(u32, u32)>,
}

impl Words {
    fn new(facts: &[Facts]) -> Words {
        let mut found = Postings::default();
        // The names folded one by one are the words of the whole text
        // folded: folding maps each character alone and keeps spaces.
        let mut folder = Folder::default();
        for (facts, position) in facts.iter().zip(0..) {
            let identity = &facts.identity;
            // Makes and models repeat: each spelling is folded once.
            for name in [&identity.make, &identity.model] {
                found.add(folder.fold(name), position);
            }
            // A trim is nearly each version's own.
            for name in [Some(&identity.trim), identity.trim_display.as_ref()]
                .into_iter()
                .flatten()
            {
                found.add(&fold(name), position);
            }
        }
        let Postings {
            words,
            lists: postings,
            ..
        } = found;
        let mut suffixes: Vec<(u32, u32)> = words
            .iter()
            .zip(0..)
            .flat_map(|(word, id)| word.char_indices().map(move |(at, _)| (id, at as u32)))
            .collect();
        let suffix = |&(id, at): &(u32, u32)| &words[id as usize][at as usize..];
        suffixes.sort_by(|a, b| suffix(a).cmp(suffix(b)));
        Words {
            words,
            postings,
            suffixes,
        }
    }

    /// Each word of the catalogue with the number of versions that have it.
    fn counted(&self) -> impl Iterator<Item = (&str, usize)> {
        self.words
            .iter()
            .zip(&self.postings)
            .map(|(word, list)| (word.as_str(), list.len()))
    }

    fn suffix(&self, (id, at): (u32, u32)) -> &str {
        &self.words[id as usize][at as usize..]
    }

    /// The versions with a word that contains `part` (already folded, no
    /// whitespace): the same as `part` being a substring of the folded text.
    fn containing(&self, part: &str, len: usize) -> FixedBitSet {
        let start = self
            .suffixes
            .partition_point(|entry| self.suffix(*entry) < part);
        let mut seen = FixedBitSet::with_capacity(self.words.len());
        let mut set = FixedBitSet::with_capacity(len);
        for entry in &self.suffixes[start..] {
            if !self.suffix(*entry).starts_with(part) {
                break;
            }
            if !seen.put(entry.0 as usize) {
                set.extend(self.postings[entry.0 as usize].iter().map(|p| *p as usize));
            }
        }
        set
    }
}

/// The words met so far, in the order met, each with the versions it
/// appears in.
#[derive(Default)]
struct Postings {
    ids: HashMap<String, u32>,
    words: Vec<String>,
    lists: Vec<Vec<u32>>,
}

impl Postings {
    /// Adds each word of `folded` (folded text) to the version at
    /// `position`, which is the last one added or a later one.
    fn add(&mut self, folded: &str, position: u32) {
        for word in folded.split_whitespace() {
            let id = match self.ids.get(word) {
                Some(id) => *id,
                None => {
                    self.words.push(word.to_owned());
                    self.lists.push(Vec::new());
                    let id = (self.words.len() - 1) as u32;
                    self.ids.insert(word.to_owned(), id);
                    id
                }
            };
            let list = &mut self.lists[id as usize];
            if list.last() != Some(&position) {
                list.push(position);
            }
        }
    }
}

/// Bitsets of the versions holding each value of a field.
#[derive(Debug, Clone)]
struct ByValue<K>(HashMap<K, FixedBitSet>);

impl<K: Hash + Eq + Copy> ByValue<K> {
    fn new(all: &[Facts], pick: impl Fn(&Facts) -> Option<K>) -> Self {
        let mut sets: HashMap<K, FixedBitSet> = HashMap::default();
        for (position, facts) in all.iter().enumerate() {
            if let Some(value) = pick(facts) {
                sets.entry(value)
                    .or_insert_with(|| FixedBitSet::with_capacity(all.len()))
                    .insert(position);
            }
        }
        ByValue(sets)
    }
}

/// Everything the shared filters read, built once per catalogue.
#[derive(Debug, Clone)]
pub struct FilterIndex {
    len: usize,
    makes: HashMap<String, Vec<u32>>,
    models: HashMap<String, Vec<u32>>,
    /// Folded city to the versions with a current quote there.
    locations: HashMap<String, Vec<u32>>,
    body_types: ByValue<crate::vocab::BodyType>,
    fuels: ByValue<crate::vocab::Fuel>,
    transmissions: ByValue<crate::vocab::Transmission>,
    drivetrains: ByValue<crate::vocab::Drivetrain>,
    aeb: ByValue<bool>,
    has_specs: ByValue<bool>,
    opportunities: FixedBitSet,
    prices: Column,
    peso_prices: Column,
    seats: Column,
    airbags: Column,
    /// Discounts of the versions with sufficient history only.
    discounts: Column,
    words: Words,
}

impl FilterIndex {
    /// Indexes the facts of every version, in position order.
    pub fn new(facts: &[Facts]) -> FilterIndex {
        let len = facts.len();
        let names = |pick: fn(&Facts) -> &str| {
            lists_by_name(
                facts
                    .iter()
                    .zip(0..)
                    .map(|(facts, position)| (pick(facts), position)),
            )
        };
        let locations = lists_by_name(facts.iter().zip(0..).flat_map(|(facts, position)| {
            facts
                .locations
                .iter()
                .map(move |place| (place.as_str(), position))
        }));
        let mut opportunities = FixedBitSet::with_capacity(len);
        opportunities.extend(
            facts
                .iter()
                .enumerate()
                .filter(|(_, f)| f.comparison.opportunity)
                .map(|(position, _)| position),
        );
        FilterIndex {
            len,
            makes: names(|f| &f.identity.make),
            models: names(|f| &f.identity.model),
            locations,
            body_types: ByValue::new(facts, |f| f.identity.body_type),
            fuels: ByValue::new(facts, |f| f.identity.fuel),
            transmissions: ByValue::new(facts, |f| f.identity.transmission),
            drivetrains: ByValue::new(facts, |f| f.drivetrain),
            aeb: ByValue::new(facts, |f| f.aeb),
            has_specs: ByValue::new(facts, |f| Some(f.has_specs)),
            opportunities,
            prices: Column::new(facts.iter().map(|f| Some(f.current_price_usd))),
            peso_prices: Column::new(facts.iter().map(|f| f.price_ars)),
            seats: Column::new(facts.iter().map(|f| f.identity.seats.map(f64::from))),
            airbags: Column::new(facts.iter().map(|f| f.identity.airbags.map(f64::from))),
            discounts: Column::new(facts.iter().map(|f| {
                f.comparison
                    .discount_pct
                    .filter(|_| f.comparison.sufficient_history)
            })),
            words: Words::new(facts),
        }
    }

    /// The catalogue's own words (folded make, model and version words), each
    /// with how many versions have it.
    pub fn words(&self) -> impl Iterator<Item = (&str, usize)> {
        self.words.counted()
    }

    /// The versions that satisfy every filter (and, with `opportunities_only`,
    /// are current opportunities).
    pub fn select(&self, filters: &Filters, opportunities_only: bool) -> Selection {
        let mut selection = Selection::All;
        if let Some(q) = Q.of(filters) {
            for word in fold(&q).split_whitespace() {
                selection = selection.and(self.words.containing(word, self.len));
            }
        }
        let named = |lists: &HashMap<String, Vec<u32>>, name: &str| {
            self.set_of(lists.get(&fold(name)).map_or(&[][..], Vec::as_slice))
        };
        if let Some(make) = MAKE.of(filters) {
            selection = selection.and(named(&self.makes, &make));
        }
        if let Some(model) = MODEL.of(filters) {
            selection = selection.and(named(&self.models, &model));
        }
        if let Some(place) = LOCATION.of(filters) {
            selection = selection.and(named(&self.locations, &place));
        }
        let sets = [
            BODY_TYPE
                .of(filters)
                .map(|v| self.value(&self.body_types, v)),
            FUEL.of(filters).map(|v| self.value(&self.fuels, v)),
            TRANSMISSION
                .of(filters)
                .map(|v| self.value(&self.transmissions, v)),
            DRIVETRAIN
                .of(filters)
                .map(|v| self.value(&self.drivetrains, v)),
            AEB.of(filters).map(|v| self.value(&self.aeb, v)),
            HAS_SPECS
                .of(filters)
                .map(|v| self.value(&self.has_specs, v)),
            opportunities_only.then(|| self.opportunities.clone()),
        ];
        for set in sets.into_iter().flatten() {
            selection = selection.and(set);
        }
        for (min, max, column) in [
            (
                MIN_PRICE_USD.of(filters),
                MAX_PRICE_USD.of(filters),
                &self.prices,
            ),
            (
                MIN_PRICE_ARS.of(filters),
                MAX_PRICE_ARS.of(filters),
                &self.peso_prices,
            ),
        ] {
            if min.is_some() || max.is_some() {
                selection = selection.and(column.between(min, max));
            }
        }
        for (min, column) in [
            (MIN_SEATS.of(filters).map(f64::from), &self.seats),
            (MIN_AIRBAGS.of(filters).map(f64::from), &self.airbags),
            (MIN_DISCOUNT_PCT.of(filters), &self.discounts),
        ] {
            if let Some(min) = min {
                selection = selection.and(column.between(Some(min), None));
            }
        }
        selection
    }

    fn value<K: Hash + Eq + Copy>(&self, sets: &ByValue<K>, value: K) -> FixedBitSet {
        sets.0
            .get(&value)
            .cloned()
            .unwrap_or_else(|| FixedBitSet::with_capacity(self.len))
    }

    fn set_of(&self, positions: &[u32]) -> FixedBitSet {
        let mut set = FixedBitSet::with_capacity(self.len);
        set.extend(positions.iter().map(|p| *p as usize));
        set
    }
}
