//! Market stage, the reports: from the history read once
//! (`collect::read_history`), every month's [`Report`] by the rules of the
//! methodology ("Informe mensual y el índice"). A final month's report
//! reads nothing after its month but the checks' own times, so it stays
//! the same while those checks do.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::collect::{Carry, Check, History};
use super::headline::{citation, headline};
use super::index::round2;
use super::prices::{MonthlyPrice, Point, monthly_prices};
use super::series::series_table;
use crate::api::links::Links;
use crate::api::series::SeriesTable;
use crate::api::types::report::{Coverage, Dollar, GroupKind, IndexRow, Report, ReportStatus};
use crate::month::ArMonth;
use crate::snapshot::Snapshot;
use crate::time::Time;

mod figures;
mod lists;
mod rows;

use rows::{index_row, share};

/// How many versions the cheapest, rises and falls lists hold.
pub const LIST_LEN: usize = 10;

/// The report's tables, by the name of their CSV file.
pub const TABLES: [&str; 5] = [
    "indice",
    "mas-baratos",
    "subas-y-bajas",
    "concesionarias-vs-catalogo",
    "cobertura",
];

/// A computed month: its report and the envelope times of its file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MonthReport {
    /// The month.
    pub month: ArMonth,
    /// The report.
    pub report: Report,
    /// The latest capture the report reads (`snapshotAt` of its envelope).
    pub captured_at: Time,
    /// The catalogue check it is as of (`catalogueObservedAt`).
    pub catalogue_at: Time,
}

/// What a run takes from the previous tree's record: its months' reports,
/// each version's prices in them and carry after them (by the version's
/// index in this snapshot), the dollar's means and the last rate.
#[derive(Debug, Default)]
pub struct Prefix {
    /// The kept months' reports.
    pub reports: Vec<MonthReport>,
    /// Each version's price in each kept month.
    pub prices: Vec<Vec<MonthlyPrice>>,
    /// Each kept month's mean rate.
    pub dollars: Vec<Option<f64>>,
    /// Each version's last checks before the first month left.
    pub carry: Vec<Carry>,
    /// The last rate observed before it.
    pub rate: Option<Point>,
}

impl Prefix {
    /// How many months it keeps.
    pub fn months(&self) -> usize {
        self.reports.len()
    }
}

/// What the months after the final ones read of them, for the record
/// (`kept`): each final month's column of the versions' prices and mean
/// rate, each version's carry after the last, and the last rate before its
/// end.
#[derive(Debug, Default)]
pub struct Finals {
    /// Each final month's price of each version.
    pub prices: Vec<Vec<MonthlyPrice>>,
    /// Each final month's mean rate.
    pub means: Vec<Option<f64>>,
    /// Each version's last checks before the end of the last.
    pub carry: Vec<Carry>,
    /// The last rate observed before it.
    pub rate: Option<Point>,
}

/// Everything the reports are computed from, read once.
pub struct Market<'a> {
    snapshot: &'a Snapshot,
    links: &'a Links,
    /// The checks of the months left to compute, after each version's
    /// carry.
    history: History,
    months: Vec<ArMonth>,
    /// The first months' reports, kept from the previous tree.
    kept: Vec<MonthReport>,
    /// Each version's price in each month.
    prices: Vec<Vec<MonthlyPrice>>,
    /// Each month's mean rate.
    means: Vec<Option<f64>>,
    /// The rates observed from the first month left to compute, after the
    /// last before it, by time (then version), for the dollar.
    rates: Vec<Point>,
    monitoring: Vec<Time>,
}

