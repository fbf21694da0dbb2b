//! Seeded random catalogues and queries for the index property test: small
//! catalogues with many ties (prices, discounts, names, recencies), names
//! that fold alike (accents, case), unknown facts, and every deal kind; and
//! valid queries of every list operation over them.

use std::collections::BTreeMap;

use autoprecios::api::facts::Facts;
use autoprecios::api::links::percent_encode;
use autoprecios::api::params::table::{FILTERS, Kind, Param};
use autoprecios::catalogue::{
    Catalogue, CatalogueMeta, Comparison, DealerSpread, ExchangeRate, Identity, LocationSpread,
    NO_LOCATION, Quote, RecentChange, RecentChanges, Specs, Vehicle, WINDOW_DAYS,
};
use autoprecios::time::{Time, parse_time};
use autoprecios::vocab::{BodyType, ChangeKind, Currency, Drivetrain, Fuel, Transmission, Window};
use serde_json::Value;

pub use crate::harness::rng::Rng;

const MAKES: [&str; 5] = ["Citroën", "CITROEN", "Toyota", "Peugeot", "Ford"];
const MODELS: [&str; 5] = ["C3", "Hilux", "208", "Ranger", "Ñandú"];
const TRIMS: [&str; 6] = ["Feel", "SRX 4x4", "Allure Pack", "XLS", "Shine AT", "Líve"];
/// Prices drawn from a short list so that ties are common.
const PRICES: [f64; 7] = [
    15000.0, 19999.99, 21000.5, 21000.5, 27500.0, 33000.0, 41250.25,
];
/// Peso prices, some equal to a dollar price at [`CURRENT_RATE`] (ties
/// across currencies) and to each other.
const PESO_PRICES: [f64; 6] = [
    18_500_000.0,
    29_176_000.0,
    36_467_500.0,
    36_467_500.0,
    43_761_000.0,
    95_000_000.0,
];
/// The current observed exchange rate of the random catalogues.
pub const CURRENT_RATE: f64 = 1458.7;
const DISCOUNTS: [f64; 6] = [-3.5, 0.0, 4.99, 5.0, 7.25, 12.0];
const OBSERVED: [&str; 2] = ["2026-11-20T10:00:00Z", "2026-11-21T14:05:00Z"];
/// Change times, one of them twice so that recencies tie.
const CHANGED: [&str; 3] = [
    "2026-11-19T12:00:00Z",
    "2026-11-20T12:00:00Z",
    "2026-11-20T12:00:00Z",
];

fn time(text: &str) -> Time {
    parse_time(text).expect("fixture time")
}

/// A random catalogue of 0 to 40 versions, sorted by ID.
pub fn catalogue(rng: &mut Rng) -> Catalogue {
    let count = rng.below(41);
    let mut vehicles: Vec<Vehicle> = (0..count).map(|n| vehicle(rng, n)).collect();
    vehicles.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    vehicles.dedup_by(|a, b| a.id == b.id);
    Catalogue {
        meta: CatalogueMeta {
            snapshot_at: time("2026-11-21T15:10:00Z"),
            catalogue_observed_at: time("2026-11-21T15:00:00Z"),
            source: "https://listing.example".into(),
            site_name: "Listing".into(),
            synthetic: true,
            current_rate: Some(ExchangeRate {
                ars_per_usd: Some(CURRENT_RATE),
                observed_at: time("2026-11-21T14:05:00Z"),
            }),
            rate_source: None,
        },
        vehicles,
    }
}

