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
use crate::api::types::report::{Report, ReportMonth, ReportStatus, Reports};
use crate::headers::CSV;
use crate::market::{self, ArMonth, MonthReport, report_path};
use crate::output::{JSON, TreeWriter};
use crate::render::site::feeds::SitemapEntry;
use crate::render::site::{PageMeta, Site};
use crate::time::format_time;

/// Site path of the index of reports.
pub const INFORMES: &str = "/informes";

mod chart;
pub(crate) mod tables;
mod view;

/// Content type of the charts.
use crate::headers::SVG;

use tables::{datapackage, documented, tables};
use view::{REPORT_JSON, ReportView};

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
        let charts = chart::charts(reports, at);
        for drawn in &charts {
            let path = report_path(month.month);
            let svg = site.env.get_template("informe-grafico.svg.html")?.render(
                minijinja::context! { c => minijinja::Value::from(minijinja::value::Serde(drawn)) },
            )?;
            let url = format!("{path}/{}", drawn.file);
            site.out
                .write(&url, url.trim_start_matches('/'), SVG, svg.as_bytes())?;
        }
        let json = write_report(site, month, &charts, (older, newer))?;
        market.reports.insert(month.report.month.clone(), json);
        entries.push(SitemapEntry::at(
            &report_path(month.month),
            &format_time(month.captured_at),
        ));
    }
    market.list = write_index(site, reports)?;
    let months: Vec<String> = reports
        .iter()
        .rev()
        .map(|m| m.report.month.clone())
        .collect();
    let meta = &site.snapshot.meta;
    let package = datapackage(
        &months,
        (
            &site.snapshot_at,
            &meta.site_name,
            &meta.source,
            meta.synthetic,
        ),
        &crate::render::datos::data_license(site),
    );
    site.out.write_json(
        &format!("{INFORMES}/datapackage.json"),
        "informes/datapackage.json",
        &package,
    )?;
    entries.push(SitemapEntry::at(INFORMES, &site.snapshot_at));
    let file = MARKET_FILE_PATH.trim_start_matches('/');
    site.out.write_msgpack(MARKET_FILE_PATH, file, &market)?;
    Ok(entries)
}

/// The market record of the tree `out` replaces ([`market::kept`]); `None`
/// on a first run, with `--fresh`, without one, or when it cannot be read.
pub fn previous_record(out: &TreeWriter) -> Option<market::kept::Record> {
    market::kept::Record::read(&out.previous()?)
}

/// Writes this run's market record beside the tree, for the next run.
pub fn write_record(record: &market::kept::Record, out: &TreeWriter) -> anyhow::Result<()> {
    out.write_beside(market::kept::RECORD, &record.to_bytes()?)
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

/// One month's JSON, CSVs and page (showing its `charts`); returns the
/// JSON.
fn write_report(
    site: &Site,
    month: &MonthReport,
    charts: &[chart::Chart],
    (older, newer): (Option<ArMonth>, Option<ArMonth>),
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
        anyhow::ensure!(
            documented(name, &frame),
            "invariant: the report table {name} has its documented columns"
        );
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
    let view = ReportView::of(site, month, charts, (older, newer));
    site.write_page(&meta, "informe.html", &view)?;
    Ok(json)
}

/// A value as the API's one serializer writes it, as text (JSON is UTF-8).
fn json_text(value: &impl Serialize) -> String {
    String::from_utf8(to_json_bytes(value)).expect("invariant: JSON is UTF-8")
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
