//! API stage, the parameter table: every parameter of every operation, once
//! (wire name, kind with its bounds, enum values and default, English
//! description, Spanish form label, the operations that take it and where
//! its value lives in the typed queries). The HTTP and MCP parsers, the
//! OpenAPI parameters, the MCP input schemas and the pages' error labels
//! all read it.
//!
//! The shared filters of deals and vehicles are its first rows
//! ([`FILTERS`]). Adding one takes:
//! 1. its row in [`shared_filters!`](super::filter) below: the name of its
//!    typed [`Key`] and the key's value type (`String`, `u32`, `f64`,
//!    `bool` or a closed vocabulary of `crate::vocab`), its wire name, kind
//!    and bounds, Spanish form label, English description, the fact of a
//!    version it reads from [`Facts`](crate::api::facts::Facts) (an
//!    `Option`, or a list when a version has several), how that
//!    fact admits a version ([`Admits`]) and its control on the search form
//!    ([`Form`]; a new choice's values also need their Spanish labels in
//!    `render::site::labels::filter_options`);
//! 2. that field of `Facts`, if it is new (`api::facts`);
//! 3. its rule in `api::index::select`, which answers it from sets built
//!    once per catalogue, reading the value through its key.
//!
//! The rest follows from the row: the value's place in [`Filters`] (stored
//! under its name), the parsers (HTTP, MCP and the site's pages), the query
//! strings written back, the OpenAPI parameters, the MCP input schemas, the
//! form's label and, for a control among the further filters, the control
//! itself (`templates/search.html` writes one a row); for a choice, a
//! count or a text among the further filters, its values present in the
//! catalogue overview (`api::index`); the
//! brute-force oracle of the tests (`tests/it/index/oracle.rs`, each row
//! by its rule, over random queries that ask every row); and the tests of
//! bounds, types, problem order, the form's controls and the overview
//! (`tests/it/table_bounds.rs`, `tests/it/filter_rows.rs`). A control
//! among the form's first fields ([`Form::Own`]: words, make, model,
//! budgets) is written by hand.
//!
//! [`Filters`]: crate::api::query::Filters

use super::filter::{Admits, Filter, Form, Key, read_fact, shared_filters};
pub use crate::api::query::Given;
use crate::api::query::Operation::{self, *};
use crate::api::query::{
    COMPARE_IDS, DEFAULT_LIMIT, DealSort, DealsQuery, MAX_AIRBAGS, MAX_DISCOUNT_PCT, MAX_ID_CHARS,
    MAX_LIMIT, MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_SEATS, SearchSort, spelling_of,
};
use crate::api::series;
use crate::api::types::DealKind;
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};

