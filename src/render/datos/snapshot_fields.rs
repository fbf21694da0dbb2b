//! Render stage, data downloads: the snapshot's own tables as `/datos/snapshot/`
//! publishes them, described column by column in Spanish (the same columns,
//! types and meaning as `data/README.md`, the snapshot format's contract).

use super::fields::{Field, FieldKind, TableDoc, field};
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};

use FieldKind::{Boolean, DateTime, Integer, Number, Text, Url};

fn version_id() -> Field {
    field("versionId", Text, "Un `id` de la tabla versions.").required()
}

/// Every table of the snapshot, in the order of `data/README.md`.
pub fn snapshot_tables() -> [TableDoc; 6] {
    [
        catalogue_checks(),
        versions(),
        catalogue_prices(),
        quote_checks(),
        quotes(),
        cpi(),
    ]
}

fn cpi() -> TableDoc {
    TableDoc {
        name: "cpi",
        title: "Índice de precios al consumidor",
        description: "Una fila por mes: el índice de precios al consumidor que el informe mensual pone junto a los precios (tabla opcional: sin filas, el informe no dice nada de la inflación).",
        primary_key: &["month"],
        fields: vec![
            field("month", Text, "Mes calendario (AAAA-MM).").required(),
            field("value", Number, "Valor del índice (cualquier base).").required(),
            field("source", Text, "Dirección donde se publicó."),
        ],
    }
}

fn catalogue_checks() -> TableDoc {
    TableDoc {
        name: "catalogue_checks",
        title: "Controles de catálogo",
        description: "Una fila por control de catálogo (cinco por día). Un control en el que no figura ninguna versión es una falla de lectura y no cuenta como momento de monitoreo.",
        primary_key: &["observedAt"],
        fields: vec![
            field(
                "observedAt",
                DateTime,
                "Momento en que se leyó el catálogo.",
            )
            .required(),
        ],
    }
}

fn versions() -> TableDoc {
    TableDoc {
        name: "versions",
        title: "Versiones del catálogo",
        description: "Una fila por versión (marca, modelo y versión) que figuró alguna vez en el catálogo, publicada o no.",
        primary_key: &["id"],
        fields: vec![
            field(
                "id",
                Text,
                "Identificador de la versión en el catálogo; distingue mayúsculas de minúsculas.",
            )
            .required(),
            field("make", Text, "Marca.").required(),
            field("model", Text, "Modelo.").required(),
            field("trim", Text, "Versión.").required(),
            field("trimDisplay", Text, "Forma de mostrar la versión."),
            field("type", Text, "Carrocería.").one_of(BodyType::names()),
            field("tier", Text, "Código de segmento del catálogo."),
            field("tierLabel", Text, "Segmento, como lo escribe el catálogo."),
            field("fuel", Text, "Combustible o motorización.").one_of(Fuel::names()),
            field("transmission", Text, "Transmisión.").one_of(Transmission::names()),
            field("drivetrain", Text, "Tracción.").one_of(Drivetrain::names()),
            field("seats", Integer, "Asientos; vacío si no se conoce."),
            field("airbags", Integer, "Airbags; vacío si no se conoce."),
            field(
                "sourceUrl",
                Url,
                "Aviso de la versión en el sitio de concesionarias.",
            )
            .required(),
            field(
                "factSources",
                Text,
                "Objeto JSON del nombre de cada dato del catálogo (`fuel`, `seats`, …) al tipo de fuente que lo dio (`official`, `catalogue`); vacío equivale a `{}`.",
            ),
        ],
    }
}

fn catalogue_prices() -> TableDoc {
    TableDoc {
        name: "catalogue_prices",
        title: "Precios de catálogo",
        description: "El precio de catálogo de cada versión en cada control de catálogo, en tramos: una fila por serie de controles seguidos en los que figuró con el mismo precio.",
        primary_key: &["versionId", "firstSeen"],
        fields: vec![
            version_id(),
            field("price", Number, "Precio de catálogo en su moneda.").required(),
            field("currency", Text, "`ARS` (pesos) o `USD` (dólares).")
                .required()
                .one_of(Currency::names()),
            field(
                "firstSeen",
                DateTime,
                "Primer control de catálogo del tramo.",
            )
            .required(),
            field(
                "lastSeen",
                DateTime,
                "Último control de catálogo del tramo.",
            )
            .required(),
        ],
    }
}

fn quote_checks() -> TableDoc {
    TableDoc {
        name: "quote_checks",
        title: "Controles detallados de cotizaciones",
        description: "Una fila por control detallado de una versión: se abrió su aviso y se leyeron todas las cotizaciones. El último control de cada versión es su juego de cotizaciones actual.",
        primary_key: &["versionId", "observedAt"],
        fields: vec![
            version_id(),
            field(
                "observedAt",
                DateTime,
                "Momento en que se leyeron las cotizaciones.",
            )
            .required(),
            field(
                "arsPerUsd",
                Number,
                "Tipo de cambio (pesos por dólar) observado en el control; vacío si no hubo precios en pesos.",
            ),
            field("inStock", Boolean, "Si el aviso mostraba stock.").required(),
        ],
    }
}

fn quotes() -> TableDoc {
    TableDoc {
        name: "quotes",
        title: "Cotizaciones de concesionarias",
        description: "Una fila por cotización de una concesionaria en un control detallado.",
        primary_key: &["versionId", "checkedAt", "quoteId"],
        fields: vec![
            version_id(),
            field(
                "checkedAt",
                DateTime,
                "El `observedAt` del control al que pertenece.",
            )
            .required(),
            field(
                "quoteId",
                Text,
                "Identificador de la cotización, único dentro del control.",
            )
            .required(),
            field(
                "price",
                Number,
                "Precio de contado en su moneda; nunca incluye patentamiento.",
            )
            .required(),
            field("currency", Text, "`ARS` o `USD`.")
                .required()
                .one_of(Currency::names()),
            field(
                "feesIncluded",
                Boolean,
                "Si incluye flete y gastos de trámite; vacío si no se sabe.",
            ),
            field("color", Text, "Color, como lo escribe la concesionaria."),
            field(
                "stock",
                Integer,
                "Unidades en stock, cuando la concesionaria lo dice.",
            ),
            field("location", Text, "Ubicación de la concesionaria."),
            field("sellerId", Text, "Identificador de la concesionaria."),
        ],
    }
}