pub fn vehicle(rng: &mut Rng, n: usize) -> Vehicle {
    // IDs that differ only in case, and IDs with characters to encode.
    let id = match rng.below(4) {
        0 => format!("v{n}"),
        1 => format!("V{n}"),
        2 => format!("v {n}/ñ"),
        _ => format!("a-{}", rng.below(30)),
    };
    let price = *rng.pick(&PRICES);
    let sufficient_history = !rng.one_in(3);
    let discount_pct = rng.maybe(|rng| *rng.pick(&DISCOUNTS));
    let shown = discount_pct.filter(|_| sufficient_history);
    let opportunity = shown.is_some_and(|pct| pct >= 5.0);
    let mut recent_changes = RecentChanges::default();
    let mut new_opportunities = RecentChanges::default();
    for (slot, window) in Window::ALL.iter().enumerate() {
        // Windows nest: a change in 1d is also in 3d and 7d.
        if rng.below(3 - slot.min(2)) == 0 {
            let change = change(rng);
            let newly = opportunity && (change.kind == ChangeKind::NewOpportunity || rng.one_in(2));
            if change.kind == ChangeKind::PriceDrop || opportunity {
                recent_changes.set(*window, Some(change.clone()));
            }
            if newly {
                new_opportunities.set(*window, Some(change));
            }
        }
    }
    // Half the versions quoted in pesos, at a peso price that need not
    // follow the dollar one (each check has its own rate); the other half's
    // peso price is the dollar one at the current rate.
    let peso_price = rng.one_in(2).then(|| *rng.pick(&PESO_PRICES));
    let currency = match peso_price {
        Some(_) => Currency::Ars,
        None => Currency::Usd,
    };
    let best = Quote::bare(
        &format!("q{n}"),
        peso_price.unwrap_or(price),
        currency,
        price,
    );
    let specs = rng.maybe(|rng| Specs {
        collected_at: "2026-10-02".into(),
        source_label: None,
        values: match rng.below(4) {
            0 => BTreeMap::from([("aebLowSpeed".into(), Value::Bool(true))]),
            1 => BTreeMap::from([("aebLowSpeed".into(), Value::Bool(false))]),
            2 => BTreeMap::from([("aebLowSpeed".into(), Value::from("optional"))]),
            _ => BTreeMap::new(),
        },
        source_of: BTreeMap::new(),
        sources: BTreeMap::new(),
        gaps: BTreeMap::new(),
    });
    Vehicle {
        identity: Identity {
            source_url: format!("https://listing.example/{n}"),
            make: (*rng.pick(&MAKES)).into(),
            model: (*rng.pick(&MODELS)).into(),
            trim: (*rng.pick(&TRIMS)).into(),
            trim_display: rng.maybe(|rng| (*rng.pick(&TRIMS)).to_uppercase()),
            body_type: rng.maybe(|rng| *rng.pick(&BodyType::ALL[..4])),
            fuel: rng.maybe(|rng| *rng.pick(&Fuel::ALL[..3])),
            transmission: rng.maybe(|rng| *rng.pick(Transmission::ALL)),
            seats: rng.maybe(|rng| *rng.pick(&[2, 5, 5, 7])),
            airbags: rng.maybe(|rng| *rng.pick(&[0, 2, 6, 6, 9])),
            ..Identity::default()
        },
        drivetrain: rng.maybe(|rng| *rng.pick(&Drivetrain::ALL[..4])),
        observed_at: time(rng.pick::<&str>(&OBSERVED)),
        current_price_usd: price,
        comparison: Comparison {
            window_days: WINDOW_DAYS,
            typical_price_usd: shown.map(|_| 30000.0),
            lowest_price_usd: Some(price),
            discount_pct,
            observed_weeks: 8,
            sufficient_history,
            opportunity,
        },
        recent_changes,
        new_opportunities,
        specs: specs.map(std::sync::Arc::new),
        price_ars: Some(peso_price.unwrap_or((price * CURRENT_RATE).round())),
        // Cities in two spellings of one name, and the quotes without one.
        dealers: rng.maybe(|rng| {
            let places = ["Córdoba", "Cordoba", "CABA", "Neuquén", NO_LOCATION];
            let mut by_location: Vec<LocationSpread> = (0..1 + rng.below(3))
                .map(|_| LocationSpread {
                    location: (*rng.pick(&places)).into(),
                    dealers: 1,
                    lowest_usd: Some(price),
                    lowest_ars: None,
                })
                .collect();
            by_location.dedup_by(|a, b| a.location == b.location);
            DealerSpread {
                count: by_location.len() as u32,
                with_stock: 0,
                lowest_usd: Some(price),
                median_usd: Some(price),
                highest_usd: Some(price),
                lowest_ars: None,
                median_ars: None,
                highest_ars: None,
                by_location,
            }
        }),
        // The fields above draw from `rng` in this order; the rest are
        // the bare version's.
        ..Vehicle::bare(&id, vec![best], time("2026-11-21T14:05:00Z"))
    }
}

