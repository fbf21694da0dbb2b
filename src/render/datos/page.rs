//! Render stage, data downloads: the Spanish page `/datos`, which explains
//! every file of `/datos/` and its columns, how to verify and archive them,
//! the license and how to cite the data, with a schema.org `Dataset` (each
//! file a `DataDownload`) for dataset search engines.

use serde::Serialize;
use serde_json::{Value, json};

use super::fields::{Field, TableDoc};
use super::license::{data_license, license_page};
use super::package::{Part, TableFiles, Written};
use super::place::DATOS;
use super::{changes, citation};
use crate::api::links::Links;
use crate::format::{count, date, date_time, file_size};
use crate::html::escape;
use crate::render::site::catalogue_pages::crumbs;
use crate::render::site::{PageMeta, Site, json_for_script};
use crate::snapshot::DataLicense;
use crate::time::format_time;

/// Every file of `/datos/` the page links to.
pub struct DatosFiles<'a> {
    /// The publication's own tables.
    pub tables: &'a [TableFiles],
    /// The snapshot's tables.
    pub snapshot_tables: &'a [TableFiles],
    /// `snapshot/snapshot.json`.
    pub meta: &'a Written,
    /// `snapshot/specs.jsonl.gz`.
    pub specs: &'a Written,
    /// `autoprecios.sqlite`.
    pub sqlite: &'a Written,
    /// `datapackage.json`.
    pub package: &'a Written,
}

#[derive(Serialize)]
struct FileView {
    url: String,
    name: String,
    size: String,
}

impl FileView {
    fn of(file: &Written) -> Self {
        FileView {
            url: format!("{DATOS}/{}", file.path),
            name: file
                .path
                .rsplit('/')
                .next()
                .unwrap_or(&file.path)
                .to_owned(),
            size: file_size(file.bytes),
        }
    }
}

#[derive(Serialize)]
struct FieldView {
    name: String,
    kind: &'static str,
    /// Escaped HTML with `code` spans.
    description: String,
    required: bool,
    values: String,
}

/// One file pair: the whole table, or one month of it.
#[derive(Serialize)]
struct PartView {
    month: Option<String>,
    rows: String,
    csv: FileView,
    parquet: FileView,
}

#[derive(Serialize)]
struct TableView {
    anchor: String,
    name: &'static str,
    title: &'static str,
    description: String,
    rows: String,
    key: String,
    /// Cut by month (its parts are months, newest last).
    monthly: bool,
    parts: Vec<PartView>,
    fields: Vec<FieldView>,
}

#[derive(Serialize)]
struct DatosView {
    synthetic: bool,
    snapshot_at: String,
    snapshot_iso: String,
    catalogue_observed: String,
    vehicle_count: String,
    tables: Vec<TableView>,
    snapshot_tables: Vec<TableView>,
    meta: FileView,
    specs: FileView,
    sqlite: FileView,
    /// The database in Datasette Lite.
    datasette_lite: String,
    package: FileView,
    sums_url: String,
    license_name: String,
    license_url: String,
    /// CC BY 4.0, which the page explains in words.
    license_is_default: bool,
    citation: String,
    example: Option<(String, String)>,
    base: String,
}

