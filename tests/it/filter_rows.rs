//! The shared filters' rows (`api::params::table::FILTERS`) reach what
//! follows from them, on the fixture's tree: the search form has a control
//! for every filter (the further ones written from their rows, with the
//! row's id, bounds, answers or values), and the catalogue overview lists
//! the values present of exactly the choices, the counts and the texts
//! among the further filters (the cities); and each row's
//! fact of a version is a value of the row's kind. (The parsers,
//! OpenAPI and MCP schemas are `table_bounds`'s; the oracle of `index`
//! reads every row by its rule.)

use std::fs;

use autoprecios::api::facts::Facts;
use autoprecios::api::params::filter::Form;
use autoprecios::api::params::table::{FILTERS, Given, Kind};
use autoprecios::signals::compute_catalogue;
use autoprecios::snapshot::load_snapshot;

use crate::harness::{fixture, get_json};

/// The search page's form.
fn search_form() -> String {
    let page = fs::read_to_string(fixture().public.join("buscar/index.html")).expect("/buscar");
    let start = page.find("<form class=\"search-form\"").expect("the form");
    let end = start + page[start..].find("</form>").expect("the form's end");
    page[start..end].to_owned()
}

#[test]
fn the_search_form_has_a_control_for_every_shared_filter() {
    let form = search_form();
    for param in FILTERS {
        let (name, filter) = (param.name, param.filter().expect("a filter"));
        let named = format!(" name=\"{name}\"");
        assert_eq!(form.matches(&named).count(), 1, "one control for {name}");
        let id = match filter.form {
            Form::Own => continue,
            Form::Further(id) | Form::Answers { id, .. } => id,
        };
        let label = param.label.expect("a filter has a form label");
        let labelled = format!("<label for=\"f-{id}\">{label}</label>");
        assert!(form.contains(&labelled), "{name}: {labelled}");
        let control = match (filter.form, param.kind) {
            (Form::Further(_), Kind::Integer { min, max, .. }) => format!(
                "<input id=\"f-{id}\" name=\"{name}\" type=\"number\" min=\"{min}\" \
                 max=\"{max}\" step=\"1\">"
            ),
            (Form::Further(_), Kind::Number { min, max }) => format!(
                "<input id=\"f-{id}\" name=\"{name}\" type=\"number\" min=\"{min}\" \
                 max=\"{}\" step=\"any\" inputmode=\"decimal\">",
                max.expect("a minimum on the form has a maximum")
            ),
            (Form::Further(_), Kind::Choice { values, .. }) => {
                // At least one of its values, labelled (the fixture has some
                // of each choice): its labels are the site's.
                let select = format!(
                    "<select id=\"f-{id}\" name=\"{name}\"><option value=\"\">Cualquiera</option>\n\
                     <option value=\""
                );
                let at = form.find(&select).map(|at| at + select.len());
                let first = at.and_then(|at| form[at..].split('"').next());
                assert!(
                    first.is_some_and(|value| values.contains(&value)),
                    "{name}: a labelled value"
                );
                select
            }
            (Form::Further(_), Kind::Text { .. }) => {
                // The values present (the cities), each its own label.
                let select = format!(
                    "<select id=\"f-{id}\" name=\"{name}\"><option value=\"\">Cualquiera</option>\n"
                );
                let at = form.find(&select).expect(name) + select.len();
                let options = &form[at..at + form[at..].find("</select>").expect("its end")];
                let listed: Vec<&str> = options
                    .lines()
                    .map(|line| line.split('"').nth(1).expect("an option's value"))
                    .collect();
                assert!(listed.len() > 1, "{name}: the fixture has several");
                for value in listed {
                    let option = format!("<option value=\"{value}\">{value}</option>");
                    assert!(options.contains(&option), "{name}: {option}");
                }
                select
            }
            (Form::Answers { yes, no, .. }, Kind::Boolean) => format!(
                "<select id=\"f-{id}\" name=\"{name}\"><option value=\"\">Cualquiera</option>\
                 <option value=\"true\">{yes}</option><option value=\"false\">{no}</option>\
                 </select>"
            ),
            (form, kind) => panic!("{name}: no control is written for {form:?} of {kind:?}"),
        };
        assert!(form.contains(&control), "{name}: {control}");
    }
}

