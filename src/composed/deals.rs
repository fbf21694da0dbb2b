//! Site pages with a query, deal lists: `/buscar?kind=price_drops&window=3d&make=Fiat`
//! shows the API's `/api/v1/deals` list of that kind and window with the
//! search filters, so the deal pages' filter form and window links work
//! without a script. `kind` and `window` are the API's own parameters.

use crate::api::text::form_decode;
use crate::api::types::DealKind;
use crate::vocab::Window;

/// The parameters that make a search page a deal list.
pub const NAMES: [&str; 2] = ["kind", "window"];

/// Splits a page's query into its deal-list pairs (`kind=...&window=...`,
/// `None` without a `kind`) and the rest, each as sent.
pub fn split(query: &str) -> (Option<String>, String) {
    let name = |pair: &str| form_decode(pair.split_once('=').map_or(pair, |(name, _)| name));
    let (deal, rest): (Vec<&str>, Vec<&str>) = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .partition(|pair| name(pair).is_some_and(|name| NAMES.contains(&name.as_str())));
    let has_kind = deal
        .iter()
        .any(|pair| name(pair).as_deref() == Some("kind"));
    (has_kind.then(|| deal.join("&")), rest.join("&"))
}

/// The heading of a deal list's results: `Bajas de precio de los últimos 3 días`.
pub fn title(kind: DealKind, window: Window) -> String {
    let days = match window {
        Window::D1 => "del último día".to_owned(),
        other => format!("de los últimos {} días", other.days()),
    };
    match kind {
        DealKind::Opportunities => "Oportunidades actuales".to_owned(),
        DealKind::PriceDrops => format!("Bajas de precio {days}"),
        DealKind::NewOpportunities => format!("Nuevas oportunidades {days}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_makes_a_deal_list_and_the_rest_stays_a_search() {
        assert_eq!(
            split("make=Fiat&kind=price_drops&window=3d&maxPriceUsd=20000"),
            (
                Some("kind=price_drops&window=3d".to_owned()),
                "make=Fiat&maxPriceUsd=20000".to_owned()
            )
        );
        assert_eq!(split("make=Fiat&window=3d"), (None, "make=Fiat".to_owned()));
        assert_eq!(split("q=kind%3Dx"), (None, "q=kind%3Dx".to_owned()));
        assert_eq!(
            split("%6Bind=opportunities"),
            (Some("%6Bind=opportunities".to_owned()), String::new()),
            "a name is read decoded"
        );
    }

    #[test]
    fn titles_name_the_kind_and_the_window() {
        assert_eq!(
            title(DealKind::PriceDrops, Window::D3),
            "Bajas de precio de los últimos 3 días"
        );
        assert_eq!(
            title(DealKind::NewOpportunities, Window::D1),
            "Nuevas oportunidades del último día"
        );
        assert_eq!(
            title(DealKind::Opportunities, Window::D1),
            "Oportunidades actuales"
        );
    }
}
