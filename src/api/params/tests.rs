//! Tests of the parameter table and its two parsers: bounds at their edges,
//! the problems named, HTTP text and MCP JSON alike.

use super::*;
use crate::api::params::check::Args;
use crate::api::params::table::Given;
use crate::api::text::percent_encode;
use serde_json::json;

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

/// A value just past a kind's bounds, as HTTP text (`None` for IDs, whose
/// count and lengths the comparison checks).
fn past_bounds(kind: table::Kind) -> Option<String> {
    Some(match kind {
        table::Kind::Text { max, .. } => "a".repeat(max + 1),
        table::Kind::Integer { max, .. } => (u64::from(max) + 1).to_string(),
        table::Kind::Number { min, .. } => (min - 1.0).to_string(),
        table::Kind::Boolean => "yes".to_owned(),
        table::Kind::Choice { .. } => "not-a-value".to_owned(),
        table::Kind::Ids { .. } => return None,
    })
}

/// A value within a kind's bounds and not its default, as HTTP text.
fn within_bounds(kind: table::Kind) -> Option<String> {
    Some(match kind {
        table::Kind::Text { min, .. } => "a".repeat(min.max(1)),
        table::Kind::Integer { min, max, default } => match default == Some(min) {
            true => max.to_string(),
            false => min.to_string(),
        },
        table::Kind::Number { min, .. } => (min + 1.0).to_string(),
        table::Kind::Boolean => "true".to_owned(),
        table::Kind::Choice { values, default } => {
            (*values.iter().find(|value| Some(**value) != default)?).to_owned()
        }
        table::Kind::Ids { .. } => return None,
    })
}

/// The query rows of `operation`, in table order.
fn query_rows(operation: Operation) -> Vec<&'static table::Param> {
    table::params_of(operation)
        .filter(|param| param.location == table::Location::Query)
        .collect()
}

/// Problems are listed in table order, whatever order the parameters came
/// in (the bounds themselves are tested from the table, through HTTP and
/// MCP, in tests/it/table_bounds.rs).
#[test]
fn problems_come_in_table_order_whatever_order_they_were_sent_in() {
    for operation in [Operation::Search, Operation::Deals, Operation::ModelPrices] {
        let rows = query_rows(operation);
        let sent: Vec<String> = rows
            .iter()
            .rev()
            .filter_map(|param| {
                let value = past_bounds(param.kind)?;
                Some(format!("{}={}", param.name, percent_encode(&value)))
            })
            .collect();
        let refused = Args::from_query(operation, None, &sent.join("&")).finish(());
        let names: Vec<&str> = rows.iter().map(|param| param.name).collect();
        assert_eq!(
            paths(refused.expect_err("all past")),
            names,
            "{operation:?}"
        );
    }
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
    // Pesos alike, each pair on its own: a peso budget above a dollar one is
    // not reversed.
    let err = parse_deals("minPriceArs=30000000&maxPriceArs=29999999").expect_err("reversed");
    let ApiError::InvalidParameters(details) = err else {
        unreachable!()
    };
    assert_eq!(details[0].path, "maxPriceArs");
    assert_eq!(
        details[0].problem.english(),
        "must not be less than minPriceArs"
    );
    assert!(parse_search("minPriceArs=30000000&maxPriceArs=30000000").is_ok());
    assert!(parse_search("minPriceArs=30000000&maxPriceUsd=1").is_ok());
}

#[test]
fn text_is_form_decoded_and_must_be_utf8() {
    let query = parse_search("q=citro%C3%ABn+c3&make=Citro%C3%ABn").expect("valid");
    assert_eq!(table::Q.of(&query.filters).as_deref(), Some("citroën c3"));
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
            if details[0].problem == Problem::NotUtf8),
            "{bad}"
        );
    }
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

fn json_args(operation: Operation, value: serde_json::Value) -> Args {
    Args::from_json(operation, value.as_object())
}

