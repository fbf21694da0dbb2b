//! A second, deliberately naive reading of the signal rules, written from the
//! "Signals" section of DESIGN.md and nothing else: exact rationals
//! (num-rational, not the engine's own type), every quantity recomputed from
//! scratch where the text defines it, no caching, no shortcuts. It shares
//! only the snapshot's input types with `src/signals`.

use std::collections::BTreeSet;

use autoprecios::snapshot::{CatalogueRun, Money, QuoteCheck, Snapshot, Version};
use autoprecios::time::Time;
use autoprecios::vocab::Currency;
use chrono::{Datelike, Duration, NaiveDate, TimeZone, Utc};
use num_bigint::BigInt;
use num_rational::BigRational as Q;

/// What the oracle publishes for one version (the fields the rules decide).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: String,
    pub current_price_usd: f64,
    pub best_quote: Option<(String, f64)>,
    pub typical: Option<f64>,
    pub lowest: Option<f64>,
    pub discount: Option<f64>,
    pub observed_weeks: u32,
    pub sufficient: bool,
    pub opportunity: bool,
    pub history: Vec<(NaiveDate, f64)>,
    /// `recentChanges` for 1d, 3d, 7d.
    pub recent: [Option<Change>; 3],
    /// The newly qualifying opportunity for 1d, 3d, 7d.
    pub fresh: [Option<Change>; 3],
    pub reasons: Vec<&'static str>,
    /// `priceRange`: low and high in USD, and in the quoted currency when
    /// the window has one.
    pub range: Option<Range>,
    /// `freightEstimate`: USD, percent, checks.
    pub freight: Option<(f64, f64, u32)>,
}

/// A usual range as published: low and high in USD, and in the quoted
/// currency when the window has one.
pub type Range = (f64, f64, Option<(f64, f64, Currency)>);

/// A RecentChange as published.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub kind: &'static str,
    pub changed_at: Option<Time>,
    pub qualified_since: Option<Time>,
    pub drop_pct: Option<f64>,
    pub previous_price_usd: Option<f64>,
    pub current_price_usd: f64,
    /// A drop's lowest catalogue price of the 30 days before it (USD).
    pub lowest_30d_usd: Option<f64>,
    /// A drop's current price not below that lowest one.
    pub returns: Option<bool>,
}

const WINDOWS: [i64; 3] = [1, 3, 7];

fn int(n: i64) -> Q {
    Q::from_integer(BigInt::from(n))
}

/// The decimal the number was written as: Rust prints the shortest digits
/// that read back as the same float.
fn dec(x: f64) -> Q {
    let text = x.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits: BigInt = format!("{whole}{fraction}").parse().expect("digits");
    Q::new(digits, BigInt::from(10).pow(fraction.len() as u32))
}

fn published(hundredths: BigInt) -> f64 {
    format!("{hundredths}e-2").parse().expect("a number")
}

/// USD rounded to the cent (half away from zero).
fn cents(q: &Q) -> f64 {
    published((q * int(100)).round().to_integer())
}

/// Percent truncated toward zero to two decimals.
fn pct2(q: &Q) -> f64 {
    published((q * int(100)).trunc().to_integer())
}

fn nanos(d: Duration) -> Q {
    int(d.num_nanoseconds().expect("short"))
}

fn usd(money: Money, rate: Option<&Q>) -> Option<Q> {
    match money.currency {
        Currency::Usd => Some(dec(money.amount)),
        Currency::Ars => rate.map(|rate| dec(money.amount) / rate),
    }
}

/// "Dealer price at a quote check: the lowest quote at that check, in USD at
/// that check's exchange rate."
fn dealer(check: &QuoteCheck) -> Option<Q> {
    let rate = check.ars_per_usd.map(dec);
    check
        .quotes
        .iter()
        .filter_map(|q| usd(q.price, rate.as_ref()))
        .min()
}

/// Monday of the ISO week in Argentine time (UTC-03:00).
fn monday(t: Time) -> NaiveDate {
    let local = (t - Duration::hours(3)).date_naive();
    local - Duration::days(local.weekday().num_days_from_monday() as i64)
}

