//! API stage, the Spanish labels of the choice parameters' values (`kind`,
//! `window`, `sort`) as the site's forms and pages show them: data beside
//! the parameter table, which holds the forms' field labels. The search
//! and deal forms (`templates/search.html`, `templates/deals.html`, through
//! the template functions of `render::templates`), the deal lists' window
//! links and the edge's notes on a replaced order all read them here. The
//! API itself speaks only the values.

use crate::api::query::{DealKind, DealSort, SearchSort, spelling_of};
use crate::vocab::Window;

/// A value of a choice parameter and its label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Choice {
    /// The value, as the API spells it.
    pub value: &'static str,
    /// What the form shows.
    pub label: &'static str,
}

/// The kinds of deal list, in the forms' order.
pub const KINDS: [(DealKind, &str); 3] = [
    (DealKind::Opportunities, "Oportunidades actuales"),
    (DealKind::PriceDrops, "Bajas de precio"),
    (DealKind::NewOpportunities, "Nuevas oportunidades"),
];

/// The recent-change windows, longest first (the forms' order).
pub const WINDOWS: [(Window, &str); 3] = [
    (Window::D7, "Últimos 7 días"),
    (Window::D3, "Últimos 3 días"),
    (Window::D1, "Último día"),
];

/// An order's names: the option the form shows, and the short name a
/// sentence gives it («Recomendado»).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortLabel {
    /// The value.
    pub value: &'static str,
    /// The form's option.
    pub option: &'static str,
    /// Its name in a sentence.
    pub name: &'static str,
}

/// Every order the forms offer, by value, in the form's order; the peso
/// orders (`price_ars_*`) are not offered (a peso budget turns a price
/// order into pesos) and read as their dollar twins.
pub const SORTS: [SortLabel; 6] = [
    sort("price_asc", "Precio, de menor a mayor"),
    sort("discount_desc", "Mayor diferencia con el precio habitual"),
    sort("price_desc", "Precio, de mayor a menor"),
    sort("name", "Nombre"),
    SortLabel {
        value: "recommended",
        option: "Recomendado: mayor diferencia, mayor baja o más reciente",
        name: "Recomendado",
    },
    sort("recent", "Más recientes primero"),
];

const fn sort(value: &'static str, label: &'static str) -> SortLabel {
    SortLabel {
        value,
        option: label,
        name: label,
    }
}

/// The label of a deal list's kind.
pub fn kind(value: DealKind) -> &'static str {
    label_of(&KINDS, value)
}

/// The label of a window.
pub fn window(value: Window) -> &'static str {
    label_of(&WINDOWS, value)
}

/// An order's short name (`price_ars_asc` as `price_asc`); `None` for a
/// value no list has.
pub fn sort_name(value: &str) -> Option<&'static str> {
    let offered = match value {
        "price_ars_asc" => "price_asc",
        "price_ars_desc" => "price_desc",
        other => other,
    };
    SORTS
        .iter()
        .find(|sort| sort.value == offered)
        .map(|sort| sort.name)
}

/// The form's order groups: the orders of both kinds of list, then those of
/// every version's search, then those of the deal lists, each with its
/// group's label (none for the first).
pub fn sort_groups() -> [(&'static str, Vec<Choice>); 3] {
    let search = |value: &str| SearchSort::ALL.iter().any(|(_, s)| *s == value);
    let deals = |value: &str| DealSort::ALL.iter().any(|(_, s)| *s == value);
    let group = |keep: &dyn Fn(&str) -> bool| {
        SORTS
            .iter()
            .filter(|sort| keep(sort.value))
            .map(|sort| Choice {
                value: sort.value,
                label: sort.option,
            })
            .collect()
    };
    [
        ("", group(&|v| search(v) && deals(v))),
        (
            "Para todas las versiones",
            group(&|v| search(v) && !deals(v)),
        ),
        (
            "Para bajas, oportunidades y nuevas",
            group(&|v| deals(v) && !search(v)),
        ),
    ]
}

/// The choices of `kind` or `window`, in the forms' order; `None` for
/// another parameter.
pub fn choices(name: &str) -> Option<Vec<Choice>> {
    Some(match name {
        "kind" => KINDS
            .iter()
            .map(|(kind, label)| Choice {
                value: spelling_of(&DealKind::ALL, *kind),
                label,
            })
            .collect(),
        "window" => WINDOWS
            .iter()
            .map(|(window, label)| Choice {
                value: window.as_str(),
                label,
            })
            .collect(),
        _ => return None,
    })
}

fn label_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(v, _)| *v == value)
        .map_or("", |(_, label)| label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_of_a_choice_has_a_label() {
        for (kind, _) in DealKind::ALL {
            assert!(!kind_label(kind).is_empty());
        }
        for window in Window::ALL {
            assert!(!self::window(*window).is_empty());
        }
        let search = SearchSort::ALL.map(|(_, value)| value);
        let deals = DealSort::ALL.map(|(_, value)| value);
        for value in search.iter().chain(&deals) {
            assert!(sort_name(value).is_some(), "{value}");
        }
        assert_eq!(
            sort_name("price_ars_desc"),
            Some("Precio, de mayor a menor")
        );
        assert_eq!(sort_name("recommended"), Some("Recomendado"));
        assert_eq!(sort_name("bogus"), None);
    }

    fn kind_label(value: DealKind) -> &'static str {
        kind(value)
    }

    #[test]
    fn the_form_groups_the_orders_by_the_lists_that_take_them() {
        let values = |group: &[Choice]| group.iter().map(|c| c.value).collect::<Vec<_>>();
        let [both, search, deals] = sort_groups();
        assert_eq!(values(&both.1), ["price_asc", "discount_desc"]);
        assert_eq!(values(&search.1), ["price_desc", "name"]);
        assert_eq!(values(&deals.1), ["recommended", "recent"]);
        assert_eq!(
            choices("window")
                .expect("window")
                .iter()
                .map(|c| c.value)
                .collect::<Vec<_>>(),
            ["7d", "3d", "1d"]
        );
        assert!(choices("sort").is_none());
    }
}
