//! Site pages with a query, alerts at a buyer's price: a version's feed
//! with a price bound (`/versiones/<page>/feed.xml?hasta=62000000`, in
//! pesos, or `?hastaUsd=45000`, in dollars) and a search's feed with one
//! (`/buscar/feed.xml?...&hasta=...`), answered by the edge from the
//! loaded tree's dealer prices check by check (`signals::alert_points`).
//! Nothing is stored about anyone: the bound travels in the feed's address.
//!
//! Over the checks of the 180-day history window, a version's dealer price
//! (its lowest quote, in the bound's currency: dollars at each check's
//! rate, or pesos as quoted or at that rate) gives:
//!
//! - "llegó a tu precio" at a check at or under the bound that follows one
//!   over it;
//! - "volvió a subir" at a check over the bound that follows one at or
//!   under it;
//! - "ya está a tu precio" when every check of the window is at or under
//!   it (dated at the window's first check: nothing crossed since).
//!
//! A check without a price in the bound's currency (a dollar quote without
//! a rate, for a peso bound) is skipped. An entry's ID is the version's page,
//! the bound and the check's time (the standing one has no time), so a feed
//! reader sees each crossing once, run after run.

use super::atom::{ATOM, atom_entry, atom_feed};
use crate::api::error::ErrorDetail;
use crate::api::params::Problem;
use crate::api::params::table::Given;
use crate::api::text::form_decode;
use crate::api::{ApiError, Index};
use crate::catalogue::{DealerPoint, WINDOW_DAYS};
use crate::format::{date_time, money};
use crate::time::{Time, format_time};
use crate::vocab::Currency;

/// The bound in pesos.
pub const PESOS: &str = "hasta";

/// The bound in dollars.
pub const DOLLARS: &str = "hastaUsd";

/// Most entries a feed with a bound holds, newest first.
const MOST_ENTRIES: usize = 50;

/// A buyer's price: an amount in a currency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The amount, in `currency`.
    pub amount: f64,
    /// Pesos (`hasta`) or dollars (`hastaUsd`).
    pub currency: Currency,
}

impl Bound {
    /// The bound a query string asks for: `None` without one; refused when
    /// its amount is not one as people type it (`62.000.000`, `62000000`,
    /// `$ 62.000.000`), when repeated, or when both bounds are given.
    pub fn read(query: &str) -> Result<Option<Bound>, ApiError> {
        let mut found: Vec<(&'static str, String)> = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(name) = [PESOS, DOLLARS]
                .into_iter()
                .find(|bound| form_decode(name).as_deref() == Some(*bound))
            else {
                continue;
            };
            let value = form_decode(value).unwrap_or_default();
            // A form sent without the script sends an empty field.
            if !value.trim().is_empty() {
                found.push((name, value));
            }
        }
        let problem = |name: &'static str, problem| {
            Err(ApiError::InvalidParameters(vec![ErrorDetail::new(
                name, problem,
            )]))
        };
        let (name, value) = match found.as_slice() {
            [] => return Ok(None),
            [one] => one,
            [(first, _), (second, _), ..] if first == second => {
                return problem(second, Problem::Repeated);
            }
            [(first, _), (second, _), ..] => return problem(second, Problem::OneBound(first)),
        };
        let amount = super::budget::read_amount(value)
            .and_then(|amount| amount.parse::<f64>().ok())
            .filter(|amount| amount.is_finite());
        let Some(amount) = amount else {
            return problem(name, Problem::Amount);
        };
        let currency = match *name == PESOS {
            true => Currency::Ars,
            false => Currency::Usd,
        };
        Ok(Some(Bound { amount, currency }))
    }

    /// Its parameter's name.
    pub fn name(self) -> &'static str {
        match self.currency {
            Currency::Ars => PESOS,
            Currency::Usd => DOLLARS,
        }
    }

    /// Its amount as a query writes it (`62000000`, `45000.5`).
    pub fn spelt(self) -> String {
        Given::Number(self.amount).to_text()
    }

    /// A point's price in the bound's currency.
    fn price(self, point: &DealerPoint) -> Option<f64> {
        match self.currency {
            Currency::Ars => point.ars,
            Currency::Usd => point.usd,
        }
    }
}

/// What a check did with respect to the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// At or under the bound, after a check over it.
    Reached,
    /// Over the bound, after a check at or under it.
    RoseAgain,
    /// At or under the bound at every check of the window.
    Already,
}

