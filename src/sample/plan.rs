//! Sample stage, scripts: what happens to one version over the period (when
//! it is listed, its catalogue prices, how dealers price it, when its quotes
//! are checked), in catalogue-check indexes, and its catalogue runs.
//!
//! Random versions and the deliberate cases both produce a [`Plan`]; one
//! resolver turns every plan into snapshot rows, so the cases follow exactly
//! the rules the random data follows.

use crate::snapshot::Money;
use crate::vocab::Currency;

/// One version's script.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Listed stretches of catalogue checks (inclusive), ascending, disjoint.
    pub listed: Vec<(usize, usize)>,
    /// Catalogue price from a check on, ascending by check.
    pub prices: Vec<(usize, Money)>,
    /// Dealer level (factor on the catalogue price) from a check on.
    pub dealer: Vec<(usize, f64)>,
    /// Rotation quote checks: every `.0` days, on days `d` with `(d + .1) % .0 == 0`.
    pub rotation: Option<(usize, usize)>,
    /// Whether a first listing or a price change triggers a quote check.
    pub triggered: bool,
    /// Extra quote checks: catalogue check and minutes after it.
    pub extra_checks: Vec<(usize, i64)>,
    /// No quote check after this catalogue check (a stale history).
    pub checks_until: usize,
    /// Probability that a quote check finds no stock.
    pub out_of_stock_rate: f64,
    /// Whether the latest quote check finds no stock and no quotes.
    pub last_out_of_stock: bool,
    /// Scripted cases price with little noise, so their signals are certain.
    pub scripted: bool,
    /// Dealers hold their prices exactly between changes (no noise at all):
    /// the cases whose quoted price must read as unchanged.
    pub held: bool,
}

/// A run of consecutive listed checks at one price: first, last, price.
pub type Run = (usize, usize, Money);

/// A price rounded the way the catalogue prints it: pesos to 10,000, dollars
/// to 100.
pub fn round_price(amount: f64, currency: Currency) -> Money {
    let step = match currency {
        Currency::Ars => 10_000.0,
        Currency::Usd => 100.0,
    };
    Money {
        amount: ((amount / step).round() * step).max(step),
        currency,
    }
}

/// Pesos.
pub fn ars(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Ars,
    }
}

/// US dollars.
pub fn usd(amount: f64) -> Money {
    Money {
        amount,
        currency: Currency::Usd,
    }
}

impl Plan {
    /// The catalogue price in effect at check `index` (the first price
    /// before any change).
    pub fn price_at(&self, index: usize) -> Option<Money> {
        let count = self.prices.partition_point(|(at, _)| *at <= index);
        self.prices
            .get(count.saturating_sub(1))
            .map(|(_, price)| *price)
    }

    /// The dealer level in effect at check `index`.
    pub fn dealer_at(&self, index: usize) -> f64 {
        let count = self.dealer.partition_point(|(at, _)| *at <= index);
        self.dealer
            .get(count.saturating_sub(1))
            .map_or(1.0, |(_, level)| *level)
    }

    /// Sets the catalogue price from check `index` on (until the next change).
    pub fn set_price(&mut self, index: usize, price: Money) {
        self.prices.retain(|(at, _)| *at != index);
        let position = self.prices.partition_point(|(at, _)| *at < index);
        self.prices.insert(position, (index, price));
    }

    /// Replaces the price of the last change at or before `index`: a script
    /// pins the price it starts from without adding a change.
    pub fn pin_price(&mut self, index: usize, price: Money) {
        let count = self.prices.partition_point(|(at, _)| *at <= index);
        if let Some(point) = count
            .checked_sub(1)
            .and_then(|last| self.prices.get_mut(last))
        {
            point.1 = price;
        }
    }

    /// Cuts the catalogue price by `fraction` at check `index`.
    pub fn cut(&mut self, index: usize, fraction: f64) {
        if let Some(price) = self.price_at(index) {
            self.set_price(
                index,
                round_price(price.amount * (1.0 - fraction), price.currency),
            );
        }
    }

    /// Drops every price change after check `index`: a script owns the rest.
    pub fn keep_prices_until(&mut self, index: usize) {
        self.prices.retain(|(at, _)| *at <= index);
    }

    /// Sets the dealer level from check `index` on.
    pub fn set_dealer(&mut self, index: usize, level: f64) {
        self.dealer.retain(|(at, _)| *at != index);
        let position = self.dealer.partition_point(|(at, _)| *at < index);
        self.dealer.insert(position, (index, level));
    }

    /// The catalogue runs: listed stretches split at price changes. A gap in
    /// the listing ends a run but is not a price change.
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        for &(start, end) in &self.listed {
            let Some(mut price) = self
                .price_at(start)
                .or_else(|| self.prices.first().map(|p| p.1))
            else {
                continue;
            };
            let mut first = start;
            let later = self.prices.partition_point(|(at, _)| *at <= start);
            for &(index, next) in self.prices[later..].iter().take_while(|(at, _)| *at <= end) {
                if next != price {
                    runs.push((first, index - 1, price));
                    (first, price) = (index, next);
                }
            }
            runs.push((first, end, price));
        }
        runs
    }
}

/// The run listing the version at check `index`, if any.
pub fn run_at(runs: &[Run], index: usize) -> Option<&Run> {
    let count = runs.partition_point(|run| run.0 <= index);
    count
        .checked_sub(1)
        .map(|last| &runs[last])
        .filter(|run| index <= run.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            listed: vec![(0, 9), (13, 20)],
            prices: vec![
                (0, usd(100_000.0)),
                (5, usd(90_000.0)),
                (11, usd(90_000.0)),
                (15, usd(95_000.0)),
            ],
            dealer: vec![(0, 1.0)],
            rotation: None,
            triggered: true,
            extra_checks: Vec::new(),
            checks_until: 20,
            out_of_stock_rate: 0.0,
            last_out_of_stock: false,
            scripted: true,
            held: false,
        }
    }

    #[test]
    fn runs_split_at_changes_and_gaps() {
        let runs = plan().runs();
        let spans: Vec<(usize, usize, f64)> = runs.iter().map(|r| (r.0, r.1, r.2.amount)).collect();
        assert_eq!(
            spans,
            vec![(0, 4, 100e3), (5, 9, 90e3), (13, 14, 90e3), (15, 20, 95e3)]
        );
        assert_eq!(run_at(&runs, 11), None);
        assert_eq!(run_at(&runs, 14).map(|r| r.0), Some(13));
    }

    #[test]
    fn scripts_edit_prices_in_place() {
        let mut plan = plan();
        plan.cut(7, 0.1);
        assert_eq!(plan.price_at(6), Some(usd(90_000.0)));
        assert_eq!(plan.price_at(7), Some(usd(81_000.0)));
        plan.pin_price(4, usd(200_000.0));
        assert_eq!(plan.price_at(3), Some(usd(200_000.0)));
        plan.keep_prices_until(6);
        assert_eq!(plan.prices.len(), 2);
        assert_eq!(
            round_price(20_288_000.0, Currency::Ars).amount,
            20_290_000.0
        );
    }
}
