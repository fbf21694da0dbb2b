//! Render stage, data downloads: builds the publication's own tables from the
//! published catalogue and the snapshot: `versiones` (every published version
//! with its signals), `controles` (each quote check's dealer price),
//! `semanas` (the weekly averages behind the usual price; one version's rows
//! are its page's `historial.csv`) and `catalogo` (the catalogue price runs
//! with the change each one starts). Columns as `fields.rs` describes them.

use std::cmp::Ordering;
use std::ops::Range;

use crate::api::links::Links;
use crate::catalogue::{Catalogue, HistoryWeek, RecentChange, Vehicle};
use crate::frame::{Cells, Frame};
use crate::signals::changes::direction;
use crate::signals::{current_quotes, exact};
use crate::snapshot::write::name_columns;
use crate::snapshot::{EarlierCheck, Snapshot, Version};
use crate::time::{Time, in_period};
use crate::vocab::{Reason, Window};

fn text(value: &str) -> Option<&str> {
    Some(value)
}

/// `versiones`: one row per published version, in ID order.
pub fn versiones(catalogue: &Catalogue, links: &Links) -> Frame {
    let v = &catalogue.vehicles;
    let mut frame = signal_columns(identity_columns(v, links), v);
    for window in Window::ALL.iter().copied() {
        frame = change_columns(frame, v, window);
    }
    frame
}

/// A version's identity and catalogue facts.
fn identity_columns(v: &[Vehicle], links: &Links) -> Frame {
    let names: Vec<_> = v.iter().map(|x| (&x.identity, x.drivetrain)).collect();
    let leading = Frame::new("versiones")
        .text("id", v.iter().map(|x| text(&x.id)))
        .text("url", v.iter().map(|x| Some(links.vehicle(&x.id))))
        .text("sourceUrl", v.iter().map(|x| text(&x.identity.source_url)));
    name_columns(leading, &names).boolean("hasSpecs", v.iter().map(|x| Some(x.has_specs())))
}

/// A version's current quotes and its comparison with the usual price.
fn signal_columns(frame: Frame, v: &[Vehicle]) -> Frame {
    let reason = |wanted: Reason| {
        Cells::Boolean(
            v.iter()
                .map(|x| Some(x.reasons.contains(&wanted)))
                .collect(),
        )
    };
    frame
        .time("observedAt", v.iter().map(|x| Some(x.observed_at)))
        .number(
            "currentPriceUsd",
            v.iter().map(|x| Some(x.current_price_usd)),
        )
        .integer(
            "quoteCount",
            v.iter().map(|x| i64::try_from(x.quote_count).ok()),
        )
        .text(
            "bestQuoteId",
            v.iter()
                .map(|x| x.best_quote.as_ref().map(|q| q.id.clone())),
        )
        .number(
            "bestQuotePrice",
            v.iter().map(|x| x.best_quote.as_ref().map(|q| q.price)),
        )
        .text(
            "bestQuoteCurrency",
            v.iter()
                .map(|x| x.best_quote.as_ref().map(|q| q.currency.as_str())),
        )
        .number("arsPerUsd", v.iter().map(|x| x.exchange_rate.ars_per_usd))
        .number(
            "typicalPriceUsd",
            v.iter().map(|x| x.comparison.typical_price_usd),
        )
        .number(
            "lowestPriceUsd",
            v.iter().map(|x| x.comparison.lowest_price_usd),
        )
        .number("discountPct", v.iter().map(|x| x.comparison.discount_pct))
        .integer(
            "observedWeeks",
            v.iter()
                .map(|x| Some(i64::from(x.comparison.observed_weeks))),
        )
        .boolean(
            "sufficientHistory",
            v.iter().map(|x| Some(x.comparison.sufficient_history)),
        )
        .boolean(
            "opportunity",
            v.iter().map(|x| Some(x.comparison.opportunity)),
        )
        .column("belowTypical", reason(Reason::BelowTypical))
        .column("priceDrop", reason(Reason::PriceDrop))
        .column("newOpportunity", reason(Reason::NewOpportunity))
}