#[test]
fn json_arguments_go_through_the_same_checks() {
    let query = search_query(json_args(
        Operation::Search,
        json!({"q": "hilux a&b=c+d", "limit": 5, "offset": 10.0, "aeb": true,
            "minPriceUsd": 1e4, "sort": "name"}),
    ))
    .expect("valid");
    assert_eq!(
        table::Q.of(&query.filters).as_deref(),
        Some("hilux a&b=c+d")
    );
    assert_eq!(
        query.page,
        Page {
            limit: 5,
            offset: 10
        }
    );
    assert_eq!(table::AEB.of(&query.filters), Some(true));
    assert_eq!(table::MIN_PRICE_USD.of(&query.filters), Some(10_000.0));
    assert_eq!(query.sort, SearchSort::Name);
    assert_eq!(
        search_query(Args::from_json(Operation::Search, None)).expect("defaults"),
        SearchQuery::default()
    );
    // Wrong types and unknown keys in argument order, then bounds in table order.
    let err = search_query(json_args(
        Operation::Search,
        json!({"limit": "5", "colour": "red", "offset": 1.5, "minAirbags": -1,
            "minSeats": 0, "minPriceUsd": 2, "maxPriceUsd": 1, "q": true}),
    ))
    .expect_err("invalid");
    assert_eq!(
        paths(err.clone()),
        [
            "limit",
            "colour",
            "offset",
            "q",
            "minSeats",
            "minAirbags",
            "maxPriceUsd"
        ]
    );
    let ApiError::InvalidParameters(details) = err else {
        unreachable!()
    };
    assert_eq!(
        details[0].problem.english(),
        "must be a JSON integer, not the string \"5\""
    );
    assert_eq!(
        details[3].problem.english(),
        "must be a JSON string, not the boolean true"
    );
    assert_eq!(
        details[6].problem,
        Problem::BelowMinPrice { min: "minPriceUsd" }
    );
    assert_eq!(
        paths(
            deals_query(json_args(
                Operation::Deals,
                json!({"window": "2d", "minPriceUsd": 2, "maxPriceUsd": 1})
            ))
            .expect_err("")
        ),
        ["maxPriceUsd", "window"],
        "the budget rule is reported with the filters, before the deals' own parameters"
    );
    assert_eq!(
        paths(model_query(json_args(Operation::ModelPrices, json!({"make": [1]}))).expect_err("")),
        ["make", "model"],
        "a wrong type is reported once, not also as missing"
    );
    // Identity text sent as a number is its decimal text (model 208); a
    // choice is not so forgiving.
    let model = model_query(json_args(
        Operation::ModelPrices,
        json!({"make": "Peugeot", "model": 208}),
    ))
    .expect("208 is a model");
    assert_eq!(model.model, "208");
    let err = search_query(json_args(
        Operation::Search,
        json!({"opportunitiesOnly": "true", "sort": 1}),
    ))
    .expect_err("types");
    let ApiError::InvalidParameters(details) = err else {
        unreachable!()
    };
    let messages: Vec<String> = details.iter().map(|d| d.problem.english()).collect();
    assert_eq!(
        messages,
        [
            "must be a JSON boolean, not the string \"true\"",
            "must be a JSON string, not the number 1"
        ]
    );
    assert_eq!(
        paths(
            deals_query(json_args(
                Operation::Deals,
                json!({"limit": 4_294_967_296_u64})
            ))
            .expect_err("over u32")
        ),
        ["limit"]
    );
}

#[test]
fn json_ids_are_an_array_of_strings() {
    let ids = |value| compare_query(json_args(Operation::Compare, value), false);
    let query = ids(json!({"ids": ["a,b", "c"]})).expect("ok");
    assert_eq!(query.ids, ["a,b", "c"]);
    assert!(!query.commas_separate);
    assert_eq!(paths(ids(json!({"ids": "a,b"})).expect_err("")), ["ids"]);
    assert_eq!(
        paths(ids(json!({"ids": ["a", 2]})).expect_err("")),
        ["ids[1]"]
    );
    assert_eq!(paths(ids(json!({})).expect_err("")), ["ids"]);
}

#[test]
fn the_vehicle_id_is_decoded_from_its_path_segment_once() {
    assert_eq!(parse_vehicle("a%2Fb+c%25", "").expect("valid"), "a/b+c%");
    assert_eq!(
        paths(parse_vehicle("%FF", "").expect_err("not UTF-8")),
        ["id"]
    );
    let Some(table::Kind::Text { max, .. }) =
        table::param_of(Operation::Vehicle, "id").map(|param| param.kind)
    else {
        panic!("the ID is text");
    };
    assert_eq!(
        paths(parse_vehicle(&"x".repeat(max + 1), "").expect_err("long")),
        ["id"]
    );
    assert!(parse_vehicle(&"x".repeat(max), "").is_ok());
    assert_eq!(
        paths(parse_vehicle("x", "id=y").expect_err("not a query name")),
        ["id"]
    );
}

