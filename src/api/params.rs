//! API stage, parameters: parses a raw query string into the typed query of an
//! operation, strictly: unknown or repeated names, malformed values and values
//! out of bounds are all collected into one 400 naming each parameter.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use crate::api::error::{ApiError, ErrorDetail, NOT_UTF8};
use crate::api::query::*;
use crate::api::text::form_decode;
use crate::api::types::DealKind;
use crate::vocab::{BodyType, Drivetrain, Fuel, Transmission, Window};

/// Names of the shared filters.
pub const FILTER_NAMES: [&str; 14] = [
    "q",
    "make",
    "model",
    "type",
    "fuel",
    "transmission",
    "minPriceUsd",
    "maxPriceUsd",
    "minSeats",
    "minAirbags",
    "drivetrain",
    "aeb",
    "hasSpecs",
    "minDiscountPct",
];

/// Decoded parameters of one request, with the problems found so far.
struct Params {
    values: BTreeMap<String, String>,
    details: Vec<ErrorDetail>,
}

impl Params {
    /// Decodes `query` (form encoding: `+` is a space) and checks names.
    fn parse(query: &str, allowed: &[&str]) -> Self {
        let mut values = BTreeMap::new();
        let mut details = Vec::new();
        // As form decoding does (`&` between pairs, empty pairs skipped, the
        // first `=` ends the name), except that bytes which are not UTF-8
        // are an error rather than replaced.
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (raw_name, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            let (Some(name), Some(value)) = (form_decode(raw_name), form_decode(raw_value)) else {
                let name = form_decode(raw_name).unwrap_or_else(|| raw_name.to_owned());
                details.push(ErrorDetail::new(name, NOT_UTF8));
                continue;
            };
            if !allowed.contains(&name.as_str()) {
                details.push(ErrorDetail::new(name, "unknown parameter"));
                continue;
            }
            match values.entry(name) {
                Entry::Occupied(taken) => {
                    details.push(ErrorDetail::new(taken.key().as_str(), "repeated parameter"));
                }
                Entry::Vacant(free) => {
                    free.insert(value);
                }
            }
        }
        details.dedup();
        Params { values, details }
    }

    fn fail(&mut self, name: &str, message: String) {
        if !self.details.iter().any(|detail| detail.path == name) {
            self.details.push(ErrorDetail::new(name, message));
        }
    }

    fn text(&mut self, name: &str, min: usize, max: usize) -> Option<String> {
        let value = self.values.get(name)?.clone();
        let chars = value.chars().count();
        if chars < min || chars > max {
            let bounds = if min == 0 {
                format!("at most {max}")
            } else {
                format!("{min} to {max}")
            };
            self.fail(name, format!("must be {bounds} characters"));
            return None;
        }
        Some(value)
    }

    fn parsed<T>(
        &mut self,
        name: &str,
        expected: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let value = self.values.get(name)?.clone();
        let parsed = parse(&value);
        if parsed.is_none() {
            self.fail(name, format!("must be {expected}"));
        }
        parsed
    }

