//! Render stage, data downloads (`/datos/`): reads the snapshot and the
//! published catalogue and writes, through the tree writer, every table for
//! people who analyse the data, as gzipped CSV and as Parquet:
//!
//! - the publication's own tables: `versiones` (published versions with
//!   their signals), `controles` (each quote check's dealer price),
//!   `semanas` (the weekly averages behind the usual price) and `catalogo`
//!   (catalogue price runs and the change each starts);
//! - the snapshot's own tables under `snapshot/`, with `snapshot.json` and
//!   `specs.jsonl.gz`: gunzipped, the folder is a snapshot directory that
//!   `autoprecios check` and `generate` read;
//! - `datapackage.json` (Frictionless Data Package: each file's schema,
//!   bytes and sha256), `SHA256SUMS`, and the page `/datos`.
//!
//! The history tables (`controles`, `snapshot/quote_checks`,
//! `snapshot/quotes`) are cut into one file pair per calendar month (UTC),
//! `controles/2026-11.csv.gz` and so on (`months.rs`, each part written or
//! kept by `parts.rs`): a closed month's
//! files are the same bytes at every publication, so a deploy uploads only
//! the current month's. The other files carry no date: each publication
//! replaces them at the same URLs, and `datapackage.json` carries the
//! snapshot's times, so an archive keeps dated copies by filing each
//! download under its `snapshotAt`.

pub mod changes;
pub mod citation;
pub mod fields;
pub mod license;
pub mod months;
pub mod package;
pub mod page;
mod parts;
pub mod place;
pub mod reuse;
pub mod snapshot_fields;
pub mod tables;

use std::sync::atomic::AtomicBool;

use anyhow::Context;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::api::links::Links;
use crate::catalogue::week_completed;
use crate::headers::{CSV, GZIP};
use crate::output::{JSON, TreeWriter};
use crate::render::site::feeds::SitemapEntry;
use crate::render::site::{PIECE, Site};
use crate::snapshot::republish::HistoryMonths;
use crate::snapshot::{Snapshot, SnapshotTable, specs_jsonl};
use crate::time::format_time;
pub use license::data_license;
pub use place::{DATOS, write_file};

use package::{TableFiles, Written, file_resource, gzip, sha256sums, table_resources};
use page::{DatosFiles, write_datos_page};
use parts::{Rows, TableJob, write_tables};
use reuse::Reuse;

/// Name of a version's history file, beside its page.
pub use crate::render::site::version::HISTORY_CSV;
/// Writes every version's `historial.csv`, beside its page: the completed
/// weeks its chart draws, in dollars and in the currency the chart draws
/// them in, in the bulk `semanas` table's columns (a header
/// alone when the version has no completed week in the window). A file
/// changes only when a week completes or a past week's average does, so
/// it is kept from the previous tree as an unchanged page is
/// ([`KeptPages`](crate::render::site::kept::KeptPages)): writing every
/// file again cost more than linking them.
pub fn write_history_csvs(site: &Site) -> anyhow::Result<()> {
    let at = site.index.meta().catalogue_observed_at;
    site.vehicles()
        .par_iter()
        .with_max_len(PIECE)
        .try_for_each(|vehicle| {
            let url = format!("{}/{HISTORY_CSV}", Links::vehicle_path(&vehicle.id));
            let file = url.trim_start_matches('/').to_owned();
            let weeks: Vec<_> = vehicle
                .history
                .iter()
                .filter(|week| week_completed(week.week_start, at))
                .collect();
            let currency = vehicle.quoted.as_ref().map(|q| q.currency.as_str());
            site.pages.write(
                site.out,
                site.env,
                (&url, &file, CSV),
                &(HISTORY_CSV, &vehicle.id, &weeks, currency),
                || {
                    let rows = weeks.iter().map(|week| (vehicle, *week));
                    Ok(tables::semanas_rows(rows).to_csv())
                },
            )
        })
}

/// The snapshot's own downloads, as [`write_snapshot_downloads`] wrote them.
pub struct SnapshotDownloads {
    /// Its tables.
    pub tables: Vec<TableFiles>,
    /// `snapshot/snapshot.json`.
    pub meta: Written,
    /// `snapshot/specs.jsonl.gz`.
    pub specs: Written,
}

