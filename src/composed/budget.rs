//! Site pages with a query, peso budgets: `/buscar` takes a budget in pesos
//! (`minPriceArs`, `maxPriceArs`, site-only form fields; the API keeps its
//! dollar parameters) and turns it into the API's `minPriceUsd` and
//! `maxPriceUsd` at the snapshot's current observed exchange rate before the
//! search runs. The search page says which rate that is.

use crate::api::text::form_decode;

/// A peso field of the search form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PesoField {
    /// Its name in the form (site-only).
    pub name: &'static str,
    /// The API parameter it becomes.
    pub usd_name: &'static str,
    /// Its label on the form, which an error about it names.
    pub label: &'static str,
}

/// Each peso field.
pub const FIELDS: [PesoField; 2] = [
    PesoField {
        name: "minPriceArs",
        usd_name: "minPriceUsd",
        label: "Precio mínimo ($)",
    },
    PesoField {
        name: "maxPriceArs",
        usd_name: "maxPriceUsd",
        label: "Precio máximo ($)",
    },
];

/// The query with each peso budget replaced by its dollar parameter:
/// `maxPriceArs=71000000` at 1420 pesos per dollar becomes
/// `maxPriceUsd=50000.00` (cents, half away from zero). A dollar field that
/// is also filled in wins, and its peso twin is dropped. Without a rate, or
/// with a value that is not a number, the value is passed on under the
/// dollar name unchanged, so the API's own check of that field answers.
pub fn in_dollars(query: &str, ars_per_usd: Option<f64>) -> String {
    let pairs = pairs(query);
    let filled = |name: &str| filled(&pairs, name);
    pairs
        .iter()
        .filter_map(|&(key, value)| {
            let name = form_decode(key).unwrap_or_default();
            let Some(PesoField { usd_name, .. }) = FIELDS.iter().find(|f| f.name == name) else {
                return Some(format!("{key}={value}"));
            };
            let text = form_decode(value).unwrap_or_default();
            let text = text.trim();
            if text.is_empty() || filled(usd_name) {
                return None;
            }
            let converted = match (text.parse::<f64>(), ars_per_usd) {
                (Ok(pesos), Some(rate)) if pesos.is_finite() && rate > 0.0 => {
                    format!("{:.2}", (pesos / rate * 100.0).round() / 100.0)
                }
                _ => value.to_owned(),
            };
            Some(format!("{usd_name}={converted}"))
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The peso field behind the API parameter `usd_name` in `query`, when
/// [`in_dollars`] made that parameter from it (the buyer typed pesos, so an
/// error about the value must name the peso field).
pub fn peso_field(query: &str, usd_name: &str) -> Option<PesoField> {
    let pairs = pairs(query);
    FIELDS
        .into_iter()
        .find(|field| field.usd_name == usd_name)
        .filter(|field| filled(&pairs, field.name) && !filled(&pairs, field.usd_name))
}

/// The `name=value` pairs of a query, as sent.
fn pairs(query: &str) -> Vec<(&str, &str)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect()
}

/// Whether `pairs` give `name` a value that is not blank.
fn filled(pairs: &[(&str, &str)], name: &str) -> bool {
    pairs.iter().any(|(key, value)| {
        form_decode(key).as_deref() == Some(name)
            && form_decode(value).is_some_and(|value| !value.trim().is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peso_budget_becomes_dollars_at_the_rate() {
        assert_eq!(
            in_dollars("make=Fiat&maxPriceArs=71000000", Some(1420.0)),
            "make=Fiat&maxPriceUsd=50000.00"
        );
        // 10 000 000 / 1 420 = 7 042,2535…: cents, rounded.
        assert_eq!(
            in_dollars("minPriceArs=10000000&maxPriceArs=", Some(1420.0)),
            "minPriceUsd=7042.25"
        );
        assert_eq!(
            in_dollars("minPriceArs=+1000+", Some(1000.0)),
            "minPriceUsd=1.00",
            "a form's spaces are trimmed"
        );
    }

    #[test]
    fn a_dollar_budget_wins_and_bad_values_reach_the_api_check() {
        assert_eq!(
            in_dollars("maxPriceArs=71000000&maxPriceUsd=30000", Some(1420.0)),
            "maxPriceUsd=30000"
        );
        assert_eq!(
            in_dollars("maxPriceArs=mucho", Some(1420.0)),
            "maxPriceUsd=mucho"
        );
        assert_eq!(in_dollars("maxPriceArs=1000", None), "maxPriceUsd=1000");
        assert_eq!(in_dollars("q=a%3Db", Some(1.0)), "q=a%3Db");
    }

    #[test]
    fn an_error_about_a_converted_budget_names_the_peso_field() {
        let field = |query, name| peso_field(query, name).map(|f| f.label);
        assert_eq!(
            field("maxPriceArs=-5", "maxPriceUsd"),
            Some("Precio máximo ($)")
        );
        assert_eq!(
            field("maxPriceArs=5&maxPriceUsd=3", "maxPriceUsd"),
            None,
            "dollars won"
        );
        assert_eq!(field("maxPriceArs=+", "maxPriceUsd"), None, "blank");
        assert_eq!(field("minPriceArs=5", "maxPriceUsd"), None);
    }
}