/// One entry of an alert feed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alert {
    /// The check it happened at.
    pub at: Time,
    /// What happened.
    pub moved: Move,
    /// The dealer price at that check, in the bound's currency.
    pub price: f64,
}

/// The alerts of `points` (a version's dealer prices, oldest first) at
/// `bound`, oldest first.
pub fn alerts(points: &[DealerPoint], bound: Bound) -> Vec<Alert> {
    let priced: Vec<(Time, f64)> = points
        .iter()
        .filter_map(|point| Some((point.at, bound.price(point)?)))
        .collect();
    let under = |price: f64| price <= bound.amount;
    let crossings: Vec<Alert> = priced
        .windows(2)
        .filter(|pair| under(pair[0].1) != under(pair[1].1))
        .map(|pair| Alert {
            at: pair[1].0,
            moved: match under(pair[1].1) {
                true => Move::Reached,
                false => Move::RoseAgain,
            },
            price: pair[1].1,
        })
        .collect();
    match priced.first() {
        Some(&(at, price)) if crossings.is_empty() && under(price) => vec![Alert {
            at,
            moved: Move::Already,
            price,
        }],
        _ => crossings,
    }
}

/// The entries of the version at `position` at `bound`: `(time, id, Atom
/// entry)`, oldest first.
pub fn entries(index: &Index, position: u32, bound: Bound) -> Vec<(Time, String, String)> {
    let facts = &index.facts()[position as usize];
    let page = index.links().vehicle(&facts.id);
    let title = facts.title();
    let asked = money(bound.amount, bound.currency);
    alerts(&index.dealer_prices(position), bound)
        .into_iter()
        .map(|alert| {
            let price = money(alert.price, bound.currency);
            let when = date_time(alert.at);
            let (heading, slug, text) = match alert.moved {
                Move::Reached => (
                    "llegó a tu precio",
                    format!("llego-{}", format_time(alert.at)),
                    format!(
                        "El precio más bajo de las concesionarias bajó a {price} en el control del \
                         {when} (hora de Argentina): a tu precio de {asked} o menos."
                    ),
                ),
                Move::RoseAgain => (
                    "volvió a subir",
                    format!("subio-{}", format_time(alert.at)),
                    format!(
                        "El precio más bajo de las concesionarias subió a {price} en el control del \
                         {when} (hora de Argentina): más que tu precio de {asked}."
                    ),
                ),
                Move::Already => (
                    "ya está a tu precio",
                    "ya".to_owned(),
                    format!(
                        "El precio más bajo de las concesionarias está en {asked} o menos en todos \
                         los controles de los últimos {WINDOW_DAYS} días, desde el del {when} (hora \
                         de Argentina): hoy, {price}."
                    ),
                ),
            };
            let id = format!("{page}#{}-{}-{slug}", bound.name(), bound.spelt());
            let heading = format!("{title}: {heading} ({price})");
            let xml = atom_entry(&id, &page, &heading, alert.at, &crate::html::escape(&text));
            (alert.at, id, xml)
        })
        .collect()
}

/// Newest first, then by ID, at most 50: the same tree and
/// address give the same bytes.
pub fn newest_first(mut entries: Vec<(Time, String, String)>) -> Vec<(Time, String, String)> {
    entries.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    entries.truncate(MOST_ENTRIES);
    entries
}

/// The version page a feed address names (`/versiones/<page>/feed.xml`),
/// as its position in the index.
pub fn feed_version(index: &Index, path: &str) -> Option<u32> {
    let page = path
        .strip_prefix("/versiones/")?
        .strip_suffix("/feed.xml")?;
    index.find(&crate::api::page_id::decode_page_path(page)?)
}

/// The alert feed of the version at `position` at `bound`.
pub fn version_feed(index: &Index, position: u32, bound: Bound) -> String {
    let facts = &index.facts()[position as usize];
    let links = index.links();
    let page = links.vehicle(&facts.id);
    let asked = money(bound.amount, bound.currency);
    let own = format!(
        "{}?{}={}",
        links.vehicle_feed(&facts.id),
        bound.name(),
        bound.spelt()
    );
    let entries = newest_first(entries(index, position, bound));
    let updated = entries.first().map_or(facts.observed_at, |(at, _, _)| *at);
    atom_feed(
        links,
        &format!("autoprecios: {} a {asked} o menos", facts.title()),
        &format!(
            "Cuándo el precio más bajo de las concesionarias llega a {asked} o menos, y cuándo \
             vuelve a subir, en los controles de los últimos {WINDOW_DAYS} días."
        ),
        (&own, &page),
        updated,
        entries.into_iter().map(|(_, _, xml)| xml),
    )
}

