//! Render stage, data downloads: what each table of `/datos` holds and what
//! each of its columns means (Spanish, for the `/datos` page and
//! `datapackage.json`), with the Table Schema type and constraints that
//! `frictionless validate` checks. The tables of the publication itself
//! (`versiones`, `controles`, `semanas`, `catalogo`) are described here; the
//! snapshot's own tables in `snapshot_fields.rs`.

use crate::frame::Cells;
use crate::vocab::{BodyType, ChangeKind, Currency, Drivetrain, Fuel, Transmission, Window};

/// Logical type of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// Free text.
    Text,
    /// An absolute web address.
    Url,
    /// Whole number.
    Integer,
    /// Decimal number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// RFC 3339 time in UTC (`2026-11-21T23:00:00Z`).
    DateTime,
    /// Calendar day (`2026-11-16`).
    Date,
}

impl FieldKind {
    /// Table Schema type.
    pub fn schema_type(self) -> &'static str {
        match self {
            FieldKind::Text | FieldKind::Url => "string",
            FieldKind::Integer => "integer",
            FieldKind::Number => "number",
            FieldKind::Boolean => "boolean",
            FieldKind::DateTime => "datetime",
            FieldKind::Date => "date",
        }
    }

    /// The type in words, for the page.
    pub fn label(self) -> &'static str {
        match self {
            FieldKind::Text => "texto",
            FieldKind::Url => "dirección web",
            FieldKind::Integer => "entero",
            FieldKind::Number => "número",
            FieldKind::Boolean => "true / false",
            FieldKind::DateTime => "fecha y hora (UTC)",
            FieldKind::Date => "fecha",
        }
    }

    /// Whether a column of `cells` can carry this type.
    pub fn fits(self, cells: &Cells) -> bool {
        matches!(
            (self, cells),
            (FieldKind::Text | FieldKind::Url, Cells::Text(_))
                | (FieldKind::Integer, Cells::Integer(_))
                | (FieldKind::Number, Cells::Number(_))
                | (FieldKind::Boolean, Cells::Boolean(_))
                | (FieldKind::DateTime, Cells::Time(_))
                | (FieldKind::Date, Cells::Date(_))
        )
    }
}

/// One documented column.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Column name, as in the file.
    pub name: String,
    /// Logical type.
    pub kind: FieldKind,
    /// What it means, in Spanish.
    pub description: String,
    /// Whether every row has a value.
    pub required: bool,
    /// The only values it takes, when it is a closed vocabulary.
    pub values: Vec<&'static str>,
}

/// A column of `kind`, nullable until [`Field::required`].
pub fn field(name: impl Into<String>, kind: FieldKind, description: impl Into<String>) -> Field {
    Field {
        name: name.into(),
        kind,
        description: description.into(),
        required: false,
        values: Vec::new(),
    }
}

impl Field {
    /// Every row has a value.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The value is one of `values`.
    pub fn one_of(mut self, values: Vec<&'static str>) -> Self {
        self.values = values;
        self
    }
}

/// What one table of the downloads holds.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDoc {
    /// File name without extension (and the frame's name).
    pub name: &'static str,
    /// Short title.
    pub title: &'static str,
    /// What a row is and which rows there are.
    pub description: &'static str,
    /// Columns that identify a row.
    pub primary_key: &'static [&'static str],
    /// Every column, in file order.
    pub fields: Vec<Field>,
}

use FieldKind::{Boolean, Date, DateTime, Integer, Number, Text, Url};

/// The car's identity, repeated in the history tables so that a spreadsheet
/// needs no join.
fn identity() -> Vec<Field> {
    vec![
        field("make", Text, "Marca, como la escribe el catálogo.").required(),
        field("model", Text, "Modelo.").required(),
        field(
            "trim",
            Text,
            "Versión (nombre de la versión en el catálogo).",
        )
        .required(),
    ]
}

fn version_id() -> Field {
    field(
        "versionId",
        Text,
        "Identificador de la versión en el catálogo (el `id` de la API): las publicadas están en versiones.csv.gz; todas, en snapshot/versions.csv.gz.",
    )
    .required()
}

