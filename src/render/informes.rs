//! Render stage, the market report (`/informes/`): for every month the
//! `market` stage computed, its page `/informes/AAAA-MM/`, its JSON
//! (`informe.json`, the `GET /api/v1/reports/{month}` answer) and a CSV per
//! table; the index page `/informes/` and its Atom feed. A final month's
//! files read nothing that changes with later publications (no current
//! dollar, no `snapshotAt` but the month's own), so they stay the same
//! bytes and a deploy does not upload them again.

use anyhow::Context;
use serde::Serialize;

use crate::api::json::to_json_bytes;
use crate::api::reports::{MARKET_FILE_PATH, MarketData};
use crate::api::series::SeriesTable;
use crate::api::types::Envelope;
use crate::api::types::report::{GroupKind, IndexRow, Report, ReportMonth, ReportStatus, Reports};
use crate::frame::Frame;
use crate::market::{ArMonth, MonthReport, day_and_time, one_decimal, report_path};
use crate::output::JSON;
use crate::render::datos::CSV;
use crate::render::site::feeds::SitemapEntry;
use crate::render::site::format;
use crate::render::site::{PageMeta, Site};
use crate::time::format_time;

/// Site path of the index of reports.
pub const INFORMES: &str = "/informes";
/// Name of a report's JSON, beside its page.
pub const REPORT_JSON: &str = "informe.json";

/// Writes every report's page, JSON and CSVs, the index page and the feed,
/// and the edge's copy of the JSON with the `series`; returns the pages'
/// sitemap entries.
pub fn write_reports(
    site: &Site,
    reports: &[MonthReport],
    series: SeriesTable,
) -> anyhow::Result<Vec<SitemapEntry>> {
    let mut entries = Vec::new();
    let mut market = MarketData {
        series,
        latest_final: reports
            .iter()
            .rev()
            .find(|month| month.report.status == ReportStatus::Final)
            .map(|month| month.report.month.clone()),
        ..MarketData::default()
    };
    for (at, month) in reports.iter().enumerate() {
        let newer = reports.get(at + 1).map(|next| next.month);
        let older = at.checked_sub(1).map(|before| reports[before].month);
        let json = write_report(site, month, older, newer)?;
        market.reports.insert(month.report.month.clone(), json);
        entries.push(SitemapEntry::at(
            &report_path(month.month),
            &format_time(month.captured_at),
        ));
    }
    market.list = write_index(site, reports)?;
    entries.push(SitemapEntry::at(INFORMES, &site.snapshot_at));
    let file = MARKET_FILE_PATH.trim_start_matches('/');
    site.out.write_msgpack(MARKET_FILE_PATH, file, &market)?;
    Ok(entries)
}

/// The latest final month's page, month in words and headline, for the
/// home page.
pub fn latest_final(reports: &[MonthReport]) -> Option<(String, String, String)> {
    let month = reports
        .iter()
        .rev()
        .find(|month| month.report.status == ReportStatus::Final)?;
    Some((
        report_path(month.month),
        month.month.spanish(),
        month.report.headline.text.clone(),
    ))
}

/// The envelope of a month's JSON: its own times, so that a final month's
/// file does not change with later publications.
fn envelope<'a>(site: &Site, month: &'a MonthReport) -> Envelope<&'a Report> {
    let links = site.index.links();
    Envelope {
        schema_version: crate::api::types::SCHEMA_VERSION,
        snapshot_at: month.captured_at,
        catalogue_observed_at: month.catalogue_at,
        source: site.snapshot.meta.source.clone(),
        methodology_url: links.methodology(),
        documentation_url: links.documentation(),
        data: &month.report,
    }
}

/// One month's JSON, CSVs and page.
fn write_report(
    site: &Site,
    month: &MonthReport,
    older: Option<ArMonth>,
    newer: Option<ArMonth>,
) -> anyhow::Result<String> {
    let path = report_path(month.month);
    let dir = path.trim_start_matches('/');
    let json_url = format!("{path}/{REPORT_JSON}");
    let json = json_text(&envelope(site, month));
    site.out.write(
        &json_url,
        &format!("{dir}/{REPORT_JSON}"),
        JSON,
        json.as_bytes(),
    )?;
    for (name, frame) in tables(&month.report) {
        let url = format!("{path}/{name}.csv");
        site.out
            .write(
                &url,
                &format!("{dir}/{name}.csv"),
                CSV,
                frame.to_csv().as_bytes(),
            )
            .with_context(|| format!("writing {url}"))?;
    }
    let report = &month.report;
    let meta = PageMeta {
        path: path.clone(),
        title: format!("Informe de {}: precios de los 0 km", month.month.spanish()),
        description: report.headline.text.clone(),
        feed: Some((
            site.index.links().absolute(&format!("{INFORMES}/feed.xml")),
            "Informes mensuales".to_owned(),
        )),
        crumbs: vec![
            (Some(INFORMES.to_owned()), "Informes".to_owned()),
            (None, month.month.spanish()),
        ],
        ..PageMeta::default()
    };
    let view = ReportView::of(site, month, older, newer);
    site.write_page(&meta, "informe.html", &view)?;
    Ok(json)
}

