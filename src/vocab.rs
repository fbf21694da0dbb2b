//! The closed vocabularies of the catalogue (currencies, body types, fuels,
//! transmissions, drivetrains): shared by the snapshot loader, the signal
//! engine and the API, so each string appears once.

use serde::{Deserialize, Serialize};

/// Declares a string enum with its canonical spellings, `ALL`, `as_str`,
/// `parse` (exact, case-sensitive: the spec says enum values are) and its
/// JSON Schema.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[doc = concat!("`", $text, "`")] #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every value, in the order the spec lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical spellings, in the order of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The canonical spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses the canonical spelling exactly.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }

            /// The canonical spellings, for error messages and schemas.
            pub fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(|v| v.as_str()).collect()
            }
        }

        /// A plain string enum of the canonical spellings, written in place
        /// so that each use carries its own description. (The derive would
        /// make a `oneOf` branch of each documented variant.)
        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "enum": Self::NAMES })
            }
        }

        impl Vocabulary for $name {
            fn spelling(self) -> &'static str {
                self.as_str()
            }

            fn from_spelling(text: &str) -> Option<Self> {
                Self::parse(text)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A closed vocabulary, for code written once for all of them (the values
/// of the shared filters that are choices).
pub trait Vocabulary: Copy + 'static {
    /// The canonical spelling.
    fn spelling(self) -> &'static str;

    /// Parses the canonical spelling exactly.
    fn from_spelling(text: &str) -> Option<Self>;
}

string_enum! {
    /// Currency of a price.
    Currency { Ars => "ARS", Usd => "USD" }
}

string_enum! {
    /// Body type (`type` filter).
    BodyType {
        Suv => "SUV", Pickup => "Pickup", Hatchback => "Hatchback", Sedan => "Sedan", Van => "Van",
        Coupe => "Coupe", Wagon => "Wagon", Mpv => "MPV", Other => "Other",
    }
}

string_enum! {
    /// Fuel or powertrain (`fuel` filter).
    Fuel {
        Petrol => "Petrol", Diesel => "Diesel", Electric => "Electric", Hybrid => "Hybrid",
        MildHybrid => "Mild hybrid", PluginHybrid => "Plug-in hybrid", RangeExtender => "Range extender",
    }
}

string_enum! {
    /// Gearbox (`transmission` filter).
    Transmission { Automatic => "Automatic", Manual => "Manual" }
}

string_enum! {
    /// Driven wheels (`drivetrain` filter); awd, 4x4 and 4x4-low-range are distinct.
    Drivetrain {
        Fwd => "fwd", Rwd => "rwd", FourByTwo => "4x2", Awd => "awd", FourByFour => "4x4",
        FourByFourLowRange => "4x4-low-range",
    }
}

string_enum! {
    /// Recent-change window, measured back from `catalogueObservedAt`.
    Window { D1 => "1d", D3 => "3d", D7 => "7d" }
}

impl Window {
    /// Length of the window in days.
    pub fn days(self) -> i64 {
        match self {
            Window::D1 => 1,
            Window::D3 => 3,
            Window::D7 => 7,
        }
    }
}

string_enum! {
    /// Why a version is listed as a deal (`reasons`).
    Reason { BelowTypical => "below_typical", PriceDrop => "price_drop", NewOpportunity => "new_opportunity" }
}

string_enum! {
    /// Kind of a recent change.
    ChangeKind { PriceDrop => "price_drop", NewOpportunity => "new_opportunity" }
}

string_enum! {
    /// A usual-price band: how a known `discountPct` reads in words (the
    /// site's labels are `render::site::money`'s).
    Band { Great => "great", Good => "good", Normal => "normal", High => "high" }
}

impl Band {
    /// The band of a known `discountPct`: 10 % or more under the usual
    /// price, 5 % up to 10 % (the opportunity rule), from 3 % over to under
    /// 5 % under, and 3 % or more over. The published value is truncated
    /// toward zero to hundredths, so it sits on the same side of each whole
    /// threshold as the exact one.
    pub fn of(discount_pct: f64) -> Band {
        if discount_pct >= 10.0 {
            Band::Great
        } else if discount_pct >= 5.0 {
            Band::Good
        } else if discount_pct > -3.0 {
            Band::Normal
        } else {
            Band::High
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_at_their_boundaries() {
        let bands: Vec<Band> = [10.0, 9.99, 5.0, 4.99, 0.0, -2.99, -3.0]
            .map(Band::of)
            .to_vec();
        use Band::*;
        assert_eq!(bands, [Great, Good, Good, Normal, Normal, Normal, High]);
    }

    #[test]
    fn spellings_round_trip() {
        for fuel in Fuel::ALL {
            assert_eq!(Fuel::parse(fuel.as_str()), Some(*fuel));
        }
        assert_eq!(
            Drivetrain::parse("4x4-low-range"),
            Some(Drivetrain::FourByFourLowRange)
        );
        assert_eq!(
            BodyType::parse("suv"),
            None,
            "enum values are case-sensitive"
        );
        assert_eq!(
            serde_json::to_string(&Fuel::MildHybrid).ok().as_deref(),
            Some("\"Mild hybrid\"")
        );
    }
}