/// A drop or a new opportunity, with recencies that tie often.
pub fn change(rng: &mut Rng) -> RecentChange {
    let at = rng.maybe(|rng| time(rng.pick::<&str>(&CHANGED)));
    let drop = rng.one_in(2);
    RecentChange {
        kind: if drop {
            ChangeKind::PriceDrop
        } else {
            ChangeKind::NewOpportunity
        },
        changed_at: if drop { at } else { None },
        qualified_since: if drop { None } else { at },
        drop_pct: drop.then(|| *rng.pick(&[2.0, 3.5, 3.5, 8.25])),
        previous_price_usd: None,
        lowest_30d_usd: None,
        returns_to_earlier_price: None,
        current_price_usd: 20000.0,
        conversion_basis: "current_observed_exchange_rate".into(),
        detail: Default::default(),
    }
}

/// A random valid query of a list operation (or a detail or comparison).
pub fn query(rng: &mut Rng, catalogue: &Catalogue) -> String {
    let some_vehicle = |rng: &mut Rng| {
        let vehicles = &catalogue.vehicles;
        (!vehicles.is_empty()).then(|| &vehicles[rng.below(vehicles.len())])
    };
    let mut params: Vec<(&str, String)> = Vec::new();
    let path = match rng.below(6) {
        0 | 1 => {
            let like = some_vehicle(rng);
            filters(rng, &mut params, like);
            if rng.one_in(3) {
                params.push((
                    "opportunitiesOnly",
                    rng.pick(&["true", "false"]).to_string(),
                ));
            }
            if rng.one_in(2) {
                let sorts = ["price_asc", "price_desc", "discount_desc", "name"];
                params.push(("sort", rng.pick(&sorts).to_string()));
            }
            "/api/v1/vehicles"
        }
        2 | 3 => {
            let like = some_vehicle(rng);
            filters(rng, &mut params, like);
            let kinds = ["opportunities", "price_drops", "new_opportunities"];
            let sorts = ["recommended", "recent", "price_asc", "discount_desc"];
            for (name, values) in [("kind", &kinds[..]), ("window", &["1d", "3d", "7d"][..])] {
                if !rng.one_in(4) {
                    params.push((name, rng.pick(values).to_string()));
                }
            }
            if !rng.one_in(4) {
                params.push(("sort", rng.pick(&sorts).to_string()));
            }
            "/api/v1/deals"
        }
        4 => {
            let (make, model) = some_vehicle(rng).map_or(("Fiat".into(), "Cronos".into()), |v| {
                (v.identity.make.to_lowercase(), v.identity.model.clone())
            });
            params.push(("make", make));
            params.push(("model", model));
            "/api/v1/models/prices"
        }
        _ => {
            let ids: Vec<String> = (0..2 + rng.below(3))
                .filter_map(|_| some_vehicle(rng).map(|v| percent_encode(&v.id)))
                .collect();
            // Commas as typed, or encoded as URL builders send them.
            let comma = if rng.one_in(2) { "," } else { "%2C" };
            return format!("/api/v1/compare?ids={}", ids.join(comma));
        }
    };
    if rng.one_in(2) {
        params.push(("limit", (1 + rng.below(12)).to_string()));
    }
    if rng.one_in(2) {
        params.push(("offset", rng.below(45).to_string()));
    }
    let query: Vec<String> = params
        .iter()
        .map(|(name, value)| format!("{name}={}", percent_encode(value)))
        .collect();
    format!("{path}?{}", query.join("&"))
}