/// A value as the API's one serializer writes it, as text (JSON is UTF-8).
fn json_text(value: &impl Serialize) -> String {
    String::from_utf8(to_json_bytes(value)).expect("invariant: JSON is UTF-8")
}

/// A month's tables as CSV frames, by file name.
fn tables(report: &Report) -> Vec<(&'static str, Frame)> {
    let index = &report.index;
    let group_kind = |row: &IndexRow| match row.group.kind {
        GroupKind::All => "all",
        GroupKind::Type => "type",
        GroupKind::Make => "make",
    };
    let indice = Frame::new("indice")
        .text("month", index.iter().map(|_| Some(report.month.as_str())))
        .text("groupKind", index.iter().map(|r| Some(group_kind(r))))
        .text("groupValue", index.iter().map(|r| r.group.value.as_deref()))
        .text("currency", index.iter().map(|r| Some(r.currency.as_str())))
        .integer("n", index.iter().map(|r| Some(r.n as i64)))
        .number("changePct", index.iter().map(|r| r.change_pct))
        .number("ytdPct", index.iter().map(|r| r.ytd_pct))
        .number("yoyPct", index.iter().map(|r| r.yoy_pct))
        .number("level", index.iter().map(|r| r.level));
    let cheap: Vec<(usize, &crate::api::types::report::CheapItem)> = report
        .cheapest
        .iter()
        .enumerate()
        .map(|(k, item)| (k + 1, item))
        .collect();
    let baratos = Frame::new("mas-baratos")
        .integer("rank", cheap.iter().map(|(k, _)| Some(*k as i64)))
        .text("id", cheap.iter().map(|(_, i)| Some(i.id.as_str())))
        .text("make", cheap.iter().map(|(_, i)| Some(i.make.as_str())))
        .text("model", cheap.iter().map(|(_, i)| Some(i.model.as_str())))
        .text("trim", cheap.iter().map(|(_, i)| Some(i.trim.as_str())))
        .text("type", cheap.iter().map(|(_, i)| i.body_type.as_deref()))
        .number("priceArs", cheap.iter().map(|(_, i)| Some(i.price_ars)))
        .number(
            "currentPriceUsd",
            cheap.iter().map(|(_, i)| Some(i.current_price_usd)),
        )
        .boolean("feesIncluded", cheap.iter().map(|(_, i)| i.fees_included))
        .number("changePct", cheap.iter().map(|(_, i)| i.change_pct));
    let movers: Vec<(&str, &crate::api::types::report::Mover)> =
        (report.movers.rises.iter().map(|m| ("rise", m)))
            .chain(report.movers.falls.iter().map(|m| ("fall", m)))
            .collect();
    let subas = Frame::new("subas-y-bajas")
        .text("direction", movers.iter().map(|(d, _)| Some(*d)))
        .text("id", movers.iter().map(|(_, m)| Some(m.id.as_str())))
        .text("make", movers.iter().map(|(_, m)| Some(m.make.as_str())))
        .text("model", movers.iter().map(|(_, m)| Some(m.model.as_str())))
        .text("trim", movers.iter().map(|(_, m)| Some(m.trim.as_str())))
        .number("changePct", movers.iter().map(|(_, m)| Some(m.change_pct)));
    let dealers = &report.dealers_vs_catalogue;
    let concesionarias = Frame::new("concesionarias-vs-catalogo")
        .text(
            "groupKind",
            dealers.iter().map(|r| {
                Some(if r.group.kind == GroupKind::All {
                    "all"
                } else {
                    "make"
                })
            }),
        )
        .text(
            "groupValue",
            dealers.iter().map(|r| r.group.value.as_deref()),
        )
        .integer("quotes", dealers.iter().map(|r| Some(r.quotes as i64)))
        .number("belowPct", dealers.iter().map(|r| r.below_pct))
        .number("atPct", dealers.iter().map(|r| r.at_pct))
        .number("abovePct", dealers.iter().map(|r| r.above_pct))
        .number("medianGapPct", dealers.iter().map(|r| r.median_gap_pct));
    let c = &report.coverage;
    let cobertura = Frame::new("cobertura")
        .text("month", std::iter::once(Some(report.month.as_str())))
        .integer("versions", std::iter::once(Some(c.versions as i64)))
        .integer("checks", std::iter::once(Some(c.checks as i64)))
        .integer("quotes", std::iter::once(Some(c.quotes as i64)))
        .integer("dealers", std::iter::once(Some(c.dealers as i64)))
        .integer("locations", std::iter::once(Some(c.locations as i64)))
        .number("inStockPct", std::iter::once(c.in_stock_pct))
        .number("arsPerUsd", std::iter::once(report.dollar.ars_per_usd));
    vec![
        ("indice", indice),
        ("mas-baratos", baratos),
        ("subas-y-bajas", subas),
        ("concesionarias-vs-catalogo", concesionarias),
        ("cobertura", cobertura),
    ]
}

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
struct ReportView {
    month: String,
    provisional: bool,
    status: String,
    headline: String,
    citation: String,
    dollar: String,
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
    csv: Vec<(String, String)>,
    json: String,
    older: Option<(String, String)>,
    newer: Option<(String, String)>,
}