/// Writes the snapshot's own downloads under `/datos/snapshot/`: its
/// tables, then `snapshot.json` and `specs.jsonl.gz`. They read the
/// snapshot alone, so `generate` writes them beside the signals, the index
/// and the site; once `stop` is set (a step beside them failed), no further
/// part is begun.
pub fn write_snapshot_downloads(
    snapshot: &Snapshot,
    history: &HistoryMonths,
    out: &TreeWriter,
    reuse: &Reuse,
    stop: &AtomicBool,
) -> anyhow::Result<SnapshotDownloads> {
    let months = months::of_checks(snapshot);
    let theirs: Vec<TableJob> = snapshot_fields::snapshot_tables()
        .into_iter()
        .zip(SnapshotTable::ALL)
        .map(|(doc, table)| {
            let rows = match table {
                // With what the loader spilled.
                SnapshotTable::Quotes => {
                    Rows::Monthly(Box::new(|period| history.quote_frame(period)), history)
                }
                SnapshotTable::QuoteChecks => {
                    Rows::Monthly(Box::new(|period| history.check_frame(period)), history)
                }
                _ => Rows::Whole(Box::new(move || Ok(table.frame(snapshot)))),
            };
            (doc, rows)
        })
        .collect();
    let tables = write_tables(out, reuse, stop, "snapshot/", theirs, &months)?;
    let mut meta_json =
        serde_json::to_string_pretty(&snapshot.meta).context("serializing snapshot.json")?;
    meta_json.push('\n');
    let meta = write_file(out, "snapshot/snapshot.json", JSON, meta_json.as_bytes())?;
    let specs = write_file(
        out,
        "snapshot/specs.jsonl.gz",
        GZIP,
        &gzip(specs_jsonl(snapshot)?.as_bytes())?,
    )?;
    Ok(SnapshotDownloads {
        tables,
        meta,
        specs,
    })
}

/// The publication's own downloads: the tables [`write_own_tables`] wrote,
/// and the SQLite database.
pub struct OwnDownloads {
    /// Its tables.
    pub tables: Vec<TableFiles>,
    /// `autoprecios.sqlite` (`render::sqlite`).
    pub sqlite: Written,
}

/// Writes every version's `historial.csv` and the publication's own tables
/// (`versiones`, `controles`, `semanas`, `catalogo`); once `stop` is set,
/// no further part is begun.
pub fn write_own_tables(
    site: &Site,
    history: &HistoryMonths,
    reuse: &Reuse,
    stop: &AtomicBool,
) -> anyhow::Result<Vec<TableFiles>> {
    write_history_csvs(site)?;
    let (snapshot, catalogue, links) = (site.snapshot, site.catalogue, site.index.links());
    let months = months::of_checks(snapshot);
    let own: Vec<TableJob> = vec![
        (
            fields::versiones(),
            Rows::Whole(Box::new(|| Ok(tables::versiones(catalogue, links)))),
        ),
        (
            fields::controles(),
            Rows::Monthly(
                Box::new(|period| {
                    let spilled = history.spilled_checks(&period)?;
                    Ok(tables::controles(snapshot, &spilled, period))
                }),
                history,
            ),
        ),
        (
            fields::semanas(),
            Rows::Whole(Box::new(|| Ok(tables::semanas(&catalogue.vehicles)))),
        ),
        (
            fields::catalogo(),
            Rows::Whole(Box::new(|| Ok(tables::catalogo(snapshot, catalogue)))),
        ),
    ];
    write_tables(site.out, reuse, stop, "", own, &months)
}