fn week_start(monday: NaiveDate) -> Time {
    Utc.from_utc_datetime(&monday.and_hms_opt(3, 0, 0).expect("time"))
}

struct Usual {
    typical: Option<Q>,
    lowest: Option<Q>,
    weeks: Vec<(NaiveDate, Q)>,
    sufficient: bool,
    discount: Option<Q>,
    opportunity: bool,
}

/// The comparison as known at `r`, checks up to `end`, `current` the dealer
/// price then.
fn usual(v: &Version, r: Time, end: Time, current: &Q) -> Usual {
    usual_of(v, r, end, current, dealer)
}

/// [`usual`] with each check's price read by `price`.
fn usual_of(
    v: &Version,
    r: Time,
    end: Time,
    current: &Q,
    price: impl Fn(&QuoteCheck) -> Option<Q>,
) -> Usual {
    let start = r - Duration::days(180);
    let points: Vec<(Time, Q)> = v
        .checks
        .iter()
        .filter(|c| c.observed_at > start && c.observed_at <= end)
        .filter_map(|c| Some((c.observed_at, price(c)?)))
        .collect();
    let in_effect = |x: Time| -> Q {
        points
            .iter()
            .rfind(|p| p.0 <= x)
            .expect("a price")
            .1
            .clone()
    };
    let mondays: BTreeSet<NaiveDate> = points.iter().map(|p| monday(p.0)).collect();
    let mut weeks = Vec::new();
    for m in mondays {
        let (ws, we) = (week_start(m), week_start(m) + Duration::days(7));
        let from = ws.max(points[0].0);
        let to = we.min(end);
        let average = if points.iter().all(|p| p.0 < ws || p.0 >= to) {
            // The week's only checks are at the end: that check's price.
            in_effect(to)
        } else {
            let mut cuts: Vec<Time> = vec![from, to];
            cuts.extend(points.iter().map(|p| p.0).filter(|x| from < *x && *x < to));
            cuts.sort();
            cuts.dedup();
            let mut sum = Q::from_integer(BigInt::from(0));
            for pair in cuts.windows(2) {
                sum += in_effect(pair[0]) * nanos(pair[1] - pair[0]);
            }
            sum / nanos(to - from)
        };
        weeks.push((m, average));
    }
    let mut sorted: Vec<Q> = weeks.iter().map(|w| w.1.clone()).collect();
    sorted.sort();
    let n = sorted.len();
    let typical = match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2].clone()),
        _ => Some((sorted[n / 2 - 1].clone() + sorted[n / 2].clone()) / int(2)),
    };
    let sufficient = !points.is_empty()
        && weeks.len() >= 6
        && points[points.len() - 1].0 - points[0].0 >= Duration::days(35)
        && r - points[points.len() - 1].0 <= Duration::days(45);
    let discount = match (&typical, sufficient) {
        (Some(t), true) => Some((t - current) / t * int(100)),
        _ => None,
    };
    Usual {
        lowest: points.iter().map(|p| p.1.clone()).min(),
        opportunity: discount.as_ref().is_some_and(|d| *d >= int(5)),
        typical,
        weeks,
        sufficient,
        discount,
    }
}

fn listed(v: &Version, at: Time) -> bool {
    v.catalogue
        .iter()
        .any(|run| run.first_seen <= at && at <= run.last_seen)
}

fn latest(v: &Version, up_to: Time) -> Option<&QuoteCheck> {
    v.checks.iter().rfind(|c| c.observed_at <= up_to)
}

fn is_published(v: &Version, at: Time, end: Time) -> bool {
    listed(v, at) && latest(v, end).is_some_and(|c| c.in_stock && !c.quotes.is_empty())
}

/// "Opportunity at time t": the same computation with only what was known.
fn opportunity_at(v: &Version, t: Time) -> bool {
    if !is_published(v, t, t) {
        return false;
    }
    match latest(v, t).and_then(dealer) {
        Some(current) => usual(v, t, t, &current).opportunity,
        None => false,
    }
}