/// `versiones`: one row per published version.
pub fn versiones() -> TableDoc {
    let mut fields = vec![
        field(
            "id",
            Text,
            "Identificador de la versión en el catálogo; distingue mayúsculas de minúsculas. Es el `id` de la API.",
        )
        .required(),
        field("url", Url, "Página de la versión en este sitio.").required(),
        field("sourceUrl", Url, "Aviso original en el sitio de concesionarias.").required(),
    ];
    fields.extend(identity());
    fields.extend([
        field("trimDisplay", Text, "Forma de mostrar la versión, cuando el catálogo la da."),
        field("type", Text, "Carrocería.").one_of(BodyType::names()),
        field("tier", Text, "Código de segmento del catálogo."),
        field("tierLabel", Text, "Segmento, como lo escribe el catálogo; nunca se deduce del precio."),
        field("fuel", Text, "Combustible o motorización.").one_of(Fuel::names()),
        field("transmission", Text, "Transmisión.").one_of(Transmission::names()),
        field("drivetrain", Text, "Tracción.").one_of(Drivetrain::names()),
        field("seats", Integer, "Asientos; vacío si no se conoce."),
        field("airbags", Integer, "Airbags; vacío si no se conoce (no quiere decir que no tenga)."),
        field("hasSpecs", Boolean, "Si tiene ficha técnica oficial (en snapshot/specs.jsonl.gz).").required(),
        field("observedAt", DateTime, "Último control detallado de cotizaciones de la versión.").required(),
        field("currentPriceUsd", Number, "Cotización más baja del último control, en dólares (precio actual).").required(),
        field("quoteCount", Integer, "Cantidad de cotizaciones del último control.").required(),
        field("bestQuoteId", Text, "Identificador de la cotización más baja."),
        field("bestQuotePrice", Number, "La cotización más baja en su moneda original."),
        field("bestQuoteCurrency", Text, "Moneda de la cotización más baja.").one_of(Currency::names()),
        field("arsPerUsd", Number, "Tipo de cambio (pesos por dólar) del último control; vacío si el control vio sólo precios en dólares."),
        field("typicalPriceUsd", Number, "Precio habitual: mediana de los promedios semanales de 180 días, en dólares."),
        field("lowestPriceUsd", Number, "Precio de concesionaria más bajo de los 180 días, en dólares."),
        field("discountPct", Number, "Porcentaje por debajo del precio habitual (negativo: por encima), truncado a dos decimales; vacío si la historia no alcanza."),
        field("observedWeeks", Integer, "Semanas con al menos un control en los 180 días.").required(),
        field("sufficientHistory", Boolean, "Si la historia alcanza para la regla de oportunidad.").required(),
        field("opportunity", Boolean, "Si es una oportunidad: historia suficiente y al menos 5 % por debajo del precio habitual.").required(),
        field("belowTypical", Boolean, "Motivo `below_typical` de la API: es una oportunidad ahora.").required(),
        field("priceDrop", Boolean, "Motivo `price_drop`: bajó de precio en los últimos 7 días.").required(),
        field("newOpportunity", Boolean, "Motivo `new_opportunity`: pasó a ser oportunidad en los últimos 7 días.").required(),
    ]);
    for window in Window::ALL {
        fields.extend(change_fields(window.as_str()));
    }
    TableDoc {
        name: "versiones",
        title: "Versiones publicadas",
        description: "Una fila por versión publicada en esta actualización (las mismas que cuenta `vehicleCount` en la API), con su precio actual, su comparación con el precio habitual y sus cambios recientes en las ventanas de 1, 3 y 7 días.",
        primary_key: &["id"],
        fields,
    }
}

/// The six columns of `recentChanges[window]`.
fn change_fields(window: &str) -> Vec<Field> {
    let name = |suffix: &str| format!("change{window}{suffix}");
    let days = match window {
        "1d" => "el último día",
        "3d" => "los últimos 3 días",
        _ => "los últimos 7 días",
    };
    vec![
        field(
            name("Kind"),
            Text,
            format!("Cambio reciente en {days} (`recentChanges.{window}.kind`): baja de precio o nueva oportunidad; vacío si no hubo."),
        )
        .one_of(ChangeKind::names()),
        field(
            name("ChangedAt"),
            DateTime,
            format!("Momento de la rebaja del catálogo (`recentChanges.{window}.changedAt`)."),
        ),
        field(
            name("QualifiedSince"),
            DateTime,
            format!("Desde qué momento de monitoreo califica una nueva oportunidad sin rebaja (`recentChanges.{window}.qualifiedSince`)."),
        ),
        field(
            name("DropPct"),
            Number,
            format!("Porcentaje de la rebaja (`recentChanges.{window}.dropPct`)."),
        ),
        field(
            name("PreviousPriceUsd"),
            Number,
            format!("Precio de catálogo de referencia, al tipo de cambio actual (`recentChanges.{window}.previousPriceUsd`)."),
        ),
        field(
            name("CurrentPriceUsd"),
            Number,
            format!("Precio de catálogo actual, al tipo de cambio actual (`recentChanges.{window}.currentPriceUsd`)."),
        ),
    ]
}

/// `controles`: one row per quote check with a dealer price.
pub fn controles() -> TableDoc {
    let mut fields = vec![version_id()];
    fields.extend(identity());
    fields.extend([
        field("observedAt", DateTime, "Momento del control detallado de cotizaciones.").required(),
        field("inStock", Boolean, "Si el aviso mostraba stock en ese control.").required(),
        field("quoteCount", Integer, "Cantidad de cotizaciones del control.").required(),
        field("arsPerUsd", Number, "Tipo de cambio (pesos por dólar) observado en el control."),
        field("lowestQuoteId", Text, "Identificador de la cotización más baja del control.").required(),
        field("lowestPrice", Number, "La cotización más baja, en su moneda original.").required(),
        field("lowestCurrency", Text, "Moneda de la cotización más baja.").required().one_of(Currency::names()),
        field("dealerPriceUsd", Number, "Precio de concesionaria del control: la cotización más baja en dólares, al tipo de cambio del mismo control.").required(),
    ]);
    TableDoc {
        name: "controles",
        title: "Historial de precios de concesionaria",
        description: "Una fila por control detallado de cotizaciones con al menos una cotización, de todas las versiones y de todo el período de la publicación: el precio de concesionaria de cada control, que es la historia de la que salen el precio habitual y el precio más bajo. Los controles sin cotizaciones no tienen precio y no figuran (están en snapshot/quote_checks).",
        primary_key: &["versionId", "observedAt"],
        fields,
    }
}

