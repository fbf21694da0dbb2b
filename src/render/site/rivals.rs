//! Render stage, "Con la misma plata": for each version page, up to three
//! versions of other models with the same body type whose price is within
//! 5 % of its own, each with its safety facts (low-speed AEB, ESC,
//! airbags), and a link that compares them with it at today's prices,
//! computed once per tree by `generate`.
//!
//! Prices are compared in pesos (`priceArs`): a peso-quoted version's own
//! pesos, a dollar-quoted one's at the page's reference dollar. Every
//! conversion on a page uses that one rate, so "within 5 %" reads the same
//! in either currency the page shows. The bound is inclusive and decided on
//! the whole-peso prices exactly.
//!
//! Which three, and in what order, does not follow the prices: among the
//! versions within 5 %, one per model, the page shows those that come first
//! in an order fixed by the two IDs (a hash of the pair), and it shows no
//! rival's price or band. Ordered by distance and priced, the section would
//! change whenever any of dozens of nearby versions was requoted, and with
//! it the page: a large share of all version pages at every catalogue
//! check, each uploaded again by the deploy (BENCHMARKS.md, "What a deploy
//! uploads"). Now a page changes only when its own price moves or
//! a shown rival leaves the 5 % (or a rival that would come first enters
//! it); the comparison link shows everyone's current prices.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use super::specs::compare_value;
use crate::api::links::Links;
use crate::catalogue::Vehicle;
use crate::vocab::BodyType;

/// How many rivals a page shows.
const MOST: usize = 3;

/// A rival as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Rival {
    /// Its catalogue ID (for the comparison link).
    #[serde(skip)]
    pub id: String,
    /// Its page.
    pub path: String,
    /// Make, model and trim.
    pub name: String,
    /// Low-speed AEB, ESC and airbags, in words (`sin dato` when unknown).
    pub aeb: String,
    /// Electronic stability control.
    pub esc: String,
    /// Airbags.
    pub airbags: String,
}

/// The published versions of each body type, cheapest first in pesos,
/// each with its model's number (so that the band walk compares numbers,
/// not make and model names) and its ID's hash (`id_hash`); and each
/// version as a rival, built the first time a page shows it (a version is
/// shown on many pages).
pub struct RivalIndex<'a> {
    vehicles: &'a [Vehicle],
    by_body: BTreeMap<BodyType, Vec<Entry>>,
    models: BTreeMap<(&'a str, &'a str), u32>,
    shown: Vec<OnceLock<Arc<Rival>>>,
}

/// A version in the index: its pesos, its model's number, its ID's hash,
/// its position in the versions.
type Entry = (f64, u32, u64, usize);

