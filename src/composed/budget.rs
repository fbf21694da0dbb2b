//! Site pages with a query, peso budgets: `/buscar` takes a budget in pesos
//! (`minPriceArs`, `maxPriceArs`, site-only form fields; the API keeps its
//! dollar parameters) and turns it into the API's `minPriceUsd` and
//! `maxPriceUsd` at the snapshot's current observed exchange rate before the
//! search runs. The search page says which rate that is.

use crate::api::text::form_decode;

/// Each peso field and the API parameter it becomes.
pub const FIELDS: [(&str, &str); 2] = [
    ("minPriceArs", "minPriceUsd"),
    ("maxPriceArs", "maxPriceUsd"),
];

/// The query with each peso budget replaced by its dollar parameter:
/// `maxPriceArs=71000000` at 1420 pesos per dollar becomes
/// `maxPriceUsd=50000.00` (cents, half away from zero). A dollar field that
/// is also filled in wins, and its peso twin is dropped. Without a rate, or
/// with a value that is not a number, the value is passed on under the
/// dollar name unchanged, so the API's own check of that field answers.
pub fn in_dollars(query: &str, ars_per_usd: Option<f64>) -> String {
    let pairs: Vec<(&str, &str)> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect();
    let filled = |name: &str| {
        pairs.iter().any(|(key, value)| {
            form_decode(key).as_deref() == Some(name)
                && form_decode(value).is_some_and(|value| !value.trim().is_empty())
        })
    };
    pairs
        .iter()
        .filter_map(|&(key, value)| {
            let name = form_decode(key).unwrap_or_default();
            let Some((_, usd_name)) = FIELDS.iter().find(|(ars, _)| *ars == name) else {
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
}
