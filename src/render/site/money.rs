//! Render stage, money as the buyer reads it (DESIGN, "Money on the site"):
//! a version's price in the currency its dealers quoted, every conversion at
//! the one reference dollar of the snapshot (the current observed exchange
//! rate, named once per page), whether freight and paperwork are included,
//! how old the price is, the usual-price band in words, and what the
//! usual-price signal (computed in dollars) owes to the dealers and to the
//! dollar. Pure functions of the catalogue, so pages are byte-stable.
//!
//! The reference dollar itself is not on the pages: a page carries each
//! conversion as the amount it converts ([`Conversion`]), and the site's
//! script fills in the other currency and names the rate from `/dolar.json`
//! ([`Money::file`]), the one file a new day's dollar changes (methodology,
//! "El dólar de referencia"). A page therefore changes when its version's
//! quotes do, not when the dollar moves.

use chrono::Duration;
use serde::Serialize;

mod comparison;

pub use comparison::{Band, UsualView, band, quoted_story, usual};

use crate::catalogue::{CatalogueMeta, Quote, Vehicle};
use crate::format::{date, price, rate};
use crate::time::Time;
use crate::vocab::Currency;

/// A price checked more than this many days before `T` says how old it is.
pub const STALE_DAYS: i64 = 7;

/// The snapshot facts every money figure on a page depends on.
#[derive(Debug, Clone, PartialEq)]
pub struct Money {
    /// The reference dollar: the current observed exchange rate (ARS per USD).
    pub rate: Option<f64>,
    /// When it was observed.
    pub rate_at: Time,
    /// Which dollar it is, when the snapshot names it.
    pub source: Option<String>,
    /// The listing site's name (whose rate it is when the snapshot names none).
    pub site_name: String,
    /// `T`, from which a price's age is counted.
    pub reference: Time,
    /// Whether the snapshot's prices are invented.
    pub synthetic: bool,
}

/// The file the site's script reads the reference dollar from.
pub const RATE_FILE: &str = "/dolar.json";

/// The page that names the reference dollar (and where a page without its
/// script sends the reader for it).
pub const RATE_PAGE: &str = "/dolar";

/// What `base.html` shows under the header of every page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoneyBar {
    /// Whether to say the prices are invented.
    pub synthetic: bool,
    /// Whether the snapshot has a reference dollar (then the page has a
    /// rate line, which the script fills in from [`RATE_FILE`]).
    pub has_rate: bool,
}

/// An amount a page shows in the other currency at the reference dollar.
/// The page carries the amount as quoted, in a `<data>` element
/// (`templates/macros.html`, `conversion`); the site's script writes the
/// converted figure into it, exactly: the amount times (or over) the rate
/// as decimals, rounded to whole units, half away from zero, as the peso
/// price (`priceArs`) is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conversion {
    /// The amount in its own currency, as the shortest decimal that reads
    /// back as it (`65500`, `14577858.5`).
    pub value: String,
    /// The currency it is converted to: `ARS` or `USD`.
    pub to: &'static str,
}

impl Conversion {
    /// The element a page carries (see [`conversion_markup`]).
    pub fn markup(&self) -> String {
        conversion_markup(self.to, &self.value)
    }
}

/// The element of a conversion: `<data class="nw" data-to="ARS"
/// value="65500"></data>`, empty until the site's script writes the figure.
/// An element that only makes sense with the figure (its sentence, its
/// table column) is `data-dolar hidden`, and the script shows it.
pub fn conversion_markup(to: &str, value: &str) -> String {
    format!(
        "<data class=\"nw\" data-to=\"{}\" value=\"{}\"></data>",
        crate::html::escape(to),
        crate::html::escape(value)
    )
}

/// `/dolar.json`: the reference dollar the pages' conversions use.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateFile {
    /// Pesos per dollar; `null` when the snapshot has no current rate.
    pub ars_per_usd: Option<f64>,
    /// When it was observed (RFC 3339, UTC).
    pub observed_at: Time,
    /// Which dollar it is, when the snapshot names it.
    pub source: Option<String>,
    /// The rate line a page shows, in words.
    pub line: Option<String>,
}

/// A price as a buyer reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriceView {
    /// The lowest quote in its own currency: `$ 63.900.000`.
    pub lead: String,
    /// The amount to show in the other currency at the reference dollar
    /// (`equivale a US$ 45.000 al dólar de referencia` once filled in).
    pub other: Option<Conversion>,
    /// Whether the lead includes freight and paperwork, in words.
    pub fees: &'static str,
    /// The lowest quote that includes them, when that is not the lead.
    pub with_fees: Option<String>,
    /// How old the price is, when checked more than [`STALE_DAYS`] before `T`.
    pub age: Option<String>,
}