/// Finishes `/datos/` once every table is written ([`write_own_tables`],
/// [`write_snapshot_downloads`]): the record of the parts for the next run
/// (`reuse.rs`), `datapackage.json`, `SHA256SUMS` and the page.
pub fn write_package(
    site: &Site,
    reuse: Reuse,
    own: OwnDownloads,
    snapshot: SnapshotDownloads,
) -> anyhow::Result<()> {
    let OwnDownloads { tables, sqlite } = own;
    reuse.finish(site.out)?;
    let SnapshotDownloads {
        tables: snapshot_tables,
        meta,
        specs,
    } = snapshot;
    let descriptor = datapackage(site, &tables, &snapshot_tables, [&meta, &specs, &sqlite]);
    let mut descriptor_bytes =
        serde_json::to_vec_pretty(&descriptor).context("serializing datapackage.json")?;
    descriptor_bytes.push(b'\n');
    let package = write_file(site.out, "datapackage.json", JSON, &descriptor_bytes)?;
    let mut every_file: Vec<Written> = tables
        .iter()
        .chain(&snapshot_tables)
        .flat_map(|table| &table.parts)
        .flat_map(|part| [part.csv.clone(), part.parquet.clone()])
        .collect();
    every_file.extend([meta.clone(), specs.clone(), sqlite.clone(), package.clone()]);
    write_file(
        site.out,
        "SHA256SUMS",
        crate::headers::PLAIN,
        sha256sums(&every_file).as_bytes(),
    )?;
    write_datos_page(
        site,
        &DatosFiles {
            tables: &tables,
            snapshot_tables: &snapshot_tables,
            meta: &meta,
            specs: &specs,
            sqlite: &sqlite,
            package: &package,
        },
    )
}

/// The page's sitemap entry (the page is written by [`write_package`],
/// after the site).
pub fn datos_sitemap_entry(site: &Site) -> SitemapEntry {
    SitemapEntry::at(DATOS, &site.snapshot_at)
}

/// `datapackage.json`: the package's facts and every file as a resource.
fn datapackage(
    site: &Site,
    tables: &[TableFiles],
    snapshot_tables: &[TableFiles],
    [meta, specs, sqlite]: [&Written; 3],
) -> Value {
    let facts = site.index.meta();
    let links = site.index.links();
    let license = data_license(site);
    let mut description = format!(
        "Precios de contado de autos 0 km en concesionarias de la Argentina, publicados por autoprecios con datos al {} (snapshotAt). Qué es cada archivo y cada columna, y cómo citar los datos: {}.",
        format_time(facts.snapshot_at),
        links.absolute(DATOS)
    );
    if facts.synthetic {
        description.push_str(" Estos datos son sintéticos: los precios, las concesionarias y las fichas técnicas son inventados para probar el sistema; no son datos del mercado.");
    }
    let mut resources: Vec<Value> = tables
        .iter()
        .chain(snapshot_tables)
        .flat_map(table_resources)
        .collect();
    resources.push(file_resource(
        "snapshot-snapshot-json",
        "Datos de la captura (snapshot.json)",
        "Momento de la captura (snapshotAt), del último control de catálogo (catalogueObservedAt), sitio de origen y si los datos son sintéticos.",
        "json",
        meta,
    ));
    resources.push(file_resource(
        "snapshot-specs-jsonl",
        "Fichas técnicas (JSON Lines)",
        "Una ficha técnica oficial por línea (objeto JSON), con sus valores, la fuente de cada uno y los datos faltantes o dudosos.",
        "jsonl",
        specs,
    ));
    resources.push(file_resource(
        "autoprecios-sqlite",
        "Base de datos SQLite",
        "Las versiones publicadas, sus cotizaciones actuales, los promedios semanales y las tablas del informe mensual en una base SQLite, con índice de texto completo (versiones_fts), vistas (mas_barato_por_modelo, oportunidades) y el significado y la unidad de cada columna en la tabla _metadata. Se abre con Datasette, Datasette Lite o sqlite3.",
        "sqlite",
        sqlite,
    ));
    json!({
        "name": "autoprecios",
        "title": "autoprecios: precios de autos 0 km en concesionarias de la Argentina",
        "description": description,
        "homepage": links.absolute(DATOS),
        "created": format_time(facts.snapshot_at),
        "snapshotAt": format_time(facts.snapshot_at),
        "catalogueObservedAt": format_time(facts.catalogue_observed_at),
        "synthetic": facts.synthetic,
        "keywords": ["autos 0 km", "precios", "concesionarias", "Argentina"],
        "licenses": [{
            "name": license.spdx,
            "path": license.url,
            "title": license.title(),
        }],
        "sources": [{"title": facts.site_name, "path": facts.source}],
        "contributors": [{"title": "autoprecios", "path": links.absolute("/"), "role": "publisher"}],
        "resources": resources,
    })
}