/// Escapes `text` for HTML and turns each `` `span` `` into `<code>span</code>`.
pub fn code_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(index, part)| {
            if index % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

fn field_view(field: &Field) -> FieldView {
    FieldView {
        name: field.name.clone(),
        kind: field.kind.label(),
        description: code_spans(&field.description),
        required: field.required,
        values: field.values.join(", "),
    }
}

fn table_view(table: &TableFiles) -> TableView {
    let TableDoc {
        name,
        title,
        description,
        primary_key,
        fields,
    } = &table.doc;
    TableView {
        anchor: format!("{}{}", table.folder, name).replace(['/', '_'], "-"),
        name,
        title,
        description: code_spans(description),
        rows: count(table.rows()),
        key: primary_key.join(", "),
        monthly: table.monthly(),
        parts: table.parts.iter().map(part_view).collect(),
        fields: fields.iter().map(field_view).collect(),
    }
}

fn part_view(part: &Part) -> PartView {
    PartView {
        month: part.month.clone(),
        rows: count(part.rows),
        csv: FileView::of(&part.csv),
        parquet: FileView::of(&part.parquet),
    }
}

/// Writes `/datos`.
pub fn write_datos_page(site: &Site, files: &DatosFiles) -> anyhow::Result<()> {
    let meta = site.index.meta();
    let links = site.index.links();
    let license = data_license(site);
    let cff = citation::citation_cff(links, meta.snapshot_at, meta.synthetic, &license);
    write_text(site, citation::CITATION_PATH, &cff)?;
    let changes = changes::changes_markdown(changes::CHANGES);
    write_text(site, changes::CHANGES_PATH, &changes)?;
    let page = PageMeta {
        path: DATOS.to_owned(),
        title: "Datos abiertos: descargas en CSV y Parquet".to_owned(),
        description: format!(
            "Descargá los precios de autos 0 km de concesionarias de la Argentina al {}: \
             versiones con sus señales, historial de precios, promedios semanales y precios \
             de catálogo, en CSV y Parquet, con esquema, sumas SHA-256 y licencia {}.",
            date(meta.snapshot_at),
            license.name,
        ),
        jsonld: Some(json_for_script(&dataset(site, files))),
        crumbs: crumbs(&[("/", "Inicio")], "Datos"),
        ..PageMeta::default()
    };
    site.write_page(&page, "datos.html", &datos_view(site, files, &license))
}

/// Writes a text file of the downloads (`path`: its URL), typed by its name.
fn write_text(site: &Site, path: &str, text: &str) -> anyhow::Result<()> {
    let file = path.trim_start_matches('/');
    site.out.write(
        path,
        file,
        crate::headers::content_type_of(file),
        text.as_bytes(),
    )
}

/// What `datos.html` shows: the files, the licence and how to cite them.
fn datos_view(site: &Site, files: &DatosFiles, license: &DataLicense) -> DatosView {
    let meta = site.index.meta();
    let links = site.index.links();
    let snapshot_at = date_time(meta.snapshot_at);
    let page_url = links.absolute(DATOS);
    let citation = format!(
        "autoprecios ({}). Precios de autos 0 km en concesionarias de la Argentina. Datos al {snapshot_at} (hora de Argentina). {page_url}. Licencia {}.",
        meta.snapshot_at.format("%Y"),
        license.name,
    );
    DatosView {
        synthetic: meta.synthetic,
        snapshot_at,
        snapshot_iso: format_time(meta.snapshot_at),
        catalogue_observed: date_time(meta.catalogue_observed_at),
        vehicle_count: count(site.vehicles().len()),
        tables: files.tables.iter().map(table_view).collect(),
        snapshot_tables: files.snapshot_tables.iter().map(table_view).collect(),
        meta: FileView::of(files.meta),
        specs: FileView::of(files.specs),
        sqlite: FileView::of(files.sqlite),
        datasette_lite: format!(
            "https://lite.datasette.io/?{}",
            format_args!(
                "url={}",
                crate::api::text::percent_encode(
                    &links.absolute(&format!("{DATOS}/{}", files.sqlite.path))
                )
            )
        ),
        package: FileView::of(files.package),
        sums_url: format!("{DATOS}/SHA256SUMS"),
        license_name: license.name.clone(),
        license_url: license_page(license),
        license_is_default: *license == DataLicense::default_license(),
        citation,
        example: site.vehicles().first().map(|vehicle| {
            (
                crate::api::links::Links::vehicle_path(&vehicle.id),
                format!(
                    "{} {} {}",
                    vehicle.identity.make, vehicle.identity.model, vehicle.identity.trim
                ),
            )
        }),
        base: links.base().to_owned(),
    }
}

/// The schema.org `Dataset` of the downloads.
fn dataset(site: &Site, files: &DatosFiles) -> Value {
    let meta = site.index.meta();
    let links = site.index.links();
    let start = site
        .snapshot
        .catalogue_checks
        .first()
        .copied()
        .unwrap_or(meta.catalogue_observed_at);
    let publisher =
        json!({"@type": "Organization", "name": "autoprecios", "url": links.absolute("/")});
    json!({
        "@context": "https://schema.org",
        "@type": "Dataset",
        "name": "Precios de autos 0 km en concesionarias de la Argentina (autoprecios)",
        "description": dataset_description(meta.synthetic),
        "url": links.absolute(DATOS),
        "license": data_license(site).url,
        "isAccessibleForFree": true,
        "inLanguage": "es-AR",
        "keywords": ["autos 0 km", "precios", "concesionarias", "Argentina", "precio habitual"],
        "creator": publisher,
        "publisher": publisher,
        "dateModified": format_time(meta.snapshot_at),
        "temporalCoverage": format!("{}/{}", format_time(start), format_time(meta.snapshot_at)),
        "spatialCoverage": {"@type": "Place", "name": "Argentina"},
        "distribution": distribution(links, files),
    })
}

/// What the dataset holds, and whether its data is synthetic.
fn dataset_description(synthetic: bool) -> String {
    let mut description =
        "Precios de contado que las concesionarias piden por autos 0 km en la Argentina: \
        cada versión publicada con su precio actual, su precio habitual y sus señales de \
        oportunidad y baja de precio; el historial de cada control de cotizaciones, los \
        promedios semanales, los precios de catálogo y las tablas originales de la captura."
            .to_owned();
    if synthetic {
        description.push_str(" Los datos de esta publicación son sintéticos: inventados para probar el sistema, no son datos del mercado.");
    }
    description
}

/// Every download as a schema.org `DataDownload`: each table's parts in
/// CSV and Parquet, then the database and the package's description.
fn distribution(links: &Links, files: &DatosFiles) -> Vec<Value> {
    let download = |file: &Written, format: &str, name: String| {
        json!({
            "@type": "DataDownload",
            "name": name,
            "encodingFormat": format,
            "contentUrl": links.absolute(&format!("{DATOS}/{}", file.path)),
            "contentSize": format!("{} B", file.bytes),
        })
    };
    let mut distribution = Vec::new();
    for table in files.tables.iter().chain(files.snapshot_tables) {
        for part in &table.parts {
            let title = match &part.month {
                None => table.doc.title.to_owned(),
                Some(month) => format!("{}, {month}", table.doc.title),
            };
            distribution.push(download(
                &part.csv,
                crate::headers::GZIP,
                format!("{title} (CSV comprimido con gzip)"),
            ));
            distribution.push(download(
                &part.parquet,
                crate::headers::PARQUET,
                format!("{title} (Parquet)"),
            ));
        }
    }
    distribution.push(download(
        files.sqlite,
        crate::headers::content_type_of(&files.sqlite.path),
        "Base de datos SQLite".to_owned(),
    ));
    distribution.push(download(
        files.package,
        crate::headers::JSON,
        "Descripción Frictionless Data Package".to_owned(),
    ));
    distribution
}
