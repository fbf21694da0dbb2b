//! Render stage, the market report's page: the report's figures in words
//! and es-AR formats (`3,1 %`, `$ 17.250.000`), for `templates/informe.html`.

use serde::Serialize;

use super::chart::Chart;
use super::tables::TABLE_DOCS;
use crate::api::types::report::{
    CheapItem, Coverage, DealerRow, GroupKind, MakeChange, Mover, Report, ReportStatus,
};
use crate::format;
use crate::market::{ArMonth, MonthReport, day_and_time, one_decimal, report_path};
use crate::render::site::Site;
use crate::time::format_time;

/// Name of a report's JSON, beside its page.
pub const REPORT_JSON: &str = "informe.json";
/// `+3,1 %`, `-0,4 %`, or the words for a number the rules do not publish.
fn signed(value: Option<f64>) -> String {
    match value {
        Some(value) if (value * 10.0).round() == 0.0 => "0,0 %".to_owned(),
        Some(value) if value > 0.0 => format!("+{} %", one_decimal(value)),
        Some(value) => format!("-{} %", one_decimal(-value)),
        None => "s/d".to_owned(),
    }
}

/// The page's words and figures, formatted for es-AR.
#[derive(Serialize)]
pub(super) struct ReportView {
    month: String,
    provisional: bool,
    status: String,
    headline: String,
    citation: String,
    /// The page shows the month's own cut, not the current dollar.
    money: MoneyNotice,
    report_date: String,
    index_ars: Vec<IndexLine>,
    index_usd: Vec<IndexLine>,
    cheapest: Vec<CheapLine>,
    by_type: Vec<CheapLine>,
    rises: Vec<MoverLine>,
    falls: Vec<MoverLine>,
    by_make: Vec<(String, usize, String)>,
    dealers: Vec<DealerLine>,
    coverage: Vec<(String, String)>,
    csv: Vec<CsvLine>,
    /// Each chart: its URL, title and description (the main one first).
    charts: Vec<(String, String, String)>,
    json: String,
    older: Option<(String, String)>,
    newer: Option<(String, String)>,
}

/// Only what a report page may show of the money bar: whether the data
/// is synthetic (the current dollar would change a closed month's page).
#[derive(Serialize)]
struct MoneyNotice {
    synthetic: bool,
    /// The month's own dollar (the page's one rate line).
    rate: Option<String>,
}

/// A table's CSV and what its columns hold.
#[derive(Serialize)]
struct CsvLine {
    file: String,
    url: String,
    title: &'static str,
    rows: &'static str,
    columns: Vec<(&'static str, &'static str)>,
}

#[derive(Serialize)]
struct IndexLine {
    group: String,
    n: usize,
    enough: bool,
    change: String,
    ytd: String,
    yoy: String,
    level: String,
}

#[derive(Serialize)]
struct CheapLine {
    name: String,
    kind: String,
    url: Option<String>,
    ars: String,
    usd: String,
    fees: &'static str,
    change: String,
}

#[derive(Serialize)]
struct MoverLine {
    name: String,
    url: Option<String>,
    change: String,
}

#[derive(Serialize)]
struct DealerLine {
    group: String,
    quotes: String,
    below: String,
    at: String,
    above: String,
    gap: String,
}

impl ReportView {
    /// The view of `month`, with links to the months before and after it.
    pub(super) fn of(
        site: &Site,
        month: &MonthReport,
        charts: &[Chart],
        (older, newer): (Option<ArMonth>, Option<ArMonth>),
    ) -> ReportView {
        let report = &month.report;
        let provisional = report.status == ReportStatus::Provisional;
        let pages = Pages { site, provisional };
        let path = report_path(month.month);
        ReportView {
            month: month.month.spanish(),
            provisional,
            status: if provisional {
                format!(
                    "Provisional: mes en curso, datos al {}",
                    day_and_time(report.as_of)
                )
            } else {
                format!("Definitivo, con datos al {}", day_and_time(report.as_of))
            },
            headline: report.headline.text.clone(),
            citation: report.citation.clone(),
            money: MoneyNotice::of(site, month),
            report_date: format_time(month.captured_at),
            index_ars: IndexLine::all(report, "ARS"),
            index_usd: IndexLine::all(report, "USD"),
            cheapest: report.cheapest.iter().map(|c| pages.cheap(c)).collect(),
            by_type: (report.cheapest_by_type.values())
                .map(|c| pages.cheap(c))
                .collect(),
            rises: report.movers.rises.iter().map(|m| pages.mover(m)).collect(),
            falls: report.movers.falls.iter().map(|m| pages.mover(m)).collect(),
            by_make: report.movers.by_make.iter().map(make_line).collect(),
            dealers: report
                .dealers_vs_catalogue
                .iter()
                .map(DealerLine::of)
                .collect(),
            coverage: coverage_lines(&report.coverage),
            csv: csv_lines(report),
            json: format!("{path}/{REPORT_JSON}"),
            charts: charts
                .iter()
                .map(|c| {
                    (
                        format!("{path}/{}", c.file),
                        c.title.clone(),
                        c.summary.clone(),
                    )
                })
                .collect(),
            older: older.map(|m| (report_path(m), m.spanish())),
            newer: newer.map(|m| (report_path(m), m.spanish())),
        }
    }
}

