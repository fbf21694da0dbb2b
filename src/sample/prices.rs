//! Sample stage, prices: catalogue list prices over the period and the
//! random plan of an ordinary version (listing churn, promotions, dealer
//! discounts, quote-check rotation).
//!
//! Peso list prices move in monthly steps that track the exchange rate, so
//! their dollar value is roughly stable (it sags within each month as the
//! peso crawls); dollar list prices hold, with the odd model-year increase.

use super::lineup::Entry;
use super::market::{Market, SLOTS, STEP_DAYS};
use super::plan::{Plan, round_price};
use super::rng::{Rng, stable_hash};
use crate::snapshot::Money;
use crate::vocab::Currency;

/// How a version is priced.
#[derive(Debug, Clone, Copy)]
pub struct Pricing {
    /// List price in USD at the end of the period.
    pub base_usd: f64,
    /// Whether the catalogue quotes it in dollars.
    pub quoted_usd: bool,
    /// Day of the month on which its make updates peso prices.
    pub step_day: u32,
}

impl Pricing {
    /// The pricing of a lineup entry.
    pub fn of(entry: &Entry) -> Self {
        Pricing {
            base_usd: f64::from(entry.trim.usd) * entry.premium,
            quoted_usd: entry.model.usd,
            step_day: 1 + (stable_hash(entry.make.name) % u64::from(STEP_DAYS)) as u32,
        }
    }
}

/// List prices from check `start` on. With `rng`, each monthly step adds up
/// to 1.2% on top of the exchange rate (makes round up); without, steps
/// follow the rate exactly (the scripted cases).
pub fn list_prices(
    pricing: &Pricing,
    market: &Market,
    start: usize,
    mut rng: Option<&mut Rng>,
) -> Vec<(usize, Money)> {
    if pricing.quoted_usd {
        return vec![(start, round_price(pricing.base_usd, Currency::Usd))];
    }
    let mut last = round_price(pricing.base_usd * market.rate(start), Currency::Ars);
    let mut prices = vec![(start, last)];
    for &index in market
        .step_checks(pricing.step_day)
        .iter()
        .filter(|index| **index > start)
    {
        let extra = rng
            .as_deref_mut()
            .map_or(0.0, |rng| rng.uniform(0.0, 0.012));
        let next = round_price(
            pricing.base_usd * market.rate(index) * (1.0 + extra),
            Currency::Ars,
        );
        // List prices in pesos only go up at a monthly update.
        if next.amount > last.amount {
            prices.push((index, next));
            last = next;
        }
    }
    prices
}

/// The plan of an ordinary version: mostly listed all along, rotated every
/// four to eight days, with occasional promotions and dealer discounts
/// (the random opportunities and price drops of the sample).
pub fn random_plan(pricing: &Pricing, market: &Market, rng: &mut Rng) -> Plan {
    let last = market.last();
    let listed = random_listing(market, rng);
    let start = listed.first().map_or(0, |stretch| stretch.0);
    let every = [4, 5, 6, 7, 8][rng.weighted(&[1, 2, 3, 3, 2])];
    let mut plan = Plan {
        prices: list_prices(pricing, market, start, Some(rng)),
        listed,
        dealer: vec![(0, 1.0 + rng.uniform(-0.01, 0.01))],
        rotation: Some((every, rng.below(every))),
        triggered: true,
        extra_checks: Vec::new(),
        checks_until: last,
        out_of_stock_rate: 0.015,
        last_out_of_stock: false,
        scripted: false,
        held: false,
    };
    if pricing.quoted_usd && rng.chance(0.4) {
        let index = rng.between(start as i64 + 1, last as i64) as usize;
        if let Some(price) = plan.price_at(index) {
            let raised = price.amount * (1.0 + rng.uniform(0.02, 0.04));
            plan.set_price(index, round_price(raised, price.currency));
        }
    }
    add_promotion(&mut plan, market, start, rng);
    add_dealer_discount(&mut plan, market, rng);
    plan
}

/// Listing churn: most versions are listed all along; some launch during
/// the period, leave it, or miss a few catalogue checks.
fn random_listing(market: &Market, rng: &mut Rng) -> Vec<(usize, usize)> {
    let (count, last) = (market.check_count() as i64, market.last());
    let draw = rng.unit();
    if draw < 0.05 {
        let start = rng.between(count / 10, count * 97 / 100) as usize;
        vec![(start, last)]
    } else if draw < 0.07 {
        let end = rng.between(count * 3 / 10, count * 95 / 100) as usize;
        vec![(0, end)]
    } else if draw < 0.09 {
        let gap = rng.between(SLOTS as i64 * 2, count - SLOTS as i64 * 4) as usize;
        let length = rng.between(1, 4) as usize;
        vec![(0, gap - 1), (gap + length, last)]
    } else {
        vec![(0, last)]
    }
}

/// A catalogue promotion (3% to 8% off) in the last two weeks for about 3%
/// of versions and in the last four months for about 4% more; the next
/// monthly peso update ends it.
fn add_promotion(plan: &mut Plan, market: &Market, start: usize, rng: &mut Rng) {
    let days = if rng.chance(0.03) {
        14
    } else if rng.chance(0.04) {
        120
    } else {
        return;
    };
    let last = market.last();
    let from = last.saturating_sub(days * SLOTS).max(start + 1).min(last);
    let index = rng.between(from as i64, last as i64) as usize;
    plan.cut(index, rng.uniform(0.03, 0.08));
}

/// Dealers discounting 6% to 10% below list for about 4% of versions,
/// starting in the last ten weeks and sometimes over again before the end.
fn add_dealer_discount(plan: &mut Plan, market: &Market, rng: &mut Rng) {
    if !rng.chance(0.04) {
        return;
    }
    let last = market.last() as i64;
    let normal = plan.dealer_at(0);
    let from = rng.between((last - 70 * SLOTS as i64).max(0), last - SLOTS as i64);
    plan.set_dealer(from as usize, rng.uniform(0.90, 0.94));
    if rng.chance(0.3) {
        let until = rng.between(from + 10, last);
        plan.set_dealer(until as usize, normal);
    }
}
