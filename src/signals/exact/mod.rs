//! Signals stage, exact arithmetic: reads the snapshot's stored numbers
//! (prices, exchange rates) as the decimals they were written as and gives
//! the signal rules exact rationals to decide every threshold on. Floats come
//! back out only for publication: cents for USD amounts, hundredths
//! truncated toward zero for percentages.
//!
//! A binary float cannot hold 1,407.14 or 0.95: a cut from ARS 15,000,000 to
//! 14,577,858 at 1,407.14 ARS per USD is exactly USD 300, yet computes as
//! 299.9999999999982 in `f64`. Rationals have no such edge.

mod rational;

use std::fmt::{self, Write as _};

use chrono::Duration;
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

pub use rational::Exact;

use crate::snapshot::Money;
use crate::vocab::Currency;

/// A whole number as an [`Exact`].
pub fn whole(value: i64) -> Exact {
    Exact::integer(value.into())
}

/// `numerator / denominator` as an [`Exact`]; zero for a zero denominator
/// (callers pass constants).
pub fn ratio(numerator: i64, denominator: i64) -> Exact {
    Exact::fraction(numerator.into(), denominator.into()).unwrap_or_else(Exact::zero)
}

/// The exact decimal a stored number stands for: the shortest decimal that
/// reads back as the same `f64`. A CSV cell `1407.14` or a scraper's
/// `1407.14` written to Parquet is the decimal 1407.14, not the binary
/// fraction nearest to it. `None` for NaN and infinities.
///
/// Distinct floats give distinct decimals in the same order, so comparing two
/// stored amounts as floats gives the same answer as comparing them exactly.
pub fn decimal(value: f64) -> Option<Exact> {
    match in_hundredths(value) {
        // With as few places as it was written with: the rules multiply
        // these, and smaller denominators stay longer in machine integers.
        Some(hundredths) if hundredths % 100 == 0 => Some(whole(hundredths / 100)),
        Some(hundredths) if hundredths % 10 == 0 => Some(ratio(hundredths / 10, 10)),
        Some(hundredths) => Some(ratio(hundredths, 100)),
        None => written_decimal(value),
    }
}

/// `value` as a whole number of hundredths, when it is within [1, 2^40) in
/// size and reads back from one (most prices and rates): then that number
/// of hundredths is [`decimal`]'s decimal without formatting it. Two floats
/// of that size are under 2^-12 apart, so no other decimal of at most two
/// decimal places reads back as `value`, and any with more places has more
/// significant digits: the shortest is this one.
fn in_hundredths(value: f64) -> Option<i64> {
    if !(1.0..1_099_511_627_776.0).contains(&value.abs()) {
        return None;
    }
    let hundredths = (value * 100.0).round();
    // Exact: under 2^47 in size.
    (hundredths / 100.0 == value).then_some(hundredths as i64)
}

/// [`decimal`] by formatting `value`'s shortest round-trip digits.
fn written_decimal(value: f64) -> Option<Exact> {
    if !value.is_finite() {
        return None;
    }
    // `Display` for `f64` writes the shortest round-trip digits and never an
    // exponent; the buffer keeps the digits and sign without the point.
    let mut digits = Digits::default();
    write!(digits, "{value}").ok()?;
    let text = std::str::from_utf8(&digits.bytes[..digits.len]).ok()?;
    // An `i128` holds the 17 significant digits of any ordinary price; a big
    // integer the rest (huge or tiny numbers written out in full).
    let scale = u32::try_from(digits.fraction_digits).ok()?;
    if let (Ok(mantissa), Some(power)) = (text.parse::<i128>(), 10i128.checked_pow(scale)) {
        return Exact::fraction(mantissa, power);
    }
    Exact::new(text.parse::<BigInt>().ok()?, BigInt::from(10u8).pow(scale))
}

/// [`decimal`]'s formatting buffer, on the stack: the sign and digits of a
/// formatted `f64` without its decimal point, and how many digits followed
/// the point. At most about 330 characters (the smallest subnormal).
struct Digits {
    bytes: [u8; 400],
    len: usize,
    fraction_digits: usize,
    after_point: bool,
}