    fn integer(&mut self, name: &str, min: u32, max: u32) -> Option<u32> {
        let within = |text: &str| {
            let digits =
                !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| text.parse::<u32>().ok())
                .flatten()
                .filter(|n| (min..=max).contains(n))
        };
        self.parsed(name, &format!("an integer from {min} to {max}"), within)
    }

    fn number(&mut self, name: &str, min: f64, max: Option<f64>) -> Option<f64> {
        let within = |text: &str| {
            let plain = !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
            let number = plain.then(|| text.parse::<f64>().ok()).flatten()?;
            (number.is_finite() && number >= min && max.is_none_or(|max| number <= max))
                .then_some(number)
        };
        let expected = match max {
            Some(max) => format!("a number from {min} to {max}"),
            None => format!("a number of at least {min}"),
        };
        self.parsed(name, &expected, within)
    }

    fn boolean(&mut self, name: &str) -> Option<bool> {
        self.parsed(name, "true or false", |text| match text {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
    }

    fn choice<T: Copy>(&mut self, name: &str, table: &[(T, &'static str)]) -> Option<T> {
        let names: Vec<&str> = table.iter().map(|(_, spelling)| *spelling).collect();
        self.parsed(name, &format!("one of {}", names.join(", ")), |text| {
            table
                .iter()
                .find(|(_, spelling)| *spelling == text)
                .map(|(value, _)| *value)
        })
    }

    fn vocab<T>(
        &mut self,
        name: &str,
        names: Vec<&'static str>,
        parse: fn(&str) -> Option<T>,
    ) -> Option<T> {
        self.parsed(name, &format!("one of {}", names.join(", ")), parse)
    }

    fn page(&mut self) -> Page {
        Page {
            limit: self.integer("limit", 1, MAX_LIMIT).unwrap_or(DEFAULT_LIMIT),
            offset: self.integer("offset", 0, MAX_OFFSET).unwrap_or(0),
        }
    }

    fn filters(&mut self) -> Filters {
        let filters = Filters {
            q: self.text("q", 0, MAX_Q_CHARS),
            make: self.text("make", 1, MAX_NAME_CHARS),
            model: self.text("model", 1, MAX_NAME_CHARS),
            body_type: self.vocab("type", BodyType::names(), BodyType::parse),
            fuel: self.vocab("fuel", Fuel::names(), Fuel::parse),
            transmission: self.vocab("transmission", Transmission::names(), Transmission::parse),
            min_price_usd: self.number("minPriceUsd", 0.0, None),
            max_price_usd: self.number("maxPriceUsd", 0.0, None),
            min_seats: self.integer("minSeats", 1, MAX_SEATS),
            min_airbags: self.integer("minAirbags", 0, MAX_AIRBAGS),
            drivetrain: self.vocab("drivetrain", Drivetrain::names(), Drivetrain::parse),
            aeb: self.boolean("aeb"),
            has_specs: self.boolean("hasSpecs"),
            min_discount_pct: self.number("minDiscountPct", 0.0, Some(f64::from(MAX_DISCOUNT_PCT))),
        };
        if let (Some(min), Some(max)) = (filters.min_price_usd, filters.max_price_usd)
            && min > max
        {
            self.fail(
                "maxPriceUsd",
                "must not be less than minPriceUsd".to_owned(),
            );
        }
        filters
    }

    fn finish<T>(self, query: T) -> Result<T, ApiError> {
        if self.details.is_empty() {
            Ok(query)
        } else {
            Err(ApiError::InvalidParameters(self.details))
        }
    }
}

fn allowed(extra: &[&'static str]) -> Vec<&'static str> {
    FILTER_NAMES
        .iter()
        .chain(["limit", "offset"].iter())
        .chain(extra)
        .copied()
        .collect()
}

/// Parses the query of `GET /api/v1/vehicles`.
pub fn parse_search(query: &str) -> Result<SearchQuery, ApiError> {
    let mut params = Params::parse(query, &allowed(&["opportunitiesOnly", "sort"]));
    let parsed = SearchQuery {
        filters: params.filters(),
        opportunities_only: params.boolean("opportunitiesOnly"),
        sort: params.choice("sort", &SearchSort::ALL).unwrap_or_default(),
        page: params.page(),
    };
    params.finish(parsed)
}

/// Parses the query of `GET /api/v1/deals`.
pub fn parse_deals(query: &str) -> Result<DealsQuery, ApiError> {
    let mut params = Params::parse(query, &allowed(&["kind", "window", "sort"]));
    let windows: Vec<(Window, &'static str)> =
        Window::ALL.iter().map(|w| (*w, w.as_str())).collect();
    let parsed = DealsQuery {
        filters: params.filters(),
        kind: params
            .choice("kind", &DealKind::ALL)
            .unwrap_or(DealKind::Opportunities),
        window: params.choice("window", &windows).unwrap_or(Window::D7),
        sort: params.choice("sort", &DealSort::ALL).unwrap_or_default(),
        page: params.page(),
    };
    params.finish(parsed)
}

/// Parses the query of `GET /api/v1/models/prices`.
pub fn parse_model(query: &str) -> Result<ModelQuery, ApiError> {
    let mut params = Params::parse(query, &["make", "model", "limit", "offset"]);
    for name in ["make", "model"] {
        if !params.values.contains_key(name) {
            params.fail(name, "required".to_owned());
        }
    }
    let make = params.text("make", 1, MAX_NAME_CHARS).unwrap_or_default();
    let model = params.text("model", 1, MAX_NAME_CHARS).unwrap_or_default();
    let page = params.page();
    params.finish(ModelQuery { make, model, page })
}

/// Parses the query of `GET /api/v1/compare`: `ids` split at its literal
/// commas, each piece then decoded. An encoded comma (`%2C`, as standard URL
/// builders and CDN proxies send every comma) stays in its piece here;
/// `compare_vehicles` splits a list sent as one piece at its encoded commas
/// unless the piece is a published ID ([`CompareQuery::commas_separate`]).
pub fn parse_compare(query: &str) -> Result<CompareQuery, ApiError> {
    let mut params = Params::parse(query, &["ids"]);
    let raw_ids = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("ids="))
        .map(|raw| raw.split(',').map(decode_component).collect::<Vec<_>>());
    let ids = match raw_ids {
        Some(ids) => ids,
        None => {
            if !params.values.contains_key("ids") {
                params.fail("ids", "required".to_owned());
            }
            Vec::new()
        }
    };
    params.finish(CompareQuery {
        ids,
        commas_separate: true,
    })
}

/// Checks that an operation without parameters got none.
pub fn parse_none(query: &str) -> Result<(), ApiError> {
    Params::parse(query, &[]).finish(())
}

/// Decodes one form-encoded component (`+` is a space). Only for parts of
/// a value that [`Params::parse`] has decoded whole: UTF-8 then, as no
/// escape of a multi-byte character contains a comma.
pub fn decode_component(raw: &str) -> String {
    form_decode(raw).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(err: ApiError) -> Vec<String> {
        match err {
            ApiError::InvalidParameters(details) => details.into_iter().map(|d| d.path).collect(),
            other => panic!("expected 400, got {other:?}"),
        }
    }

    #[test]
    fn defaults_apply_when_absent() {
        let query = parse_deals("").expect("valid");
        assert_eq!(query, DealsQuery::default());
        assert_eq!(parse_search("").expect("valid"), SearchQuery::default());
    }

    #[test]
    fn bounds_are_inclusive() {
        assert_eq!(
            parse_search("limit=1&offset=100000").expect("valid").page,
            Page {
                limit: 1,
                offset: 100_000
            }
        );
        assert_eq!(parse_search("limit=100").expect("valid").page.limit, 100);
        assert_eq!(paths(parse_search("limit=0").expect_err("0")), ["limit"]);
        assert_eq!(
            paths(parse_search("limit=101").expect_err("101")),
            ["limit"]
        );
        assert_eq!(
            paths(parse_search("offset=100001").expect_err("over")),
            ["offset"]
        );
        assert_eq!(
            parse_search("minAirbags=0&minSeats=100")
                .expect("valid")
                .filters
                .min_airbags,
            Some(0)
        );
        assert_eq!(
            paths(parse_search("minAirbags=31&minSeats=0").expect_err("out")),
            ["minSeats", "minAirbags"]
        );
        assert_eq!(
            parse_search("minDiscountPct=100")
                .expect("valid")
                .filters
                .min_discount_pct,
            Some(100.0)
        );
        assert_eq!(
            paths(parse_search("minDiscountPct=100.01").expect_err("out")),
            ["minDiscountPct"]
        );
        assert_eq!(
            paths(parse_search("minPriceUsd=-1").expect_err("negative")),
            ["minPriceUsd"]
        );
    }

    #[test]
    fn unknown_repeated_and_malformed_parameters_are_named() {
        assert_eq!(
            paths(parse_search("colour=red").expect_err("unknown")),
            ["colour"]
        );
        assert_eq!(
            paths(parse_search("sort=name&sort=name").expect_err("repeated")),
            ["sort"]
        );
        assert_eq!(
            paths(parse_search("limit=1e2").expect_err("not an integer")),
            ["limit"]
        );
        assert_eq!(
            paths(parse_search("minPriceUsd=NaN").expect_err("nan")),
            ["minPriceUsd"]
        );
        assert_eq!(paths(parse_search("aeb=yes").expect_err("bool")), ["aeb"]);
        assert_eq!(
            paths(parse_search("type=suv").expect_err("case-sensitive enum")),
            ["type"]
        );
        assert_eq!(
            paths(parse_deals("window=2d").expect_err("enum")),
            ["window"]
        );
        assert_eq!(paths(parse_none("x=1").expect_err("no parameters")), ["x"]);
    }

    #[test]
    fn reversed_budget_bounds_are_a_400() {
        assert_eq!(
            paths(parse_search("minPriceUsd=20000&maxPriceUsd=19999.99").expect_err("reversed")),
            ["maxPriceUsd"]
        );
        assert!(parse_search("minPriceUsd=20000&maxPriceUsd=20000").is_ok());
    }

    #[test]
    fn text_is_form_decoded_and_bounded() {
        let query = parse_search("q=citro%C3%ABn+c3&make=Citro%C3%ABn").expect("valid");
        assert_eq!(query.filters.q.as_deref(), Some("citroën c3"));
        for (bad, path) in [
            ("q=%FF", "q"),
            ("make=Fiat%FF", "make"),
            ("q=fiat%C3", "q"),
            ("%FF=1", "%FF"),
        ] {
            let err = parse_search(bad).expect_err("not UTF-8");
            assert_eq!(paths(err.clone()), [path], "{bad}");
            assert!(
                matches!(&err, ApiError::InvalidParameters(details)
                if details[0].message == NOT_UTF8),
                "{bad}"
            );
        }
        assert_eq!(paths(parse_search("make=").expect_err("empty")), ["make"]);
        assert!(parse_search(&format!("q={}", "a".repeat(200))).is_ok());
        assert_eq!(
            paths(parse_search(&format!("q={}", "a".repeat(201))).expect_err("long")),
            ["q"]
        );
        assert_eq!(
            paths(parse_model("make=Toyota").expect_err("model required")),
            ["model"]
        );
    }

    #[test]
    fn compare_ids_split_before_decoding() {
        let query = parse_compare("ids=a%2Cb,C%2Fd").expect("valid");
        assert_eq!(query.ids, ["a,b", "C/d"]);
        assert_eq!(paths(parse_compare("").expect_err("required")), ["ids"]);
    }
}