/// The catalogue facts the change rules read, for one version at `T`.
struct Catalogue<'a> {
    runs: &'a [CatalogueRun],
    t: Time,
    rate: Option<Q>,
}

impl Catalogue<'_> {
    fn price_at(&self, x: Time) -> Option<Money> {
        self.runs
            .iter()
            .rfind(|r| r.first_seen <= x)
            .map(|r| r.price)
    }

    /// (time, from, to) for consecutive runs with different prices, up to T.
    fn changes(&self) -> Vec<(Time, Money, Money)> {
        self.runs
            .windows(2)
            .filter(|w| w[1].first_seen <= self.t && w[0].price != w[1].price)
            .map(|w| (w[1].first_seen, w[0].price, w[1].price))
            .collect()
    }

    fn compare(&self, from: Money, to: Money) -> Option<std::cmp::Ordering> {
        if from.currency == to.currency {
            Some(dec(to.amount).cmp(&dec(from.amount)))
        } else {
            Some(usd(to, self.rate.as_ref())?.cmp(&usd(from, self.rate.as_ref())?))
        }
    }

    /// "The lowest catalogue price of the 30 days before it": every price
    /// in effect in [c − 30 days, c), in USD at the current rate; and
    /// whether the current price is not below it (compared as the drop
    /// rule compares).
    fn lowest_before(&self, c: Time) -> Option<(f64, bool)> {
        let start = c - Duration::days(30);
        let mut candidates: Vec<Money> = self.price_at(start).into_iter().collect();
        candidates.extend(
            self.runs
                .iter()
                .filter(|r| r.first_seen > start && r.first_seen < c)
                .map(|r| r.price),
        );
        let (low_usd, low) = candidates
            .into_iter()
            .filter_map(|m| Some((usd(m, self.rate.as_ref())?, m)))
            .min_by(|a, b| a.0.cmp(&b.0))?;
        let current = self.price_at(self.t)?;
        let below = self.compare(low, current)? == std::cmp::Ordering::Less;
        Some((cents(&low_usd), !below))
    }

    /// (previous USD, current USD, percent) of the reduction at `c` in `w`.
    fn reduction(&self, w: i64, c: Time) -> Option<(Q, Q, Q)> {
        let start = self.t - Duration::days(w);
        let mut candidates: Vec<Money> = self.price_at(start).into_iter().collect();
        candidates.extend(
            self.runs
                .iter()
                .filter(|r| r.first_seen > start && r.first_seen < c)
                .map(|r| r.price),
        );
        let mut best: Option<(Q, Money)> = None;
        for money in candidates {
            let Some(value) = usd(money, self.rate.as_ref()) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| value > b.0) {
                best = Some((value, money));
            }
        }
        let (previous_usd, previous) = best?;
        let current = self.price_at(self.t)?;
        let current_usd = usd(current, self.rate.as_ref())?;
        let pct = if previous.currency == current.currency {
            (dec(previous.amount) - dec(current.amount)) / dec(previous.amount) * int(100)
        } else {
            (&previous_usd - &current_usd) / &previous_usd * int(100)
        };
        Some((previous_usd, current_usd, pct))
    }
}

/// The newest `arsPerUsd` of any quote check; the greatest at a tied time.
fn current_rate(snapshot: &Snapshot) -> Option<Q> {
    let mut best: Option<(Time, Q)> = None;
    for check in snapshot.versions.iter().flat_map(|v| &v.checks) {
        let Some(rate) = check.ars_per_usd else {
            continue;
        };
        let candidate = (check.observed_at, dec(rate));
        if best.as_ref().is_none_or(|b| candidate > *b) {
            best = Some(candidate);
        }
    }
    best.map(|b| b.1)
}

/// "The 25th and 75th percentiles by linear interpolation between order
/// statistics (position p × (n − 1) in the sorted weekly averages)".
fn percentile(values: &[Q], p: Q) -> Q {
    let mut sorted = values.to_vec();
    sorted.sort();
    let position = p * int(sorted.len() as i64 - 1);
    let below = position.floor();
    let i = below.to_integer().try_into().unwrap_or(0usize);
    let fraction = position - below;
    match sorted.get(i + 1) {
        Some(next) => &sorted[i] + (next - &sorted[i]) * fraction,
        None => sorted[i].clone(),
    }
}

