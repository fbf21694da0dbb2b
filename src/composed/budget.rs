//! Site pages with a query, money rules: what a search page asks the API
//! for a budget and a price order, so that what it lists is within the
//! buyer's budget and in order in the currency the cards show (DESIGN,
//! "Money on the site").
//!
//! - A peso amount is read as people type it (`60.000.000`, `60000000`,
//!   `$ 60.000.000`, `60.000.000,50`) and given to the API's `minPriceArs`
//!   and `maxPriceArs`, which compare with each version's price in pesos.
//! - A dollar budget typed on the site means dollars at the page's
//!   reference dollar, the rate every card converts at; it becomes a peso
//!   bound, rounded to the peso as the cards' prices are, so a card's
//!   dollar figure is within the budget exactly when its peso price is.
//! - A price order sorts by the price in pesos, which orders the cards'
//!   dollar figures too, since all of them convert at that one rate.
//!
//! A value that is not an amount as people type it (`60.000000`, which the
//! API would read as 60, or `-5`) is refused by the page, in its field.
//! An amount read goes to the API as the number it is, not as text.

use crate::api::params::Raw;

/// A budget field of the search form, the API parameter it becomes, and
/// the currency it is typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetField {
    /// Its name in the form and the page's URL.
    pub name: &'static str,
    /// The API parameter it is sent as.
    pub api_name: &'static str,
    /// Whether it is typed in dollars (converted at the reference dollar).
    pub in_dollars: bool,
}

/// Every budget field of the site's forms.
pub const FIELDS: [BudgetField; 4] = [
    BudgetField {
        name: "minPriceArs",
        api_name: "minPriceArs",
        in_dollars: false,
    },
    BudgetField {
        name: "maxPriceArs",
        api_name: "maxPriceArs",
        in_dollars: false,
    },
    BudgetField {
        name: "minPriceUsd",
        api_name: "minPriceArs",
        in_dollars: true,
    },
    BudgetField {
        name: "maxPriceUsd",
        api_name: "maxPriceArs",
        in_dollars: true,
    },
];

/// The page's pairs as the API is asked them, and which form field each
/// API parameter came from (for an error about it).
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// `(API name, value)` pairs: the page's text, and its budgets as
    /// numbers.
    pub pairs: Vec<(String, Raw)>,
    /// `(API name, form field)`: a budget typed in another field.
    pub origins: Vec<(&'static str, &'static str)>,
    /// The budget fields whose value is not an amount (`60.000000`, `-5`),
    /// refused by the page itself: the API would read `60.000000` as 60.
    pub refused: Vec<&'static str>,
}

/// A peso (or dollar) amount as people type it, as the API reads numbers:
/// `60.000.000` -> `60000000`, `60.000.000,50` -> `60000000.50`,
/// `$ 1.420,5` -> `1420.5`, `45000.5` -> `45000.5`. Dots are thousands
/// separators when every group after the first has three digits; a comma is
/// the decimal mark. `None` for anything else (a sign, letters, groups of
/// other sizes), which is then sent as typed and refused by the API.
pub fn read_amount(text: &str) -> Option<String> {
    let text = text
        .trim()
        .trim_start_matches("US$")
        .trim_start_matches('$')
        .trim();
    let (whole, fraction) = match text.split_once(',') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => match text.split_once('.') {
            // One dot followed by one or two digits: a decimal point.
            Some((whole, fraction))
                if (1..=2).contains(&fraction.len()) && !fraction.contains('.') =>
            {
                (whole, Some(fraction))
            }
            _ => (text, None),
        },
    };
    let groups: Vec<&str> = whole.split('.').collect();
    let grouped = groups.len() == 1
        || (!groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|group| group.len() == 3));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if !grouped || !groups.iter().all(|group| digits(group)) {
        return None;
    }
    let whole = groups.concat();
    match fraction {
        Some(fraction) if digits(fraction) => Some(format!("{whole}.{fraction}")),
        Some(_) => None,
        None => Some(whole),
    }
}

/// The page's `(name, value)` pairs with the money rules applied: peso
/// amounts read as typed, dollar budgets as peso bounds at `ars_per_usd`
/// (two bounds of one side keep the tighter), price orders in pesos.
pub fn asked(pairs: &[(String, String)], ars_per_usd: Option<f64>) -> Asked {
    let mut asked = Asked {
        pairs: Vec::new(),
        origins: Vec::new(),
        refused: Vec::new(),
    };
    let mut bounds: Vec<(&'static str, f64, &'static str)> = Vec::new();
    for (name, value) in pairs {
        if name == "sort" {
            let order = Raw::Text(peso_order(value).to_owned());
            asked.pairs.push((name.clone(), order));
            continue;
        }
        let Some(field) = FIELDS.iter().find(|field| field.name == name) else {
            asked.pairs.push((name.clone(), Raw::Text(value.clone())));
            continue;
        };
        let Some(amount) = read_amount(value).and_then(|text| text.parse::<f64>().ok()) else {
            asked.refused.push(field.name);
            continue;
        };
        let pesos = match (field.in_dollars, ars_per_usd) {
            (false, _) => amount,
            (true, Some(rate)) if rate > 0.0 => (amount * rate).round(),
            _ => {
                // Dollars without a rate: the API's own dollar budget.
                asked
                    .pairs
                    .push((field.name.to_owned(), Raw::Number(amount)));
                continue;
            }
        };
        let tighter = |old: f64| {
            if field.api_name.starts_with("max") {
                old <= pesos
            } else {
                old >= pesos
            }
        };
        match bounds.iter_mut().find(|(api, _, _)| *api == field.api_name) {
            Some((_, old, _)) if tighter(*old) => {}
            Some(bound) => *bound = (field.api_name, pesos, field.name),
            None => bounds.push((field.api_name, pesos, field.name)),
        }
    }
    for (api_name, pesos, origin) in bounds {
        asked.pairs.push((api_name.to_owned(), Raw::Number(pesos)));
        if origin != api_name {
            asked.origins.push((api_name, origin));
        }
    }
    asked
}

