//! Render stage, a version's Atom data feed (`<version path>/feed.xml`):
//! reads the version's catalogue price runs from the snapshot and its
//! signals from the catalogue, and records events, newest first: every
//! catalogue price drop and rise of the 180-day window, and its new
//! opportunity while it is recent. Every entry's title names the car, and an
//! entry's id and time are those of its event, so a feed reader that keeps
//! entries builds the version's history as the feed moves on.

use chrono::Duration;

use super::feeds::{ATOM, Entry, FeedHead, change_entry, changes, display_name, render_feed};
use super::page::Site;
use crate::api::links::Links;
use crate::catalogue::{Vehicle, WINDOW_DAYS};
use crate::format::{date_time, money, share};
use crate::signals::changes::direction;
use crate::signals::exact;
use crate::snapshot::{CatalogueRun, Money};
use crate::time::{Time, format_time};
use crate::vocab::{ChangeKind, Currency};

/// Most entries in a version's feed.
const VERSION_FEED_LIMIT: usize = 50;

/// A catalogue price change: the start of a run at another price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriceEvent {
    /// When the new price was first seen.
    pub at: Time,
    /// The price before.
    pub from: Money,
    /// The price from then on.
    pub to: Money,
    /// Whether it went down (`Some(true)`), up (`Some(false)`), or cannot be
    /// told (a change of currency without an exchange rate).
    pub down: Option<bool>,
}

/// The catalogue price changes of `runs` in `(since, until]`, oldest first,
/// each judged as the recent-change rules judge a change (`rate`: the
/// current observed exchange rate, for a change of currency).
pub fn price_events(
    runs: &[CatalogueRun],
    since: Time,
    until: Time,
    rate: Option<&exact::Exact>,
) -> Vec<PriceEvent> {
    runs.windows(2)
        .filter(|pair| pair[0].price != pair[1].price)
        .filter(|pair| pair[1].first_seen > since && pair[1].first_seen <= until)
        .filter_map(|pair| {
            let (from, to) = (pair[0].price, pair[1].price);
            let down = match direction(from, to, rate) {
                Some(std::cmp::Ordering::Less) => Some(true),
                Some(std::cmp::Ordering::Greater) => Some(false),
                // Equal in dollars across currencies: no price movement.
                Some(std::cmp::Ordering::Equal) => return None,
                None => None,
            };
            Some(PriceEvent {
                at: pair[1].first_seen,
                from,
                to,
                down,
            })
        })
        .collect()
}

fn price_entry(site: &Site, vehicle: &Vehicle, event: &PriceEvent) -> Entry {
    let url = site.index.links().vehicle(&vehicle.id);
    let moved = match event.down {
        Some(true) => "bajó",
        Some(false) => "subió",
        None => "cambió",
    };
    let size = match (event.from.currency, event.to.currency) {
        (a, b) if a == b && event.from.amount > 0.0 => {
            let pct = (event.from.amount - event.to.amount).abs() / event.from.amount * 100.0;
            format!(" {}", share(pct))
        }
        _ => String::new(),
    };
    let mut summary = format!(
        "El precio del catálogo del sitio pasó de {} a {} en el control del {} (hora de Argentina).",
        money(event.from.amount, event.from.currency),
        money(event.to.amount, event.to.currency),
        date_time(event.at)
    );
    if event.from.currency != event.to.currency {
        summary.push_str(&format!(
            " Cambió de moneda ({} a {}): se compara en dólares, al dólar de referencia.",
            currency_name(event.from.currency),
            currency_name(event.to.currency)
        ));
    }
    if let Some(drop) = vehicle
        .recent_changes
        .d7
        .as_ref()
        .filter(|c| c.kind == ChangeKind::PriceDrop && c.changed_at == Some(event.at))
    {
        let text = super::cards::change_text(drop);
        let mut chars = text.chars();
        let lowered: String = chars
            .next()
            .map(|first| first.to_lowercase().chain(chars).collect())
            .unwrap_or_default();
        summary.push_str(&format!(
            " Es una baja de precio de los últimos 7 días: {lowered}."
        ));
    }
    Entry {
        id: format!("{url}#catalogo-{}", format_time(event.at)),
        title: format!(
            "{}: el precio del catálogo del sitio {moved}{size}",
            display_name(vehicle)
        ),
        link: url,
        updated: event.at,
        summary,
    }
}

