//! API stage, index, loading: the parts an index is built from, each
//! version's facts and JSON forms by position, from a computed catalogue
//! (its records serialized on a thread of their own while the facts are
//! indexed) or from the edge data file and its open records and prices
//! files, checked (its Summaries on a thread of their own while the facts
//! are indexed).

use serde_json::value::{RawValue, to_raw_value};

use super::derived::Indexed;
use super::records::Records;
use crate::api::facts::{Columns, Facts, IndexFile};
use crate::api::links::Links;
use crate::api::types::{Summary, VehicleRecord};
use crate::catalogue::{Catalogue, CatalogueMeta, DealerPoint};

/// What an index is built from: its catalogue's times and site, and each
/// version's facts and JSON forms, by position.
pub(super) struct Parts {
    pub(super) meta: CatalogueMeta,
    pub(super) base_url: String,
    pub(super) links: Links,
    pub(super) facts: Vec<Facts>,
    pub(super) summaries: Vec<Box<RawValue>>,
    pub(super) records: Records,
    pub(super) prices: Records,
}

/// The parts of a computed catalogue whose site lives at `base_url`, and
/// what its facts give, its records kept by `store` (as
/// `Index::from_catalogue_with` says).
pub(super) fn catalogue_parts<'c, E: Send>(
    catalogue: &'c Catalogue,
    base_url: &str,
    store: impl FnOnce(
        &mut dyn Iterator<Item = VehicleRecord<'c>>,
        &mut dyn Iterator<Item = &'c [DealerPoint]>,
    ) -> Result<(Records, Records), E>
    + Send,
) -> Result<(Indexed, Parts), E> {
    let vehicles = &catalogue.vehicles;
    let links = Links::new(
        base_url,
        vehicles
            .iter()
            .map(|v| (v.identity.make.as_str(), v.identity.model.as_str())),
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
        meta,
        base_url: base_url.to_owned(),
        links,
        facts,
        summaries,
        records,
        prices,
    };
    Ok((indexed, parts))
}

/// The parts of the edge data `generate` wrote, checked as
/// `Index::from_file` says, and what their facts give.
pub(super) fn file_parts(
    file: IndexFile,
    records: std::fs::File,
    prices: std::fs::File,
) -> Result<(Indexed, Parts), String> {
    check_layout(&file)?;
    let records = Records::open(records, file.record_starts)?;
    let prices = Records::open(prices, file.price_starts)?;
    let links = Links::new(
        &file.base_url,
        file.vehicles
            .facts
            .iter()
            .map(|facts| (facts.identity.make.as_str(), facts.identity.model.as_str())),
    );
    let Columns {
        facts,
        summaries: texts,
    } = file.vehicles;
    let meta = file.meta;
    // The Summaries are checked as JSON while the facts are indexed: the
    // check reads every byte of them, and the index does not need them.
    let (indexed, summaries) = std::thread::scope(|scope| {
        let summaries = scope.spawn(|| {
            texts
                .into_iter()
                .zip(&facts)
                .map(|(text, facts)| {
                    RawValue::from_string(text)
                        .map_err(|err| format!("the Summary of {:?} is not JSON: {err}", facts.id))
                })
                .collect::<Result<Vec<_>, _>>()
        });
        let indexed = Indexed::of(&meta, &facts);
        let summaries = summaries
            .join()
            .expect("invariant: checking the Summaries does not panic");
        (indexed, summaries)
    });
    let parts = Parts {
        meta,
        base_url: file.base_url,
        links,
        facts,
        summaries: summaries?,
        records,
        prices,
    };
    Ok((indexed, parts))
}

/// Whether `file` holds what a lookup and the records need: its vehicles
/// sorted by ID, each once (positions are ranks by ID, and the ID table
/// keys each once), and one record and one price offset a vehicle, and
/// the end.
fn check_layout(file: &IndexFile) -> Result<(), String> {
    let vehicles = &file.vehicles.facts;
    if !vehicles
        .windows(2)
        .all(|pair| pair[0].id.as_bytes() < pair[1].id.as_bytes())
    {
        return Err("vehicles are not sorted by ID".to_owned());
    }
    if file.record_starts.len() != vehicles.len() + 1 {
        return Err(format!(
            "{} record offsets for {} versions",
            file.record_starts.len(),
            vehicles.len()
        ));
    }
    if file.price_starts.len() != vehicles.len() + 1 {
        return Err(format!(
            "{} price offsets for {} versions",
            file.price_starts.len(),
            vehicles.len()
        ));
    }
    Ok(())
}

/// The raw JSON of a value, through the one serializer.
pub fn raw_json<T: serde::Serialize>(value: &T) -> Box<RawValue> {
    to_raw_value(value).expect("invariant: response types serialize to JSON")
}