impl Default for Digits {
    fn default() -> Self {
        Digits {
            bytes: [0; 400],
            len: 0,
            fraction_digits: 0,
            after_point: false,
        }
    }
}

impl fmt::Write for Digits {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for byte in text.bytes() {
            if byte == b'.' {
                self.after_point = true;
                continue;
            }
            *self.bytes.get_mut(self.len).ok_or(fmt::Error)? = byte;
            self.len += 1;
            if self.after_point {
                self.fraction_digits += 1;
            }
        }
        Ok(())
    }
}

/// The exact amount of `money` in USD: USD amounts as they are, ARS amounts
/// divided by `ars_per_usd`. `None` for an ARS amount without a (positive)
/// rate, or a stored number that is not finite.
pub fn usd(money: Money, ars_per_usd: Option<&Exact>) -> Option<Exact> {
    let amount = decimal(money.amount)?;
    match money.currency {
        Currency::Usd => Some(amount),
        Currency::Ars => amount.checked_div(ars_per_usd?),
    }
}

/// The exact amount of `money` in ARS: ARS amounts as they are, USD
/// amounts at `ars_per_usd`. `None` for a USD amount without a rate, or a
/// stored number that is not finite.
pub fn ars(money: Money, ars_per_usd: Option<&Exact>) -> Option<Exact> {
    let amount = decimal(money.amount)?;
    match money.currency {
        Currency::Ars => Some(amount),
        Currency::Usd => Some(amount * ars_per_usd?),
    }
}

/// Percent by which `current` is below `reference`:
/// `(reference - current) * 100 / reference`; negative when above. `None`
/// when `reference` is zero.
pub fn percent_below(reference: &Exact, current: &Exact) -> Option<Exact> {
    ((reference - current) * whole(100)).checked_div(reference)
}

/// A duration in nanoseconds, exactly (times may carry fractions of a second).
pub fn nanoseconds(duration: Duration) -> Exact {
    let nanos =
        i128::from(duration.num_seconds()) * 1_000_000_000 + i128::from(duration.subsec_nanos());
    Exact::integer(nanos)
}

/// A USD amount as published: rounded to the cent, half a cent away from
/// zero, as the `f64` nearest to that decimal.
pub fn cents(value: &Exact) -> f64 {
    let hundredths = (value * whole(100)).round();
    hundredths.to_f64().unwrap_or(f64::NAN) / 100.0
}

/// A price as the site shows it: rounded to the whole unit, half a unit
/// away from zero (`price_ars` of a version).
pub fn units(value: &Exact) -> f64 {
    value.round().to_f64().unwrap_or(f64::NAN)
}

