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

use crate::catalogue::{CatalogueMeta, Quote, QuotedHistory, Vehicle};
use crate::format::{date, price, rate, whole_percent};
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

/// A usual-price band (DESIGN), wherever `discountPct` is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Band {
    /// `great`, `good`, `normal` or `high` (CSS class suffix).
    pub kind: &'static str,
    /// `Muy buen precio`, `Buen precio`, `Precio normal`, `Caro`.
    pub label: &'static str,
}

/// The comparison with the usual price in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsualView {
    /// The band, when `discountPct` is known.
    pub band: Option<Band>,
    /// `En dólares, 6 % por debajo de su precio habitual (US$ 30.100).`, or
    /// why there is no comparison.
    pub line: String,
    /// What made the difference (the dealers, the dollar), when known.
    pub cause: Option<String>,
    /// What the price did in its quoted currency over the window.
    pub quoted: Option<String>,
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

/// The band of a known `discountPct` (DESIGN), in the site's words.
pub fn band(discount_pct: f64) -> Band {
    let kind = crate::vocab::Band::of(discount_pct);
    let label = match kind {
        crate::vocab::Band::Great => "Muy buen precio",
        crate::vocab::Band::Good => "Buen precio",
        crate::vocab::Band::Normal => "Precio normal",
        crate::vocab::Band::High => "Caro",
    };
    Band {
        kind: kind.as_str(),
        label,
    }
}

/// The comparison with the usual price: stated in dollars, the currency the
/// signal is computed in, with its cause and what the price did in its
/// quoted currency.
pub fn usual(vehicle: &Vehicle) -> UsualView {
    let comparison = &vehicle.comparison;
    let quoted = vehicle.quoted.as_ref().map(quoted_story);
    let (Some(typical), Some(discount)) = (comparison.typical_price_usd, comparison.discount_pct)
    else {
        let weeks = match comparison.observed_weeks {
            1 => "1 semana observada".to_owned(),
            weeks => format!("{weeks} semanas observadas"),
        };
        return UsualView {
            band: None,
            line: format!(
                "Sin historia suficiente para compararlo con su precio habitual ({weeks})."
            ),
            cause: None,
            quoted,
        };
    };
    let usual = price(typical, Currency::Usd);
    // Both are published in cents: the direction comes from whole cents, so
    // a difference the truncated percentage shows as 0 is still said.
    let cents = ((typical - vehicle.current_price_usd) * 100.0).round();
    let size = if discount == 0.0 {
        "menos de 1 %".to_owned()
    } else {
        whole_percent(discount)
    };
    let line = if cents > 0.0 {
        format!("En dólares, {size} por debajo de su precio habitual ({usual}).")
    } else if cents < 0.0 {
        format!("En dólares, {size} por encima de su precio habitual ({usual}).")
    } else {
        format!("En dólares, en su precio habitual ({usual}).")
    };
    UsualView {
        band: Some(band(discount)),
        line,
        cause: cause(discount, vehicle.quoted.as_ref()),
        quoted,
    }
}

/// What made the dollar price differ from its usual level: the dealers'
/// price in the quoted currency, or (for a peso price) the dollar.
fn cause(discount: f64, quoted: Option<&QuotedHistory>) -> Option<String> {
    let quoted = quoted?;
    let below_in_quoted = quoted.current < quoted.typical;
    let above_in_quoted = quoted.current > quoted.typical;
    let text = match (quoted.currency, discount) {
        (Currency::Ars, d) if d > 0.0 && !below_in_quoted => {
            "La diferencia es por la suba del dólar: en pesos no está por debajo de su precio \
             habitual."
        }
        (Currency::Ars, d) if d > 0.0 => {
            let peso_discount = (quoted.typical - quoted.current) / quoted.typical * 100.0;
            if peso_discount + 1.0 < d {
                "La diferencia es por una baja en pesos de las concesionarias y por la suba del \
                 dólar."
            } else {
                "La diferencia es por una baja en pesos de las concesionarias."
            }
        }
        (Currency::Ars, d) if d < 0.0 && !above_in_quoted => {
            "La diferencia es por la baja del dólar: en pesos no está por encima de su precio \
             habitual."
        }
        (Currency::Ars, d) if d < 0.0 => {
            "La diferencia es por una suba en pesos de las concesionarias."
        }
        (Currency::Usd, d) if d > 0.0 => {
            "La diferencia es por una baja en dólares de las concesionarias."
        }
        (Currency::Usd, d) if d < 0.0 => {
            "La diferencia es por una suba en dólares de las concesionarias."
        }
        _ => return None,
    };
    Some(text.to_owned())
}

/// What the dealer price did in its quoted currency over the window:
/// `En pesos, sin cambios desde el 12/10/2026 ($ 25.540.000).` or `En
/// pesos, bajó de $ 27.500.000 a $ 25.540.000 el 12/10/2026.`
pub fn quoted_story(quoted: &QuotedHistory) -> String {
    let currency = quoted.currency;
    let lead = match currency {
        Currency::Ars => "En pesos",
        Currency::Usd => "En dólares",
    };
    let now = price(quoted.current, currency);
    match quoted.previous {
        // Unchanged since the window's first check, or by less than the
        // unit pages show.
        Some(before) if price(before, currency) != now => {
            let verb = if before > quoted.current {
                "bajó"
            } else {
                "subió"
            };
            format!(
                "{lead}, {verb} de {} a {now} el {}.",
                price(before, currency),
                date(quoted.since)
            )
        }
        _ => format!(
            "{lead}, sin cambios desde el {} ({now}).",
            date(quoted.since)
        ),
    }
}

#[cfg(test)]
pub(crate) mod tests;
