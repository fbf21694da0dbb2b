//! Edge stage, MCP parameters: one table per tool of the arguments it takes
//! (names, JSON types, bounds, enums, defaults, descriptions). The table
//! gives both the tool's input JSON Schema and the type check of its
//! arguments, so the schema an agent reads is the rule the server applies.
//! The bounds mirror `api::query` and the published OpenAPI parameters.

use serde_json::{Map, Value, json};

use crate::api::query::{
    DEFAULT_LIMIT, DealSort, DealsQuery, MAX_AIRBAGS, MAX_DISCOUNT_PCT, MAX_ID_CHARS, MAX_LIMIT,
    MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_SEATS, SearchSort, spelling_of,
};
use crate::api::types::DealKind;
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};

/// What one argument must be.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A string of `min` to `max` characters.
    Text {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// A JSON integer from `min` to `max`.
    Integer {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
        /// Value when absent.
        default: Option<u32>,
    },
    /// A JSON number of at least `min` (and at most `max`).
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value, if any.
        max: Option<f64>,
    },
    /// `true` or `false`.
    Boolean,
    /// One string of a fixed list (case-sensitive).
    Choice {
        /// The allowed spellings.
        values: Vec<&'static str>,
        /// Value when absent.
        default: Option<&'static str>,
    },
    /// A JSON array of vehicle IDs (`compare_vehicles.ids`).
    Ids,
}

impl Kind {
    fn text(min: usize, max: usize) -> Kind {
        Kind::Text { min, max }
    }

    fn integer(min: u32, max: u32) -> Kind {
        Kind::Integer {
            min,
            max,
            default: None,
        }
    }

    fn number(min: f64, max: Option<f64>) -> Kind {
        Kind::Number { min, max }
    }

    fn choice(values: Vec<&'static str>) -> Kind {
        Kind::Choice {
            values,
            default: None,
        }
    }
}

/// One argument of a tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its name, the same as the HTTP parameter's.
    pub name: &'static str,
    /// What it must be.
    pub kind: Kind,
    /// Whether it must be given.
    pub required: bool,
    /// What it means, for the agent.
    pub description: &'static str,
}

impl Param {
    fn optional(name: &'static str, kind: Kind, description: &'static str) -> Param {
        Param {
            name,
            kind,
            required: false,
            description,
        }
    }

    fn required(name: &'static str, kind: Kind, description: &'static str) -> Param {
        Param {
            required: true,
            ..Param::optional(name, kind, description)
        }
    }

    /// The message of a value of the wrong JSON type or out of bounds: the
    /// same words the HTTP parser uses for a malformed value.
    pub fn expected(&self) -> String {
        match &self.kind {
            Kind::Text { .. } => "must be a string".to_owned(),
            Kind::Integer { min, max, .. } => format!("must be an integer from {min} to {max}"),
            Kind::Number {
                min,
                max: Some(max),
            } => format!("must be a number from {min} to {max}"),
            Kind::Number { min, max: None } => format!("must be a number of at least {min}"),
            Kind::Boolean => "must be true or false".to_owned(),
            Kind::Choice { values, .. } => format!("must be one of {}", values.join(", ")),
            Kind::Ids => format!("must be an array of {} vehicle IDs", ids_count_text()),
        }
    }

    /// The JSON Schema of this argument.
    fn schema(&self) -> Value {
        let mut schema = match &self.kind {
            Kind::Text { min, max } if *min == 0 => json!({ "type": "string", "maxLength": max }),
            Kind::Text { min, max } => {
                json!({ "type": "string", "minLength": min, "maxLength": max })
            }
            Kind::Integer { min, max, default } => {
                let mut schema = json!({ "type": "integer", "minimum": min, "maximum": max });
                if let Some(default) = default {
                    schema["default"] = json!(default);
                }
                schema
            }
            Kind::Number { min, max } => {
                let mut schema = json!({ "type": "number", "minimum": min });
                if let Some(max) = max {
                    schema["maximum"] = json!(max);
                }
                schema
            }
            Kind::Boolean => json!({ "type": "boolean" }),
            Kind::Choice { values, default } => {
                let mut schema = json!({ "type": "string", "enum": values });
                if let Some(default) = default {
                    schema["default"] = json!(default);
                }
                schema
            }
            Kind::Ids => json!({
                "type": "array",
                "items": { "type": "string", "minLength": 1, "maxLength": MAX_ID_CHARS },
                "minItems": crate::api::query::COMPARE_IDS.start(),
                "maxItems": crate::api::query::COMPARE_IDS.end(),
                "uniqueItems": true,
            }),
        };
        schema["description"] = json!(self.description);
        schema
    }
}

fn ids_count_text() -> String {
    let ids = crate::api::query::COMPARE_IDS;
    format!("{} to {}", ids.start(), ids.end())
}

/// The input schema of a tool taking `params`: an object that admits no
/// other keys.
pub fn input_schema(params: &[Param]) -> Map<String, Value> {
    let properties: Map<String, Value> = params
        .iter()
        .map(|param| (param.name.to_owned(), param.schema()))
        .collect();
    let required: Vec<&str> = params
        .iter()
        .filter(|param| param.required)
        .map(|param| param.name)
        .collect();
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), json!(required));
    }
    schema.insert("additionalProperties".to_owned(), json!(false));
    schema
}

/// The vehicle ID argument of `get_vehicle` and `fetch`.
pub fn id_param() -> Param {
    Param::required(
        "id",
        Kind::text(1, MAX_ID_CHARS),
        "The original, case-sensitive vehicle ID, exactly as a list result gives it (not percent-encoded).",
    )
}