impl MoneyNotice {
    /// The notice of `month`: its own dollar, never the current one.
    fn of(site: &Site, month: &MonthReport) -> MoneyNotice {
        let report = &month.report;
        MoneyNotice {
            synthetic: site.snapshot.meta.synthetic,
            rate: report.dollar.ars_per_usd.map(|rate| {
                format!(
                    "Dólar de referencia de {}: {}, promedio ponderado por tiempo de los tipos de cambio observados en las cotizaciones del mes, con datos del {} ({} frente al mes anterior).",
                    month.month.spanish(),
                    format::rate(rate),
                    format::date(report.as_of),
                    signed(report.dollar.change_pct)
                )
            }),
        }
    }
}

impl IndexLine {
    /// The index's rows in `currency`.
    fn all(report: &Report, currency: &str) -> Vec<IndexLine> {
        (report.index.iter())
            .filter(|row| row.currency == currency)
            .map(|row| IndexLine {
                group: match (&row.group.kind, &row.group.value) {
                    (GroupKind::All, _) => "Todas las versiones".to_owned(),
                    (_, Some(value)) => value.clone(),
                    (_, None) => String::new(),
                },
                n: row.n,
                enough: row.change_pct.is_some(),
                change: signed(row.change_pct),
                ytd: signed(row.ytd_pct),
                yoy: signed(row.yoy_pct),
                level: row.level.map_or("s/d".to_owned(), one_decimal),
            })
            .collect()
    }
}

/// Where a listed version's page is: the month in progress links its
/// versions published now; a final month links none, so that its page
/// stays the same bytes when a version it lists leaves the catalogue (the
/// name and ID stay).
struct Pages<'a> {
    site: &'a Site<'a>,
    provisional: bool,
}

impl Pages<'_> {
    fn page(&self, id: &str) -> Option<String> {
        let published = self.provisional
            && (self.site.catalogue.vehicles)
                .binary_search_by(|vehicle| vehicle.id.as_str().cmp(id))
                .is_ok();
        published.then(|| crate::api::links::Links::vehicle_path(id))
    }

    fn cheap(&self, item: &CheapItem) -> CheapLine {
        CheapLine {
            name: name(&item.make, &item.model, &item.trim),
            kind: item.body_type.clone().unwrap_or_default(),
            url: self.page(&item.id),
            ars: format::ars(item.price_ars.round()),
            usd: format::usd(item.current_price_usd.round()),
            fees: match item.fees_included {
                Some(true) => "incluye flete y formularios",
                Some(false) => "sin flete ni formularios",
                None => "flete sin dato",
            },
            change: signed(item.change_pct),
        }
    }

    fn mover(&self, mover: &Mover) -> MoverLine {
        MoverLine {
            name: name(&mover.make, &mover.model, &mover.trim),
            url: self.page(&mover.id),
            change: signed(Some(mover.change_pct)),
        }
    }
}

/// A version's name as the lists show it.
fn name(make: &str, model: &str, trim: &str) -> String {
    format!("{make} {model} {trim}")
}

/// A make's line of the rises and falls: its name, versions and median.
fn make_line(make: &MakeChange) -> (String, usize, String) {
    let median =
        (make.median_change_pct).map_or("sin datos suficientes".to_owned(), |v| signed(Some(v)));
    (make.make.clone(), make.n, median)
}

impl DealerLine {
    fn of(row: &DealerRow) -> DealerLine {
        DealerLine {
            group: (row.group.value.clone()).unwrap_or_else(|| "Todas las versiones".to_owned()),
            quotes: format::count(row.quotes),
            below: tenths_percent(row.below_pct),
            at: tenths_percent(row.at_pct),
            above: tenths_percent(row.above_pct),
            gap: signed(row.median_gap_pct),
        }
    }
}

/// `3,1 %` (one decimal, as the report's figures), or `s/d`.
fn tenths_percent(value: Option<f64>) -> String {
    value.map_or("s/d".to_owned(), |v| format!("{} %", one_decimal(v)))
}

/// The coverage table: what the month's figures were computed from.
fn coverage_lines(c: &Coverage) -> Vec<(String, String)> {
    [
        ("Versiones con controles", format::count(c.versions)),
        ("Controles de cotizaciones", format::count(c.checks)),
        ("Cotizaciones", format::count(c.quotes)),
        ("Concesionarias", format::count(c.dealers)),
        ("Localidades", format::count(c.locations)),
        ("Controles con stock", tenths_percent(c.in_stock_pct)),
    ]
    .into_iter()
    .map(|(label, value)| (label.to_owned(), value))
    .collect()
}

/// Each table's CSV with what its columns hold.
fn csv_lines(report: &Report) -> Vec<CsvLine> {
    (TABLE_DOCS.iter())
        .map(|doc| CsvLine {
            file: format!("{}.csv", doc.name),
            url: report.csv.get(doc.name).cloned().unwrap_or_default(),
            title: doc.title,
            rows: doc.rows,
            columns: (doc.columns.iter())
                .map(|(name, _, about)| (*name, *about))
                .collect(),
        })
        .collect()
}
