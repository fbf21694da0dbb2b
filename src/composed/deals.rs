//! Site pages with a query, deal lists: `/buscar?kind=price_drops&window=3d&make=Fiat`
//! shows the API's `/api/v1/deals` list of that kind and window with the
//! search filters, so the deal pages' filter form and window links work
//! without a script. `kind` and `window` are the API's own parameters.

use crate::api::params::choices;
use crate::api::types::DealKind;
use crate::vocab::Window;

/// The parameters that make a search page a deal list.
pub const NAMES: [&str; 2] = ["kind", "window"];

/// The heading of a deal list's results: `Bajas de precio de los últimos 3 días`.
pub fn title(kind: DealKind, window: Window) -> String {
    let days = match window {
        Window::D1 => "del último día".to_owned(),
        other => format!("de los últimos {} días", other.days()),
    };
    match kind {
        DealKind::Opportunities => choices::kind(kind).to_owned(),
        DealKind::PriceDrops | DealKind::NewOpportunities => {
            format!("{} {days}", choices::kind(kind))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