/// The quartiles of `weeks`, to the cent.
fn quartiles(weeks: &[(NaiveDate, Q)]) -> (f64, f64) {
    let values: Vec<Q> = weeks.iter().map(|w| w.1.clone()).collect();
    let quarter = |k: i64| {
        cents(&percentile(
            &values,
            Q::new(BigInt::from(k), BigInt::from(4)),
        ))
    };
    (quarter(1), quarter(3))
}

/// The usual range: with sufficient history, the quartiles of the weekly
/// averages in USD, and in the window's one currency when it has one (the
/// same averages of each check's cheapest amount).
fn range(v: &Version, t: Time, s: Time, now: &Usual) -> Option<Range> {
    if !now.sufficient {
        return None;
    }
    let (low, high) = quartiles(&now.weeks);
    let start = t - Duration::days(180);
    let currencies: BTreeSet<&str> = v
        .checks
        .iter()
        .filter(|c| c.observed_at > start && c.observed_at <= s)
        .flat_map(|c| &c.quotes)
        .map(|q| q.price.currency.as_str())
        .collect();
    let quoted = match currencies.into_iter().collect::<Vec<_>>()[..] {
        [one] => {
            let currency = if one == "ARS" {
                Currency::Ars
            } else {
                Currency::Usd
            };
            let cheapest = |c: &QuoteCheck| c.quotes.iter().map(|q| dec(q.price.amount)).min();
            let weeks = usual_of(v, t, s, &int(0), cheapest).weeks;
            let (low, high) = quartiles(&weeks);
            Some((low, high, currency))
        }
        _ => None,
    };
    Some((low, high, quoted))
}

/// "Per check with quotes both with and without freight and paperwork, the
/// gap between the cheapest of each; the median over the window when at
/// least 3 checks have both."
fn freight(v: &Version, t: Time, s: Time) -> Option<(f64, f64, u32)> {
    let start = t - Duration::days(180);
    let mut gaps = Vec::new();
    let mut shares = Vec::new();
    for check in v
        .checks
        .iter()
        .filter(|c| c.observed_at > start && c.observed_at <= s)
    {
        let rate = check.ars_per_usd.map(dec);
        let cheapest = |fees: bool| {
            check
                .quotes
                .iter()
                .filter(|q| q.fees_included == Some(fees))
                .filter_map(|q| usd(q.price, rate.as_ref()))
                .min()
        };
        if let (Some(with), Some(without)) = (cheapest(true), cheapest(false))
            && without != int(0)
        {
            shares.push((&with - &without) / &without * int(100));
            gaps.push(with - without);
        }
    }
    if gaps.len() < 3 {
        return None;
    }
    let median = |values: &[Q]| percentile(values, Q::new(BigInt::from(1), BigInt::from(2)));
    Some((
        cents(&median(&gaps)),
        pct2(&median(&shares)),
        gaps.len() as u32,
    ))
}

/// Every published version's record, sorted by ID.
pub fn records(snapshot: &Snapshot) -> Vec<Record> {
    let t = snapshot.meta.catalogue_observed_at;
    let s = snapshot.meta.snapshot_at;
    let rate = current_rate(snapshot);
    let monitoring: Vec<Time> = snapshot
        .catalogue_checks
        .iter()
        .copied()
        .filter(|c| snapshot.versions.iter().any(|v| listed(v, *c)))
        .collect();
    let mut records: Vec<Record> = snapshot
        .versions
        .iter()
        .filter(|v| is_published(v, t, s))
        .map(|v| record(v, t, s, rate.clone(), &monitoring))
        .collect();
    records.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    records
}