fn currency_name(currency: Currency) -> &'static str {
    match currency {
        Currency::Ars => "pesos",
        Currency::Usd => "dólares",
    }
}

/// Writes `<path>/feed.xml`, the data feed of one version.
pub fn write_version_feed(site: &Site, vehicle: &Vehicle, path: &str) -> anyhow::Result<()> {
    let links = site.index.links();
    let url = links.vehicle(&vehicle.id);
    let meta = site.index.meta();
    let t = meta.catalogue_observed_at;
    let rate = meta
        .current_rate
        .and_then(|rate| exact::decimal(rate.ars_per_usd?));
    let runs = site.version(&vehicle.id).map_or(&[][..], |v| &v.catalogue);
    let since = t - Duration::days(i64::from(WINDOW_DAYS));
    let mut entries: Vec<Entry> = price_events(runs, since, t, rate.as_ref())
        .iter()
        .map(|event| price_entry(site, vehicle, event))
        .collect();
    entries.extend(
        changes(vehicle)
            .into_iter()
            .filter(|change| change.kind == ChangeKind::NewOpportunity)
            .map(|change| change_entry(site, vehicle, change)),
    );
    entries.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
    entries.truncate(VERSION_FEED_LIMIT);
    let title = format!("autoprecios: {}", display_name(vehicle));
    let feed_path = format!("{path}/feed.xml");
    let head = FeedHead {
        title: &title,
        subtitle: format!(
            "Bajas y subas del precio del catálogo del sitio de los últimos 180 días y nuevas \
             oportunidades.{}",
            site.money.feed_note()
        ),
        self_url: links.absolute(&feed_path),
        html_url: url.clone(),
        json_url: Some(links.absolute(&Links::vehicle_api_path(&vehicle.id))),
        updated: entries.first().map_or(vehicle.observed_at, |e| e.updated),
    };
    let file = format!("{}/feed.xml", path.trim_start_matches('/'));
    // Kept from the previous tree when head and entries are the same
    // (most feeds change only with their version's catalogue price).
    site.pages.write(
        site.out,
        site.env,
        (&feed_path, &file, ATOM),
        &("feed.xml", &head, &entries),
        || render_feed(site.env, &head, &entries),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    fn run(day: u32, amount: f64, currency: Currency) -> CatalogueRun {
        let at = parse_time(&format!("2026-11-{day:02}T12:00:00Z")).expect("time");
        CatalogueRun {
            first_seen: at,
            last_seen: at,
            price: Money { amount, currency },
        }
    }

    #[test]
    fn drops_and_rises_are_events_and_a_return_at_the_same_price_is_not() {
        let runs = [
            run(1, 100.0, Currency::Usd),
            run(3, 90.0, Currency::Usd),
            run(5, 90.0, Currency::Usd),
            run(7, 95.0, Currency::Usd),
            run(9, 95_000.0, Currency::Ars),
        ];
        let since = parse_time("2026-11-02T00:00:00Z").expect("time");
        let until = parse_time("2026-11-08T00:00:00Z").expect("time");
        let events = price_events(&runs, since, until, None);
        let seen: Vec<(u32, Option<bool>)> = events
            .iter()
            .map(|e| (chrono::Datelike::day(&e.at), e.down))
            .collect();
        assert_eq!(seen, [(3, Some(true)), (7, Some(false))]);
        let rate = exact::decimal(1000.0);
        let all = price_events(&runs, since, runs[4].first_seen, rate.as_ref());
        assert_eq!(
            all.len(),
            2,
            "USD 95 and ARS 95,000 at 1,000 are the same price"
        );
        let unknown = price_events(&runs, since, runs[4].first_seen, None);
        assert_eq!(unknown.last().map(|e| e.down), Some(None));
    }
}
