//! Render stage, version summaries in words: the card a list shows for each
//! version (built from the API's own Summary, so pages and API agree) and the
//! plain-language sentences for a comparison with the usual price and for a
//! recent change.

use serde::Serialize;

use super::labels::{Badge, badges};
use super::money::{Band, Money, PriceView, usual};
use crate::api::links::Links;
use crate::catalogue::{Cause, RecentChange, Vehicle};
use crate::composed::PageQuery;
use crate::format::{date, date_time, price, whole_percent};
use crate::vocab::{ChangeKind, Currency, Window};

/// A version in a list.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// Catalogue ID (the compare form's value).
    pub id: String,
    /// Site path of its page.
    pub path: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim as displayed.
    pub trim: String,
    /// Lowest quote in its currency, the other at the reference dollar,
    /// freight and paperwork, and the price's age when old.
    pub price: PriceView,
    /// The usual-price band, when `discountPct` is known.
    pub band: Option<Band>,
    /// The comparison with the usual price, in words.
    pub comparison: String,
    /// What made the difference, when known (the dollar, the dealers).
    pub cause: Option<String>,
    /// Whether it is an opportunity now.
    pub opportunity: bool,
    /// Deal reasons as badges.
    pub badges: Vec<Badge>,
    /// The seven-day recent change, in words.
    pub change: Option<String>,
    /// Number of quotes.
    pub quote_count: usize,
    /// When its quotes were checked.
    pub observed: String,
    /// Its "Agregar a la comparación" control.
    pub pick: Pick,
    /// Its price in pesos, for the site's peso order (not shown as such).
    #[serde(skip)]
    pub price_ars: Option<f64>,
}

/// A version's "Agregar a la comparación" control (`macros.html`, `pick`):
/// a link to the same page with the version among the comparison picks
/// (`?comparar=ID`, relative, so a static page needs no rewriting), back at
/// the control; the edge rewrites it on pages that carry picks
/// (`crate::composed::picks`).
#[derive(Debug, Clone, Serialize)]
pub struct Pick {
    /// The catalogue ID.
    pub id: String,
    /// The relative link that adds it.
    pub href: String,
    /// The control's element ID, from the page path (unique on a page:
    /// a version is shown once per list).
    pub anchor: String,
    /// Its name, for the control's accessible name.
    pub name: String,
}

impl Pick {
    /// The control of `vehicle`.
    pub fn of(vehicle: &Vehicle) -> Pick {
        let path = Links::vehicle_path(&vehicle.id);
        let slug = path.rsplit('/').next().unwrap_or_default();
        let anchor = format!("elegir-{slug}");
        let trim = super::labels::trim(
            &vehicle.identity.trim,
            vehicle.identity.trim_display.as_deref(),
        );
        Pick {
            id: vehicle.id.clone(),
            href: format!("?{}#{anchor}", picked(&vehicle.id)),
            anchor,
            name: format!(
                "{} {} {trim}",
                vehicle.identity.make, vehicle.identity.model
            ),
        }
    }
}

/// The relative query of a page with `id` picked (`comparar=…`).
fn picked(id: &str) -> String {
    PageQuery::default().with_picks(&[id.to_owned()]).to_query()
}

/// The card of a published version.
pub fn card(vehicle: &Vehicle, money: &Money) -> Card {
    let usual = usual(vehicle);
    Card {
        id: vehicle.id.clone(),
        path: Links::vehicle_path(&vehicle.id),
        make: vehicle.identity.make.clone(),
        model: vehicle.identity.model.clone(),
        trim: super::labels::trim(
            &vehicle.identity.trim,
            vehicle.identity.trim_display.as_deref(),
        ),
        price: money.price(vehicle),
        band: usual.band,
        comparison: usual.line,
        cause: usual.cause,
        opportunity: vehicle.comparison.opportunity,
        badges: badges(&vehicle.reasons),
        change: vehicle.recent_changes.get(Window::D7).map(change_text),
        quote_count: vehicle.quote_count,
        observed: date_time(vehicle.observed_at),
        pick: Pick::of(vehicle),
        price_ars: vehicle.price_ars,
    }
}

