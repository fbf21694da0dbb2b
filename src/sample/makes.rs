//! Sample stage, static data: the shape of the hand-written table of makes,
//! models and trims sold new in Argentina (the rows live in `table_mass.rs`,
//! `table_more.rs` and `table_import.rs`, gathered by `lineup::all_makes`),
//! and the slugs that turn them into catalogue IDs.
//!
//! Prices in the table are list prices in US dollars at the end of the
//! period (about ARS 1,450 per USD); ARS-quoted models are priced in pesos
//! from them at each month's exchange rate. They are plausible, not real.

use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission};

/// A make with its models.
#[derive(Debug)]
pub struct Make {
    /// Make as the catalogue writes it.
    pub name: &'static str,
    /// Short code used in dealer IDs (`tyt-014`).
    pub code: &'static str,
    /// Models sold new.
    pub models: &'static [Model],
}

/// A model with its trims.
#[derive(Debug)]
pub struct Model {
    /// Model name.
    pub name: &'static str,
    /// Body type.
    pub body: BodyType,
    /// Seats of most trims.
    pub seats: u8,
    /// Whether the catalogue quotes it in US dollars (premium imports).
    pub usd: bool,
    /// Trims, cheapest first.
    pub trims: &'static [Trim],
}

/// One trim (version) of a model.
#[derive(Debug, Clone, Copy)]
pub struct Trim {
    /// Version name: engine, trim level, gearbox.
    pub name: &'static str,
    /// Fuel.
    pub fuel: Fuel,
    /// Gearbox.
    pub gearbox: Transmission,
    /// Driven wheels.
    pub drive: Drivetrain,
    /// Airbags.
    pub airbags: u8,
    /// Power in CV (metric horsepower), as Argentine brochures print it.
    pub cv: u16,
    /// List price in US dollars.
    pub usd: u32,
    /// Seats when they differ from the model's, else 0.
    pub seats: u8,
}

impl Trim {
    /// The same trim with its own seat count (a 7-seat or chassis-cab variant).
    pub const fn seats(self, seats: u8) -> Trim {
        Trim { seats, ..self }
    }
}

impl Model {
    /// Seats of `trim`.
    pub fn seats_of(&self, trim: &Trim) -> u8 {
        if trim.seats == 0 {
            self.seats
        } else {
            trim.seats
        }
    }
}

// Short names for the table rows, which would not fit on a line otherwise.
/// Petrol.
pub const P: Fuel = Fuel::Petrol;
/// Diesel.
pub const D: Fuel = Fuel::Diesel;
/// Full hybrid.
pub const HY: Fuel = Fuel::Hybrid;
/// Mild hybrid.
pub const MH: Fuel = Fuel::MildHybrid;
/// Plug-in hybrid.
pub const PH: Fuel = Fuel::PluginHybrid;
/// Battery electric.
pub const EV: Fuel = Fuel::Electric;
/// Automatic (torque converter, CVT, dual clutch, e-CVT).
pub const A: Transmission = Transmission::Automatic;
/// Manual.
pub const M: Transmission = Transmission::Manual;
/// Front-wheel drive.
pub const FWD: Drivetrain = Drivetrain::Fwd;
/// Rear-wheel drive.
pub const RWD: Drivetrain = Drivetrain::Rwd;
/// Pickup 4x2.
pub const X2: Drivetrain = Drivetrain::FourByTwo;
/// Permanent all-wheel drive.
pub const AWD: Drivetrain = Drivetrain::Awd;
/// Selectable 4x4 without low range.
pub const X4: Drivetrain = Drivetrain::FourByFour;
/// 4x4 with low range.
pub const X4L: Drivetrain = Drivetrain::FourByFourLowRange;

/// A trim row.
pub const fn t(
    name: &'static str,
    fuel: Fuel,
    gearbox: Transmission,
    drive: Drivetrain,
    airbags: u8,
    cv: u16,
    usd: u32,
) -> Trim {
    Trim {
        name,
        fuel,
        gearbox,
        drive,
        airbags,
        cv,
        usd,
        seats: 0,
    }
}

/// A model quoted in pesos.
pub const fn m(name: &'static str, body: BodyType, seats: u8, trims: &'static [Trim]) -> Model {
    Model {
        name,
        body,
        seats,
        usd: false,
        trims,
    }
}

/// A model quoted in US dollars.
pub const fn mu(name: &'static str, body: BodyType, seats: u8, trims: &'static [Trim]) -> Model {
    Model {
        name,
        body,
        seats,
        usd: true,
        trims,
    }
}

/// A lowercase ASCII slug: accents folded, `.` dropped (`2.8` -> `28`), `+`
/// spelled `plus`, every other run of non-alphanumerics one `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut dash = false;
    for ch in text.chars() {
        let folded = match ch {
            'á' | 'à' | 'Á' => 'a',
            'é' | 'ë' | 'É' => 'e',
            'í' | 'Í' => 'i',
            'ó' | 'ö' | 'Ó' => 'o',
            'ú' | 'ü' | 'Ú' => 'u',
            'ñ' | 'Ñ' => 'n',
            '.' | '/' | '\'' => continue,
            '+' => {
                if !out.is_empty() && !dash {
                    out.push('-');
                }
                out.push_str("plus");
                dash = false;
                continue;
            }
            other => other.to_ascii_lowercase(),
        };
        if folded.is_ascii_alphanumeric() {
            out.push(folded);
            dash = false;
        } else if !out.is_empty() && !dash {
            out.push('-');
            dash = true;
        }
    }
    if dash {
        out.pop();
    }
    out
}

/// The catalogue ID of a trim: `make-model-trim` slugs.
pub fn version_id(make: &Make, model: &Model, trim_name: &str) -> String {
    format!(
        "{}-{}-{}",
        slug(make.name),
        slug(model.name),
        slug(trim_name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn slugs_read_like_catalogue_ids() {
        assert_eq!(slug("2.8 TDI SRV 4x4 AT"), "28-tdi-srv-4x4-at");
        assert_eq!(slug("Citroën"), "citroen");
        assert_eq!(
            slug("3.0 V6 TD Limited+ 4x4 AT"),
            "30-v6-td-limited-plus-4x4-at"
        );
        assert_eq!(slug("2.0 Turbo R/T 4x4 AT"), "20-turbo-rt-4x4-at");
    }

    #[test]
    fn the_table_is_large_varied_and_has_unique_ids() {
        let mut ids = BTreeSet::new();
        let (mut makes, mut models, mut trims) = (0, 0, 0);
        for make in crate::sample::lineup::all_makes() {
            makes += 1;
            for model in make.models {
                models += 1;
                assert!(
                    !model.trims.is_empty(),
                    "{} {} has no trims",
                    make.name,
                    model.name
                );
                for trim in model.trims {
                    trims += 1;
                    let id = version_id(make, model, trim.name);
                    assert!((1..=160).contains(&id.len()));
                    assert!(ids.insert(id.clone()), "duplicate id {id}");
                    let usd = f64::from(trim.usd);
                    if model.usd {
                        assert!((40_000.0..=150_000.0).contains(&usd), "{id}: USD {usd}");
                    } else {
                        let ars = usd * 1450.0;
                        assert!(
                            (19_000_000.0..=91_000_000.0).contains(&ars),
                            "{id}: ARS {ars}"
                        );
                    }
                }
            }
        }
        assert!(
            makes >= 20 && models >= 80 && trims >= 300,
            "{makes} makes, {models} models, {trims} trims"
        );
    }
}