/// Only what a report page may show of the money bar: whether the data
/// is synthetic (the current dollar would change a closed month's page).
#[derive(Serialize)]
struct MoneyNotice {
    synthetic: bool,
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
    fn of(
        site: &Site,
        month: &MonthReport,
        older: Option<ArMonth>,
        newer: Option<ArMonth>,
    ) -> ReportView {
        let report = &month.report;
        let provisional = report.status == ReportStatus::Provisional;
        let index_lines = |currency: &str| {
            report
                .index
                .iter()
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
        };
        let name = |make: &str, model: &str, trim: &str| format!("{make} {model} {trim}");
        // The month in progress links its versions published now; a final
        // month links none, so that its page stays the same bytes when a
        // version it lists leaves the catalogue (the name and ID stay).
        let page = |id: &str| {
            let published = provisional
                && site
                    .catalogue
                    .vehicles
                    .binary_search_by(|vehicle| vehicle.id.as_str().cmp(id))
                    .is_ok();
            published.then(|| crate::api::links::Links::vehicle_path(id))
        };
        let cheap = |item: &crate::api::types::report::CheapItem| CheapLine {
            name: name(&item.make, &item.model, &item.trim),
            kind: item.body_type.clone().unwrap_or_default(),
            url: page(&item.id),
            ars: format::ars(item.price_ars.round()),
            usd: format::usd(item.current_price_usd.round()),
            fees: match item.fees_included {
                Some(true) => "incluye flete y formularios",
                Some(false) => "sin flete ni formularios",
                None => "flete sin dato",
            },
            change: signed(item.change_pct),
        };
        let mover = |m: &crate::api::types::report::Mover| MoverLine {
            name: name(&m.make, &m.model, &m.trim),
            url: page(&m.id),
            change: signed(Some(m.change_pct)),
        };
        let pct = |value: Option<f64>| {
            value.map_or("s/d".to_owned(), |v| format!("{} %", one_decimal(v)))
        };
        let c = &report.coverage;
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
            dollar: match report.dollar.ars_per_usd {
                Some(rate) => format!(
                    "{} ({} frente al mes anterior)",
                    format::rate(rate),
                    signed(report.dollar.change_pct)
                ),
                None => "sin dato".to_owned(),
            },
            money: MoneyNotice {
                synthetic: site.snapshot.meta.synthetic,
            },
            report_date: format_time(month.captured_at),
            index_ars: index_lines("ARS"),
            index_usd: index_lines("USD"),
            cheapest: report.cheapest.iter().map(cheap).collect(),
            by_type: report.cheapest_by_type.values().map(cheap).collect(),
            rises: report.movers.rises.iter().map(mover).collect(),
            falls: report.movers.falls.iter().map(mover).collect(),
            by_make: report
                .movers
                .by_make
                .iter()
                .map(|m| {
                    (
                        m.make.clone(),
                        m.n,
                        m.median_change_pct
                            .map_or("sin datos suficientes".to_owned(), |v| signed(Some(v))),
                    )
                })
                .collect(),
            dealers: report
                .dealers_vs_catalogue
                .iter()
                .map(|row| DealerLine {
                    group: row
                        .group
                        .value
                        .clone()
                        .unwrap_or_else(|| "Todas las versiones".to_owned()),
                    quotes: format::count(row.quotes),
                    below: pct(row.below_pct),
                    at: pct(row.at_pct),
                    above: pct(row.above_pct),
                    gap: signed(row.median_gap_pct),
                })
                .collect(),
            coverage: vec![
                (
                    "Versiones con controles".to_owned(),
                    format::count(c.versions),
                ),
                (
                    "Controles de cotizaciones".to_owned(),
                    format::count(c.checks),
                ),
                ("Cotizaciones".to_owned(), format::count(c.quotes)),
                ("Concesionarias".to_owned(), format::count(c.dealers)),
                ("Localidades".to_owned(), format::count(c.locations)),
                ("Controles con stock".to_owned(), pct(c.in_stock_pct)),
            ],
            csv: report
                .csv
                .iter()
                .map(|(name, url)| (format!("{name}.csv"), url.clone()))
                .collect(),
            json: format!("{}/{REPORT_JSON}", report_path(month.month)),
            older: older.map(|m| (report_path(m), m.spanish())),
            newer: newer.map(|m| (report_path(m), m.spanish())),
        }
    }
}

