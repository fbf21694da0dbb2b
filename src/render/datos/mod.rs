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
//! File names carry no date: each publication replaces the files at the same
//! URLs, and `datapackage.json` carries the snapshot's times, so an archive
//! keeps dated copies by filing each download under its `snapshotAt`.

pub mod fields;
pub mod package;
pub mod page;
pub mod snapshot_fields;
pub mod tables;

use std::time::Instant;

use anyhow::{Context, ensure};
use rayon::prelude::*;
use serde_json::{Value, json};
use tracing::debug;

use crate::api::links::Links;
use crate::catalogue::week_completed;
use crate::frame::Frame;
use crate::output::JSON;
use crate::render::site::Site;
use crate::render::site::feeds::SitemapEntry;
use crate::snapshot::{SnapshotTable, specs_jsonl};
use crate::time::format_time;
use fields::TableDoc;
use package::{TableFiles, Written, file_resource, gzip, sha256sums, table_resources};
use page::{DatosFiles, write_datos_page};

/// Site path of the page; the files live under `/datos/`.
pub const DATOS: &str = "/datos";
/// Content type of gzipped files.
pub const GZIP: &str = "application/gzip";
/// Content type of Parquet files.
pub const PARQUET: &str = "application/vnd.apache.parquet";
/// Content type of plain CSV files (a version's `historial.csv`).
pub const CSV: &str = "text/csv; charset=utf-8";
/// Name of a version's history file, beside its page.
pub use crate::render::site::version::HISTORY_CSV;
/// The data's license (the code's MIT license does not cover data).
pub const LICENSE_NAME: &str = "CC BY 4.0";
/// The license's canonical address (machine-readable metadata).
pub const LICENSE_URL: &str = "https://creativecommons.org/licenses/by/4.0/";
/// The license in Spanish, for readers of the page.
pub const LICENSE_DEED: &str = "https://creativecommons.org/licenses/by/4.0/deed.es";

/// Writes every version's `historial.csv`, beside its page: the completed
/// weeks its chart draws, in the bulk `semanas` table's columns (a header
/// alone when the version has no completed week in the window).
pub fn write_history_csvs(site: &Site) -> anyhow::Result<()> {
    let at = site.index.meta().catalogue_observed_at;
    site.vehicles().par_iter().try_for_each(|vehicle| {
        let url = format!("{}/{HISTORY_CSV}", Links::vehicle_path(&vehicle.id));
        let file = url.trim_start_matches('/').to_owned();
        let weeks = vehicle
            .history
            .iter()
            .filter(|week| week_completed(week.week_start, at))
            .map(|week| (vehicle.id.as_str(), week));
        let csv = tables::semanas_rows(weeks).to_csv();
        site.out.write(&url, &file, CSV, csv.as_bytes())
    })
}

/// Writes every file of `/datos/` and the page; returns the page for the sitemap.
pub fn write_datos(site: &Site) -> anyhow::Result<SitemapEntry> {
    write_history_csvs(site)?;
    let (snapshot, catalogue, links) = (site.snapshot, site.catalogue, site.index.links());
    let own: Vec<TableJob> = vec![
        (
            fields::versiones(),
            Box::new(|| tables::versiones(catalogue, links)),
        ),
        (
            fields::controles(),
            Box::new(|| tables::controles(snapshot)),
        ),
        (
            fields::semanas(),
            Box::new(|| tables::semanas(&catalogue.vehicles)),
        ),
        (
            fields::catalogo(),
            Box::new(|| tables::catalogo(snapshot, catalogue)),
        ),
    ];
    let tables = write_tables(site, "", own)?;
    let theirs: Vec<TableJob> = snapshot_fields::snapshot_tables()
        .into_iter()
        .zip(SnapshotTable::ALL)
        .map(|(doc, table)| (doc, Box::new(move || table.frame(snapshot)) as Builder))
        .collect();
    let snapshot_tables = write_tables(site, "snapshot/", theirs)?;
    let mut meta_json =
        serde_json::to_string_pretty(&snapshot.meta).context("serializing snapshot.json")?;
    meta_json.push('\n');
    let meta = write_file(site, "snapshot/snapshot.json", JSON, meta_json.as_bytes())?;
    let specs = write_file(
        site,
        "snapshot/specs.jsonl.gz",
        GZIP,
        &gzip(specs_jsonl(snapshot)?.as_bytes())?,
    )?;
    let descriptor = datapackage(site, &tables, &snapshot_tables, &meta, &specs);
    let mut descriptor_bytes =
        serde_json::to_vec_pretty(&descriptor).context("serializing datapackage.json")?;
    descriptor_bytes.push(b'\n');
    let package = write_file(site, "datapackage.json", JSON, &descriptor_bytes)?;
    let mut every_file: Vec<Written> = tables
        .iter()
        .chain(&snapshot_tables)
        .flat_map(|table| [table.csv.clone(), table.parquet.clone()])
        .collect();
    every_file.extend([meta.clone(), specs.clone(), package.clone()]);
    write_file(
        site,
        "SHA256SUMS",
        "text/plain; charset=utf-8",
        sha256sums(&every_file).as_bytes(),
    )?;
    write_datos_page(
        site,
        &DatosFiles {
            tables: &tables,
            snapshot_tables: &snapshot_tables,
            meta: &meta,
            specs: &specs,
            package: &package,
        },
    )?;
    Ok(SitemapEntry::at(DATOS, &site.snapshot_at))
}