impl Money {
    /// The money facts of a catalogue.
    pub fn of(meta: &CatalogueMeta) -> Money {
        Money {
            rate: meta.current_rate.and_then(|rate| rate.ars_per_usd),
            rate_at: meta
                .current_rate
                .map_or(meta.catalogue_observed_at, |rate| rate.observed_at),
            source: meta.rate_source.clone(),
            site_name: meta.site_name.clone(),
            reference: meta.catalogue_observed_at,
            synthetic: meta.synthetic,
        }
    }

    /// The page bar: the synthetic notice and whether there is a
    /// reference dollar.
    pub fn bar(&self) -> MoneyBar {
        MoneyBar {
            synthetic: self.synthetic,
            has_rate: self.rate.is_some(),
        }
    }

    /// The reference dollar in words, as the rate line of a page says it.
    pub fn line(&self) -> Option<String> {
        let whose = match &self.source {
            Some(source) => source.clone(),
            None => format!("el que usó {} en ese control", self.site_name),
        };
        self.rate.map(|ars_per_usd| {
            format!(
                "Dólar de referencia: {} del {} ({whose}). Toda conversión entre pesos y \
                 dólares de esta página usa este valor.",
                rate(ars_per_usd),
                date(self.rate_at)
            )
        })
    }

    /// `/dolar.json`.
    pub fn file(&self) -> RateFile {
        RateFile {
            ars_per_usd: self.rate,
            observed_at: self.rate_at,
            source: self.source.clone(),
            line: self.line(),
        }
    }

    /// What a feed's subtitle adds: whether its prices are invented. A feed
    /// states amounts as quoted and converts none, so it does not name the
    /// reference dollar (and stays the same when only the dollar moved).
    pub fn feed_note(&self) -> &'static str {
        match self.synthetic {
            true => " Datos de ejemplo: los precios son inventados.",
            false => "",
        }
    }

    /// An amount to show in the other currency at the reference dollar;
    /// `None` without a rate.
    pub fn convert(&self, amount: f64, from: Currency) -> Option<Conversion> {
        self.rate.filter(|rate| *rate > 0.0)?;
        Some(Conversion {
            value: amount.to_string(),
            to: match from {
                Currency::Ars => Currency::Usd.as_str(),
                Currency::Usd => Currency::Ars.as_str(),
            },
        })
    }

    /// A version's price view.
    pub fn price(&self, vehicle: &Vehicle) -> PriceView {
        let best = vehicle.best_quote.as_ref();
        let (lead, other) = match best {
            Some(quote) if quote.currency == Currency::Ars => {
                let pesos = vehicle.price_ars.unwrap_or(quote.price);
                (
                    price(pesos, Currency::Ars),
                    self.convert(pesos, Currency::Ars),
                )
            }
            Some(quote) => (
                price(quote.price, Currency::Usd),
                self.convert(quote.price, Currency::Usd),
            ),
            None => (price(vehicle.current_price_usd, Currency::Usd), None),
        };
        PriceView {
            lead,
            other,
            fees: fees(best.and_then(|quote| quote.fees_included)),
            with_fees: with_fees(&vehicle.quotes, best),
            age: self.age(vehicle.observed_at),
        }
    }

    /// `Precio de hace 62 días (revisado el 20/09/2026)`, for a price
    /// checked more than [`STALE_DAYS`] before `T`.
    pub fn age(&self, observed_at: Time) -> Option<String> {
        let age = self.reference - observed_at;
        (age > Duration::days(STALE_DAYS)).then(|| {
            format!(
                "Precio de hace {} días (revisado el {})",
                age.num_days(),
                date(observed_at)
            )
        })
    }
}

/// Freight and paperwork in words.
pub fn fees(included: Option<bool>) -> &'static str {
    match included {
        Some(true) => "Incluye flete y gastos",
        Some(false) => "No incluye flete y gastos",
        None => "No informa si incluye flete y gastos",
    }
}

/// `Con flete y gastos incluidos, desde $ 65.100.000`: the cheapest quote
/// that includes them, when the best quote does not.
fn with_fees(quotes: &[Quote], best: Option<&Quote>) -> Option<String> {
    if best.is_some_and(|quote| quote.fees_included == Some(true)) {
        return None;
    }
    let cheapest = quotes
        .iter()
        .find(|quote| quote.fees_included == Some(true))?;
    Some(format!(
        "Con flete y gastos incluidos, desde {}",
        price(cheapest.price, cheapest.currency)
    ))
}

#[cfg(test)]
pub(crate) mod tests;