fn record(v: &Version, t: Time, s: Time, rate: Option<Q>, monitoring: &[Time]) -> Record {
    let last = latest(v, s).expect("published");
    let current = dealer(last).expect("quotes");
    let now = usual(v, t, s, &current);
    let catalogue = Catalogue {
        runs: &v.catalogue,
        t,
        rate,
    };
    let reduces =
        |c: &(Time, Money, Money)| catalogue.compare(c.1, c.2) == Some(std::cmp::Ordering::Less);
    let raises =
        |c: &(Time, Money, Money)| catalogue.compare(c.1, c.2) == Some(std::cmp::Ordering::Greater);
    let changes = catalogue.changes();
    let drop = |w: i64| -> Option<Change> {
        let c = changes
            .iter()
            .rfind(|c| c.0 > t - Duration::days(w) && reduces(c))?;
        if changes.iter().any(|x| x.0 > c.0 && raises(x)) {
            return None;
        }
        let (previous, current, pct) = catalogue.reduction(w, c.0)?;
        let large = pct >= int(2) && &previous - &current >= int(300);
        let crosses = now.opportunity
            && now.typical.as_ref().is_some_and(|typical| {
                let line = typical * Q::new(BigInt::from(95), BigInt::from(100));
                previous > line && line >= current
            });
        let lowest = catalogue.lowest_before(c.0);
        (large || crosses).then(|| Change {
            kind: "price_drop",
            changed_at: Some(c.0),
            qualified_since: None,
            drop_pct: Some(pct2(&pct)),
            previous_price_usd: Some(cents(&previous)),
            current_price_usd: cents(&current),
            lowest_30d_usd: lowest.map(|l| l.0),
            returns: lowest.map(|l| l.1),
        })
    };
    let fresh = |w: i64| -> Option<Change> {
        if !now.opportunity {
            return None;
        }
        let start = t - Duration::days(w);
        let m = *monitoring
            .iter()
            .rfind(|m| **m >= start && **m < t && !opportunity_at(v, **m))?;
        let q = *monitoring.iter().find(|x| **x > m).expect("T follows");
        let current = usd(catalogue.price_at(t)?, catalogue.rate.as_ref())?;
        let mut change = Change {
            kind: "new_opportunity",
            changed_at: None,
            qualified_since: Some(q),
            drop_pct: None,
            previous_price_usd: None,
            current_price_usd: cents(&current),
            lowest_30d_usd: None,
            returns: None,
        };
        let cut = changes
            .iter()
            .rfind(|c| c.0 >= m && c.0 <= q && reduces(c))
            .filter(|c| c.0 > start);
        if let Some(cut) = cut
            && let Some((previous, _, pct)) = catalogue.reduction(w, cut.0)
        {
            change.changed_at = Some(cut.0);
            change.qualified_since = None;
            change.drop_pct = Some(pct2(&pct));
            change.previous_price_usd = Some(cents(&previous));
        }
        Some(change)
    };
    let drops = WINDOWS.map(drop);
    let fresh = WINDOWS.map(fresh);
    let recent = [0, 1, 2].map(|i| drops[i].clone().or_else(|| fresh[i].clone()));
    let mut reasons = Vec::new();
    if now.opportunity {
        reasons.push("below_typical");
    }
    if drops[2].is_some() {
        reasons.push("price_drop");
    }
    if fresh[2].is_some() {
        reasons.push("new_opportunity");
    }
    let rate = last.ars_per_usd.map(dec);
    let best_quote = last
        .quotes
        .iter()
        .filter_map(|q| Some((usd(q.price, rate.as_ref())?, q.id.to_string())))
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.as_bytes().cmp(b.1.as_bytes())))
        .map(|(value, id)| (id, cents(&value)));
    Record {
        id: v.id.clone(),
        current_price_usd: cents(&current),
        best_quote,
        typical: now.typical.as_ref().map(cents),
        lowest: now.lowest.as_ref().map(cents),
        discount: now.discount.as_ref().map(pct2),
        observed_weeks: now.weeks.len() as u32,
        sufficient: now.sufficient,
        opportunity: now.opportunity,
        history: now.weeks.iter().map(|(m, a)| (*m, cents(a))).collect(),
        recent,
        fresh,
        reasons,
        range: range(v, t, s, &now),
        freight: freight(v, t, s),
    }
}
