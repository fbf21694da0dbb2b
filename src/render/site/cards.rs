//! Render stage, version summaries in words: the card a list shows for each
//! version (built from the API's own Summary, so pages and API agree) and the
//! plain-language sentences for a comparison with the usual price and for a
//! recent change.

use serde::Serialize;

use super::format::{date_time, money, percent, usd};
use super::labels::{Badge, badges};
use crate::api::links::Links;
use crate::api::types::Summary;
use crate::catalogue::{Comparison, RecentChange};
use crate::vocab::{ChangeKind, Currency, Window};

/// A version in a list.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// Catalogue ID (the compare form's value).
    pub id: String,
    /// Site path of its page.
    pub path: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim as displayed.
    pub trim: String,
    /// Lowest quote in USD.
    pub price: String,
    /// Lowest quote in pesos, when it was quoted in pesos.
    pub price_ars: Option<String>,
    /// The comparison with the usual price, in words.
    pub comparison: String,
    /// Whether it is an opportunity now.
    pub opportunity: bool,
    /// Deal reasons as badges.
    pub badges: Vec<Badge>,
    /// The seven-day recent change, in words.
    pub change: Option<String>,
    /// Number of quotes.
    pub quote_count: usize,
    /// When its quotes were checked.
    pub observed: String,
}

/// The card of a Summary.
pub fn card(summary: &Summary) -> Card {
    let price_ars = summary
        .best_quote
        .filter(|quote| quote.currency == Currency::Ars)
        .map(|quote| money(quote.price, quote.currency));
    Card {
        id: summary.id.to_owned(),
        path: Links::vehicle_path(summary.id),
        make: summary.make.to_owned(),
        model: summary.model.to_owned(),
        trim: summary.trim_display.unwrap_or(summary.trim).to_owned(),
        price: usd(summary.current_price_usd),
        price_ars,
        comparison: comparison_text(summary.current_price_usd, summary.comparison),
        opportunity: summary.comparison.opportunity,
        badges: badges(summary.reasons),
        change: summary.recent_changes.get(Window::D7).map(change_text),
        quote_count: summary.quote_count,
        observed: date_time(summary.observed_at),
    }
}

/// The comparison with the usual price in plain words:
/// `US$ 1.200 (4,8 %) por debajo de su precio habitual`.
pub fn comparison_text(current_usd: f64, comparison: &Comparison) -> String {
    match (comparison.typical_price_usd, comparison.discount_pct) {
        (Some(typical), Some(discount)) if comparison.sufficient_history => {
            let difference = typical - current_usd;
            if discount > 0.0 {
                format!(
                    "{} ({}) por debajo de su precio habitual",
                    usd(difference),
                    percent(discount)
                )
            } else if discount < 0.0 {
                format!(
                    "{} ({}) por encima de su precio habitual",
                    usd(-difference),
                    percent(-discount)
                )
            } else {
                "En su precio habitual".to_owned()
            }
        }
        _ => {
            let weeks = comparison.observed_weeks;
            let observed = if weeks == 1 {
                "1 semana observada".to_owned()
            } else {
                format!("{weeks} semanas observadas")
            };
            format!("Sin historia suficiente para compararlo con su precio habitual ({observed})")
        }
    }
}

/// A recent change in plain words.
pub fn change_text(change: &RecentChange) -> String {
    let prices = match change.previous_price_usd {
        Some(previous) => format!(
            "de {} a {} (precio de catálogo al tipo de cambio actual)",
            usd(previous),
            usd(change.current_price_usd)
        ),
        None => format!(
            "precio de catálogo {} al tipo de cambio actual",
            usd(change.current_price_usd)
        ),
    };
    let drop = change.drop_pct.map(percent);
    match (change.kind, change.changed_at, drop) {
        (ChangeKind::PriceDrop, Some(at), Some(drop)) => {
            format!("Bajó {drop} el {}: {prices}", date_time(at))
        }
        (ChangeKind::PriceDrop, _, _) => format!("Bajó de precio: {prices}"),
        (ChangeKind::NewOpportunity, Some(at), Some(drop)) => format!(
            "Nueva oportunidad tras una baja de {drop} el {}: {prices}",
            date_time(at)
        ),
        (ChangeKind::NewOpportunity, Some(at), None) => format!(
            "Nueva oportunidad tras un cambio de precio el {}: {prices}",
            date_time(at)
        ),
        (ChangeKind::NewOpportunity, None, _) => match change.qualified_since {
            Some(since) => format!(
                "Nueva oportunidad desde el control del {}, sin una baja de precio nueva \
                 (reunió la historia necesaria o cambió su precio habitual)",
                date_time(since)
            ),
            None => "Nueva oportunidad".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    fn comparison(typical: Option<f64>, discount: Option<f64>, sufficient: bool) -> Comparison {
        Comparison {
            window_days: 180,
            typical_price_usd: typical,
            lowest_price_usd: None,
            discount_pct: discount,
            observed_weeks: if sufficient { 12 } else { 1 },
            sufficient_history: sufficient,
            opportunity: false,
        }
    }

    #[test]
    fn comparisons_read_as_plain_spanish() {
        assert_eq!(
            comparison_text(23_800.0, &comparison(Some(25_000.0), Some(4.8), true)),
            "US$ 1.200 (4,8 %) por debajo de su precio habitual"
        );
        assert_eq!(
            comparison_text(26_000.0, &comparison(Some(25_000.0), Some(-4.0), true)),
            "US$ 1.000 (4,0 %) por encima de su precio habitual"
        );
        assert_eq!(
            comparison_text(26_000.0, &comparison(None, None, false)),
            "Sin historia suficiente para compararlo con su precio habitual (1 semana observada)"
        );
    }

    #[test]
    fn changes_read_as_plain_spanish() {
        let drop = RecentChange {
            kind: ChangeKind::PriceDrop,
            changed_at: parse_time("2026-11-21T15:00:00Z"),
            qualified_since: None,
            drop_pct: Some(3.25),
            previous_price_usd: Some(25_000.0),
            current_price_usd: 24_187.5,
            conversion_basis: "current_observed_exchange_rate".into(),
        };
        assert_eq!(
            change_text(&drop),
            "Bajó 3,2 % el 21/11/2026 12:00: de US$ 25.000 a US$ 24.187,50 \
             (precio de catálogo al tipo de cambio actual)"
        );
    }
}