pub use super::row::{Access, Field, Kind, Location, Param};

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
/// The orders of a search, as the API spells them; the first is the default.
pub const SEARCH_SORTS: [&str; 6] = spellings(SearchSort::ALL);
/// The orders of a deal list; the first is the default.
pub const DEAL_SORTS: [&str; 5] = spellings(DealSort::ALL);
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
    filter: Filter,
) -> Param {
    Param {
        field: Field::Filter(filter),
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

/// How many shared filters there are: the first rows of [`PARAMS`].
pub const FILTER_COUNT: usize = FILTERS.len();

// The shared filters, one row each: its key and the key's value type, its
// wire name, kind and bounds, Spanish form label and English description,
// the fact of a version it reads (from `Facts`), how that fact admits a
// version, and its control on the search form. Their order is the order of
// their parameters, and the search form's further filters keep it within
// each kind of control.
#[rustfmt::skip] // a table: one row per filter reads better than rustfmt's layout
shared_filters! {
    Q: String {
        name: "q", kind: Kind::Text { min: 0, max: MAX_Q_CHARS },
        label: "Palabras (marca, modelo o versión)",
        description: "Words in make, model or version; every word must match, ignoring case and accents.",
        fact: |f| Some(format!("{} {} {} {}", f.identity.make, f.identity.model, f.identity.trim, f.identity.trim_display.as_deref().unwrap_or(""))),
        admits: EveryWord, form: Form::Own,
    }
    MAKE: String {
        name: "make", kind: NAME, label: "Marca",
        description: "Exact make, ignoring case and accents.",
        fact: |f| Some(f.identity.make.clone()), admits: Same, form: Form::Own,
    }
    MODEL: String {
        name: "model", kind: NAME, label: "Modelo",
        description: "Exact model, ignoring case and accents.",
        fact: |f| Some(f.identity.model.clone()), admits: Same, form: Form::Own,
    }
    BODY_TYPE: BodyType {
        name: "type", kind: Kind::Choice { values: BodyType::NAMES, default: None }, label: "Carrocería",
        description: "Body type.",
        fact: |f| f.identity.body_type, admits: Same, form: Form::Further("type"),
    }
    FUEL: Fuel {
        name: "fuel", kind: Kind::Choice { values: Fuel::NAMES, default: None }, label: "Combustible",
        description: "Fuel or powertrain.",
        fact: |f| f.identity.fuel, admits: Same, form: Form::Further("fuel"),
    }
    TRANSMISSION: Transmission {
        name: "transmission", kind: Kind::Choice { values: Transmission::NAMES, default: None },
        label: "Transmisión",
        description: "Transmission.",
        fact: |f| f.identity.transmission, admits: Same, form: Form::Further("transmission"),
    }
    MIN_PRICE_USD: f64 {
        name: "minPriceUsd", kind: PRICE, label: "Precio mínimo (US$)",
        description: "Minimum current dealer price (lowest detailed quote) in USD.",
        fact: |f| Some(f.current_price_usd), admits: AtLeast, form: Form::Own,
    }
    MAX_PRICE_USD: f64 {
        name: "maxPriceUsd", kind: PRICE, label: "Precio máximo (US$)",
        description: "Maximum current dealer price (lowest detailed quote) in USD; less than minPriceUsd is \
         rejected.",
        fact: |f| Some(f.current_price_usd), admits: AtMost, form: Form::Own,
    }
    MIN_PRICE_ARS: f64 {
        name: "minPriceArs", kind: PRICE, label: "Precio mínimo ($)",
        description: "Minimum priceArs: the price in pesos (a peso quote as quoted, a dollar quote at the current \
         rate).",
        fact: |f| f.price_ars, admits: AtLeast, form: Form::Own,
    }
    MAX_PRICE_ARS: f64 {
        name: "maxPriceArs", kind: PRICE, label: "Precio máximo ($)",
        description: "Maximum priceArs; less than minPriceArs is rejected.",
        fact: |f| f.price_ars, admits: AtMost, form: Form::Own,
    }
    MIN_SEATS: u32 {
        name: "minSeats", kind: Kind::Integer { min: 1, max: MAX_SEATS, default: None },
        label: "Asientos, al menos",
        description: "Minimum confirmed seats (unknown excluded).",
        fact: |f| f.identity.seats, admits: AtLeast, form: Form::Further("seats"),
    }
    MIN_AIRBAGS: u32 {
        name: "minAirbags", kind: Kind::Integer { min: 0, max: MAX_AIRBAGS, default: None },
        label: "Airbags, al menos",
        description: "Minimum confirmed airbags (unknown excluded).",
        fact: |f| f.identity.airbags, admits: AtLeast, form: Form::Further("airbags"),
    }
    DRIVETRAIN: Drivetrain {
        name: "drivetrain", kind: Kind::Choice { values: Drivetrain::NAMES, default: None },
        label: "Tracción",
        description: "Driven wheels; awd, 4x4 and 4x4-low-range are distinct.",
        fact: |f| f.drivetrain, admits: Same, form: Form::Further("drivetrain"),
    }
    AEB: bool {
        name: "aeb", kind: Kind::Boolean, label: "Frenado autónomo de emergencia a baja velocidad",
        description: "Confirmed low-speed AEB (true) or its confirmed absence (false).",
        fact: |f| f.aeb, admits: Same,
        form: Form::Answers { id: "aeb", yes: "Confirmado", no: "Confirmado que no tiene" },
    }
    HAS_SPECS: bool {
        name: "hasSpecs", kind: Kind::Boolean, label: "Ficha técnica oficial",
        description: "Whether official specifications are available.",
        fact: |f| Some(f.has_specs), admits: Same,
        form: Form::Answers { id: "specs", yes: "Con ficha", no: "Sin ficha" },
    }
    MIN_DISCOUNT_PCT: f64 {
        name: "minDiscountPct", kind: Kind::Number { min: 0.0, max: Some(MAX_DISCOUNT_PCT as f64) },
        label: "Descuento mínimo (%)",
        description: "Minimum percent below the usual price (sufficient history only).",
        fact: |f| f.comparison.discount_pct.filter(|_| f.comparison.sufficient_history),
        admits: AtLeast, form: Form::Further("discount"),
    }
    LOCATION: String {
        name: "location", kind: NAME, label: "Ciudad de la concesionaria",
        description: "A city with at least one of the version's current quotes (dealers.byLocation), ignoring \
         case and accents; the catalogue lists them.",
        fact: |f| f.locations.clone(), admits: Same, form: Form::Further("location"),
    }
}

/// Every parameter. Order matters: it is the order of the OpenAPI
/// parameters, the MCP schemas and the error details (shared filters,
/// then each operation's own, then paging).
pub const PARAMS: &[Param] = &joined::<{ FILTERS.len() + OWN_PARAMS.len() }>(FILTERS, OWN_PARAMS);

/// `first`'s rows, then `second`'s.
const fn joined<const N: usize>(first: &[Param], second: &[Param]) -> [Param; N] {
    let mut rows = [first[0]; N];
    let mut at = 0;
    while at < N {
        rows[at] = match at < first.len() {
            true => first[at],
            false => second[at - first.len()],
        };
        at += 1;
    }
    rows
}

/// The parameters of each operation other than the shared filters.
#[rustfmt::skip] // a table: one row per parameter reads better than rustfmt's layout
const OWN_PARAMS: &[Param] = &[
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
    at(required(param("ids", Kind::Ids { min: *COMPARE_IDS.start(), max: *COMPARE_IDS.end() }, &[Compare], Some("Identificadores de versión"),
        "2 to 4 distinct vehicle IDs: comma-separated in HTTP (form style, not exploded), a JSON \
         array of strings in MCP.")),
        Field::Compare(Access {
            set: |q, v| if let Given::Ids(ids) = v { q.ids = ids.clone() },
            get: |q| Some(Given::Ids(q.ids.clone())) })),
    Param { location: Location::Path, ..required(param("id", Kind::Text { min: 1, max: MAX_ID_CHARS },
        &[Vehicle, ConnectorFetch], None,
        "The original, case-sensitive vehicle ID, exactly as a list result gives it.")) },
    // Optional in MCP (the latest final month); a path segment in HTTP,
    // which is always there.
    Param { location: Location::Path, ..param("month", Kind::Text { min: 1, max: 32 }, &[Report], None,
        "A calendar month in Argentine time, AAAA-MM (2026-10); in MCP, optional: the latest final month.") },
    required(param("ids", Kind::Ids { min: 1, max: series::MAX_IDS }, &[Series], None,
        "1 to 20 series ids, comma-separated, each optionally suffixed with :mode (a representation_mode) \
         and/or :aggregation (a collapse_aggregation): indice.ars, indice.usd, indice.tipo.{type}.ars|usd, \
         indice.marca.{make}.ars|usd, dolar, version.{id}.ars|usd.")),
    param("representation_mode", Kind::Choice { values: series::MODES, default: Some("value") }, &[Series], None,
        "value; change or percent_change from the period before; change_a_year_ago or percent_change_a_year_ago \
         from the same period a year before. Percent changes are fractions (0.0123 is 1.23 %)."),
    param("collapse", Kind::Choice { values: series::COLLAPSES, default: Some("month") }, &[Series], None,
        "The answer's frequency: month, quarter, semester or year (day and week are finer than the monthly \
         series and give 400)."),
    param("collapse_aggregation", Kind::Choice { values: series::AGGREGATIONS, default: Some("avg") }, &[Series], None,
        "How the months of a longer period become one value."),
    param("start_date", Kind::Text { min: 4, max: 10 }, &[Series], None,
        "First period: AAAA, AAAA-MM or AAAA-MM-DD."),
    param("end_date", Kind::Text { min: 4, max: 10 }, &[Series], None,
        "Last period: AAAA, AAAA-MM or AAAA-MM-DD."),
    param("format", Kind::Choice { values: &["json", "csv"], default: Some("json") }, &[Series], None,
        "json (data, count and meta) or csv (indice_tiempo and one column per id)."),
    param("header", Kind::Choice { values: &["titles", "ids", "descriptions"], default: Some("titles") }, &[Series], None,
        "The CSV's column names."),
    param("sort", Kind::Choice { values: &["asc", "desc"], default: Some("asc") }, &[Series], None,
        "Oldest (asc) or newest (desc) first."),
    param("limit", Kind::Integer { min: 1, max: series::MAX_ROWS, default: Some(series::DEFAULT_ROWS) }, &[Series], None,
        "Rows."),
    param("start", Kind::Integer { min: 0, max: MAX_OFFSET, default: Some(0) }, &[Series], None,
        "Rows skipped."),
    param("decimal", Kind::Choice { values: &[".", ","], default: Some(".") }, &[Series], None,
        "The CSV's decimal mark."),
    param("sep", Kind::Text { min: 1, max: 1 }, &[Series], None,
        "The CSV's field separator, one character (default ,)."),
    param("metadata", Kind::Choice { values: &["none", "simple", "full", "only"], default: Some("simple") }, &[Series], None,
        "JSON only: none (data alone), simple, full (with source and license) or only (no data)."),
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
