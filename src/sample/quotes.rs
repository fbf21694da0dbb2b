//! Sample stage, dealer quotes: the dealers that sell a version and the
//! detailed quote checks of its plan (triggered by catalogue changes and on
//! a rotation), each with the day's exchange rate, stock and dealer quotes.

use chrono::Duration;

use super::market::{Market, SLOTS};
use super::plan::{Plan, Run, round_price, run_at};
use super::rng::{Rng, stable_hash};
use crate::snapshot::{Money, QuoteCheck, SourceQuote};
use crate::time::Time;
use crate::vocab::Currency;

/// Colours as Argentine dealers write them.
const COLOURS: [&str; 14] = [
    "Blanco",
    "Blanco Perlado",
    "Gris Plata",
    "Gris Oscuro",
    "Gris Grafito",
    "Negro",
    "Negro Perlado",
    "Rojo",
    "Rojo Carmesí",
    "Azul",
    "Azul Eclipse",
    "Bordó",
    "Beige",
    "Verde Oliva",
];

/// Dealer locations, weighted towards where cars are sold.
const LOCATIONS: [&str; 20] = [
    "CABA",
    "CABA",
    "CABA",
    "Córdoba",
    "Córdoba",
    "Rosario",
    "Rosario",
    "Mendoza",
    "La Plata",
    "Mar del Plata",
    "San Miguel de Tucumán",
    "Neuquén",
    "Salta",
    "Santa Fe",
    "Bahía Blanca",
    "Pilar",
    "San Isidro",
    "Paraná",
    "Comodoro Rivadavia",
    "Resistencia",
];

/// A dealer that quotes one version.
#[derive(Debug, Clone)]
pub struct Dealer {
    /// Seller ID on the source site (`tyt-014`).
    seller_id: String,
    /// Where it is; the same for the seller across versions.
    location: &'static str,
    /// Its usual markup over the catalogue price (negative: below).
    offset: f64,
    /// Whether it says freight and paperwork are included.
    fees: Option<bool>,
    /// Whether it states units in stock.
    reports_stock: bool,
    /// Whether it quotes a dollar-listed car in pesos.
    quotes_ars: bool,
}

/// The two to eight dealers that quote a version of make `code`. In
/// scripted plans the first dealer quotes the dealer level exactly and the
/// others above it, so the lowest quote is predictable.
pub fn dealers(code: &str, scripted: bool, rng: &mut Rng) -> Vec<Dealer> {
    let count = 2 + rng.weighted(&[30, 26, 18, 11, 7, 4, 4]);
    let mut numbers: Vec<i64> = Vec::with_capacity(count);
    while numbers.len() < count {
        let number = rng.between(1, 60);
        if !numbers.contains(&number) {
            numbers.push(number);
        }
    }
    numbers
        .iter()
        .enumerate()
        .map(|(position, number)| {
            let seller_id = format!("{code}-{number:03}");
            let location = LOCATIONS[(stable_hash(&seller_id) % LOCATIONS.len() as u64) as usize];
            let offset = match (scripted, position) {
                (true, 0) => 0.0,
                (true, _) => rng.uniform(0.004, 0.03),
                (false, _) => rng.uniform(-0.02, 0.03),
            };
            let fees = [Some(true), Some(false), None][rng.weighted(&[5, 3, 2])];
            let reports_stock = rng.chance(0.75);
            let quotes_ars = !scripted && rng.chance(0.1);
            Dealer {
                seller_id,
                location,
                offset,
                fees,
                reports_stock,
                quotes_ars,
            }
        })
        .collect()
}

