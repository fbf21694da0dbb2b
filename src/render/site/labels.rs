//! Render stage, site labels: the Spanish words the site shows for the
//! catalogue's closed vocabularies, recent-change windows, fact sources and
//! recorded specification gaps. The API keeps its English values; only the
//! pages translate them.

use crate::vocab::{BodyType, Drivetrain, Fuel, Reason, Transmission, Window};

/// Body type.
pub fn body_type(value: BodyType) -> &'static str {
    match value {
        BodyType::Suv => "SUV",
        BodyType::Pickup => "Pick-up",
        BodyType::Hatchback => "Hatchback",
        BodyType::Sedan => "Sedán",
        BodyType::Van => "Utilitario (van)",
        BodyType::Coupe => "Coupé",
        BodyType::Wagon => "Rural (familiar)",
        BodyType::Mpv => "Monovolumen",
        BodyType::Other => "Otra",
    }
}

/// Fuel or powertrain.
pub fn fuel(value: Fuel) -> &'static str {
    match value {
        Fuel::Petrol => "Nafta",
        Fuel::Diesel => "Diésel",
        Fuel::Electric => "Eléctrico",
        Fuel::Hybrid => "Híbrido",
        Fuel::MildHybrid => "Híbrido suave",
        Fuel::PluginHybrid => "Híbrido enchufable",
        Fuel::RangeExtender => "Eléctrico con extensor de autonomía",
    }
}

/// Gearbox.
pub fn transmission(value: Transmission) -> &'static str {
    match value {
        Transmission::Automatic => "Automática",
        Transmission::Manual => "Manual",
    }
}

/// Driven wheels.
pub fn drivetrain(value: Drivetrain) -> &'static str {
    match value {
        Drivetrain::Fwd => "Delantera",
        Drivetrain::Rwd => "Trasera",
        Drivetrain::FourByTwo => "4x2",
        Drivetrain::Awd => "Integral permanente (AWD)",
        Drivetrain::FourByFour => "4x4",
        Drivetrain::FourByFourLowRange => "4x4 con reductora",
    }
}

/// A trim as the pages name it: its display form when the catalogue has one,
/// else the trim with the gearbox codes `AT` and `MT` spelled out as the
/// display forms spell them, so `4x2 MT` never sits beside `4x2 manual Pack
/// Tech` in one list.
pub fn trim(trim: &str, display: Option<&str>) -> String {
    if let Some(display) = display {
        return display.to_owned();
    }
    trim.split(' ')
        .map(|word| match word {
            "AT" => "automática",
            "MT" => "manual",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A deal reason as the pages show it: its API value (the CSS class) and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Badge {
    /// `below_typical`, `price_drop` or `new_opportunity`.
    pub kind: &'static str,
    /// `Oportunidad`, ...
    pub label: &'static str,
}

/// The badges of a version's reasons.
pub fn badges(reasons: &[Reason]) -> Vec<Badge> {
    reasons
        .iter()
        .map(|r| Badge {
            kind: r.as_str(),
            label: reason(*r),
        })
        .collect()
}

/// A deal reason as a short badge.
pub fn reason(value: Reason) -> &'static str {
    match value {
        Reason::BelowTypical => "Oportunidad",
        Reason::PriceDrop => "Bajó de precio",
        Reason::NewOpportunity => "Nueva oportunidad",
    }
}

/// A recent-change window, as the forms name it.
pub fn window(value: Window) -> &'static str {
    crate::api::params::choices::window(value)
}

/// The kind of source of a catalogue fact (`factSources`).
pub fn fact_source(kind: &str) -> String {
    match kind {
        "official" => "fuente oficial".to_owned(),
        "catalogue" => "catálogo del sitio de avisos".to_owned(),
        other => other.to_owned(),
    }
}

/// The kind of a specification source.
pub fn source_kind(kind: &str) -> String {
    match kind {
        "official" => "oficial".to_owned(),
        other => other.to_owned(),
    }
}

/// Why a specification value is a recorded gap.
pub fn gap_reason(reason: &str) -> String {
    match reason {
        "missing" => "la fuente no lo informa".to_owned(),
        "disputed" => "las fuentes no coinciden".to_owned(),
        "contradictory" => "dato contradictorio".to_owned(),
        "unreadable" => "ilegible en la fuente".to_owned(),
        "unassigned" => "sin asignar".to_owned(),
        other => other.to_owned(),
    }
}

/// Every filter value of the search form with its label, by API parameter.
pub fn filter_options() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        (
            "type",
            BodyType::ALL
                .iter()
                .map(|v| (v.as_str(), body_type(*v)))
                .collect(),
        ),
        (
            "fuel",
            Fuel::ALL.iter().map(|v| (v.as_str(), fuel(*v))).collect(),
        ),
        (
            "transmission",
            Transmission::ALL
                .iter()
                .map(|v| (v.as_str(), transmission(*v)))
                .collect(),
        ),
        (
            "drivetrain",
            Drivetrain::ALL
                .iter()
                .map(|v| (v.as_str(), drivetrain(*v)))
                .collect(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_spell_out_gearbox_codes_like_their_display_forms() {
        assert_eq!(trim("2.4 TDI DX 4x2 MT", None), "2.4 TDI DX 4x2 manual");
        assert_eq!(trim("1.6 Allure AT", None), "1.6 Allure automática");
        assert_eq!(trim("XLS CVT", None), "XLS CVT", "only AT and MT");
        assert_eq!(trim("MATT", None), "MATT", "whole words only");
        assert_eq!(
            trim("1.6 AT", Some("1.6 automática Pack")),
            "1.6 automática Pack"
        );
    }
}