/// Up to three shared filters, with values that often match `like`: tuned
/// values (ties, accents, bounds) for the filters named here, and for any
/// other row a value of its kind ([`of_its_kind`]), so a new filter is
/// asked as soon as it is in the table.
fn filters(rng: &mut Rng, params: &mut Vec<(&str, String)>, like: Option<&Vehicle>) {
    for _ in 0..rng.below(4) {
        let param = rng.pick(FILTERS);
        let name = param.name;
        if params.iter().any(|(taken, _)| *taken == name) {
            continue;
        }
        let value = match name {
            "q" => match like {
                Some(v) if rng.one_in(2) => {
                    let word = v.identity.trim.split(' ').next().unwrap_or("x");
                    format!("{} {}", word.to_uppercase(), &v.identity.make[..2])
                }
                _ => rng.pick(&["citroen", "4x", "li", "zz", " "]).to_string(),
            },
            "make" => like.map_or("Toyota".into(), |v| v.identity.make.to_uppercase()),
            "model" => like.map_or("Hilux".into(), |v| v.identity.model.clone()),
            "type" => rng.pick(&BodyType::ALL[..4]).as_str().into(),
            "fuel" => rng.pick(&Fuel::ALL[..3]).as_str().into(),
            "transmission" => rng.pick(Transmission::ALL).as_str().into(),
            "drivetrain" => rng.pick(&Drivetrain::ALL[..4]).as_str().into(),
            "minPriceUsd" => rng.pick(&["0", "19999.99", "21000.5", "30000"]).to_string(),
            "maxPriceUsd" => rng.pick(&["21000.5", "33000", "99999"]).to_string(),
            "minPriceArs" => rng
                .pick(&["0", "29176000", "36467500", "40000000"])
                .to_string(),
            "maxPriceArs" => rng.pick(&["29176000", "36467500", "60000000"]).to_string(),
            "minSeats" => rng.pick(&["1", "5", "7"]).to_string(),
            "minAirbags" => rng.pick(&["0", "6", "9"]).to_string(),
            "minDiscountPct" => rng.pick(&["0", "4.99", "5", "7.25"]).to_string(),
            "location" => rng
                .pick(&[
                    "cordoba", "CÓRDOBA", "caba", "Neuquen", "sin dato", "Rosario",
                ])
                .to_string(),
            _ => of_its_kind(rng, param, like),
        };
        params.push((name, value));
    }
}

/// A value of a filter from its row alone: half the time `like`'s own fact
/// (which the filter admits, for a choice, a boolean or a bound), else one
/// within the row's kind.
fn of_its_kind(rng: &mut Rng, param: &Param, like: Option<&Vehicle>) -> String {
    let filter = param.filter().expect("a filter row");
    let fact = like.and_then(|v| (filter.fact)(&Facts::of(v)).into_iter().next());
    if let Some(fact) = fact
        && rng.one_in(2)
    {
        return fact.to_text();
    }
    match param.kind {
        Kind::Boolean => rng.pick(&["true", "false"]).to_string(),
        Kind::Choice { values, .. } => rng.pick(values).to_string(),
        Kind::Integer { min, max, .. } => {
            (min as usize + rng.below((max - min) as usize + 1)).to_string()
        }
        Kind::Number { min, max } => {
            let top = max.unwrap_or(min + 100.0);
            (min + (top - min) * rng.below(101) as f64 / 100.0).to_string()
        }
        Kind::Text { .. } => rng.pick(&["a", "li", "zz"]).to_string(),
        Kind::Ids { .. } => panic!("{}: no filter is a list of IDs", param.name),
    }
}
