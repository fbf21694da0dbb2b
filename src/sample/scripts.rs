//! Sample stage, scripted prices: the catalogue and dealer price plan of
//! each deliberate case (`cases.rs` lists the cases and what their signals
//! must say).

use super::cases::Case;
use super::market::Market;
use super::plan::{Plan, ars, usd};
use super::prices::{Pricing, list_prices};
use super::rng::Rng;

/// The check at `slot` of the day `days_before` days before `T`'s day.
fn at(market: &Market, days_before: usize, slot: usize) -> usize {
    market.index(days_before, slot).unwrap_or(0)
}

/// A quiet, scripted version listed from check `start`: list prices as the
/// market sets them until two weeks before `T` (the scripts own the rest),
/// dealers at list, checks every three days, always in stock.
fn scripted(pricing: &Pricing, market: &Market, start: usize, rng: &mut Rng) -> Plan {
    let last = market.last();
    let mut plan = Plan {
        listed: vec![(start, last)],
        prices: list_prices(pricing, market, start, None),
        dealer: vec![(0, 1.0)],
        rotation: Some((3, rng.below(3))),
        triggered: true,
        extra_checks: Vec::new(),
        checks_until: last,
        out_of_stock_rate: 0.0,
        last_out_of_stock: false,
        scripted: true,
        held: false,
    };
    plan.keep_prices_until(at(market, 14, 0).max(start));
    plan
}

/// A launch at `start` at a held price, checked only at `checks` (catalogue
/// check, minutes after it): the cases whose history grows into sufficiency.
fn launch(
    pricing: &Pricing,
    market: &Market,
    start: usize,
    checks: Vec<(usize, i64)>,
    rng: &mut Rng,
) -> Plan {
    let mut plan = scripted(pricing, market, start, rng);
    plan.keep_prices_until(start);
    plan.rotation = None;
    plan.triggered = false;
    plan.extra_checks = checks;
    plan
}

/// The plan of a case.
pub fn case_plan(case: Case, pricing: &Pricing, market: &Market, rng: &mut Rng) -> Plan {
    let day = |days_before: usize, slot: usize| at(market, days_before, slot);
    let last = market.last();
    let mut plan = scripted(pricing, market, 0, rng);
    match case {
        Case::Opportunity => plan.set_dealer(day(25, 1), 0.91),
        Case::OpportunityUsd => plan.set_dealer(day(40, 1), 0.92),
        Case::NewBySpan => {
            let checks = (0..=12).map(|k| (day(38 - 3 * k, 1), 25)).collect();
            plan = launch(pricing, market, day(38, 1), checks, rng);
            plan.set_dealer(day(38, 1), 1.03);
            plan.set_dealer(day(13, 0), 0.90);
        }
        Case::NewByWeeks => {
            let checks = (0..=5).map(|k| (day(7 * k, 2), 25)).collect();
            plan = launch(pricing, market, day(35, 2), checks, rng);
            plan.set_dealer(day(14, 2), 0.90);
        }
        Case::DollarUp => {
            // One peso price for the whole period while the dollar crawls up.
            plan.keep_prices_until(0);
            plan.held = true;
        }
        Case::PesoCut => {
            plan.keep_prices_until(0);
            plan.held = true;
            plan.set_dealer(day(20, 1), 0.90);
        }
        Case::Insufficient => plan = scripted(pricing, market, day(20, 1), rng),
        Case::Stale => plan.checks_until = day(60, 4),
        Case::LeftCatalogue => plan.listed = vec![(0, day(10, 4))],
        Case::CatalogueGap => {
            let gap = day(40, 2);
            plan.listed = vec![(0, gap - 1), (gap + 3, last)];
        }
        Case::OutOfStock => {
            plan.extra_checks.push((day(0, 3), 30));
            plan.last_out_of_stock = true;
        }
        Case::Unchecked => {
            plan = scripted(pricing, market, last, rng);
            plan.checks_until = last - 1;
        }
        _ => script_prices(case, &mut plan, market),
    }
    plan
}

/// The catalogue price scripts: the drops and the non-drops.
fn script_prices(case: Case, plan: &mut Plan, market: &Market) {
    let day = |days_before: usize, slot: usize| at(market, days_before, slot);
    match case {
        Case::Drop1d => plan.cut(day(0, 2), 0.06),
        Case::Drop3d => {
            plan.set_price(day(2, 4), usd(55_900.0));
            // Dealers pass the cut on and more: clearly an opportunity since.
            plan.set_dealer(day(2, 4), 0.985);
        }
        Case::Drop7d => {
            plan.cut(day(5, 2), 0.035);
            // Dealers keep part of the cut: clearly not an opportunity.
            plan.set_dealer(day(5, 2), 1.02);
        }
        Case::CheapDrop => {
            plan.pin_price(day(14, 0), ars(20_290_000.0));
            plan.set_price(day(2, 2), ars(19_880_000.0));
            // Dealers do not pass the whole cut on: not an opportunity either.
            plan.set_dealer(day(2, 2), 1.01);
        }
        Case::CrossingDrop => {
            plan.set_dealer(0, 0.99);
            plan.set_price(day(30, 1), usd(56_000.0));
            plan.set_dealer(day(30, 1), 1.0);
            plan.set_price(day(2, 3), usd(55_100.0));
            plan.set_dealer(day(2, 3), 0.995);
        }
        Case::CurrencyDrop => {
            plan.pin_price(day(14, 0), ars(88_500_000.0));
            plan.set_price(day(4, 1), usd(57_900.0));
            plan.set_dealer(day(4, 1), 1.01);
        }
        Case::DropReversed => {
            let before = plan.price_at(day(5, 1));
            plan.cut(day(5, 1), 0.04);
            if let Some(price) = before {
                plan.set_price(day(2, 1), price);
            }
        }
        _ => {}
    }
}
