//! API stage, the parameter table: every parameter of every operation, once
//! (wire name, kind with its bounds, enum values and default, English
//! description, Spanish form label, the operations that take it and, for a
//! shared filter, the field of [`Filters`] it sets). The HTTP and MCP
//! parsers, the OpenAPI parameters, the MCP input schemas and the pages'
//! error labels all read it.

use crate::api::operations::Operation::{self, *};
use crate::api::query::{
    CompareQuery, DEFAULT_LIMIT, DealSort, DealsQuery, Filters, MAX_AIRBAGS, MAX_DISCOUNT_PCT,
    MAX_ID_CHARS, MAX_LIMIT, MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_SEATS, ModelQuery, Page,
    SearchQuery, SearchSort, spelling_of,
};
use crate::api::types::DealKind;
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};

/// What a value must be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A string of `min` to `max` characters.
    Text {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// An integer from `min` to `max`.
    Integer {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
        /// Value when absent.
        default: Option<u32>,
    },
    /// A number of at least `min` (and at most `max`).
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value, if any.
        max: Option<f64>,
    },
    /// `true` or `false`.
    Boolean,
    /// One of fixed spellings (case-sensitive).
    Choice {
        /// The allowed spellings.
        values: &'static [&'static str],
        /// Value when absent.
        default: Option<&'static str>,
    },
    /// Vehicle IDs: comma-separated in HTTP, a JSON array in MCP. Their
    /// count and lengths are checked by the comparison itself, after the
    /// index has decided what an encoded comma means.
    Ids,
}

/// Where an HTTP request carries a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// In the query string.
    Query,
    /// As a path segment.
    Path,
}

/// A checked value, the same whichever way it came (HTTP text or MCP JSON).
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// Text within its bounds.
    Text(String),
    /// An integer within its bounds.
    Integer(u32),
    /// A finite number within its bounds.
    Number(f64),
    /// A boolean.
    Boolean(bool),
    /// One of the row's spellings.
    Choice(&'static str),
    /// Vehicle IDs, as given.
    Ids(Vec<String>),
}

impl Given {
    /// The text value, if this is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Given::Text(text) => Some(text.clone()),
            _ => None,
        }
    }

    /// The integer value, if this is one.
    pub fn integer(&self) -> Option<u32> {
        match self {
            Given::Integer(value) => Some(*value),
            _ => None,
        }
    }

    /// The number value, if this is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Given::Number(value) => Some(*value),
            _ => None,
        }
    }

    /// The boolean value, if this is one.
    pub fn boolean(&self) -> Option<bool> {
        match self {
            Given::Boolean(value) => Some(*value),
            _ => None,
        }
    }

    /// The spelling of a choice, if this is one.
    pub fn text_of_choice(&self) -> Option<&'static str> {
        match self {
            Given::Choice(spelling) => Some(spelling),
            _ => None,
        }
    }

    /// The value as a query string spells it (before percent-encoding):
    /// numbers as plain decimals, IDs joined by commas.
    pub fn to_text(&self) -> String {
        match self {
            Given::Text(text) => text.clone(),
            Given::Integer(value) => value.to_string(),
            // `+ 0.0` writes a negative zero as `0`, so equal values are
            // spelt alike.
            Given::Number(value) => (value + 0.0).to_string(),
            Given::Boolean(value) => value.to_string(),
            Given::Choice(spelling) => (*spelling).to_owned(),
            Given::Ids(ids) => ids.join(","),
        }
    }

    /// The choice, parsed into its type, if this is one.
    pub fn choice<T>(&self, parse: fn(&str) -> Option<T>) -> Option<T> {
        match self {
            Given::Choice(spelling) => parse(spelling),
            _ => None,
        }
    }
}

/// How a row reads and writes a part of its operations' typed queries:
/// `set` when a query is parsed, `get` when one is written back as a query
/// string (`None` for a value at its default, which is left out).
pub struct Access<T> {
    /// Stores a checked value.
    pub set: fn(&mut T, &Given),
    /// The value to write, `None` at the default.
    pub get: fn(&T) -> Option<Given>,
}

impl<T> Clone for Access<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Access<T> {}

impl<T> std::fmt::Debug for Access<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Access")
    }
}

/// Where a row's value lives in its operations' typed queries.
#[derive(Debug, Clone, Copy)]
pub enum Field {
    /// A shared filter: its field of [`Filters`], in every list's query.
    Filter(Access<Filters>),
    /// A field of [`SearchQuery`].
    Search(Access<SearchQuery>),
    /// A field of [`DealsQuery`].
    Deals(Access<DealsQuery>),
    /// A field of [`ModelQuery`].
    Model(Access<ModelQuery>),
    /// A field of [`CompareQuery`].
    Compare(Access<CompareQuery>),
    /// A field of the [`Page`] of every paged query.
    Page(Access<Page>),
    /// A value its operation reads by itself (a path segment, the
    /// connector's query).
    Own,
}

