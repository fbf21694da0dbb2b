//! Render stage, money, the comparison with the usual price in words: its
//! band, the line stated in dollars (the currency the signal is computed
//! in), what made the difference (the dealers or the dollar) and what the
//! price did in its quoted currency.

use serde::Serialize;

use crate::catalogue::{QuotedHistory, Vehicle};
use crate::format::{date, price, whole_percent};
use crate::vocab::Currency;

/// A usual-price band (DESIGN), wherever `discountPct` is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Band {
    /// `great`, `good`, `normal` or `high` (CSS class suffix).
    pub kind: &'static str,
    /// `Muy buen precio`, `Buen precio`, `Precio normal`, `Caro`.
    pub label: &'static str,
}

/// The comparison with the usual price in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsualView {
    /// The band, when `discountPct` is known.
    pub band: Option<Band>,
    /// `En dólares, 6 % por debajo de su precio habitual (US$ 30.100).`, or
    /// why there is no comparison.
    pub line: String,
    /// What made the difference (the dealers, the dollar), when known.
    pub cause: Option<String>,
    /// What the price did in its quoted currency over the window.
    pub quoted: Option<String>,
}

/// The band of a known `discountPct` (DESIGN), in the site's words.
pub fn band(discount_pct: f64) -> Band {
    let kind = crate::vocab::Band::of(discount_pct);
    let label = match kind {
        crate::vocab::Band::Great => "Muy buen precio",
        crate::vocab::Band::Good => "Buen precio",
        crate::vocab::Band::Normal => "Precio normal",
        crate::vocab::Band::High => "Caro",
    };
    Band {
        kind: kind.as_str(),
        label,
    }
}

/// The comparison with the usual price: stated in dollars, the currency the
/// signal is computed in, with its cause and what the price did in its
/// quoted currency.
pub fn usual(vehicle: &Vehicle) -> UsualView {
    let comparison = &vehicle.comparison;
    let quoted = vehicle.quoted.as_ref().map(quoted_story);
    let (Some(typical), Some(discount)) = (comparison.typical_price_usd, comparison.discount_pct)
    else {
        let weeks = match comparison.observed_weeks {
            1 => "1 semana observada".to_owned(),
            weeks => format!("{weeks} semanas observadas"),
        };
        return UsualView {
            band: None,
            line: format!(
                "Sin historia suficiente para compararlo con su precio habitual ({weeks})."
            ),
            cause: None,
            quoted,
        };
    };
    let usual = price(typical, Currency::Usd);
    // Both are published in cents: the direction comes from whole cents, so
    // a difference the truncated percentage shows as 0 is still said.
    let cents = ((typical - vehicle.current_price_usd) * 100.0).round();
    let size = if discount == 0.0 {
        "menos de 1 %".to_owned()
    } else {
        whole_percent(discount)
    };
    let line = if cents > 0.0 {
        format!("En dólares, {size} por debajo de su precio habitual ({usual}).")
    } else if cents < 0.0 {
        format!("En dólares, {size} por encima de su precio habitual ({usual}).")
    } else {
        format!("En dólares, en su precio habitual ({usual}).")
    };
    UsualView {
        band: Some(band(discount)),
        line,
        cause: cause(discount, vehicle.quoted.as_ref()),
        quoted,
    }
}

/// What made the dollar price differ from its usual level: the dealers'
/// price in the quoted currency, or (for a peso price) the dollar.
fn cause(discount: f64, quoted: Option<&QuotedHistory>) -> Option<String> {
    let quoted = quoted?;
    let below_in_quoted = quoted.current < quoted.typical;
    let above_in_quoted = quoted.current > quoted.typical;
    let text = match (quoted.currency, discount) {
        (Currency::Ars, d) if d > 0.0 && !below_in_quoted => {
            "La diferencia es por la suba del dólar: en pesos no está por debajo de su precio \
             habitual."
        }
        (Currency::Ars, d) if d > 0.0 => {
            let peso_discount = (quoted.typical - quoted.current) / quoted.typical * 100.0;
            if peso_discount + 1.0 < d {
                "La diferencia es por una baja en pesos de las concesionarias y por la suba del \
                 dólar."
            } else {
                "La diferencia es por una baja en pesos de las concesionarias."
            }
        }
        (Currency::Ars, d) if d < 0.0 && !above_in_quoted => {
            "La diferencia es por la baja del dólar: en pesos no está por encima de su precio \
             habitual."
        }
        (Currency::Ars, d) if d < 0.0 => {
            "La diferencia es por una suba en pesos de las concesionarias."
        }
        (Currency::Usd, d) if d > 0.0 => {
            "La diferencia es por una baja en dólares de las concesionarias."
        }
        (Currency::Usd, d) if d < 0.0 => {
            "La diferencia es por una suba en dólares de las concesionarias."
        }
        _ => return None,
    };
    Some(text.to_owned())
}

/// What the dealer price did in its quoted currency over the window:
/// `En pesos, sin cambios desde el 12/10/2026 ($ 25.540.000).` or `En
/// pesos, bajó de $ 27.500.000 a $ 25.540.000 el 12/10/2026.`
pub fn quoted_story(quoted: &QuotedHistory) -> String {
    let currency = quoted.currency;
    let lead = match currency {
        Currency::Ars => "En pesos",
        Currency::Usd => "En dólares",
    };
    let now = price(quoted.current, currency);
    match quoted.previous {
        // Unchanged since the window's first check, or by less than the
        // unit pages show.
        Some(before) if price(before, currency) != now => {
            let verb = if before > quoted.current {
                "bajó"
            } else {
                "subió"
            };
            format!(
                "{lead}, {verb} de {} a {now} el {}.",
                price(before, currency),
                date(quoted.since)
            )
        }
        _ => format!(
            "{lead}, sin cambios desde el {} ({now}).",
            date(quoted.since)
        ),
    }
}