/// Every quote check of a plan, ascending and at distinct times, none after
/// `S`, each with the day's exchange rate, stock and dealer quotes.
pub fn quote_checks(
    plan: &Plan,
    runs: &[Run],
    market: &Market,
    dealers: &[Dealer],
    rng: &mut Rng,
) -> Vec<QuoteCheck> {
    let schedule = schedule(plan, runs, market, rng);
    let count = schedule.len();
    let mut checks = Vec::with_capacity(count);
    for (position, (observed_at, index)) in schedule.into_iter().enumerate() {
        let Some(run) = run_at(runs, index) else {
            continue;
        };
        let latest_out = plan.last_out_of_stock && position + 1 == count;
        let in_stock = !latest_out && !rng.chance(plan.out_of_stock_rate);
        // Half the listings without stock show no quotes at all.
        let quotes = if latest_out || (!in_stock && rng.chance(0.5)) {
            Vec::new()
        } else {
            let pricing = (run.2, plan.dealer_at(index), market.rate(index));
            quotes(plan, pricing, in_stock, dealers, rng)
        };
        let usd_only = quotes
            .iter()
            .all(|quote| quote.price.currency == Currency::Usd);
        // Now and then the scraper missed the rate on a dollar-only check.
        let ars_per_usd =
            (plan.scripted || !usd_only || !rng.chance(0.05)).then(|| market.rate(index));
        checks.push(QuoteCheck {
            observed_at,
            ars_per_usd,
            in_stock,
            quotes,
        });
    }
    checks
}

/// When a plan's quotes are checked (time and the catalogue check it
/// follows): shortly after each first listing and price change (if the plan
/// says so), on rotation days when listed, and at the plan's extra checks.
fn schedule(plan: &Plan, runs: &[Run], market: &Market, rng: &mut Rng) -> Vec<(Time, usize)> {
    let mut schedule: Vec<(Time, usize)> = Vec::new();
    if plan.triggered {
        for (position, run) in runs.iter().enumerate() {
            if position == 0 || runs[position - 1].2 != run.2 {
                schedule.push((
                    market.check_time(run.0) + Duration::minutes(rng.between(8, 35)),
                    run.0,
                ));
            }
        }
    }
    if let Some((every, phase)) = plan.rotation {
        for day in (0..market.days).filter(|day| (day + phase) % every.max(1) == 0) {
            let index = day * SLOTS + rng.below(SLOTS);
            if run_at(runs, index).is_some() {
                schedule.push((
                    market.check_time(index) + Duration::minutes(rng.between(5, 40)),
                    index,
                ));
            }
        }
    }
    for &(index, minutes) in &plan.extra_checks {
        schedule.push((market.check_time(index) + Duration::minutes(minutes), index));
    }
    schedule.retain(|(time, index)| *index <= plan.checks_until && *time <= market.snapshot_at);
    schedule.sort_by_key(|(time, _)| *time);
    schedule.dedup_by_key(|(time, _)| *time);
    schedule
}

/// The dealer quotes of one check around the list price times the dealer
/// level (`pricing`: list price, level, exchange rate).
fn quotes(
    plan: &Plan,
    pricing: (Money, f64, f64),
    in_stock: bool,
    dealers: &[Dealer],
    rng: &mut Rng,
) -> Vec<SourceQuote> {
    let (list, level, rate) = pricing;
    let jitter = match (plan.held, plan.scripted) {
        (true, _) => 0.0,
        (false, true) => 0.001,
        (false, false) => 0.006,
    };
    let mut next_id = rng.between(100_000, 899_000);
    let mut quotes = Vec::with_capacity(dealers.len());
    for (position, dealer) in dealers.iter().enumerate() {
        // Scripted plans always hear from the first dealer; otherwise each
        // dealer answers 85% of the time, and at least two do.
        let always = (plan.scripted && position == 0)
            || dealers.len() - position <= 2usize.saturating_sub(quotes.len());
        if !always && !rng.chance(0.85) {
            continue;
        }
        let amount = list.amount * level * (1.0 + dealer.offset + jitter * rng.normal());
        let price = match (list.currency, dealer.quotes_ars) {
            (Currency::Usd, true) => round_price(amount * rate, Currency::Ars),
            (currency, _) => round_price(amount, currency),
        };
        next_id += rng.between(1, 40);
        quotes.push(SourceQuote {
            id: next_id.to_string().into(),
            price,
            fees_included: dealer.fees,
            color: Some((*rng.pick(&COLOURS)).into()),
            stock: dealer
                .reports_stock
                .then(|| if in_stock { rng.between(1, 9) } else { 0 }),
            location: Some(dealer.location.into()),
            seller_id: Some(dealer.seller_id.as_str().into()),
        });
    }
    quotes
}