/// One parameter of one or more operations.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The wire name (HTTP and MCP alike).
    pub name: &'static str,
    /// What its value must be.
    pub kind: Kind,
    /// Whether the operations that take it require it.
    pub required: bool,
    /// Where HTTP carries it.
    pub location: Location,
    /// What it means, in the OpenAPI document and the MCP schemas.
    pub description: &'static str,
    /// Its label on the site's forms (Spanish), for error messages.
    pub label: Option<&'static str>,
    /// The operations that take it.
    pub operations: &'static [Operation],
    /// Where its value lives in the typed query.
    pub field: Field,
}

impl Param {
    /// Whether `operation` takes this parameter.
    pub fn takes(&self, operation: Operation) -> bool {
        self.operations.contains(&operation)
    }

    /// Whether this is a shared filter.
    pub fn is_filter(&self) -> bool {
        matches!(self.field, Field::Filter(_))
    }
}

const LISTS: &[Operation] = &[Deals, Search];
const PAGED: &[Operation] = &[Deals, Search, ModelPrices];
const NAME: Kind = Kind::Text {
    min: 1,
    max: MAX_NAME_CHARS,
};
const PRICE: Kind = Kind::Number {
    min: 0.0,
    max: None,
};
const SEARCH_SORTS: [&str; 6] = spellings(SearchSort::ALL);
const DEAL_SORTS: [&str; 5] = spellings(DealSort::ALL);
const DEAL_KINDS: [&str; 3] = spellings(DealKind::ALL);