/// A recent change in plain words, saying what happened: a cut of the list
/// price (in the currency it is listed in), or what made a version newly
/// qualify as an opportunity (the engine's [`Cause`]).
pub fn change_text(change: &RecentChange) -> String {
    let drop = drop_size(change);
    let cut = |lead: &str| {
        let when = change
            .changed_at
            .map_or_else(String::new, |at| format!(" el {}", date(at)));
        let size = drop
            .as_ref()
            .map_or_else(String::new, |drop| format!(" {drop}"));
        format!("{lead}{size}{when}: {}.", list_prices(change))
    };
    if change.kind == ChangeKind::PriceDrop {
        let low = lowest_before(change);
        return match (change.returns_to_earlier_price, change.detail.lowest_30d) {
            // Not a cut: back to a price of the 30 days before.
            (Some(true), Some((_, last))) => format!(
                "Vuelve a un precio que ya tuvo el {} en el catálogo del sitio: {}; el más bajo de los 30 días anteriores, {}.",
                date(last),
                list_prices(change),
                low.unwrap_or_default()
            ),
            _ => {
                let text = cut("Bajó su precio en el catálogo del sitio");
                match low {
                    Some(low) => format!("{text} El más bajo de los 30 días anteriores: {low}."),
                    None => text,
                }
            }
        };
    }
    if change.changed_at.is_some() {
        return cut("Pasó a ser oportunidad al bajar su precio en el catálogo del sitio");
    }
    let since = change.qualified_since.map_or_else(String::new, |at| {
        format!(" (desde el control del {})", date(at))
    });
    let why = match change.detail.cause {
        Some(Cause::Returned) => "al volver a tener stock y precios de concesionarias".to_owned(),
        Some(Cause::HistorySufficient) => {
            "al reunir semanas suficientes para compararla con su precio habitual".to_owned()
        }
        Some(Cause::LowerQuote { before_usd }) => format!(
            "porque las concesionarias bajaron su precio (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::DollarUp { before_usd }) => format!(
            "porque subió el dólar: el precio en pesos equivale a menos dólares (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::HigherUsual { before_usd }) => format!(
            "porque subió su precio habitual (antes, {})",
            price(before_usd, Currency::Usd)
        ),
        Some(Cause::CatalogueCut) | None => {
            "sin una baja de su precio en el catálogo del sitio".to_owned()
        }
    };
    format!("Pasó a ser oportunidad {why}{since}.")
}

/// The lowest catalogue price of the 30 days before a drop, as listed (in
/// its own currency, which need not be today's), else in dollars at the
/// reference dollar.
fn lowest_before(change: &RecentChange) -> Option<String> {
    match change.detail.lowest_30d {
        Some((low, _)) => Some(price(low.amount, low.currency)),
        None => change.lowest_30d_usd.map(|usd| {
            format!(
                "{} (en dólares, al dólar de referencia)",
                price(usd, Currency::Usd)
            )
        }),
    }
}

/// Whether a price drop only returns to a price of the 30 days before it:
/// the site's lists show such drops after the cuts.
pub fn returns_to_earlier_price(vehicle: &Vehicle, window: Window) -> bool {
    vehicle
        .recent_changes
        .get(window)
        .is_some_and(|change| change.returns_to_earlier_price == Some(true))
}

/// The catalogue prices of a change, as listed (`de $ 41.300.000 a $
/// 39.860.000`, each in its own currency when the listing changed
/// currency), or in dollars at the reference dollar (the current observed
/// rate the API's RecentChange uses) when the listed prices are not at
/// hand. As listed, a page's words do not move with the dollar.
fn list_prices(change: &RecentChange) -> String {
    let detail = &change.detail;
    match (detail.previous, detail.current) {
        (Some(before), Some(now)) => format!(
            "de {} a {}",
            price(before.amount, before.currency),
            price(now.amount, now.currency)
        ),
        (None, Some(now)) if change.previous_price_usd.is_none() => {
            format!("ahora {}", price(now.amount, now.currency))
        }
        _ => match change.previous_price_usd {
            Some(previous) => format!(
                "de {} a {} (en dólares, al dólar de referencia)",
                price(previous, Currency::Usd),
                price(change.current_price_usd, Currency::Usd)
            ),
            None => format!(
                "ahora {} (en dólares, al dólar de referencia)",
                price(change.current_price_usd, Currency::Usd)
            ),
        },
    }
}

/// The size of a catalogue cut in whole percent: `menos de 1 %` when the
/// prices show a cut that truncates to zero; the published percent
/// otherwise, truncated (it can be zero or negative for a new opportunity
/// whose cut was undone later).
pub fn drop_size(change: &RecentChange) -> Option<String> {
    let pct = change.drop_pct?;
    let cut = change
        .previous_price_usd
        .is_some_and(|previous| previous > change.current_price_usd);
    Some(if pct == 0.0 && cut {
        "menos de 1 %".to_owned()
    } else if pct < 0.0 {
        format!("-{}", whole_percent(pct))
    } else {
        whole_percent(pct)
    })
}

#[cfg(test)]
mod tests;
