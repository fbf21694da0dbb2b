//! Render stage, the market report's tables: each month's five tables as
//! CSV (comma-separated, a dot decimal, an empty cell for no number), the
//! documentation of their columns that the page and `datapackage.json`
//! share, and `/informes/datapackage.json`.

use serde_json::{Value, json};

use crate::api::types::report::{CheapItem, GroupKind, IndexRow, Mover, Report};
use crate::frame::Frame;

/// A month's tables as CSV frames, by file name.
pub(crate) fn tables(report: &Report) -> Vec<(&'static str, Frame)> {
    vec![
        ("indice", indice(report)),
        ("mas-baratos", mas_baratos(report)),
        ("subas-y-bajas", subas_y_bajas(report)),
        ("concesionarias-vs-catalogo", concesionarias(report)),
        ("cobertura", cobertura(report)),
    ]
}

/// The index, a row a group and currency.
fn indice(report: &Report) -> Frame {
    let index = &report.index;
    let group_kind = |row: &IndexRow| match row.group.kind {
        GroupKind::All => "all",
        GroupKind::Type => "type",
        GroupKind::Make => "make",
    };
    Frame::new("indice")
        .text("month", index.iter().map(|_| Some(report.month.as_str())))
        .text("groupKind", index.iter().map(|r| Some(group_kind(r))))
        .text("groupValue", index.iter().map(|r| r.group.value.as_deref()))
        .text("currency", index.iter().map(|r| Some(r.currency.as_str())))
        .integer("n", index.iter().map(|r| Some(r.n as i64)))
        .number("changePct", index.iter().map(|r| r.change_pct))
        .number("ytdPct", index.iter().map(|r| r.ytd_pct))
        .number("yoyPct", index.iter().map(|r| r.yoy_pct))
        .number("level", index.iter().map(|r| r.level))
}

/// The cheapest versions, ranked.
fn mas_baratos(report: &Report) -> Frame {
    let cheap: Vec<(usize, &CheapItem)> = report
        .cheapest
        .iter()
        .enumerate()
        .map(|(k, item)| (k + 1, item))
        .collect();
    Frame::new("mas-baratos")
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
        .number("changePct", cheap.iter().map(|(_, i)| i.change_pct))
}

/// The rises, then the falls.
fn subas_y_bajas(report: &Report) -> Frame {
    let movers: Vec<(&str, &Mover)> = (report.movers.rises.iter().map(|m| ("rise", m)))
        .chain(report.movers.falls.iter().map(|m| ("fall", m)))
        .collect();
    Frame::new("subas-y-bajas")
        .text("direction", movers.iter().map(|(d, _)| Some(*d)))
        .text("id", movers.iter().map(|(_, m)| Some(m.id.as_str())))
        .text("make", movers.iter().map(|(_, m)| Some(m.make.as_str())))
        .text("model", movers.iter().map(|(_, m)| Some(m.model.as_str())))
        .text("trim", movers.iter().map(|(_, m)| Some(m.trim.as_str())))
        .number("changePct", movers.iter().map(|(_, m)| Some(m.change_pct)))
}

/// Dealers against the catalogue, all versions and by make.
fn concesionarias(report: &Report) -> Frame {
    let dealers = &report.dealers_vs_catalogue;
    let kind = |all: bool| if all { "all" } else { "make" };
    Frame::new("concesionarias-vs-catalogo")
        .text(
            "groupKind",
            dealers
                .iter()
                .map(|r| Some(kind(r.group.kind == GroupKind::All))),
        )
        .text(
            "groupValue",
            dealers.iter().map(|r| r.group.value.as_deref()),
        )
        .integer("quotes", dealers.iter().map(|r| Some(r.quotes as i64)))
        .number("belowPct", dealers.iter().map(|r| r.below_pct))
        .number("atPct", dealers.iter().map(|r| r.at_pct))
        .number("abovePct", dealers.iter().map(|r| r.above_pct))
        .number("medianGapPct", dealers.iter().map(|r| r.median_gap_pct))
}