/// Writes `/datos/<path>` and returns its record.
fn write_file(
    site: &Site,
    path: &str,
    content_type: &str,
    bytes: &[u8],
) -> anyhow::Result<Written> {
    site.out.write(
        &format!("{DATOS}/{path}"),
        &format!("{}/{path}", DATOS.trim_start_matches('/')),
        content_type,
        bytes,
    )?;
    Ok(Written::of(path, bytes))
}

/// Builds a table's frame when it is written.
type Builder<'a> = Box<dyn Fn() -> Frame + Send + Sync + 'a>;

/// A table to write: what it holds, and how to build it.
type TableJob<'a> = (TableDoc, Builder<'a>);

/// Builds, encodes and writes each table as `<folder><name>.csv.gz` and
/// `<folder><name>.parquet`, in parallel, in the given order. Each frame is
/// built just before it is encoded and dropped after, so only as many
/// tables as there are threads are held at once.
fn write_tables(
    site: &Site,
    folder: &'static str,
    tables: Vec<TableJob>,
) -> anyhow::Result<Vec<TableFiles>> {
    tables
        .into_par_iter()
        .map(|(doc, build)| {
            let start = Instant::now();
            let frame = build();
            check_columns(&doc, &frame)?;
            let stem = format!("{folder}{}", doc.name);
            let csv = gzip(frame.to_csv().as_bytes())
                .with_context(|| format!("compressing {stem}.csv.gz"))?;
            let parquet = frame
                .to_parquet()
                .with_context(|| format!("encoding {stem}.parquet"))?;
            debug!(
                table = %stem,
                rows = frame.height(),
                elapsed_ms = start.elapsed().as_millis() as u64,
                "data download encoded"
            );
            Ok(TableFiles {
                rows: frame.height(),
                csv: write_file(site, &format!("{stem}.csv.gz"), GZIP, &csv)?,
                parquet: write_file(site, &format!("{stem}.parquet"), PARQUET, &parquet)?,
                doc,
                folder,
            })
        })
        .collect()
}

/// A table's columns are the documented ones, in order, of the documented types.
fn check_columns(doc: &TableDoc, frame: &Frame) -> anyhow::Result<()> {
    let names: Vec<&str> = frame.columns().iter().map(|(n, _)| n.as_str()).collect();
    let documented: Vec<&str> = doc.fields.iter().map(|f| f.name.as_str()).collect();
    ensure!(
        names == documented && doc.name == frame.name(),
        "invariant: table {} has columns {names:?}, documented as {} {documented:?}",
        frame.name(),
        doc.name
    );
    for (field, (_, cells)) in doc.fields.iter().zip(frame.columns()) {
        ensure!(
            field.kind.fits(cells),
            "invariant: column {}.{} does not hold {}",
            doc.name,
            field.name,
            field.kind.schema_type()
        );
    }
    Ok(())
}

/// `datapackage.json`: the package's facts and every file as a resource.
fn datapackage(
    site: &Site,
    tables: &[TableFiles],
    snapshot_tables: &[TableFiles],
    meta: &Written,
    specs: &Written,
) -> Value {
    let facts = site.index.meta();
    let links = site.index.links();
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
            "name": "CC-BY-4.0",
            "path": LICENSE_URL,
            "title": "Creative Commons Atribución 4.0 Internacional",
        }],
        "sources": [{"title": facts.site_name, "path": facts.source}],
        "contributors": [{"title": "autoprecios", "path": links.absolute("/"), "role": "publisher"}],
        "resources": resources,
    })
}
