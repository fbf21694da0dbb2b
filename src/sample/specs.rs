//! Sample stage, specifications: the official-source record of a version
//! (about 85% have one): dimensions and equipment from the make's technical
//! sheet or the model's type approval (LCM), consumption from the Secretaría
//! de Energía efficiency label, each value attributed to its source, and
//! recorded gaps for values the sources leave unclear. Every URL is under a
//! reserved `.example` domain.

use std::collections::BTreeMap;

use chrono::Duration;
use serde_json::{Value, json};

use super::lineup::Entry;
use super::makes::slug;
use super::rng::Rng;
use crate::snapshot::{SpecSource, Specs};
use crate::time::{Time, argentina, format_time};
use crate::vocab::{BodyType, Fuel};

/// Share of versions with an official record.
const WITH_SPECS: f64 = 0.85;

/// Dimension ranges by body type, smallest to largest car: length, width,
/// height, wheelbase (mm), kerb weight (kg), luggage or load volume (L),
/// fuel tank (L).
#[rustfmt::skip] // a table reads best one body type per line
fn ranges(body: BodyType) -> [(f64, f64); 7] {
    match body {
        BodyType::Hatchback => [(3700., 4300.), (1650., 1800.), (1470., 1500.), (2420., 2640.), (950., 1450.), (260., 380.), (38., 50.)],
        BodyType::Suv => [(4150., 4950.), (1760., 1980.), (1580., 1780.), (2560., 2990.), (1200., 2300.), (350., 700.), (45., 80.)],
        BodyType::Pickup => [(4480., 5350.), (1730., 1920.), (1580., 1880.), (2740., 3270.), (1100., 2250.), (800., 1250.), (55., 80.)],
        BodyType::Van => [(4150., 5930.), (1720., 2020.), (1800., 2550.), (2700., 3660.), (1200., 2100.), (3000., 10500.), (50., 80.)],
        BodyType::Mpv => [(4400., 5150.), (1730., 1995.), (1660., 1780.), (2620., 3090.), (1200., 2100.), (160., 450.), (50., 72.)],
        BodyType::Coupe => [(4250., 4800.), (1770., 1920.), (1280., 1400.), (2480., 2850.), (1250., 1800.), (230., 400.), (50., 61.)],
        _ => [(4400., 4950.), (1730., 1860.), (1440., 1470.), (2600., 2960.), (1100., 1750.), (450., 540.), (44., 66.)],
    }
}

/// Engine names that mark a turbocharged petrol engine (more torque).
const TURBO_MARKS: [&str; 11] = [
    "Turbo",
    "TSI",
    "T200",
    "THP",
    "TFSI",
    "EcoBoost",
    "TCe",
    "T270",
    "T-GDi",
    "Boosterjet",
    "PureTech",
];

/// The specification record of a version, or `None` for the 15% without.
pub fn compute_specs(entry: &Entry, end: Time, seed: u64, rng: &mut Rng) -> Option<Specs> {
    if !rng.chance(WITH_SPECS) {
        return None;
    }
    let mut values = measured_values(entry, seed);
    performance_values(entry, &mut values);
    equipment_values(entry, rng, &mut values);
    let collected = end - Duration::days(rng.between(5, 120));
    let sources = sources(entry, collected, rng);
    let mut source_of = BTreeMap::new();
    for name in values.keys() {
        let key = match name.as_str() {
            "consumptionL100km" => "etiqueta",
            "lengthMm" | "widthMm" | "heightMm" | "wheelbaseMm" | "weightKg"
                if sources.contains_key("lcm") =>
            {
                "lcm"
            }
            _ => "ficha",
        };
        source_of.insert(name.clone(), key.to_owned());
    }
    let gaps = record_gaps(entry, rng, &mut values, &mut source_of);
    let mut sources = sources;
    sources.retain(|key, _| source_of.values().any(|used| used == key));
    let source_label = rng
        .chance(0.9)
        .then(|| format!("Ficha técnica {} {}", entry.make.name, entry.model.name));
    Some(Specs {
        collected_at: format_time(collected),
        source_label,
        values,
        source_of,
        sources,
        gaps,
    })
}

