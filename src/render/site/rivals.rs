//! Render stage, "Con la misma plata": for each version page, up to three
//! versions of other models with the same body type whose price is within
//! 5 % of its own, nearest first, each with its band and its safety facts
//! (low-speed AEB, ESC, airbags), computed once per tree by `generate`.
//!
//! Prices are compared in pesos (`priceArs`): a peso-quoted version's own
//! pesos, a dollar-quoted one's at the page's reference dollar. Every
//! conversion on a page uses that one rate, so "within 5 %" reads the same
//! in either currency the page shows. The bound is inclusive and decided on
//! the whole-peso prices exactly. Ties in distance go to the lower ID.

use std::collections::BTreeMap;

use serde::Serialize;

use super::money::{Band, Money, usual};
use super::specs::compare_value;
use crate::api::links::Links;
use crate::catalogue::Vehicle;
use crate::vocab::BodyType;

/// How many rivals a page shows.
const MOST: usize = 3;

/// A rival as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Rival {
    /// Its page.
    pub path: String,
    /// Make, model and trim.
    pub name: String,
    /// Its price as its card leads with it.
    pub price: String,
    /// Its usual-price band, when known.
    pub band: Option<Band>,
    /// Low-speed AEB, ESC and airbags, in words (`sin dato` when unknown).
    pub aeb: String,
    /// Electronic stability control.
    pub esc: String,
    /// Airbags.
    pub airbags: String,
}

/// The published versions of each body type, cheapest first in pesos.
pub struct RivalIndex<'a> {
    by_body: BTreeMap<BodyType, Vec<(f64, &'a Vehicle)>>,
}

impl<'a> RivalIndex<'a> {
    /// The index of `vehicles` (those without a body type or a peso price
    /// have no rivals and are no one's).
    pub fn new(vehicles: &'a [Vehicle]) -> Self {
        let mut by_body: BTreeMap<BodyType, Vec<(f64, &'a Vehicle)>> = BTreeMap::new();
        for vehicle in vehicles {
            if let (Some(body), Some(pesos)) = (vehicle.body_type, vehicle.price_ars) {
                by_body.entry(body).or_default().push((pesos, vehicle));
            }
        }
        for list in by_body.values_mut() {
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
        }
        RivalIndex { by_body }
    }

    /// The rivals of `vehicle`: same body type, another model, price within
    /// 5 % (|rival - own| x 20 <= own), nearest first.
    pub fn of(&self, vehicle: &Vehicle, money: &Money) -> Vec<Rival> {
        let (Some(body), Some(own)) = (vehicle.body_type, vehicle.price_ars) else {
            return Vec::new();
        };
        let Some(list) = self.by_body.get(&body) else {
            return Vec::new();
        };
        let low = list.partition_point(|(pesos, _)| (own - pesos) * 20.0 > own);
        let mut near: Vec<(f64, &Vehicle)> = list[low..]
            .iter()
            .take_while(|(pesos, _)| (pesos - own) * 20.0 <= own)
            .filter(|(_, other)| other.make != vehicle.make || other.model != vehicle.model)
            .map(|(pesos, other)| ((pesos - own).abs(), *other))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
        near.into_iter()
            .take(MOST)
            .map(|(_, rival)| shown(rival, money))
            .collect()
    }
}

/// A rival's facts in words.
fn shown(vehicle: &Vehicle, money: &Money) -> Rival {
    let trim = super::labels::trim(&vehicle.trim, vehicle.trim_display.as_deref());
    let specs = vehicle.specs.as_ref();
    Rival {
        path: Links::vehicle_path(&vehicle.id),
        name: format!("{} {} {trim}", vehicle.make, vehicle.model),
        price: money.price(vehicle).lead,
        band: usual(vehicle).band,
        aeb: compare_value(specs, "aebLowSpeed"),
        esc: compare_value(specs, "escStability"),
        airbags: vehicle
            .airbags
            .map_or_else(|| super::specs::UNKNOWN_VALUE.to_owned(), |n| n.to_string()),
    }
}