/// `semanas`: the weekly averages behind the usual price.
pub fn semanas() -> TableDoc {
    TableDoc {
        name: "semanas",
        title: "Promedios semanales",
        description: "Una fila por semana con controles de cada versión publicada, dentro de los 180 días: el promedio semanal ponderado por tiempo del precio de concesionaria, en dólares y en la moneda en que se cotizó. La mediana de los promedios en dólares es el precio habitual; son los puntos del gráfico de cada versión (en la moneda cotizada cuando es una sola), cuyo CSV (historial.csv) tiene estas mismas columnas.",
        primary_key: &["versionId", "weekStart"],
        fields: vec![
            version_id(),
            field(
                "weekStart",
                Date,
                "Lunes de la semana (semana ISO, hora de Argentina).",
            )
            .required(),
            field(
                "averageUsd",
                Number,
                "Promedio de la semana, ponderado por el tiempo que rigió cada precio, en dólares.",
            )
            .required(),
            field(
                "currency",
                Text,
                "ARS o USD: la moneda en que se cotizaron todas las cotizaciones de la versión en los 180 días, la del gráfico de su página; vacío si mezclan monedas.",
            )
            .one_of(crate::vocab::Currency::names()),
            field(
                "average",
                Number,
                "El mismo promedio semanal en esa moneda, sobre el precio tal como se cotizó (los pesos que dibuja el gráfico de una versión cotizada en pesos); vacío si mezclan monedas.",
            ),
        ],
    }
}

/// `catalogo`: the catalogue price runs with the change each one starts.
pub fn catalogo() -> TableDoc {
    let mut fields = vec![version_id()];
    fields.extend(identity());
    fields.extend([
        field("firstSeen", DateTime, "Primer control de catálogo del tramo.").required(),
        field("lastSeen", DateTime, "Último control de catálogo del tramo.").required(),
        field("price", Number, "Precio de catálogo en su moneda.").required(),
        field("currency", Text, "Moneda del precio.").required().one_of(Currency::names()),
        field("previousPrice", Number, "Precio del tramo anterior de la misma versión; vacío en el primero."),
        field("previousCurrency", Text, "Moneda del tramo anterior.").one_of(Currency::names()),
        field(
            "change",
            Text,
            "Qué cambio empieza con este tramo: `drop` (rebaja), `rise` (suba) o `unchanged` (vuelve a figurar al mismo precio tras no figurar); vacío en el primer tramo. Entre monedas distintas se compara en dólares al tipo de cambio actual.",
        )
        .one_of(vec!["drop", "rise", "unchanged"]),
    ]);
    TableDoc {
        name: "catalogo",
        title: "Tramos de precio de catálogo",
        description: "Una fila por tramo de controles de catálogo seguidos en los que una versión figuró con el mismo precio, de todas las versiones y de todo el período; cada tramo dice qué cambio de precio empieza. De estos cambios salen las bajas de precio recientes.",
        primary_key: &["versionId", "firstSeen"],
        fields,
    }
}

/// `cotizaciones`, a table of the database alone: what it holds.
pub fn cotizaciones() -> TableDoc {
    TableDoc {
        name: "cotizaciones",
        title: "Cotizaciones actuales",
        description: "Una fila por cotización del último control de cada versión publicada (la tabla «Dónde» de su página), de la más barata a la más cara. Las cotizaciones de todos los controles están en snapshot/quotes.",
        primary_key: &["versionId", "quoteId"],
        fields: vec![
            field(
                "versionId",
                Text,
                "Identificador de la versión (id de versiones).",
            )
            .required(),
            field("observedAt", DateTime, "Momento del control.").required(),
            field(
                "rank",
                Integer,
                "Puesto por precio en dólares (1 es la más barata; empates por quoteId).",
            )
            .required(),
            field("quoteId", Text, "Identificador de la cotización.").required(),
            field("price", Number, "Precio de contado en su moneda.").required(),
            field("currency", Text, "Moneda del precio.")
                .required()
                .one_of(Currency::names()),
            field(
                "priceUsd",
                Number,
                "El precio en dólares al tipo de cambio del control, redondeado al centavo; vacío para un precio en pesos de un control sin tipo de cambio.",
            ),
            field(
                "feesIncluded",
                Boolean,
                "Si incluye flete y formularios; vacío si no se sabe.",
            ),
            field("color", Text, "Color."),
            field("stock", Integer, "Unidades en stock."),
            field("location", Text, "Ciudad de la concesionaria."),
            field("sellerId", Text, "Identificador de la concesionaria."),
        ],
    }
}