/// Each row of `Q`'s operation, set alone, is the one row its query
/// holds a value for: no row is forgotten by the typed query, and no two
/// rows share a field.
fn each_row_sets_its_own_field<Q: TypedQuery>(parse: fn(&str) -> Result<Q, ApiError>) {
    let rows = query_rows(Q::OPERATION);
    for param in &rows {
        let Some(value) = within_bounds(param.kind) else {
            continue;
        };
        let query = parse(&format!("{}={}", param.name, percent_encode(&value)))
            .unwrap_or_else(|err| panic!("{} = {value}: {err:?}", param.name));
        let set: Vec<&str> = rows
            .iter()
            .filter(|row| query.get(row).is_some())
            .map(|row| row.name)
            .collect();
        assert_eq!(set, [param.name], "{:?}", Q::OPERATION);
    }
    // Every row at once: each written back, in table order.
    let all: Vec<String> = rows
        .iter()
        .filter_map(|param| {
            let value = within_bounds(param.kind)?;
            Some(format!("{}={}", param.name, percent_encode(&value)))
        })
        .collect();
    let query = parse(&all.join("&")).expect("every row within bounds");
    assert_eq!(query.to_query(), all.join("&"));
}

#[test]
fn the_table_is_consistent_with_the_typed_queries() {
    // Only the first FILTER_COUNT rows are filters, every row says what it
    // means in a sentence, and each sets its own field.
    for (at, param) in table::PARAMS.iter().enumerate() {
        assert_eq!(
            param.is_filter(),
            at < table::FILTER_COUNT,
            "{}",
            param.name
        );
        assert!(param.description.ends_with('.'), "{}", param.name);
    }
    each_row_sets_its_own_field(parse_search);
    each_row_sets_its_own_field(parse_deals);
    // Every filter is a parameter of both lists.
    for name in FILTER_NAMES {
        for operation in [Operation::Search, Operation::Deals] {
            assert!(table::param_of(operation, name).is_some(), "{name}");
        }
    }
}

#[test]
fn the_tables_defaults_are_the_typed_queries_defaults() {
    fn defaults(operation: Operation) -> String {
        let pairs: Vec<String> = query_rows(operation)
            .iter()
            .filter_map(|param| {
                let default = match param.kind {
                    table::Kind::Integer { default, .. } => default?.to_string(),
                    table::Kind::Choice { default, .. } => default?.to_owned(),
                    _ => return None,
                };
                Some(format!("{}={default}", param.name))
            })
            .collect();
        pairs.join("&")
    }
    let deals = defaults(Operation::Deals);
    assert_eq!(parse_deals(&deals).expect("valid"), DealsQuery::default());
    assert_eq!(
        parse_deals(&deals).expect("valid").to_query(),
        "",
        "defaults are left out"
    );
    let search = defaults(Operation::Search);
    assert_eq!(
        parse_search(&search).expect("valid"),
        SearchQuery::default()
    );
}

#[test]
fn problems_read_as_the_api_and_the_pages_say_them() {
    let cases = [
        (
            Problem::TextLength { min: 0, max: 200 },
            "must be at most 200 characters",
            "debe tener como máximo 200 caracteres",
        ),
        (
            Problem::TextLength { min: 1, max: 100 },
            "must be 1 to 100 characters",
            "debe tener de 1 a 100 caracteres",
        ),
        (
            Problem::NumberRange {
                min: 0.0,
                max: Some(100.0),
            },
            "must be a number from 0 to 100",
            "debe ser un número de 0 a 100",
        ),
        (
            Problem::NumberRange {
                min: 0.0,
                max: None,
            },
            "must be a number of at least 0",
            "debe ser un número mayor o igual que 0",
        ),
        (
            Problem::OneOf(&["1d", "3d"]),
            "must be one of 1d, 3d",
            "debe ser uno de estos valores: 1d, 3d",
        ),
        (
            Problem::DuplicateId("a\"b".into()),
            "duplicate ID \"a\\\"b\"",
            "versión repetida: \"a\\\"b\"",
        ),
        (
            Problem::BelowMinPrice { min: "minPriceUsd" },
            "must not be less than minPriceUsd",
            "no puede ser menor que el precio mínimo",
        ),
    ];
    for (problem, english, spanish) in cases {
        assert_eq!(problem.english(), english);
        assert_eq!(problem.to_string(), english);
        assert_eq!(problem.spanish(), spanish);
    }
}