/// `/informes`, its JSON list and its Atom feed; returns the list.
fn write_index(site: &Site, reports: &[MonthReport]) -> anyhow::Result<String> {
    let links = site.index.links();
    let months: Vec<ReportMonth> = reports
        .iter()
        .rev()
        .map(|month| ReportMonth {
            month: month.report.month.clone(),
            status: month.report.status,
            url: month.report.url.clone(),
            api_url: links.absolute(&format!("/api/v1/reports/{}", month.report.month)),
        })
        .collect();
    let list = Envelope {
        schema_version: crate::api::types::SCHEMA_VERSION,
        snapshot_at: site.index.meta().snapshot_at,
        catalogue_observed_at: site.index.meta().catalogue_observed_at,
        source: site.snapshot.meta.source.clone(),
        methodology_url: links.methodology(),
        documentation_url: links.documentation(),
        data: Reports { reports: months },
    };
    let list = json_text(&list);
    site.out.write(
        &format!("{INFORMES}/informes.json"),
        "informes/informes.json",
        JSON,
        list.as_bytes(),
    )?;
    #[derive(Serialize)]
    struct Line {
        url: String,
        month: String,
        status: &'static str,
        headline: String,
    }
    let lines: Vec<Line> = reports
        .iter()
        .rev()
        .map(|month| Line {
            url: report_path(month.month),
            month: month.month.spanish(),
            status: match month.report.status {
                ReportStatus::Final => "definitivo",
                ReportStatus::Provisional => "en curso",
            },
            headline: month.report.headline.text.clone(),
        })
        .collect();
    let meta = PageMeta {
        path: INFORMES.to_owned(),
        title: "Informes mensuales del mercado de 0 km".to_owned(),
        description: "Cuánto cambiaron cada mes los precios de los autos 0 km en concesionarias de la Argentina, en pesos y en dólares.".to_owned(),
        feed: Some((links.absolute(&format!("{INFORMES}/feed.xml")), "Informes mensuales".to_owned())),
        crumbs: vec![(None, "Informes".to_owned())],
        ..PageMeta::default()
    };
    site.write_page(
        &meta,
        "informes.html",
        &serde_json::json!({ "reports": lines }),
    )?;
    write_feed(site, reports)?;
    Ok(list)
}

/// `/informes/feed.xml`: one entry per month, newest first, each updated
/// when its report last changed (a final month's never does).
fn write_feed(site: &Site, reports: &[MonthReport]) -> anyhow::Result<()> {
    let links = site.index.links();
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"es-AR\">\n",
    );
    let escape = crate::html::escape;
    let feed_url = links.absolute(&format!("{INFORMES}/feed.xml"));
    let updated = reports
        .iter()
        .map(|m| m.captured_at)
        .max()
        .unwrap_or(site.index.meta().snapshot_at);
    xml.push_str(&format!(
        "<title>autoprecios: informes mensuales</title>\n<id>{}</id>\n<link rel=\"self\" href=\"{}\"/>\n<link href=\"{}\"/>\n<updated>{}</updated>\n<author><name>autoprecios</name></author>\n",
        escape(&feed_url),
        escape(&feed_url),
        escape(&links.absolute(INFORMES)),
        format_time(updated)
    ));
    for month in reports.iter().rev() {
        let report = &month.report;
        let status = match report.status {
            ReportStatus::Final => "",
            ReportStatus::Provisional => " (en curso)",
        };
        xml.push_str(&format!(
            "<entry>\n<title>Informe de {}{status}</title>\n<id>{}</id>\n<link href=\"{}\"/>\n<updated>{}</updated>\n<summary>{}</summary>\n</entry>\n",
            escape(&month.month.spanish()),
            escape(&report.url),
            escape(&report.url),
            format_time(month.captured_at),
            escape(&report.headline.text)
        ));
    }
    xml.push_str("</feed>\n");
    site.out
        .write(
            &format!("{INFORMES}/feed.xml"),
            "informes/feed.xml",
            crate::headers::ATOM,
            xml.as_bytes(),
        )
        .map(|_| ())
}