/// Dimensions, weight and volumes: one set per model (all its trims share
/// the body), placed within the body type's range by the model's price.
fn measured_values(entry: &Entry, seed: u64) -> BTreeMap<String, Value> {
    let mut model_rng = Rng::derive(
        seed,
        &format!("model/{}/{}", entry.make.name, entry.model.name),
    );
    let cheapest = entry
        .model
        .trims
        .iter()
        .map(|trim| trim.usd)
        .min()
        .unwrap_or(entry.trim.usd);
    let size = ((f64::from(cheapest) - 14_000.0) / 76_000.0).clamp(0.0, 1.0);
    let names = [
        "lengthMm",
        "widthMm",
        "heightMm",
        "wheelbaseMm",
        "weightKg",
        "trunkL",
        "fuelTankL",
    ];
    let mut values = BTreeMap::new();
    for (name, (low, high)) in names.iter().zip(ranges(entry.model.body)) {
        let position = (size + model_rng.uniform(-0.12, 0.12)).clamp(0.0, 1.0);
        let value = (low + (high - low) * position).round();
        if *name == "fuelTankL" && entry.trim.fuel == Fuel::Electric {
            continue;
        }
        values.insert((*name).to_owned(), json!(value as i64));
    }
    // Heavier engines and four-wheel drive add weight to the same body.
    if let Some(Value::Number(weight)) = values.get("weightKg") {
        let extra = f64::from(entry.trim.cv) * 0.6
            + if entry.trim.fuel == Fuel::Electric {
                250.0
            } else {
                0.0
            };
        let weight = weight.as_f64().unwrap_or(0.0) + extra.round();
        values.insert("weightKg".to_owned(), json!(weight as i64));
    }
    values
}

/// Power, torque, top speed and consumption from the trim's power and fuel.
fn performance_values(entry: &Entry, values: &mut BTreeMap<String, Value>) {
    let trim = entry.trim;
    let cv = f64::from(trim.cv);
    let turbo = TURBO_MARKS.iter().any(|mark| trim.name.contains(mark));
    let torque_per_cv = match trim.fuel {
        Fuel::Diesel => 2.45,
        Fuel::Petrol if turbo => 1.6,
        Fuel::Petrol => 1.3,
        Fuel::Hybrid => 1.35,
        Fuel::MildHybrid => 1.5,
        _ => 1.6,
    };
    let cap = match (entry.model.body, trim.fuel) {
        (BodyType::Van, _) => 165.0,
        (BodyType::Pickup, _) => 185.0,
        (_, Fuel::Electric) if cv < 300.0 => 180.0,
        _ => 250.0,
    };
    values.insert("powerKw".to_owned(), json!((cv * 0.7355).round() as i64));
    values.insert("powerUnit".to_owned(), json!("kW"));
    values.insert(
        "torqueNm".to_owned(),
        json!(((cv * torque_per_cv / 5.0).round() * 5.0) as i64),
    );
    values.insert(
        "topSpeedKmh".to_owned(),
        json!((120.0 + cv * 0.45).clamp(140.0, cap).round() as i64),
    );
    let weight = values
        .get("weightKg")
        .and_then(Value::as_f64)
        .unwrap_or(1500.0);
    let litres = consumption(trim.fuel, cv, weight);
    if let Some(litres) = litres {
        values.insert(
            "consumptionL100km".to_owned(),
            json!((litres * 10.0).round() / 10.0),
        );
    }
    values.insert("airbags".to_owned(), json!(trim.airbags));
    values.insert("seats".to_owned(), json!(entry.model.seats_of(trim)));
}

/// Combined consumption in l/100 km as a label would print it, by fuel,
/// power and weight; none for electric cars.
fn consumption(fuel: Fuel, cv: f64, weight: f64) -> Option<f64> {
    let petrol = 4.8 + cv * 0.012 + weight * 0.0012;
    match fuel {
        Fuel::Petrol => Some(petrol),
        Fuel::MildHybrid => Some(0.9 * petrol),
        Fuel::Diesel => Some(4.0 + cv * 0.01 + weight * 0.0018),
        Fuel::Hybrid => Some(4.2 + weight * 0.0005),
        Fuel::PluginHybrid => Some(1.4 + weight * 0.0003),
        _ => None,
    }
}

/// Safety equipment: `true`, `false` or `"optional"`. Imports and top trims
/// have low-speed automatic emergency braking; entry trims mostly do not.
fn equipment_values(entry: &Entry, rng: &mut Rng, values: &mut BTreeMap<String, Value>) {
    let (rank, count) = entry.rank;
    let aeb = if entry.model.usd || (rank + 1 == count && entry.trim.usd > 22_000) {
        json!(true)
    } else if rank == 0 || entry.trim.usd < 20_000 {
        json!(false)
    } else {
        [json!(true), json!("optional"), json!(false)][rng.weighted(&[4, 3, 3])].clone()
    };
    let lane = if entry.model.usd || rank + 1 == count {
        json!(true)
    } else {
        json!(rank > 0 && rng.chance(0.4))
    };
    values.insert("aebLowSpeed".to_owned(), aeb);
    values.insert("laneKeepAssist".to_owned(), lane);
    // Stability control and ISOFIX are compulsory on new cars in Argentina.
    values.insert("escStability".to_owned(), json!(true));
    values.insert("isofix".to_owned(), json!(true));
}