/// A percentage as published: truncated toward zero to two decimals, so a
/// shown value never crosses a threshold the exact value did not (an exact
/// 4.999 % shows 4.99, never 5.00). Never negative zero.
pub fn hundredths(value: &Exact) -> f64 {
    let truncated = (value * whole(100)).trunc();
    if truncated.is_zero() {
        return 0.0;
    }
    truncated.to_f64().unwrap_or(f64::NAN) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(text: &str) -> Exact {
        let (integer, fraction) = text.split_once('.').unwrap_or((text, ""));
        let mantissa: BigInt = format!("{integer}{fraction}").parse().expect("digits");
        Exact::new(
            mantissa,
            BigInt::from(10).pow(u32::try_from(fraction.len()).expect("short")),
        )
        .expect("nonzero")
    }

    #[test]
    fn a_stored_number_reads_as_the_decimal_it_was_written_as() {
        assert_eq!(decimal(1407.14), Some(exact("1407.14")));
        assert_eq!(decimal(0.1), Some(ratio(1, 10)));
        assert_eq!(decimal(14_577_858.0), Some(whole(14_577_858)));
        assert_eq!(decimal(-2.5), Some(ratio(-5, 2)));
        assert_eq!(
            decimal(1e30),
            Some(exact("1000000000000000000000000000000"))
        );
        assert_eq!(decimal(f64::NAN), None);
        assert_eq!(decimal(f64::INFINITY), None);
        let tiny = decimal(f64::MIN_POSITIVE).expect("finite");
        assert!(tiny > whole(0) && tiny < ratio(1, 1_000_000_000));
    }

    #[test]
    fn whole_hundredths_read_as_the_written_decimal() {
        // Prices and rates with up to three decimals, the boundaries of the
        // fast path, and values just off a hundredth (0.1 + 0.2 scaled).
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values = vec![
            1.0,
            0.99,
            1_099_511_627_775.99,
            1_099_511_627_776.0,
            0.30000000000000004 * 1e4,
            1407.14,
            -1407.14,
        ];
        for _ in 0..100_000 {
            let whole = (next() % 100_000_000_000) as f64;
            let places = [1.0, 10.0, 100.0, 1000.0][(next() % 4) as usize];
            values.push((whole + (next() % 1000) as f64 / 1000.0 * places).round() / places);
            values.push(f64::from_bits(next() >> 2));
        }
        for value in values {
            assert_eq!(
                decimal(value),
                written_decimal(value),
                "{value:?} ({:?})",
                in_hundredths(value)
            );
        }
        assert_eq!(in_hundredths(1407.14), Some(140_714));
        assert_eq!(in_hundredths(0.30000000000000004 * 1e4), None);
    }

    #[test]
    fn a_cut_of_exactly_usd_300_is_exactly_300() {
        let rate = decimal(1407.14);
        let before = usd(ars(15_000_000.0), rate.as_ref()).expect("rate");
        let after = usd(ars(14_577_858.0), rate.as_ref()).expect("rate");
        assert_eq!(before - after, whole(300));
        // The float reading is short of it.
        let rate = std::hint::black_box(1407.14);
        assert!(15_000_000.0 / rate - 14_577_858.0 / rate < 300.0);
    }

    #[test]
    fn an_ars_amount_needs_a_positive_rate() {
        assert_eq!(usd(ars(1.0), None), None);
        assert_eq!(usd(ars(1.0), Some(&whole(0))), None);
        let usd_money = Money {
            amount: 12.5,
            currency: Currency::Usd,
        };
        assert_eq!(usd(usd_money, None), Some(ratio(25, 2)));
    }

    #[test]
    fn percent_below_is_exact_and_signed() {
        let pct = percent_below(&exact("20000.004"), &exact("19000.004")).expect("nonzero");
        assert!(pct < whole(5), "4.99999 %, not 5");
        assert_eq!(hundredths(&pct), 4.99);
        assert_eq!(percent_below(&whole(20), &whole(19)), Some(whole(5)));
        assert_eq!(percent_below(&whole(20), &whole(21)), Some(whole(-5)));
        assert_eq!(percent_below(&whole(0), &whole(1)), None);
    }

    #[test]
    fn published_rounding() {
        assert_eq!(cents(&exact("20000.004")), 20_000.0);
        assert_eq!(cents(&exact("20000.005")), 20_000.01, "half a cent up");
        assert_eq!(cents(&exact("-0.005")), -0.01, "half a cent away from zero");
        assert_eq!(cents(&ratio(30_000_000, 1437)), 20_876.83);
        assert_eq!(units(&exact("63899999.5")), 63_900_000.0, "half a peso up");
        assert_eq!(units(&exact("63899999.49")), 63_899_999.0);
        assert_eq!(hundredths(&exact("1.15")), 1.15);
        assert_eq!(hundredths(&exact("4.99999")), 4.99);
        assert_eq!(hundredths(&exact("-4.99999")), -4.99);
        assert_eq!(hundredths(&exact("-0.001")), 0.0);
        assert!(hundredths(&exact("-0.001")).is_sign_positive());
    }

    #[test]
    fn durations_count_fractions_of_a_second() {
        let half = Duration::milliseconds(500);
        assert_eq!(nanoseconds(half), whole(500_000_000));
        assert_eq!(nanoseconds(-half), whole(-500_000_000));
        assert_eq!(
            nanoseconds(Duration::days(1) + half),
            whole(86_400_500_000_000)
        );
    }

    fn ars(amount: f64) -> Money {
        Money {
            amount,
            currency: Currency::Ars,
        }
    }
}
