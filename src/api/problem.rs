//! API stage, problems: what can be wrong with one parameter, as data. The
//! API body says it in English (the spec's and the OpenAPI document's
//! words), the site's pages in Spanish; both are one exhaustive `match`, so
//! a new problem cannot be left unsaid in either language.

use std::fmt;

/// What is wrong with one parameter's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A name the operation does not take.
    Unknown,
    /// A name given more than once.
    Repeated,
    /// Bytes that are not UTF-8 once percent-decoded.
    NotUtf8,
    /// A required parameter that is absent.
    Required,
    /// A JSON value that is not a string where text is expected (MCP).
    NotText,
    /// Text of `min` to `max` characters (`min` 0: at most `max`).
    TextLength {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// An integer from `min` to `max`.
    IntegerRange {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// A number of at least `min` (and at most `max`).
    NumberRange {
        /// Smallest value.
        min: f64,
        /// Largest value, if any.
        max: Option<f64>,
    },
    /// `true` or `false`.
    Boolean,
    /// One of a fixed list of spellings.
    OneOf(&'static [&'static str]),
    /// A maximum price below its minimum, named (`maxPriceUsd` below
    /// `minPriceUsd`, `maxPriceArs` below `minPriceArs`: the rule across two
    /// parameters that a schema cannot express; a new such rule is a new
    /// variant).
    BelowMinPrice {
        /// The minimum's parameter.
        min: &'static str,
    },
    /// A JSON value that is not an array of IDs (MCP `ids`).
    IdArray {
        /// Fewest IDs.
        min: usize,
        /// Most IDs.
        max: usize,
    },
    /// A comparison of too few or too many IDs.
    IdCount {
        /// Fewest IDs.
        min: usize,
        /// Most IDs.
        max: usize,
    },
    /// An ID given twice in one comparison.
    DuplicateId(String),
    /// A site form's amount that is not one as people type it (the site's
    /// own check, before the API's: `60.000000` is not 60 pesos).
    Amount,
    /// A price alert's second bound: it takes one, in pesos or in dollars
    /// (the other one's name).
    OneBound(&'static str),
    /// Not a month written `AAAA-MM` (a report's month).
    Month,
    /// Not a year or month (`AAAA`, `AAAA-MM` or `AAAA-MM-DD`).
    SeriesDate,
    /// No series has this id.
    UnknownSeries(String),
    /// Too few or too many series ids.
    SeriesCount {
        /// Most ids.
        max: usize,
    },
    /// A `collapse` finer than the series' monthly frequency.
    FinerThanMonthly,
    /// A CSV separator that is also the decimal mark.
    SameAsDecimal,
    /// A JSON argument of another type than the parameter's (MCP).
    JsonType {
        /// What the parameter takes (`a JSON boolean`).
        expected: &'static str,
        /// What was sent (`the string "true"`).
        given: String,
    },
}

impl Problem {
    /// The English text of the API's error body.
    pub fn english(&self) -> String {
        match self {
            Problem::Unknown => "unknown parameter".to_owned(),
            Problem::Repeated => "repeated parameter".to_owned(),
            Problem::NotUtf8 => "must be UTF-8 once percent-decoded".to_owned(),
            Problem::Required => "required".to_owned(),
            Problem::NotText => "must be a string".to_owned(),
            Problem::TextLength { min: 0, max } => format!("must be at most {max} characters"),
            Problem::TextLength { min, max } => format!("must be {min} to {max} characters"),
            Problem::IntegerRange { min, max } => format!("must be an integer from {min} to {max}"),
            Problem::NumberRange {
                min,
                max: Some(max),
            } => format!("must be a number from {min} to {max}"),
            Problem::NumberRange { min, max: None } => {
                format!("must be a number of at least {min}")
            }
            Problem::Boolean => "must be true or false".to_owned(),
            Problem::OneOf(values) => format!("must be one of {}", values.join(", ")),
            Problem::BelowMinPrice { min } => format!("must not be less than {min}"),
            Problem::IdArray { min, max } => {
                format!("must be an array of {min} to {max} vehicle IDs")
            }
            Problem::IdCount { min, max } => format!("give {min} to {max} vehicle IDs"),
            Problem::DuplicateId(id) => format!("duplicate ID {id:?}"),
            Problem::Amount => "must be an amount without a sign, such as 60000000".to_owned(),
            Problem::OneBound(other) => format!("give one price bound: this one or {other}"),
            Problem::Month => "must be a month written AAAA-MM, such as 2026-10".to_owned(),
            Problem::SeriesDate => {
                "must be a year (AAAA), a month (AAAA-MM) or a date (AAAA-MM-DD)".to_owned()
            }
            Problem::UnknownSeries(id) => {
                format!("unknown series {id:?} (the ids are listed in the developer guide)")
            }
            Problem::SeriesCount { max } => format!("give 1 to {max} series ids"),
            Problem::FinerThanMonthly => {
                "the series are monthly: collapse must be month, quarter, semester or year"
                    .to_owned()
            }
            Problem::SameAsDecimal => "must differ from the decimal mark".to_owned(),
            Problem::JsonType { expected, given } => format!("must be {expected}, not {given}"),
        }
    }

    /// The Spanish text of the site's pages.
    pub fn spanish(&self) -> String {
        match self {
            Problem::Unknown => "parámetro desconocido".to_owned(),
            Problem::Repeated => "parámetro repetido".to_owned(),
            Problem::NotUtf8 => "tiene caracteres no válidos".to_owned(),
            Problem::Required => "falta este dato".to_owned(),
            Problem::NotText => "debe ser un texto".to_owned(),
            Problem::TextLength { min: 0, max } => {
                format!("debe tener como máximo {max} caracteres")
            }
            Problem::TextLength { min, max } => format!("debe tener de {min} a {max} caracteres"),
            Problem::IntegerRange { min, max } => {
                format!("debe ser un número entero de {min} a {max}")
            }
            Problem::NumberRange {
                min,
                max: Some(max),
            } => format!("debe ser un número de {min} a {max}"),
            Problem::NumberRange { min, max: None } => {
                format!("debe ser un número mayor o igual que {min}")
            }
            Problem::Boolean => "debe ser «true» o «false»".to_owned(),
            Problem::OneOf(values) => {
                format!("debe ser uno de estos valores: {}", values.join(", "))
            }
            Problem::BelowMinPrice { .. } => "no puede ser menor que el precio mínimo".to_owned(),
            Problem::IdArray { min, max } => {
                format!("debe ser una lista de {min} a {max} identificadores de versión")
            }
            Problem::IdCount { min, max } => format!("elegí de {min} a {max} versiones"),
            Problem::DuplicateId(id) => format!("versión repetida: {id:?}"),
            Problem::Amount => {
                "debe ser un monto sin signo, escrito como 60.000.000 o 60000000".to_owned()
            }
            Problem::OneBound(_) => "poné un solo precio: en pesos o en dólares".to_owned(),
            Problem::Month => "debe ser un mes escrito AAAA-MM, como 2026-10".to_owned(),
            Problem::SeriesDate => {
                "debe ser un año (AAAA), un mes (AAAA-MM) o una fecha (AAAA-MM-DD)".to_owned()
            }
            Problem::UnknownSeries(id) => format!("no hay una serie {id:?}"),
            Problem::SeriesCount { max } => format!("pedí de 1 a {max} series"),
            Problem::FinerThanMonthly => {
                "las series son mensuales: el período debe ser mes, trimestre, semestre o año"
                    .to_owned()
            }
            Problem::SameAsDecimal => "debe ser distinto del separador decimal".to_owned(),
            Problem::JsonType { expected, given } => {
                format!("tiene un tipo de dato JSON equivocado ({given}; se espera {expected})")
            }
        }
    }
}

/// The English text, as the API sends it.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}