/// The content type of an alert feed.
pub const CONTENT_TYPE: &str = ATOM;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    fn point(day: u32, usd: f64) -> DealerPoint {
        DealerPoint {
            at: parse_time(&format!("2026-11-{day:02}T12:00:00Z")).expect("time"),
            usd: Some(usd),
            ars: Some(usd * 1000.0),
        }
    }

    fn seen(points: &[DealerPoint], bound: Bound) -> Vec<(u32, Move, f64)> {
        alerts(points, bound)
            .iter()
            .map(|a| (chrono::Datelike::day(&a.at), a.moved, a.price))
            .collect()
    }

    const AT_45000: Bound = Bound {
        amount: 45_000.0,
        currency: Currency::Usd,
    };

    #[test]
    fn crossing_down_up_and_down_gives_three_entries() {
        let points = [
            point(1, 46_000.0),
            point(2, 45_500.0),
            point(3, 45_000.0),
            point(4, 44_000.0),
            point(5, 45_000.01),
            point(6, 44_999.99),
        ];
        assert_eq!(
            seen(&points, AT_45000),
            [
                (3, Move::Reached, 45_000.0),
                (5, Move::RoseAgain, 45_000.01),
                (6, Move::Reached, 44_999.99)
            ]
        );
        let pesos = Bound {
            amount: 45_000_000.0,
            currency: Currency::Ars,
        };
        assert_eq!(seen(&points, pesos).len(), 3, "the same in pesos");
    }

    #[test]
    fn a_later_check_keeps_every_earlier_crossing() {
        // The runs before, one check at a time: each run's crossings are
        // the first ones of the next, with the same times (the entries' IDs).
        let points = [
            point(1, 46_000.0),
            point(2, 44_000.0),
            point(3, 46_000.0),
            point(4, 46_500.0),
            point(5, 43_000.0),
        ];
        let full = alerts(&points, AT_45000);
        assert_eq!(full.len(), 3);
        for end in 2..points.len() {
            let earlier = alerts(&points[..end], AT_45000);
            assert_eq!(earlier[..], full[..earlier.len()], "after {end} checks");
        }
    }

    #[test]
    fn always_under_is_one_standing_entry_and_never_under_is_none() {
        let points = [point(1, 40_000.0), point(2, 41_000.0)];
        assert_eq!(seen(&points, AT_45000), [(1, Move::Already, 40_000.0)]);
        let dear = [point(1, 50_000.0), point(2, 51_000.0)];
        assert!(seen(&dear, AT_45000).is_empty());
        // Under at first, then over: only the rise.
        let rising = [point(1, 40_000.0), point(2, 50_000.0)];
        assert_eq!(seen(&rising, AT_45000), [(2, Move::RoseAgain, 50_000.0)]);
        assert!(alerts(&[], AT_45000).is_empty());
    }

    #[test]
    fn a_check_without_a_price_in_the_bounds_currency_is_skipped() {
        let mut points = [point(1, 46_000.0), point(2, 44_000.0), point(3, 44_000.0)];
        points[1].ars = None;
        let pesos = Bound {
            amount: 45_000_000.0,
            currency: Currency::Ars,
        };
        assert_eq!(seen(&points, pesos), [(3, Move::Reached, 44_000_000.0)]);
    }

    #[test]
    fn a_bound_is_read_as_people_type_it_and_refused_otherwise() {
        let read = |query: &str| Bound::read(query).map_err(|e| e.to_string());
        assert_eq!(read("q=hilux"), Ok(None));
        assert_eq!(read("hasta="), Ok(None), "an empty field");
        assert_eq!(
            read("hasta=62.000.000"),
            Ok(Some(Bound {
                amount: 62_000_000.0,
                currency: Currency::Ars
            }))
        );
        assert_eq!(
            read("hastaUsd=45000%2C5"),
            Ok(Some(Bound {
                amount: 45_000.5,
                currency: Currency::Usd
            }))
        );
        for refused in [
            "hasta=-5",
            "hasta=62.000000",
            "hasta=abc",
            "hasta=1&hastaUsd=2",
            "hasta=1&hasta=2",
        ] {
            assert!(read(refused).is_err(), "{refused}");
        }
        let bound = Bound::read("hasta=%24+62.000.000")
            .expect("read")
            .expect("a bound");
        assert_eq!(
            (bound.name(), bound.spelt()),
            ("hasta", "62000000".to_owned())
        );
    }
}