/// What the month's figures were computed from: one row.
fn cobertura(report: &Report) -> Frame {
    let c = &report.coverage;
    Frame::new("cobertura")
        .text("month", std::iter::once(Some(report.month.as_str())))
        .integer("versions", std::iter::once(Some(c.versions as i64)))
        .integer("checks", std::iter::once(Some(c.checks as i64)))
        .integer("quotes", std::iter::once(Some(c.quotes as i64)))
        .integer("dealers", std::iter::once(Some(c.dealers as i64)))
        .integer("locations", std::iter::once(Some(c.locations as i64)))
        .number("inStockPct", std::iter::once(c.in_stock_pct))
        .number("arsPerUsd", std::iter::once(report.dollar.ars_per_usd))
}

/// One documented column: its name, its Table Schema type and what it holds.
type Column = (&'static str, &'static str, &'static str);

/// A report table as the page and `datapackage.json` describe it.
pub(crate) struct TableDoc {
    /// File stem (`indice` for `indice.csv`).
    pub name: &'static str,
    /// Title.
    pub title: &'static str,
    /// What a row is.
    pub rows: &'static str,
    /// Its columns, in file order.
    pub columns: &'static [Column],
}

/// The five tables of a report, in the order of the page.
pub(crate) const TABLE_DOCS: [TableDoc; 5] = [
    TableDoc {
        name: "indice",
        title: "Índice de precios de concesionaria",
        rows: "Una fila por grupo (todas las versiones, cada tipo de carrocería, cada marca) y moneda con precio en el mes.",
        columns: &[
            ("month", "string", "Mes (AAAA-MM, hora argentina)."),
            (
                "groupKind",
                "string",
                "all (todas las versiones), type (tipo de carrocería) o make (marca).",
            ),
            (
                "groupValue",
                "string",
                "El tipo o la marca; vacío para todas las versiones.",
            ),
            ("currency", "string", "ARS o USD."),
            (
                "n",
                "integer",
                "Versiones con precio en el mes y en el anterior.",
            ),
            (
                "changePct",
                "number",
                "Cambio del mes en porcentaje; vacío con menos de 5 versiones.",
            ),
            ("ytdPct", "number", "Cambio desde diciembre, en porcentaje."),
            ("yoyPct", "number", "Cambio en doce meses, en porcentaje."),
            (
                "level",
                "number",
                "Nivel encadenado (100 en el primer mes de los datos).",
            ),
        ],
    },
    TableDoc {
        name: "mas-baratos",
        title: "Los 10 más baratos",
        rows: "Una fila por versión, de la más barata a la más cara, al último control de catálogo del mes (ahora, para el mes en curso).",
        columns: &[
            ("rank", "integer", "Puesto (1 es la más barata)."),
            ("id", "string", "Identificador de la versión."),
            ("make", "string", "Marca."),
            ("model", "string", "Modelo."),
            ("trim", "string", "Versión."),
            ("type", "string", "Tipo de carrocería."),
            (
                "priceArs",
                "number",
                "Cotización más baja en pesos (en dólares al tipo de cambio de su control).",
            ),
            (
                "currentPriceUsd",
                "number",
                "La misma cotización en dólares.",
            ),
            (
                "feesIncluded",
                "boolean",
                "Si incluye flete y formularios; vacío si no se sabe.",
            ),
            (
                "changePct",
                "number",
                "Cambio en pesos de la versión en el mes, en porcentaje.",
            ),
        ],
    },
    TableDoc {
        name: "subas-y-bajas",
        title: "Subas y bajas",
        rows: "Las 10 mayores subas y las 10 mayores bajas del mes, en pesos.",
        columns: &[
            ("direction", "string", "rise (suba) o fall (baja)."),
            ("id", "string", "Identificador de la versión."),
            ("make", "string", "Marca."),
            ("model", "string", "Modelo."),
            ("trim", "string", "Versión."),
            ("changePct", "number", "Cambio en pesos, en porcentaje."),
        ],
    },
    TableDoc {
        name: "concesionarias-vs-catalogo",
        title: "Concesionarias frente al catálogo",
        rows: "Una fila para todas las versiones y una por marca: las cotizaciones del mes frente al precio de catálogo del sitio de avisos (no el precio de lista del fabricante).",
        columns: &[
            ("groupKind", "string", "all o make."),
            (
                "groupValue",
                "string",
                "La marca; vacío para todas las versiones.",
            ),
            ("quotes", "integer", "Cotizaciones comparadas."),
            (
                "belowPct",
                "number",
                "Porcentaje al menos 0,5 % por debajo del catálogo.",
            ),
            (
                "atPct",
                "number",
                "Porcentaje a menos de 0,5 % del catálogo.",
            ),
            (
                "abovePct",
                "number",
                "Porcentaje al menos 0,5 % por encima del catálogo.",
            ),
            (
                "medianGapPct",
                "number",
                "Mediana de (cotización - catálogo) / catálogo, en porcentaje.",
            ),
        ],
    },
    TableDoc {
        name: "cobertura",
        title: "Cobertura",
        rows: "Una fila: de qué datos sale el informe del mes.",
        columns: &[
            ("month", "string", "Mes (AAAA-MM)."),
            (
                "versions",
                "integer",
                "Versiones con al menos un control de cotizaciones en el mes.",
            ),
            ("checks", "integer", "Controles de cotizaciones."),
            ("quotes", "integer", "Cotizaciones."),
            ("dealers", "integer", "Concesionarias distintas (sellerId)."),
            ("locations", "integer", "Localidades distintas."),
            ("inStockPct", "number", "Porcentaje de controles con stock."),
            (
                "arsPerUsd",
                "number",
                "Dólar de referencia del mes (pesos por dólar).",
            ),
        ],
    },
];

/// Whether `frame`'s columns are its table's documented ones, in order.
pub(super) fn documented(name: &str, frame: &Frame) -> bool {
    let doc = TABLE_DOCS.iter().find(|doc| doc.name == name);
    let names = frame.columns().iter().map(|(name, _)| name.as_str());
    doc.is_some_and(|doc| names.eq(doc.columns.iter().map(|(name, _, _)| *name)))
}

/// `/informes/datapackage.json`: every month's tables as Frictionless
/// resources with their Table Schemas, `months` newest first.
pub(super) fn datapackage(
    months: &[String],
    facts: (&str, &str, &str, bool),
    license: &crate::snapshot::DataLicense,
) -> Value {
    let (created, site_name, source, synthetic) = facts;
    let mut resources = Vec::new();
    for month in months {
        for doc in &TABLE_DOCS {
            let fields: Vec<Value> = doc
                .columns
                .iter()
                .map(|(name, kind, about)| json!({ "name": name, "type": kind, "description": about }))
                .collect();
            resources.push(json!({
                "name": format!("{}-{month}", doc.name),
                "type": "table",
                "title": format!("{}, {month}", doc.title),
                "description": doc.rows,
                "path": format!("{month}/{}.csv", doc.name),
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "schema": { "fields": fields },
            }));
        }
    }
    let mut description = "Informes mensuales de autoprecios: el índice de precios de concesionaria de los autos 0 km en pesos y en dólares, los más baratos, las subas y bajas, las concesionarias frente al catálogo y la cobertura, un archivo por tabla y por mes. Cómo se calcula cada número: /metodologia#informe-mensual.".to_owned();
    if synthetic {
        description.push_str(
            " Estos datos son sintéticos: los precios son inventados; no son datos del mercado.",
        );
    }
    json!({
        "name": "autoprecios-informes",
        "title": "autoprecios: informes mensuales del mercado de autos 0 km",
        "description": description,
        "created": created,
        "synthetic": synthetic,
        "licenses": [{
            "name": license.spdx,
            "path": license.url,
            "title": license.title(),
        }],
        "sources": [{ "title": site_name, "path": source }],
        "resources": resources,
    })
}
