//! Sample stage, one version: turns a lineup entry into a snapshot
//! [`Version`]: catalogue facts, catalogue runs, quote checks and specs, each
//! drawn from its own random stream so they never shift one another.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::lineup::Entry;
use super::makes::slug;
use super::market::Market;
use super::plan::Plan;
use super::prices::{Pricing, random_plan};
use super::quotes::{dealers, quote_checks};
use super::rng::Rng;
use super::scripts::case_plan;
use super::specs::compute_specs;
use crate::snapshot::{CatalogueRun, Identity, Version};

/// Address of the (invented) listing site.
pub const SOURCE: &str = "https://concesionarias.example/0km";
/// Builds one version of the sample.
pub fn build_version(entry: &Entry, market: &Market, seed: u64) -> Version {
    let stream = Rng::derive(seed, &entry.id);
    let pricing = Pricing::of(entry);
    let plan: Plan = match entry.case {
        Some(case) => case_plan(case, &pricing, market, &mut stream.fork(1)),
        None => random_plan(&pricing, market, &mut stream.fork(1)),
    };
    let runs = plan.runs();
    let sellers = dealers(entry.make.code, plan.scripted, &mut stream.fork(2));
    let checks = quote_checks(&plan, &runs, market, &sellers, &mut stream.fork(3));
    let specs = compute_specs(entry, market.end, seed, &mut stream.fork(4));
    let catalogue = runs
        .iter()
        .map(|&(first, last, price)| CatalogueRun {
            first_seen: market.check_time(first),
            last_seen: market.check_time(last),
            price,
        })
        .collect();

    let mut facts = stream.fork(5);
    let trim = entry.trim;
    let (tier, tier_label) = tier(entry, &mut facts);
    let fact_sources = fact_sources(specs.is_some(), &mut facts);
    // Drawn in this order, as the snapshots already published were.
    let trim_display = facts.chance(0.7).then(|| trim_display(&entry.trim_name));
    let drivetrain = (!facts.chance(0.03)).then_some(trim.drive);
    let seats = (!facts.chance(0.03)).then_some(u32::from(entry.model.seats_of(trim)));
    let airbags = (!facts.chance(0.05)).then_some(u32::from(trim.airbags));
    Version {
        id: entry.id.clone(),
        identity: Identity {
            source_url: format!(
                "{SOURCE}/{}/{}/{}",
                slug(entry.make.name),
                slug(entry.model.name),
                entry.id
            ),
            make: entry.make.name.to_owned(),
            model: entry.model.name.to_owned(),
            trim: entry.trim_name.clone(),
            trim_display,
            body_type: Some(entry.model.body),
            tier,
            tier_label,
            fuel: Some(trim.fuel),
            transmission: Some(trim.gearbox),
            seats,
            airbags,
            fact_sources: Arc::new(fact_sources),
        },
        drivetrain,
        catalogue,
        checks,
        earlier: Vec::new(),
        specs: specs.map(Arc::new),
    }
}

/// The catalogue's native tier: entry, middle or top of the model's range
/// by the trim's position in it (never inferred from price); some listings
/// carry none.
fn tier(entry: &Entry, rng: &mut Rng) -> (Option<String>, Option<String>) {
    let (rank, count) = entry.rank;
    if count < 2 || rng.chance(0.1) {
        return (None, None);
    }
    let (code, label) = match rank {
        0 => ("B", "Base"),
        _ if rank + 1 == count => ("A", "Alta"),
        _ => ("M", "Media"),
    };
    (Some(code.to_owned()), Some(label.to_owned()))
}

/// Which kind of source gave each catalogue fact: the official record when
/// there is one, else the catalogue itself.
fn fact_sources(official: bool, rng: &mut Rng) -> BTreeMap<String, String> {
    if rng.chance(0.05) {
        return BTreeMap::new();
    }
    let kind = |name: &str| match (official, name) {
        (true, "fuel" | "seats" | "airbags") => "official",
        _ => "catalogue",
    };
    ["airbags", "drivetrain", "fuel", "seats", "transmission"]
        .iter()
        .map(|name| ((*name).to_owned(), kind(name).to_owned()))
        .collect()
}

/// The display form of a trim: gearbox codes spelled out in Spanish.
fn trim_display(trim: &str) -> String {
    let words: Vec<&str> = trim
        .split(' ')
        .map(|word| match word {
            "AT" => "automática",
            "MT" => "manual",
            _ => word,
        })
        .collect();
    words.join(" ")
}