/// The six columns of `recentChanges[window]`.
fn change_columns(frame: Frame, vehicles: &[Vehicle], window: Window) -> Frame {
    let changes: Vec<Option<&RecentChange>> = vehicles
        .iter()
        .map(|x| x.recent_changes.get(window))
        .collect();
    let name = |suffix: &str| format!("change{window}{suffix}");
    let each = |f: &dyn Fn(&RecentChange) -> Option<String>| {
        Cells::Text(changes.iter().map(|c| c.and_then(f)).collect())
    };
    let times = |f: &dyn Fn(&RecentChange) -> Option<crate::time::Time>| {
        Cells::Time(
            changes
                .iter()
                .map(|c| c.and_then(f).map(|t| t.timestamp()))
                .collect(),
        )
    };
    let numbers = |f: &dyn Fn(&RecentChange) -> Option<f64>| {
        Cells::Number(changes.iter().map(|c| c.and_then(f)).collect())
    };
    frame
        .column(name("Kind"), each(&|c| Some(c.kind.to_string())))
        .column(name("ChangedAt"), times(&|c| c.changed_at))
        .column(name("QualifiedSince"), times(&|c| c.qualified_since))
        .column(name("DropPct"), numbers(&|c| c.drop_pct))
        .column(name("PreviousPriceUsd"), numbers(&|c| c.previous_price_usd))
        .column(
            name("CurrentPriceUsd"),
            numbers(&|c| Some(c.current_price_usd)),
        )
}

/// One row of `controles`: a quote check with its lowest quote.
struct CheckRow<'a> {
    version: &'a Version,
    observed_at: crate::time::Time,
    in_stock: bool,
    quote_count: usize,
    ars_per_usd: Option<f64>,
    lowest: crate::catalogue::Quote,
}

/// `controles`: every quote check with at least one quote and its time in
/// `period`, by version ID and time, with its lowest quote (ranked as the
/// current quotes are); `spilled` are the period's checks that the loader
/// holds on disk instead of in `snapshot`.
pub fn controles(
    snapshot: &Snapshot,
    spilled: &[(&Version, EarlierCheck)],
    period: Range<Time>,
) -> Frame {
    // Each check with its cheapest quote in each currency as its quotes:
    // its lowest quote is one of them.
    let held = snapshot.versions.iter().flat_map(|version| {
        let earlier = in_period(&version.earlier, |check| check.observed_at, &period)
            .iter()
            .map(move |check| (version, check.as_check(), check.quote_count as usize));
        let checks = in_period(&version.checks, |check| check.observed_at, &period)
            .iter()
            .map(move |check| (version, check.in_brief(), check.quotes.len()));
        earlier.chain(checks)
    });
    let spilled = spilled
        .iter()
        .map(|(version, check)| (*version, check.as_check(), check.quote_count as usize));
    let mut rows: Vec<CheckRow> = held
        .chain(spilled)
        .filter_map(|(version, check, quote_count)| {
            let lowest = current_quotes(&check)
                .into_iter()
                .next()
                .filter(|quote| quote.price_usd.is_finite())?;
            Some(CheckRow {
                version,
                observed_at: check.observed_at,
                in_stock: check.in_stock,
                quote_count,
                ars_per_usd: check.ars_per_usd,
                lowest,
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        (a.version.id.as_str(), a.observed_at).cmp(&(b.version.id.as_str(), b.observed_at))
    });
    let r = &rows;
    Frame::new("controles")
        .text("versionId", r.iter().map(|x| text(&x.version.id)))
        .text("make", r.iter().map(|x| text(&x.version.identity.make)))
        .text("model", r.iter().map(|x| text(&x.version.identity.model)))
        .text("trim", r.iter().map(|x| text(&x.version.identity.trim)))
        .time("observedAt", r.iter().map(|x| Some(x.observed_at)))
        .boolean("inStock", r.iter().map(|x| Some(x.in_stock)))
        .integer(
            "quoteCount",
            r.iter().map(|x| i64::try_from(x.quote_count).ok()),
        )
        .number("arsPerUsd", r.iter().map(|x| x.ars_per_usd))
        .text("lowestQuoteId", r.iter().map(|x| text(&x.lowest.id)))
        .number("lowestPrice", r.iter().map(|x| Some(x.lowest.price)))
        .text(
            "lowestCurrency",
            r.iter().map(|x| Some(x.lowest.currency.as_str())),
        )
        .number("dealerPriceUsd", r.iter().map(|x| Some(x.lowest.price_usd)))
}

/// `semanas` for `vehicles`: their weekly averages, oldest first. The bulk
/// file covers every published version; a version page's `historial.csv`
/// is the same table for that version alone.
pub fn semanas<'a>(vehicles: impl IntoIterator<Item = &'a Vehicle>) -> Frame {
    semanas_rows(
        vehicles
            .into_iter()
            .flat_map(|vehicle| vehicle.history.iter().map(move |week| (vehicle, week))),
    )
}

/// `semanas` of the given (version, week) rows: each week in dollars, and
/// in the one currency its version's window is quoted in, when there is
/// one (what the version's chart draws).
pub fn semanas_rows<'a>(rows: impl IntoIterator<Item = (&'a Vehicle, &'a HistoryWeek)>) -> Frame {
    let rows: Vec<_> = rows.into_iter().collect();
    // A week has a price in a currency only when its version's window is
    // quoted in one (`signals::quoted`).
    let currency = |vehicle: &Vehicle, week: &HistoryWeek| {
        week.price?;
        Some(vehicle.quoted.as_ref()?.currency.as_str())
    };
    Frame::new("semanas")
        .text(
            "versionId",
            rows.iter().map(|(vehicle, _)| text(&vehicle.id)),
        )
        .date(
            "weekStart",
            rows.iter().map(|(_, week)| Some(week.week_start)),
        )
        .number(
            "averageUsd",
            rows.iter().map(|(_, week)| Some(week.price_usd)),
        )
        .text(
            "currency",
            rows.iter().map(|(vehicle, week)| currency(vehicle, week)),
        )
        .number("average", rows.iter().map(|(_, week)| week.price))
}