/// The shared search filters of `search_vehicles` and `find_deals`, in the
/// HTTP parameter order.
#[rustfmt::skip] // a table: one row per parameter reads better than rustfmt's layout
fn filters() -> Vec<Param> {
    use Param as P;
    let name = || Kind::text(1, MAX_NAME_CHARS);
    let price = || Kind::number(0.0, None);
    let discount = Kind::number(0.0, Some(f64::from(MAX_DISCOUNT_PCT)));
    vec![
        P::optional("q", Kind::text(0, MAX_Q_CHARS),
            "Words in make, model or version; every word must match, ignoring case and accents."),
        P::optional("make", name(), "Exact make, ignoring case and accents (see get_catalogue)."),
        P::optional("model", name(), "Exact model, ignoring case and accents (see get_catalogue)."),
        P::optional("type", Kind::choice(BodyType::names()), "Body type."),
        P::optional("fuel", Kind::choice(Fuel::names()), "Fuel or powertrain."),
        P::optional("transmission", Kind::choice(Transmission::names()), "Transmission."),
        P::optional("minPriceUsd", price(),
            "Minimum current dealer price (lowest detailed quote) in USD."),
        P::optional("maxPriceUsd", price(),
            "Maximum current dealer price in USD; less than minPriceUsd is an error."),
        P::optional("minSeats", Kind::integer(1, MAX_SEATS),
            "Minimum confirmed seats; versions with unknown seats are excluded."),
        P::optional("minAirbags", Kind::integer(0, MAX_AIRBAGS),
            "Minimum confirmed airbags; versions with unknown airbags are excluded."),
        P::optional("drivetrain", Kind::choice(Drivetrain::names()),
            "Driven wheels; awd, 4x4 and 4x4-low-range are distinct."),
        P::optional("aeb", Kind::Boolean,
            "true: confirmed low-speed automatic emergency braking; false: confirmed absence. \
             Unknown or optional is excluded either way."),
        P::optional("hasSpecs", Kind::Boolean, "Whether official specifications are available."),
        P::optional("minDiscountPct", discount,
            "Minimum percent below the version's usual price; requires sufficient price history."),
    ]
}

fn page() -> [Param; 2] {
    [
        Param::optional(
            "limit",
            Kind::Integer {
                min: 1,
                max: MAX_LIMIT,
                default: Some(DEFAULT_LIMIT),
            },
            "Page size.",
        ),
        Param::optional(
            "offset",
            Kind::Integer {
                min: 0,
                max: MAX_OFFSET,
                default: Some(0),
            },
            "Records skipped; pass data.pagination.nextOffset for the next page (null means no more).",
        ),
    ]
}

/// Arguments of `search_vehicles`.
pub fn search_params() -> Vec<Param> {
    let sorts = SearchSort::ALL.map(|(_, name)| name).to_vec();
    let mut params = filters();
    params.push(Param::optional(
        "opportunitiesOnly",
        Kind::Boolean,
        "true keeps versions at least 5% below their usual price with sufficient history; false is the same as leaving it out.",
    ));
    params.push(Param::optional(
        "sort",
        Kind::Choice {
            values: sorts,
            default: Some(spelling_of(&SearchSort::ALL, SearchSort::default())),
        },
        "Order: price_asc, price_desc, discount_desc (unknown discounts last) or name (make, model, trim).",
    ));
    params.extend(page());
    params
}

/// Arguments of `find_deals`.
pub fn deals_params() -> Vec<Param> {
    let defaults = DealsQuery::default();
    let mut params = filters();
    params.push(Param::optional(
        "kind",
        Kind::Choice {
            values: DealKind::ALL.map(|(_, name)| name).to_vec(),
            default: Some(spelling_of(&DealKind::ALL, defaults.kind)),
        },
        "opportunities: priced at least 5% below the usual price now; price_drops: a catalogue price cut in the window; new_opportunities: newly qualifying in the window.",
    ));
    params.push(Param::optional(
        "window",
        Kind::Choice {
            values: Window::names(),
            default: Some(defaults.window.as_str()),
        },
        "Recent-change window measured back from catalogueObservedAt; applies to price_drops and new_opportunities only.",
    ));
    params.push(Param::optional(
        "sort",
        Kind::Choice {
            values: DealSort::ALL.map(|(_, name)| name).to_vec(),
            default: Some(spelling_of(&DealSort::ALL, defaults.sort)),
        },
        "Order: recommended (opportunities by discount, price drops by reduction, new opportunities by recency), recent, price_asc or discount_desc.",
    ));
    params.extend(page());
    params
}

/// Arguments of `get_model_prices`.
pub fn model_params() -> Vec<Param> {
    let mut params = vec![
        Param::required(
            "make",
            Kind::text(1, MAX_NAME_CHARS),
            "Make, ignoring case and accents (see get_catalogue).",
        ),
        Param::required(
            "model",
            Kind::text(1, MAX_NAME_CHARS),
            "Model, ignoring case and accents (see get_catalogue).",
        ),
    ];
    params.extend(page());
    params
}

/// Arguments of `compare_vehicles`.
pub fn compare_params() -> Vec<Param> {
    vec![Param::required(
        "ids",
        Kind::Ids,
        "2 to 4 distinct vehicle IDs, as a JSON array of strings.",
    )]
}

/// Arguments of `search`.
pub fn query_params() -> Vec<Param> {
    vec![Param::required(
        "query",
        Kind::text(0, MAX_Q_CHARS),
        "Words of a make, model or version (\"hilux srv\", \"208 allure\"); every word must match, ignoring case and accents.",
    )]
}