/// The spellings of an `ALL` table, in its order.
const fn spellings<T: Copy, const N: usize>(all: [(T, &'static str); N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut at = 0;
    while at < N {
        names[at] = all[at].1;
        at += 1;
    }
    names
}

/// A shared filter of deals and vehicles.
const fn filter(
    name: &'static str,
    kind: Kind,
    label: &'static str,
    description: &'static str,
    set: fn(&mut Filters, &Given),
    get: fn(&Filters) -> Option<Given>,
) -> Param {
    Param {
        field: Field::Filter(Access { set, get }),
        ..param(name, kind, LISTS, Some(label), description)
    }
}

/// A row's field.
const fn at(param: Param, field: Field) -> Param {
    Param { field, ..param }
}

/// The value of an `ALL` table spelt `text`.
fn pick<T: Copy>(table: &[(T, &'static str)], text: &str) -> Option<T> {
    table.iter().find(|(_, s)| *s == text).map(|(v, _)| *v)
}

/// A choice of an `ALL` table, `None` at `default`.
fn spelt<T: Copy + PartialEq>(table: &[(T, &'static str)], value: T, default: T) -> Option<Given> {
    (value != default).then(|| Given::Choice(spelling_of(table, value)))
}

/// Any other parameter.
const fn param(
    name: &'static str,
    kind: Kind,
    operations: &'static [Operation],
    label: Option<&'static str>,
    description: &'static str,
) -> Param {
    Param {
        name,
        kind,
        required: false,
        location: Location::Query,
        description,
        label,
        operations,
        field: Field::Own,
    }
}

const fn required(param: Param) -> Param {
    Param {
        required: true,
        ..param
    }
}

/// How many shared filters there are: the first rows of [`PARAMS`],
/// counted there.
pub const FILTER_COUNT: usize = {
    let mut count = 0;
    while count < PARAMS.len() && matches!(PARAMS[count].field, Field::Filter(_)) {
        count += 1;
    }
    count
};

/// Every parameter. Order matters: it is the order of the OpenAPI
/// parameters, the MCP schemas and the error details (shared filters,
/// then each operation's own, then paging).
#[rustfmt::skip] // a table: one row per parameter reads better than rustfmt's layout
pub const PARAMS: &[Param] = &[
    filter("q", Kind::Text { min: 0, max: MAX_Q_CHARS }, "Palabras (marca, modelo o versión)",
        "Words in make, model or version; every word must match, ignoring case and accents.",
        |f, v| f.q = v.text(),
        |f| f.q.clone().map(Given::Text)),
    filter("make", NAME, "Marca",
        "Exact make, ignoring case and accents.",
        |f, v| f.make = v.text(),
        |f| f.make.clone().map(Given::Text)),
    filter("model", NAME, "Modelo",
        "Exact model, ignoring case and accents.",
        |f, v| f.model = v.text(),
        |f| f.model.clone().map(Given::Text)),
    filter("type", Kind::Choice { values: BodyType::NAMES, default: None }, "Carrocería",
        "Body type.",
        |f, v| f.body_type = v.choice(BodyType::parse),
        |f| f.body_type.map(|v| Given::Choice(v.as_str()))),
    filter("fuel", Kind::Choice { values: Fuel::NAMES, default: None }, "Combustible",
        "Fuel or powertrain.",
        |f, v| f.fuel = v.choice(Fuel::parse),
        |f| f.fuel.map(|v| Given::Choice(v.as_str()))),
    filter("transmission", Kind::Choice { values: Transmission::NAMES, default: None }, "Transmisión",
        "Transmission.",
        |f, v| f.transmission = v.choice(Transmission::parse),
        |f| f.transmission.map(|v| Given::Choice(v.as_str()))),
    filter("minPriceUsd", PRICE, "Precio mínimo (US$)",
        "Minimum current dealer price (lowest detailed quote) in USD.",
        |f, v| f.min_price_usd = v.number(),
        |f| f.min_price_usd.map(Given::Number)),
    filter("maxPriceUsd", PRICE, "Precio máximo (US$)",
        "Maximum current dealer price (lowest detailed quote) in USD; less than minPriceUsd is \
         rejected.",
        |f, v| f.max_price_usd = v.number(),
        |f| f.max_price_usd.map(Given::Number)),
    filter("minPriceArs", PRICE, "Precio mínimo ($)",
        "Minimum priceArs: the price in pesos (a peso quote as quoted, a dollar quote at the current \
         rate).",
        |f, v| f.min_price_ars = v.number(),
        |f| f.min_price_ars.map(Given::Number)),
    filter("maxPriceArs", PRICE, "Precio máximo ($)",
        "Maximum priceArs; less than minPriceArs is rejected.",
        |f, v| f.max_price_ars = v.number(),
        |f| f.max_price_ars.map(Given::Number)),
    filter("minSeats", Kind::Integer { min: 1, max: MAX_SEATS, default: None }, "Asientos, al menos",
        "Minimum confirmed seats (unknown excluded).",
        |f, v| f.min_seats = v.integer(),
        |f| f.min_seats.map(Given::Integer)),
    filter("minAirbags", Kind::Integer { min: 0, max: MAX_AIRBAGS, default: None }, "Airbags, al menos",
        "Minimum confirmed airbags (unknown excluded).",
        |f, v| f.min_airbags = v.integer(),
        |f| f.min_airbags.map(Given::Integer)),
    filter("drivetrain", Kind::Choice { values: Drivetrain::NAMES, default: None }, "Tracción",
        "Driven wheels; awd, 4x4 and 4x4-low-range are distinct.",
        |f, v| f.drivetrain = v.choice(Drivetrain::parse),
        |f| f.drivetrain.map(|v| Given::Choice(v.as_str()))),
    filter("aeb", Kind::Boolean, "Frenado autónomo de emergencia a baja velocidad",
        "Confirmed low-speed AEB (true) or its confirmed absence (false).",
        |f, v| f.aeb = v.boolean(),
        |f| f.aeb.map(Given::Boolean)),
    filter("hasSpecs", Kind::Boolean, "Ficha técnica oficial",
        "Whether official specifications are available.",
        |f, v| f.has_specs = v.boolean(),
        |f| f.has_specs.map(Given::Boolean)),
    filter("minDiscountPct", Kind::Number { min: 0.0, max: Some(MAX_DISCOUNT_PCT as f64) },
        "Descuento mínimo (%)",
        "Minimum percent below the usual price (sufficient history only).",
        |f, v| f.min_discount_pct = v.number(),
        |f| f.min_discount_pct.map(Given::Number)),
    at(required(param("make", NAME, &[ModelPrices], Some("Marca"),
        "Make, ignoring case and accents.")),
        Field::Model(Access { set: |q, v| q.make = v.text().unwrap_or_default(), get: |q| Some(Given::Text(q.make.clone())) })),
    at(required(param("model", NAME, &[ModelPrices], Some("Modelo"),
        "Model, ignoring case and accents.")),
        Field::Model(Access { set: |q, v| q.model = v.text().unwrap_or_default(), get: |q| Some(Given::Text(q.model.clone())) })),
    at(param("opportunitiesOnly", Kind::Boolean, &[Search], Some("Sólo oportunidades"),
        "true: only versions at least 5% below their usual price with sufficient history."),
        Field::Search(Access { set: |q, v| q.opportunities_only = v.boolean(), get: |q| q.opportunities_only.map(Given::Boolean) })),
    at(param("sort", Kind::Choice { values: &SEARCH_SORTS, default: Some(SEARCH_SORTS[0]) }, &[Search],
        Some("Orden"),
        "Order: by currentPriceUsd (price_*), priceArs (price_ars_*), discount (unknown last) or \
         name (make, model, trim)."),
        Field::Search(Access {
            set: |q, v| if let Some(sort) = v.text_of_choice().and_then(|t| pick(&SearchSort::ALL, t)) { q.sort = sort },
            get: |q| spelt(&SearchSort::ALL, q.sort, SearchSort::default()) })),
    at(param("kind", Kind::Choice { values: &DEAL_KINDS, default: Some(DEAL_KINDS[0]) }, &[Deals], None,
        "opportunities: priced at least 5% below the usual price now; price_drops: a catalogue \
         price cut in the window; new_opportunities: newly qualifying in the window."),
        Field::Deals(Access {
            set: |q, v| if let Some(kind) = v.text_of_choice().and_then(|t| pick(&DealKind::ALL, t)) { q.kind = kind },
            get: |q| spelt(&DealKind::ALL, q.kind, DealsQuery::default().kind) })),
    at(param("window", Kind::Choice { values: Window::NAMES, default: Some("7d") }, &[Deals], None,
        "Recent-change window measured back from catalogueObservedAt; applies to price_drops and \
         new_opportunities only."),
        Field::Deals(Access {
            set: |q, v| if let Some(window) = v.choice(Window::parse) { q.window = window },
            get: |q| (q.window != DealsQuery::default().window).then(|| Given::Choice(q.window.as_str())) })),
    at(param("sort", Kind::Choice { values: &DEAL_SORTS, default: Some(DEAL_SORTS[0]) }, &[Deals],
        Some("Orden"),
        "Order: recommended (by discount, drop or recency, as the kind), recent, price_asc \
         (currentPriceUsd), discount_desc or price_ars_asc (priceArs). Unknown values sort last."),
        Field::Deals(Access {
            set: |q, v| if let Some(sort) = v.text_of_choice().and_then(|t| pick(&DealSort::ALL, t)) { q.sort = sort },
            get: |q| spelt(&DealSort::ALL, q.sort, DealSort::default()) })),
    at(param("limit", Kind::Integer { min: 1, max: MAX_LIMIT, default: Some(DEFAULT_LIMIT) }, PAGED,
        Some("Resultados por página"), "Page size."),
        Field::Page(Access { set: |p, v| p.limit = v.integer().unwrap_or(DEFAULT_LIMIT), get: |p| (p.limit != DEFAULT_LIMIT).then_some(Given::Integer(p.limit)) })),
    at(param("offset", Kind::Integer { min: 0, max: MAX_OFFSET, default: Some(0) }, PAGED,
        Some("Desde el resultado"),
        "Records skipped; pass data.pagination.nextOffset for the next page."),
        Field::Page(Access { set: |p, v| p.offset = v.integer().unwrap_or(0), get: |p| (p.offset != 0).then_some(Given::Integer(p.offset)) })),
    at(required(param("ids", Kind::Ids, &[Compare], Some("Identificadores de versión"),
        "2 to 4 distinct vehicle IDs: comma-separated in HTTP (form style, not exploded), a JSON \
         array of strings in MCP.")),
        Field::Compare(Access {
            set: |q, v| if let Given::Ids(ids) = v { q.ids = ids.clone() },
            get: |q| Some(Given::Ids(q.ids.clone())) })),
    Param { location: Location::Path, ..required(param("id", Kind::Text { min: 1, max: MAX_ID_CHARS },
        &[Vehicle, ConnectorFetch], None,
        "The original, case-sensitive vehicle ID, exactly as a list result gives it.")) },
    required(param("query", Kind::Text { min: 0, max: MAX_Q_CHARS }, &[ConnectorSearch], None,
        "Words of a make, model or version (\"hilux srv\", \"208 allure\"); every word must \
         match, ignoring case and accents.")),
];

/// The rows `operation` takes, in table order.
pub fn params_of(operation: Operation) -> impl Iterator<Item = &'static Param> {
    PARAMS.iter().filter(move |param| param.takes(operation))
}

/// The row `operation` takes under `name`.
pub fn param_of(operation: Operation, name: &str) -> Option<&'static Param> {
    params_of(operation).find(|param| param.name == name)
}