impl<'a> Market<'a> {
    /// The market of `snapshot` in `months` (every month from its first
    /// quote check to its time): the first months as `prefix` keeps them,
    /// the others from their `history` (read from the first of them).
    pub fn new(
        snapshot: &'a Snapshot,
        links: &'a Links,
        months: Vec<ArMonth>,
        history: History,
        prefix: Prefix,
        monitoring: Vec<Time>,
    ) -> Market<'a> {
        let end = snapshot.meta.snapshot_at;
        let left = &months[prefix.months().min(months.len())..];
        let from = left.first().map_or(end, |m| m.start());
        let prices = history
            .checks
            .par_iter()
            .enumerate()
            .map(|(v, checks)| {
                let points: Vec<Point> = checks.iter().filter_map(Check::point).collect();
                let mut prices = prefix
                    .prices
                    .get(v)
                    .cloned()
                    .unwrap_or_else(|| vec![MonthlyPrice::default(); prefix.months()]);
                prices.extend(monthly_prices(&points, left, end));
                prices
            })
            .collect();
        // By time, then version: the versions are in ID order, so their
        // positions order them as their IDs do, without comparing text.
        // A version's carry is not read: the last rate before `from` is.
        let mut rated: Vec<(Time, usize, f64)> = history
            .checks
            .iter()
            .enumerate()
            .flat_map(|(v, checks)| {
                let read = &checks[checks.partition_point(|c| c.at < from)..];
                read.iter().filter_map(move |c| Some((c.at, v, c.rate?)))
            })
            .collect();
        rated.par_sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        let rates: Vec<Point> = prefix
            .rate
            .into_iter()
            .chain(rated.into_iter().map(|(at, _, rate)| Point {
                at,
                usd: rate,
                ars: None,
            }))
            .collect();
        let mut means = prefix.dollars;
        means.extend(monthly_prices(&rates, left, end).iter().map(|m| m.usd));
        Market {
            snapshot,
            links,
            history,
            months,
            kept: prefix.reports,
            prices,
            means,
            rates,
            monitoring,
        }
    }

    /// What the months after the first `finals` read of them.
    pub fn finals(&self, finals: usize) -> Finals {
        let Some(end) = finals.checked_sub(1).map(|last| self.months[last].end()) else {
            return Finals::default();
        };
        Finals {
            prices: (0..finals)
                .map(|i| self.prices.iter().map(|prices| prices[i]).collect())
                .collect(),
            means: self.means[..finals].to_vec(),
            carry: self
                .history
                .checks
                .iter()
                .map(|checks| Carry::at(checks, end))
                .collect(),
            rate: self.rates[..self.rates.partition_point(|r| r.at < end)]
                .last()
                .copied(),
        }
    }

    /// Every month's report, oldest first, and the monthly series.
    pub fn reports(&self) -> (Vec<MonthReport>, SeriesTable) {
        let groups = self.index_groups();
        let dollars = self.dollars();
        let reports = (0..self.months.len())
            .into_par_iter()
            .map(|i| {
                if let Some(kept) = self.kept.get(i) {
                    return kept.clone();
                }
                // Only the groups priced this month: a make first listed
                // later adds no row to a final month's report.
                let rows = groups
                    .iter()
                    .filter(|g| g.priced[i])
                    .map(|g| index_row(&g.group, g.currency, g.links[i].n, g.figures[i]))
                    .collect();
                self.report(i, rows, &dollars)
            })
            .collect();
        let series = series_table(
            &self.months,
            &groups,
            &dollars,
            &self.snapshot.cpi,
            &self.snapshot.versions,
            &self.prices,
            self.links.absolute("/"),
        );
        (reports, series)
    }

    /// One month's report, with its index rows.
    fn report(&self, i: usize, index: Vec<IndexRow>, dollars: &[Dollar]) -> MonthReport {
        let month = self.months[i];
        let ReportTimes {
            status,
            last_check,
            catalogue_at,
            as_of,
            captured_at,
        } = self.times(month);
        let path = report_path(month);
        let url = self.links.absolute(&path);
        let all = |currency: &str| {
            index
                .iter()
                .find(|row| row.group.kind == GroupKind::All && row.currency == currency)
                .and_then(|row| row.change_pct)
        };
        let dollar = dollars[i].clone();
        let headline = headline(
            month,
            status,
            as_of,
            all("ARS"),
            all("USD"),
            dollar.change_pct,
            self.cpi_change(month).map(round2),
        );
        let (cheapest, cheapest_by_type) = match status {
            ReportStatus::Final if last_check.is_none() => (Vec::new(), BTreeMap::new()),
            _ => self.cheapest(i, catalogue_at),
        };
        let csv = TABLES
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    self.links.absolute(&format!("{path}/{name}.csv")),
                )
            })
            .collect();
        let tally = self.history.tallies.get(&month);
        MonthReport {
            month,
            report: Report {
                month: month.label(),
                status,
                as_of,
                citation: citation(month, &url, as_of),
                url,
                headline,
                dollar,
                index,
                cheapest,
                cheapest_by_type,
                movers: self.movers(i),
                dealers_vs_catalogue: self.dealer_rows(tally.map_or(&[][..], |t| &t.gaps)),
                coverage: Coverage {
                    versions: tally.map_or(0, |t| t.versions.len()),
                    checks: tally.map_or(0, |t| t.checks),
                    quotes: tally.map_or(0, |t| t.quotes),
                    dealers: tally.map_or(0, |t| t.dealers.len()),
                    locations: tally.map_or(0, |t| t.locations.len()),
                    in_stock_pct: tally.and_then(|t| share(t.in_stock, t.checks)),
                },
                csv,
            },
            captured_at,
            catalogue_at,
        }
    }

    /// When `month`'s report stands: final once the month has ended by the
    /// snapshot, then as of its last catalogue check; provisional before,
    /// as of the snapshot.
    fn times(&self, month: ArMonth) -> ReportTimes {
        let (start, end) = (month.start(), month.end());
        let at_s = self.snapshot.meta.snapshot_at;
        let last_check = self
            .monitoring
            .iter()
            .rev()
            .find(|t| **t >= start && **t < end)
            .copied();
        if end > at_s {
            return ReportTimes {
                status: ReportStatus::Provisional,
                last_check,
                catalogue_at: self.snapshot.meta.catalogue_observed_at,
                as_of: at_s,
                captured_at: at_s,
            };
        }
        // A final month ended by the snapshot: `end` is at or before it.
        let catalogue_at = last_check.unwrap_or(end);
        ReportTimes {
            status: ReportStatus::Final,
            last_check,
            catalogue_at,
            as_of: catalogue_at,
            captured_at: self.last_capture(month).max(catalogue_at),
        }
    }

    /// The latest quote check in `month`.
    fn last_capture(&self, month: ArMonth) -> Time {
        let (start, end) = (month.start(), month.end());
        self.history
            .checks
            .iter()
            .filter_map(|checks| {
                let before_end = checks.partition_point(|c| c.at < end);
                checks[..before_end]
                    .last()
                    .map(|c| c.at)
                    .filter(|at| *at >= start)
            })
            .max()
            .unwrap_or(start)
    }
}

/// The site path of a month's report, without its final slash.
pub fn report_path(month: ArMonth) -> String {
    format!("/informes/{}", month.label())
}

/// When a month's report stands ([`Market::times`]).
struct ReportTimes {
    status: ReportStatus,
    /// The month's last catalogue check, if it had one.
    last_check: Option<Time>,
    /// The catalogue the report reads.
    catalogue_at: Time,
    /// What the report is as of.
    as_of: Time,
    /// The latest capture the report reads.
    captured_at: Time,
}
