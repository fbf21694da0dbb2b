//! API stage, index: the catalogue with what queries need precomputed (folded
//! names and search text, ID lookup, links), and the conversions from a
//! catalogue vehicle to the spec's Summary and Vehicle shapes.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::links::Links;
use crate::api::text::fold;
use crate::api::types::{CatalogueData, Envelope, MakeModel, Summary, VehicleRecord};
use crate::catalogue::{Catalogue, Vehicle};
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission};

/// A catalogue ready to answer queries.
#[derive(Debug, Clone)]
pub struct Index {
    catalogue: Catalogue,
    links: Links,
    folded: Vec<FoldedNames>,
}

#[derive(Debug, Clone)]
struct FoldedNames {
    make: String,
    model: String,
    /// Make, model, trim and display trim, folded, space separated.
    text: String,
}

impl Index {
    /// Indexes a catalogue whose site lives at `base_url`.
    pub fn new(catalogue: Catalogue, base_url: &str) -> Self {
        let links = Links::new(base_url, &catalogue);
        let folded = catalogue
            .vehicles
            .iter()
            .map(|vehicle| FoldedNames {
                make: fold(&vehicle.make),
                model: fold(&vehicle.model),
                text: fold(&format!(
                    "{} {} {} {}",
                    vehicle.make,
                    vehicle.model,
                    vehicle.trim,
                    vehicle.trim_display.as_deref().unwrap_or("")
                )),
            })
            .collect();
        Index {
            catalogue,
            links,
            folded,
        }
    }

    /// The catalogue.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// Every published version, in ID order.
    pub fn vehicles(&self) -> &[Vehicle] {
        &self.catalogue.vehicles
    }

    /// The service's URLs.
    pub fn links(&self) -> &Links {
        &self.links
    }

    /// The folded make of the vehicle at `position`.
    pub fn folded_make(&self, position: usize) -> &str {
        &self.folded[position].make
    }

    /// The folded model of the vehicle at `position`.
    pub fn folded_model(&self, position: usize) -> &str {
        &self.folded[position].model
    }

    /// The folded search text of the vehicle at `position`.
    pub fn folded_text(&self, position: usize) -> &str {
        &self.folded[position].text
    }

    /// The `name` sort key: folded make, model and trim.
    pub fn name_key(&self, vehicle: &Vehicle) -> (String, String, String) {
        (
            fold(&vehicle.make),
            fold(&vehicle.model),
            fold(&vehicle.trim),
        )
    }

    /// The published version with exactly this ID (case-sensitive).
    pub fn find(&self, id: &str) -> Option<&Vehicle> {
        let vehicles = &self.catalogue.vehicles;
        vehicles
            .binary_search_by(|vehicle| vehicle.id.as_bytes().cmp(id.as_bytes()))
            .ok()
            .map(|i| &vehicles[i])
    }

    /// Wraps a payload in the envelope.
    pub fn envelope<T>(&self, data: T) -> Envelope<T> {
        let meta = &self.catalogue.meta;
        Envelope {
            schema_version: crate::api::types::SCHEMA_VERSION,
            snapshot_at: meta.snapshot_at,
            catalogue_observed_at: meta.catalogue_observed_at,
            source: meta.source.clone(),
            methodology_url: self.links.methodology(),
            documentation_url: self.links.documentation(),
            data,
        }
    }

    /// The Summary of a version.
    pub fn summary<'a>(&self, vehicle: &'a Vehicle) -> Summary<'a> {
        Summary {
            id: &vehicle.id,
            url: self.links.vehicle(&vehicle.id),
            feed_url: self.links.vehicle_feed(&vehicle.id),
            source_url: &vehicle.source_url,
            make: &vehicle.make,
            model: &vehicle.model,
            trim: &vehicle.trim,
            trim_display: vehicle.trim_display.as_deref(),
            body_type: vehicle.body_type,
            tier: vehicle.tier.as_deref(),
            tier_label: vehicle.tier_label.as_deref(),
            fuel: vehicle.fuel,
            transmission: vehicle.transmission,
            seats: vehicle.seats,
            airbags: vehicle.airbags,
            fact_sources: &vehicle.fact_sources,
            observed_at: vehicle.observed_at,
            current_price_usd: vehicle.current_price_usd,
            comparison: &vehicle.comparison,
            has_specs: vehicle.has_specs(),
            recent_changes: &vehicle.recent_changes,
            quote_count: vehicle.quote_count,
            best_quote: vehicle.best_quote.as_ref(),
            availability: "InStock",
            reasons: &vehicle.reasons,
        }
    }

    /// The full record of a version.
    pub fn record<'a>(&self, vehicle: &'a Vehicle) -> VehicleRecord<'a> {
        VehicleRecord {
            summary: self.summary(vehicle),
            quotes: &vehicle.quotes,
            exchange_rate: &vehicle.exchange_rate,
            specs: vehicle.specs.as_ref(),
        }
    }

    /// The catalogue overview: counts, makes, models and filter values present.
    pub fn catalogue_data(&self) -> CatalogueData {
        let vehicles = self.vehicles();
        let models: BTreeSet<MakeModel> = vehicles
            .iter()
            .map(|v| MakeModel {
                make: v.make.clone(),
                model: v.model.clone(),
            })
            .collect();
        let makes: BTreeSet<String> = vehicles.iter().map(|v| v.make.clone()).collect();
        let mut filters = BTreeMap::new();
        let present = |values: BTreeSet<&'static str>| {
            values.into_iter().map(serde_json::Value::from).collect()
        };
        filters.insert(
            "type".into(),
            present(enum_values(vehicles, |v| v.body_type.map(BodyType::as_str))),
        );
        filters.insert(
            "fuel".into(),
            present(enum_values(vehicles, |v| v.fuel.map(Fuel::as_str))),
        );
        filters.insert(
            "transmission".into(),
            present(enum_values(vehicles, |v| {
                v.transmission.map(Transmission::as_str)
            })),
        );
        filters.insert(
            "drivetrain".into(),
            present(enum_values(vehicles, |v| {
                v.drivetrain.map(Drivetrain::as_str)
            })),
        );
        let numbers = |pick: fn(&Vehicle) -> Option<u32>| {
            vehicles
                .iter()
                .filter_map(pick)
                .collect::<BTreeSet<u32>>()
                .into_iter()
                .map(serde_json::Value::from)
                .collect()
        };
        filters.insert("minSeats".into(), numbers(|v| v.seats));
        filters.insert("minAirbags".into(), numbers(|v| v.airbags));
        CatalogueData {
            vehicle_count: vehicles.len(),
            model_count: models.len(),
            versions_with_specs: vehicles.iter().filter(|v| v.has_specs()).count(),
            opportunity_count: vehicles.iter().filter(|v| v.comparison.opportunity).count(),
            makes: makes.into_iter().collect(),
            models: models.into_iter().collect(),
            filters,
        }
    }
}

fn enum_values(
    vehicles: &[Vehicle],
    pick: impl Fn(&Vehicle) -> Option<&'static str>,
) -> BTreeSet<&'static str> {
    vehicles.iter().filter_map(pick).collect()
}