/// The candidate sources: the make's technical sheet, the energy label and,
/// for some models, the type approval (LCM).
fn sources(entry: &Entry, collected: Time, rng: &mut Rng) -> BTreeMap<String, SpecSource> {
    let (make, model) = (entry.make.name, entry.model.name);
    let date =
        |rng: &mut Rng, days: (i64, i64)| collected - Duration::days(rng.between(days.0, days.1));
    let mut sources = BTreeMap::new();
    let sheet = date(rng, (60, 400));
    let year = sheet.with_timezone(&argentina()).format("%Y");
    let url = format!(
        "https://{}.example/ar/modelos/{}/ficha-tecnica.pdf",
        slug(make),
        slug(model)
    );
    let printed = rng.chance(0.8).then(|| day_text(sheet));
    let title = format!("Ficha técnica {model} {year}");
    let ficha = official(
        format!("{make} Argentina"),
        title,
        url,
        printed,
        date(rng, (0, 20)),
    );
    sources.insert("ficha".to_owned(), ficha);

    let title = format!(
        "Etiqueta de eficiencia energética vehicular: {make} {model} {}",
        entry.trim.name
    );
    let url = format!("https://energia.example/etiquetado-vehicular/{}", entry.id);
    let printed = Some(day_text(date(rng, (30, 500))));
    let label = official(
        "Secretaría de Energía".to_owned(),
        title,
        url,
        printed,
        date(rng, (0, 20)),
    );
    sources.insert("etiqueta".to_owned(), label);

    if rng.chance(0.5) {
        let title = format!("Licencia para Configuración de Modelo (LCM) {make} {model}");
        let url = format!(
            "https://industria.example/lcm/{}",
            rng.between(10_000, 99_999)
        );
        let printed = Some(day_text(date(rng, (90, 700))));
        let publisher = "Secretaría de Industria y Comercio".to_owned();
        sources.insert(
            "lcm".to_owned(),
            official(publisher, title, url, printed, date(rng, (0, 20))),
        );
    }
    sources
}

/// An official source document.
fn official(
    publisher: String,
    title: String,
    url: String,
    printed: Option<String>,
    retrieved: Time,
) -> SpecSource {
    SpecSource {
        publisher,
        title,
        url,
        kind: "official".to_owned(),
        document_date: printed,
        retrieved_at: format_time(retrieved),
    }
}

/// A date as the documents print it, in Argentine time.
fn day_text(time: Time) -> String {
    time.with_timezone(&argentina())
        .format("%Y-%m-%d")
        .to_string()
}

/// Removes the values the sources leave unclear and records why.
fn record_gaps(
    entry: &Entry,
    rng: &mut Rng,
    values: &mut BTreeMap<String, Value>,
    source_of: &mut BTreeMap<String, String>,
) -> BTreeMap<String, Value> {
    let label = values
        .get("consumptionL100km")
        .and_then(Value::as_f64)
        .unwrap_or(8.0);
    let mut gaps = BTreeMap::new();
    let mut gap = |name: &str, reason: &str, note: String| {
        values.remove(name);
        source_of.remove(name);
        gaps.insert(name.to_owned(), json!({ "reason": reason, "note": note }));
    };
    if rng.chance(0.2) {
        gap(
            "topSpeedKmh",
            "missing",
            "La ficha técnica no informa la velocidad máxima.".to_owned(),
        );
    }
    if entry.trim.fuel == Fuel::Electric {
        let note = "La etiqueta informa el consumo eléctrico en kWh/100 km; no se asigna al consumo \
                    de combustible en l/100 km.";
        gap("consumptionL100km", "unassigned", note.to_owned());
    } else if rng.chance(0.08) {
        let note = format!(
            "La etiqueta informa {} l/100 km y la ficha técnica {} l/100 km.",
            one_decimal(label),
            one_decimal(label + 0.6)
        );
        gap("consumptionL100km", "disputed", note);
    }
    if rng.chance(0.06) {
        gap(
            "trunkL",
            "unreadable",
            "La capacidad de carga no se lee en la copia publicada de la ficha.".to_owned(),
        );
    }
    if rng.chance(0.05) {
        gap(
            "weightKg",
            "contradictory",
            "La LCM y la ficha técnica difieren en el peso en orden de marcha.".to_owned(),
        );
    }
    if !entry.model.usd && rng.chance(0.1) {
        gap(
            "aebLowSpeed",
            "missing",
            "La ficha no detalla el frenado autónomo de emergencia.".to_owned(),
        );
    }
    gaps
}

/// A value as an Argentine reader writes it in a note: one decimal, comma
/// separator (`5.2` -> `5,2`).
fn one_decimal(value: f64) -> String {
    format!("{value:.1}").replace('.', ",")
}