impl<'a> RivalIndex<'a> {
    /// The index of `vehicles` (those without a body type or a peso price
    /// have no rivals and are no one's).
    pub fn new(vehicles: &'a [Vehicle]) -> Self {
        let mut models = BTreeMap::new();
        let mut by_body: BTreeMap<BodyType, Vec<Entry>> = BTreeMap::new();
        for (at, vehicle) in vehicles.iter().enumerate() {
            if let (Some(body), Some(pesos)) = (vehicle.identity.body_type, vehicle.price_ars) {
                let next = u32::try_from(models.len()).expect("invariant: models fit in u32");
                let model = *models
                    .entry((
                        vehicle.identity.make.as_str(),
                        vehicle.identity.model.as_str(),
                    ))
                    .or_insert(next);
                by_body
                    .entry(body)
                    .or_default()
                    .push((pesos, model, id_hash(&vehicle.id), at));
            }
        }
        for list in by_body.values_mut() {
            list.sort_by(|a, b| {
                a.0.total_cmp(&b.0)
                    .then_with(|| vehicles[a.3].id.cmp(&vehicles[b.3].id))
            });
        }
        RivalIndex {
            vehicles,
            by_body,
            models,
            shown: vehicles.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// The rivals of `vehicle`: same body type, another model, price within
    /// 5 % (|rival - own| x 20 <= own), one version per model, in the
    /// order [`pair_order`] gives.
    pub fn of(&self, vehicle: &Vehicle) -> Vec<Arc<Rival>> {
        let (Some(body), Some(own)) = (vehicle.identity.body_type, vehicle.price_ars) else {
            return Vec::new();
        };
        let Some(list) = self.by_body.get(&body) else {
            return Vec::new();
        };
        let low = list.partition_point(|entry| (own - entry.0) * 20.0 > own);
        let own_hash = id_hash(&vehicle.id);
        let own_model = self
            .models
            .get(&(
                vehicle.identity.make.as_str(),
                vehicle.identity.model.as_str(),
            ))
            .copied();
        // The first MOST models in pair order, each by its first version,
        // kept while the band is walked rather than by sorting it (a band
        // holds hundreds of versions at 30,000): a model's entry gives way
        // to an earlier version of it, and a model pushed out by MOST
        // earlier ones can come back only with an earlier version.
        let mut first: Vec<(u64, u32, usize)> = Vec::with_capacity(MOST + 1);
        let band = list[low..]
            .iter()
            .take_while(|entry| (entry.0 - own) * 20.0 <= own)
            .filter(|entry| Some(entry.1) != own_model);
        let id = |at: usize| self.vehicles[at].id.as_str();
        for &(_, model, hash, other) in band {
            let key = (mix(own_hash, hash), model, other);
            let earlier =
                |a: &(u64, u32, usize), b: &(u64, u32, usize)| (a.0, id(a.2)) < (b.0, id(b.2));
            match first.iter().position(|entry| entry.1 == model) {
                Some(same) if earlier(&key, &first[same]) => {
                    first.remove(same);
                }
                Some(_) => continue,
                None if first.len() == MOST && !earlier(&key, &first[MOST - 1]) => continue,
                None => {}
            }
            let at = first.partition_point(|entry| earlier(entry, &key));
            first.insert(at, key);
            first.truncate(MOST);
        }
        first
            .into_iter()
            .map(|(_, _, at)| {
                Arc::clone(self.shown[at].get_or_init(|| Arc::new(shown(&self.vehicles[at]))))
            })
            .collect()
    }
}

/// Where `rival` comes on `own`'s page: a fixed function of the pair (the
/// same on every machine and release, unlike std's hasher), so that each
/// page shows its own spread of the versions near its price and keeps it
/// while prices move. It is `mix` of the two IDs' hashes (`id_hash`): each ID
/// is hashed once per tree, and a pair costs a few instructions (a hash of
/// the pair's bytes, hundreds of pairs a page, was the rivals' main cost).
pub fn pair_order(own: &str, rival: &str) -> u64 {
    mix(id_hash(own), id_hash(rival))
}

/// FNV-1a (64-bit) of an ID's bytes.
fn id_hash(id: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    id.bytes().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// The pair's order from the two IDs' hashes: the rival's multiplied by
/// the 64-bit golden ratio (so that the pair is ordered: (a, b) is not
/// (b, a)) and XORed with the page's, then SplitMix64's finalizer, whose
/// every output bit depends on every input bit, so that each page orders
/// the same versions differently.
fn mix(own: u64, rival: u64) -> u64 {
    let mut z = own ^ rival.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A rival's facts in words.
fn shown(vehicle: &Vehicle) -> Rival {
    let trim = super::labels::trim(
        &vehicle.identity.trim,
        vehicle.identity.trim_display.as_deref(),
    );
    let specs = vehicle.specs.as_deref();
    Rival {
        id: vehicle.id.clone(),
        path: Links::vehicle_path(&vehicle.id),
        name: format!(
            "{} {} {trim}",
            vehicle.identity.make, vehicle.identity.model
        ),
        aeb: compare_value(specs, "aebLowSpeed"),
        esc: compare_value(specs, "escStability"),
        airbags: vehicle
            .identity
            .airbags
            .map_or_else(|| super::specs::UNKNOWN_VALUE.to_owned(), |n| n.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::site::money::tests::vehicle;

    #[test]
    fn the_order_mixes_each_ids_fnv1a() {
        // FNV-1a's published test vectors.
        assert_eq!(id_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(id_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(id_hash("foobar"), 0x8594_4171_f739_67e8);
        // SplitMix64's first output from seed 0 is its finalizer of the
        // golden ratio: the pair (0, 1) before any ID is hashed.
        assert_eq!(mix(0, 1), 0xe220_a839_7b1d_cdaf);
        assert_eq!(pair_order("ab", "c"), mix(id_hash("ab"), id_hash("c")));
        assert_ne!(pair_order("ab", "c"), pair_order("c", "ab"));
    }

    /// A sedan of model `model` at `pesos`.
    fn sedan(id: &str, model: &str, pesos: f64) -> Vehicle {
        let mut v = vehicle(Vec::new(), Some(pesos));
        v.id = id.into();
        v.identity.model = model.into();
        v.identity.body_type = Some(BodyType::Sedan);
        v
    }

    fn ids(rivals: &[Arc<Rival>]) -> Vec<&str> {
        rivals.iter().map(|r| r.id.as_str()).collect()
    }

    #[test]
    fn rivals_are_within_five_percent_one_per_model_in_pair_order() {
        let own = sedan("own", "Own", 1_000_000.0);
        let mut others = vec![
            // 5 % exactly, either side: in; a peso more: out.
            sedan("low", "A", 950_000.0),
            sedan("high", "B", 1_050_000.0),
            sedan("below", "C", 949_999.0),
            sedan("above", "D", 1_050_001.0),
            // Its own model: never its rival.
            sedan("sibling", "Own", 1_000_000.0),
            // Two versions of one model: the first in pair order only.
            sedan("e1", "E", 990_000.0),
            sedan("e2", "E", 1_010_000.0),
            sedan("f", "F", 1_001_000.0),
        ];
        let mut suv = sedan("suv", "G", 1_000_000.0);
        suv.identity.body_type = Some(BodyType::Suv);
        others.push(suv);
        let all: Vec<Vehicle> = std::iter::once(own.clone()).chain(others).collect();
        let mut expected: Vec<&str> = ["low", "high", "e1", "e2", "f"].to_vec();
        expected.sort_by_key(|id| pair_order("own", id));
        let first_e = *expected
            .iter()
            .find(|id| id.starts_with('e'))
            .expect("an e");
        expected.retain(|id| !id.starts_with('e') || *id == first_e);
        expected.truncate(MOST);
        assert_eq!(ids(&RivalIndex::new(&all).of(&own)), expected);
    }

    #[test]
    fn a_wide_band_gives_what_sorting_all_of_it_gives() {
        // 400 versions of 40 models within 5 % (and 40 beyond it), seen
        // from 50 pages: the rivals kept while walking the band are those
        // of the rule read literally, every pair ordered, then one per
        // model, then three.
        let mut all = Vec::new();
        for i in 0..440 {
            let pesos = 940_000.0 + f64::from(i) * 250.0;
            all.push(sedan(&format!("v{i}"), &format!("M{}", i % 40), pesos));
        }
        let index = RivalIndex::new(&all);
        for page in 0..50 {
            let own = sedan(&format!("own{page}"), "Own", 1_000_000.0);
            let mut band: Vec<&Vehicle> = all
                .iter()
                .filter(|v| {
                    (v.price_ars.expect("priced") - 1_000_000.0).abs() * 20.0 <= 1_000_000.0
                })
                .collect();
            assert_eq!(band.len(), 400);
            band.sort_by_key(|v| (pair_order(&own.id, &v.id), v.id.clone()));
            let mut expected: Vec<&str> = Vec::new();
            let mut models: Vec<&str> = Vec::new();
            for v in band {
                if !models.contains(&v.identity.model.as_str()) {
                    models.push(&v.identity.model);
                    expected.push(&v.id);
                }
            }
            expected.truncate(MOST);
            assert_eq!(ids(&index.of(&own)), expected, "page {page}");
        }
    }

    #[test]
    fn a_price_moving_within_the_band_changes_no_page() {
        let own = sedan("own", "Own", 1_000_000.0);
        let mut all = vec![own.clone()];
        for (i, pesos) in [960_000.0, 980_000.0, 1_000_500.0, 1_020_000.0, 1_040_000.0]
            .into_iter()
            .enumerate()
        {
            all.push(sedan(&format!("r{i}"), &format!("M{i}"), pesos));
        }
        let before = ids(&RivalIndex::new(&all).of(&own))
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        assert_eq!(before.len(), MOST);
        // Every rival's price moves, nearest becoming farthest, all within 5 %.
        for (i, v) in all.iter_mut().skip(1).enumerate() {
            v.price_ars = Some(1_045_000.0 - 20_000.0 * i as f64);
        }
        assert_eq!(ids(&RivalIndex::new(&all).of(&own)), before);
    }
}