/// The peso order of a price order (the search page's default is the
/// cheapest first in pesos).
fn peso_order(sort: &str) -> &str {
    match sort {
        "price_asc" => "price_ars_asc",
        "price_desc" => "price_ars_desc",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    /// What the API is asked, as text: numbers as they print.
    fn sent(asked: &Asked) -> Vec<(String, String)> {
        asked
            .pairs
            .iter()
            .map(|(name, raw)| {
                let value = match raw {
                    Raw::Text(text) => text.clone(),
                    Raw::Number(number) => number.to_string(),
                    other => format!("{other:?}"),
                };
                (name.clone(), value)
            })
            .collect()
    }

    #[test]
    fn amounts_are_read_as_argentines_type_them() {
        for (typed, read) in [
            ("60.000.000", Some("60000000")),
            ("60000000", Some("60000000")),
            ("$ 60.000.000", Some("60000000")),
            ("60.000.000,50", Some("60000000.50")),
            ("1.420,5", Some("1420.5")),
            ("45000.5", Some("45000.5")),
            ("US$ 45.000", Some("45000")),
            (" 7 ", Some("7")),
            ("0", Some("0")),
        ] {
            assert_eq!(read_amount(typed).as_deref(), read, "{typed}");
        }
        for refused in [
            "-5",
            "60.000000",
            "6.00.000",
            "mucho",
            "",
            "1,2,3",
            ".000",
            "1e9",
        ] {
            assert_eq!(read_amount(refused), None, "{refused}");
        }
    }

    #[test]
    fn peso_budgets_go_to_the_api_in_pesos() {
        let asked = asked(
            &pairs(&[("make", "Fiat"), ("maxPriceArs", "60.000.000")]),
            Some(1420.0),
        );
        assert_eq!(
            sent(&asked),
            pairs(&[("make", "Fiat"), ("maxPriceArs", "60000000")])
        );
        assert!(asked.origins.is_empty());
    }

    #[test]
    fn dollar_budgets_are_pesos_at_the_reference_dollar() {
        // 45 000 x 1 455,28 = 65 487 600; 30 000,5 x 1 455,28 = 43 659 127,64.
        let asked = asked(
            &pairs(&[("maxPriceUsd", "45.000"), ("minPriceUsd", "30000.5")]),
            Some(1455.28),
        );
        assert_eq!(
            sent(&asked),
            pairs(&[("maxPriceArs", "65487600"), ("minPriceArs", "43659128")])
        );
        assert_eq!(
            asked.origins,
            [
                ("maxPriceArs", "maxPriceUsd"),
                ("minPriceArs", "minPriceUsd")
            ]
        );
    }

    #[test]
    fn two_bounds_of_one_side_keep_the_tighter() {
        let asked = asked(
            &pairs(&[("maxPriceArs", "70000000"), ("maxPriceUsd", "45000")]),
            Some(1000.0),
        );
        assert_eq!(sent(&asked), pairs(&[("maxPriceArs", "45000000")]));
        assert_eq!(asked.origins, [("maxPriceArs", "maxPriceUsd")]);
    }

    #[test]
    fn what_is_not_an_amount_is_refused_by_the_page() {
        let refused = asked(
            &pairs(&[
                ("maxPriceArs", "-5"),
                ("minPriceUsd", "60.000000"),
                ("q", "x"),
            ]),
            Some(1.0),
        );
        assert_eq!(refused.refused, ["maxPriceArs", "minPriceUsd"]);
        assert_eq!(sent(&refused), pairs(&[("q", "x")]));
        assert_eq!(
            sent(&asked(&pairs(&[("maxPriceUsd", "1.000")]), None)),
            pairs(&[("maxPriceUsd", "1000")]),
            "without a rate a dollar budget stays the API's own"
        );
    }

    #[test]
    fn price_orders_are_in_pesos() {
        let order = |sort| sent(&asked(&pairs(&[("sort", sort)]), None))[0].1.clone();
        assert_eq!(order("price_asc"), "price_ars_asc");
        assert_eq!(order("price_desc"), "price_ars_desc");
        assert_eq!(order("name"), "name");
    }
}