/// `catalogo`: every catalogue price run with the change it starts, judged
/// as the recent-change rules judge it (`rate`: the current observed rate).
pub fn catalogo(snapshot: &Snapshot, catalogue: &Catalogue) -> Frame {
    let rate = catalogue
        .meta
        .current_rate
        .and_then(|rate| exact::decimal(rate.ars_per_usd?));
    let rows: Vec<(&Version, usize)> = snapshot
        .versions
        .iter()
        .flat_map(|version| (0..version.catalogue.len()).map(move |index| (version, index)))
        .collect();
    let r = &rows;
    let run = |(version, index): &(&Version, usize)| version.catalogue[*index];
    let previous = |(version, index): &(&Version, usize)| {
        index.checked_sub(1).map(|before| version.catalogue[before])
    };
    let change = |row: &(&Version, usize)| {
        let before = previous(row)?;
        let now = run(row);
        if before.price == now.price {
            return text("unchanged");
        }
        match direction(before.price, now.price, rate.as_ref())? {
            Ordering::Less => text("drop"),
            Ordering::Greater => text("rise"),
            Ordering::Equal => text("unchanged"),
        }
    };
    Frame::new("catalogo")
        .text("versionId", r.iter().map(|(v, _)| text(&v.id)))
        .text("make", r.iter().map(|(v, _)| text(&v.identity.make)))
        .text("model", r.iter().map(|(v, _)| text(&v.identity.model)))
        .text("trim", r.iter().map(|(v, _)| text(&v.identity.trim)))
        .time("firstSeen", r.iter().map(|x| Some(run(x).first_seen)))
        .time("lastSeen", r.iter().map(|x| Some(run(x).last_seen)))
        .number("price", r.iter().map(|x| Some(run(x).price.amount)))
        .text(
            "currency",
            r.iter().map(|x| Some(run(x).price.currency.as_str())),
        )
        .number(
            "previousPrice",
            r.iter().map(|x| previous(x).map(|p| p.price.amount)),
        )
        .text(
            "previousCurrency",
            r.iter()
                .map(|x| previous(x).map(|p| p.price.currency.as_str())),
        )
        .text("change", r.iter().map(change))
}