#[tokio::test]
async fn the_catalogue_lists_the_values_of_every_choice_and_count() {
    let catalogue = get_json("/api/v1/catalogue").await;
    let listed: Vec<&str> = catalogue["data"]["filters"]
        .as_object()
        .expect("filters")
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected: Vec<&str> = FILTERS
        .iter()
        .filter(|param| {
            let further_text = matches!(
                (param.kind, param.filter().map(|f| f.form)),
                (Kind::Text { .. }, Some(Form::Further(_)))
            );
            further_text || matches!(param.kind, Kind::Choice { .. } | Kind::Integer { .. })
        })
        .map(|param| param.name)
        .collect();
    expected.sort();
    assert_eq!(listed, expected);
    for name in expected {
        let values = catalogue["data"]["filters"][name].as_array().expect(name);
        assert!(!values.is_empty(), "{name}: the fixture has values");
    }
}

#[test]
fn every_filters_fact_is_a_value_of_its_kind() {
    let catalogue = compute_catalogue(&load_snapshot(&fixture().data).expect("the fixture"));
    let mut known = vec![0; FILTERS.len()];
    for vehicle in &catalogue.vehicles {
        let facts = Facts::of(vehicle);
        for (param, known) in FILTERS.iter().zip(&mut known) {
            let filter = param.filter().expect("a filter");
            let facts = (filter.fact)(&facts);
            *known += usize::from(!facts.is_empty());
            for fact in facts {
                let of_its_kind = match (param.kind, &fact) {
                    (Kind::Text { .. }, Given::Text(_))
                    | (Kind::Integer { .. }, Given::Integer(_))
                    | (Kind::Number { .. }, Given::Number(_))
                    | (Kind::Boolean, Given::Boolean(_)) => true,
                    (Kind::Choice { values, .. }, Given::Choice(value)) => values.contains(value),
                    _ => false,
                };
                assert!(of_its_kind, "{}: {fact:?}", param.name);
            }
        }
    }
    for (param, known) in FILTERS.iter().zip(known) {
        assert!(
            known > 0,
            "{}: the fixture knows it of some version",
            param.name
        );
    }
}

/// The IDs of every version a search finds (pages of the largest size).
async fn found(query: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut offset = 0;
    loop {
        let page = get_json(&format!(
            "/api/v1/vehicles?{query}&limit=100&offset={offset}"
        ))
        .await;
        let vehicles = page["data"]["vehicles"].as_array().expect("vehicles");
        ids.extend(
            vehicles
                .iter()
                .map(|v| v["id"].as_str().expect("id").to_owned()),
        );
        match page["data"]["pagination"]["nextOffset"].as_u64() {
            Some(next) => offset = next,
            None => return ids,
        }
    }
}

#[tokio::test]
async fn a_city_is_found_ignoring_case_and_accents_among_the_current_quotes() {
    let catalogue = compute_catalogue(&load_snapshot(&fixture().data).expect("the fixture"));
    let mut expected: Vec<String> = catalogue
        .vehicles
        .iter()
        .filter(|v| {
            v.quotes
                .iter()
                .any(|q| q.location.as_deref() == Some("Córdoba"))
        })
        .map(|v| v.id.clone())
        .collect();
    expected.sort();
    assert!(!expected.is_empty(), "the fixture quotes in Córdoba");
    assert!(
        expected.len() < catalogue.vehicles.len(),
        "not every version"
    );
    for spelt in ["cordoba", "CÓRDOBA", "Córdoba", "c%C3%B3rdoba"] {
        let mut ids = found(&format!("location={spelt}")).await;
        ids.sort();
        assert_eq!(ids, expected, "location={spelt}");
    }
    assert!(found("location=sin%20dato").await.is_empty(), "not a city");
    assert!(
        found("location=cord").await.is_empty(),
        "a whole name, not a part"
    );
    let listed = get_json("/api/v1/catalogue").await;
    let cities = listed["data"]["filters"]["location"]
        .as_array()
        .expect("cities");
    assert!(cities.contains(&"Córdoba".into()), "{cities:?}");
    assert!(!cities.contains(&"sin dato".into()), "{cities:?}");
}
