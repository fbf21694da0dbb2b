//! Sample stage, time and money: the grid of catalogue checks (five a day at
//! fixed Argentine times) and the daily ARS/USD exchange rate every price of
//! the synthetic snapshot is derived from.

use chrono::{Datelike, Duration};

use super::rng::Rng;
use crate::time::{DAY, Time, argentina};

/// Catalogue checks a day.
pub const SLOTS: usize = 5;

/// Hours before the day's last check of each slot: with the last check at
/// 23:00 UTC the checks are at 08:00, 11:00, 14:00, 17:00 and 20:00 in
/// Argentina (11, 14, 17, 20 and 23 UTC).
const SLOT_HOURS_BEFORE_LAST: [i64; SLOTS] = [12, 9, 6, 3, 0];

/// Minutes after `T` at which the last quote check lands: `S = T + 40 min`.
pub const SNAPSHOT_LAG_MINUTES: i64 = 40;

/// The exchange rate at the end of the period (ARS per USD).
const FINAL_RATE: f64 = 1450.0;

/// Daily crawl of the rate: about 2.4% a month, so 400 days start near 1,050.
const DAILY_CRAWL: f64 = 1.0008;

/// The checks and exchange rates of the whole period.
#[derive(Debug, Clone)]
pub struct Market {
    /// `T`: the last catalogue check.
    pub end: Time,
    /// `S`: the latest capture.
    pub snapshot_at: Time,
    /// Days in the period; the last is the day of `T`.
    pub days: usize,
    /// ARS per USD on each day, rounded to cents.
    fx: Vec<f64>,
    /// For each day of the month 1 to [`STEP_DAYS`], the first check of every
    /// such day: when makes update their peso list prices.
    steps: Vec<Vec<usize>>,
}

/// Makes update peso list prices on one of the first days of each month.
pub const STEP_DAYS: u32 = 5;

impl Market {
    /// The market of `days` days ending with the check at `end`; `seed`
    /// drives the exchange-rate noise.
    pub fn new(end: Time, days: usize, seed: u64) -> Self {
        let mut market = Market {
            end,
            snapshot_at: end + Duration::minutes(SNAPSHOT_LAG_MINUTES),
            days,
            fx: exchange_rates(days, seed),
            steps: vec![Vec::new(); STEP_DAYS as usize],
        };
        for day in 0..days {
            let index = day * SLOTS;
            let day_of_month = market.day_of_month(index);
            if (1..=STEP_DAYS).contains(&day_of_month) {
                market.steps[day_of_month as usize - 1].push(index);
            }
        }
        market
    }

    /// The first checks of every month's day `day_of_month` (1 to
    /// [`STEP_DAYS`]), ascending.
    pub fn step_checks(&self, day_of_month: u32) -> &[usize] {
        let slot = (day_of_month.clamp(1, STEP_DAYS) - 1) as usize;
        &self.steps[slot]
    }

    /// Number of catalogue checks.
    pub fn check_count(&self) -> usize {
        self.days * SLOTS
    }

    /// Index of the last check (`T`).
    pub fn last(&self) -> usize {
        self.check_count() - 1
    }

    /// The time of check `index`.
    pub fn check_time(&self, index: usize) -> Time {
        let (day, slot) = (index / SLOTS, index % SLOTS);
        let days_before = (self.days - 1 - day) as i64;
        self.end
            - Duration::seconds(days_before * DAY)
            - Duration::hours(SLOT_HOURS_BEFORE_LAST[slot])
    }

    /// Every check time, ascending.
    pub fn check_times(&self) -> Vec<Time> {
        (0..self.check_count())
            .map(|index| self.check_time(index))
            .collect()
    }

    /// The check at `slot` (0 to 4) of the day `days_before` days before the
    /// last day, or `None` before the period.
    pub fn index(&self, days_before: usize, slot: usize) -> Option<usize> {
        let day = (self.days - 1).checked_sub(days_before)?;
        Some(day * SLOTS + slot.min(SLOTS - 1))
    }

    /// The exchange rate on the day of check `index`.
    pub fn rate(&self, index: usize) -> f64 {
        self.fx[(index / SLOTS).min(self.days - 1)]
    }

    /// Day of the month, in Argentina, of check `index`.
    pub fn day_of_month(&self, index: usize) -> u32 {
        self.check_time(index).with_timezone(&argentina()).day()
    }
}

/// A crawling exchange rate with mean-reverting daily noise (bounded to
/// ±1.2%), ending near [`FINAL_RATE`]. The trend is built by repeated
/// division rather than `powf` so every platform gets the same bits.
fn exchange_rates(days: usize, seed: u64) -> Vec<f64> {
    let mut trend = vec![FINAL_RATE; days];
    for day in (0..days.saturating_sub(1)).rev() {
        trend[day] = trend[day + 1] / DAILY_CRAWL;
    }
    let mut rng = Rng::derive(seed, "exchange-rate");
    let mut noise = 0.0_f64;
    trend
        .iter()
        .map(|base| {
            noise = (0.85 * noise + 0.004 * rng.normal()).clamp(-0.012, 0.012);
            (base * (1.0 + noise) * 100.0).round() / 100.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{format_time, parse_time};

    #[test]
    fn checks_fall_at_argentine_hours_and_end_at_t() {
        let end = parse_time("2026-11-21T23:00:00Z").expect("valid");
        let market = Market::new(end, 3, 1);
        let times: Vec<String> = market
            .check_times()
            .iter()
            .map(|t| format_time(*t))
            .collect();
        assert_eq!(times.len(), 15);
        assert_eq!(times[0], "2026-11-19T11:00:00Z");
        assert_eq!(times[4], "2026-11-19T23:00:00Z");
        assert_eq!(times[14], "2026-11-21T23:00:00Z");
        assert_eq!(market.index(0, 4), Some(14));
        assert_eq!(market.index(3, 0), None);
        assert_eq!(format_time(market.snapshot_at), "2026-11-21T23:40:00Z");
    }

    #[test]
    fn the_rate_crawls_from_about_1050_to_1450() {
        let end = parse_time("2026-11-21T23:00:00Z").expect("valid");
        let market = Market::new(end, 400, 20_261_121);
        let (first, last) = (market.rate(0), market.rate(market.last()));
        assert!((1030.0..1080.0).contains(&first), "{first}");
        assert!((1430.0..1470.0).contains(&last), "{last}");
    }
}