#[test]
fn labels_come_from_the_table_once_each() {
    assert_eq!(label("minSeats"), Some("Asientos, al menos"));
    assert_eq!(label("make"), Some("Marca"));
    assert_eq!(label("kind"), None);
    assert_eq!(label("ids[1]"), None);
    let labels = form_labels();
    let named: std::collections::BTreeSet<&str> = table::PARAMS
        .iter()
        .filter(|param| param.label.is_some())
        .map(|param| param.name)
        .collect();
    assert_eq!(labels.len(), named.len());
    assert_eq!(labels.iter().filter(|(name, _)| *name == "sort").count(), 1);
}

/// A small deterministic generator for the property test below.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Text of `min` to `max` characters (at most 12), with the characters
    /// a query string must encode.
    fn text(&mut self, min: usize, max: usize) -> String {
        const CHARS: [char; 12] = ['a', 'Z', '7', ' ', '&', '=', '%', '+', 'é', ',', '/', '?'];
        let len = min + self.below((max.min(12) - min.min(max.min(12)) + 1) as u64) as usize;
        (0..len).map(|_| CHARS[self.below(12) as usize]).collect()
    }

    /// A valid value of a row's kind.
    fn given(&mut self, kind: table::Kind) -> Given {
        use table::Kind;
        match kind {
            Kind::Text { min, max } => Given::Text(self.text(min.max(1), max)),
            Kind::Integer { min, max, .. } => {
                Given::Integer(min + self.below(u64::from(max - min) + 1) as u32)
            }
            Kind::Number { min, max } => {
                let span = max.unwrap_or(1e9) - min;
                let steps = self.below(400) as f64 / 400.0;
                Given::Number(min + (span * steps * 4.0).round() / 4.0)
            }
            Kind::Boolean => Given::Boolean(self.below(2) == 1),
            Kind::Choice { values, .. } => {
                Given::Choice(values[self.below(values.len() as u64) as usize])
            }
            Kind::Ids { .. } => Given::Ids(
                (0..2 + self.below(3))
                    .map(|n| format!("{}-{n}", self.text(1, 8)))
                    .collect(),
            ),
        }
    }
}

/// A random valid query of `Q`'s operation: each of its rows set or not
/// (required ones always), each to a random valid value.
fn random_query<Q: TypedQuery>(draw: &mut Draw, mut query: Q) -> Q {
    for param in table::params_of(Q::OPERATION) {
        if param.required || draw.below(2) == 1 {
            let given = draw.given(param.kind);
            query.set(param, &given);
        }
    }
    query
}

/// A budget the rule across filters accepts: the bounds in order.
fn in_order(filters: &mut Filters) {
    for (min, max) in [
        (table::MIN_PRICE_USD, table::MAX_PRICE_USD),
        (table::MIN_PRICE_ARS, table::MAX_PRICE_ARS),
    ] {
        if let (Some(low), Some(high)) = (min.of(filters), max.of(filters))
            && low > high
        {
            min.put(filters, Some(high));
            max.put(filters, Some(low));
        }
    }
}

/// `to_query` is the inverse of parsing, for random queries of every
/// operation with a query string.
#[test]
fn parsing_a_written_query_gives_the_query_back() {
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    for _ in 0..500 {
        let mut search = random_query(&mut draw, SearchQuery::default());
        in_order(&mut search.filters);
        assert_eq!(
            parse_search(&search.to_query()),
            Ok(search.clone()),
            "{}",
            search.to_query()
        );
        let mut deals = random_query(&mut draw, DealsQuery::default());
        in_order(&mut deals.filters);
        assert_eq!(
            parse_deals(&deals.to_query()),
            Ok(deals.clone()),
            "{}",
            deals.to_query()
        );
        let model = random_query(&mut draw, ModelQuery::default());
        assert_eq!(
            parse_model(&model.to_query()),
            Ok(model.clone()),
            "{}",
            model.to_query()
        );
        let compare = random_query(
            &mut draw,
            CompareQuery {
                ids: Vec::new(),
                commas_separate: true,
            },
        );
        assert_eq!(
            parse_compare(&compare.to_query()),
            Ok(compare.clone()),
            "{}",
            compare.to_query()
        );
    }
    assert_eq!(
        SearchQuery::default().to_query(),
        "",
        "defaults are left out"
    );
    assert_eq!(DealsQuery::default().to_query(), "");
}
