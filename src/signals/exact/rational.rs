//! Signals stage, exact arithmetic: the rational number type. Numerator and
//! denominator are kept unreduced: the rules only add, multiply and compare
//! a few dozen values per version, and reducing by the greatest common
//! divisor after every step cost far more than the slightly longer integers
//! it saves. They are `i128`s while they fit, which every ordinary price,
//! rate and their few products do, and big integers when a step would
//! overflow: the value is the same either way, only its cost differs (the
//! big integers' allocations were most of the signals' time).

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use num_bigint::{BigInt, Sign};
use num_traits::{ToPrimitive, Zero};

/// An exact rational number.
#[derive(Clone)]
pub struct Exact(Repr);

/// Numerator and denominator; the denominator always positive.
#[derive(Clone)]
enum Repr {
    Small(i128, i128),
    Big(BigInt, BigInt),
}

impl Exact {
    /// `numerator / denominator`; `None` when the denominator is zero.
    pub fn new(numerator: BigInt, denominator: BigInt) -> Option<Exact> {
        let (numerator, denominator) = match denominator.sign() {
            Sign::NoSign => return None,
            Sign::Plus => (numerator, denominator),
            Sign::Minus => (-numerator, -denominator),
        };
        Some(match (numerator.to_i128(), denominator.to_i128()) {
            (Some(n), Some(d)) => Exact(Repr::Small(n, d)),
            _ => Exact(Repr::Big(numerator, denominator)),
        })
    }

    /// `numerator / denominator` of machine integers; `None` when the
    /// denominator is zero.
    pub fn fraction(numerator: i128, denominator: i128) -> Option<Exact> {
        match denominator.cmp(&0) {
            Ordering::Equal => None,
            Ordering::Greater => Some(Exact(Repr::Small(numerator, denominator))),
            Ordering::Less => match (numerator.checked_neg(), denominator.checked_neg()) {
                (Some(n), Some(d)) => Some(Exact(Repr::Small(n, d))),
                _ => Exact::new(numerator.into(), denominator.into()),
            },
        }
    }

    /// An integer.
    pub fn integer(value: i128) -> Exact {
        Exact(Repr::Small(value, 1))
    }

    /// Zero.
    pub fn zero() -> Exact {
        Exact::integer(0)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        match &self.0 {
            Repr::Small(n, _) => *n == 0,
            Repr::Big(n, _) => n.is_zero(),
        }
    }

    /// `self / divisor`; `None` when `divisor` is zero.
    pub fn checked_div(&self, divisor: &Exact) -> Option<Exact> {
        if let (Repr::Small(n1, d1), Repr::Small(n2, d2)) = (&self.0, &divisor.0)
            && let (Some(n), Some(d)) = (n1.checked_mul(*d2), d1.checked_mul(*n2))
        {
            return Exact::fraction(n, d);
        }
        let ((n1, d1), (n2, d2)) = (self.big(), divisor.big());
        Exact::new(n1 * d2, d1 * n2)
    }

    /// The nearest integer, halves away from zero.
    pub fn round(&self) -> BigInt {
        if let Repr::Small(n, d) = self.0 {
            // `d` is positive and `|r| < d`, so only the step away from
            // zero can overflow, and it is checked.
            let (quotient, remainder) = (n / d, n % d);
            if remainder.unsigned_abs() < (d - remainder.abs()).unsigned_abs() {
                return quotient.into();
            }
            if let Some(away) = quotient.checked_add(n.signum()) {
                return away.into();
            }
        }
        let (numerator, denominator) = self.big();
        let quotient = &numerator / &denominator;
        let remainder = &numerator % &denominator;
        let twice: BigInt = remainder.magnitude().clone().into();
        if twice * 2u8 >= denominator {
            match numerator.sign() {
                Sign::Minus => quotient - 1u8,
                _ => quotient + 1u8,
            }
        } else {
            quotient
        }
    }

    /// The integer part, toward zero.
    pub fn trunc(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, d) => (n / d).into(),
            Repr::Big(n, d) => n / d,
        }
    }

    /// The nearest `f64` (for diagnostics; published values go through
    /// [`Exact::round`] or [`Exact::trunc`]).
    pub fn approx(&self) -> f64 {
        let (numerator, denominator) = match &self.0 {
            Repr::Small(n, d) => (*n as f64, *d as f64),
            Repr::Big(n, d) => (
                n.to_f64().unwrap_or(f64::NAN),
                d.to_f64().unwrap_or(f64::NAN),
            ),
        };
        numerator / denominator
    }

    /// Numerator and denominator as big integers (the slow path).
    fn big(&self) -> (BigInt, BigInt) {
        match &self.0 {
            Repr::Small(n, d) => ((*n).into(), (*d).into()),
            Repr::Big(n, d) => (n.clone(), d.clone()),
        }
    }
}

impl fmt::Debug for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (numerator, denominator) = self.big();
        write!(f, "{numerator}/{denominator} (~{})", self.approx())
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Exact) -> Ordering {
        // Denominators are positive, so cross-multiplying keeps the order.
        if let (Repr::Small(n1, d1), Repr::Small(n2, d2)) = (&self.0, &other.0) {
            return match (n1.checked_mul(*d2), n2.checked_mul(*d1)) {
                (Some(left), Some(right)) => left.cmp(&right),
                _ => cmp_by_quotients((*n1, *d1), (*n2, *d2)),
            };
        }
        let ((n1, d1), (n2, d2)) = (self.big(), other.big());
        (n1 * d2).cmp(&(n2 * d1))
    }
}

/// The order of `n1/d1` and `n2/d2` (positive denominators) without a
/// product that could overflow: their integer parts first, then their
/// remainders, as the order of the inverted remainders reversed (the
/// continued fractions of both, term by term). A weekly average's
/// denominator is large enough for the cross products to overflow, and
/// sorting them through big integers allocated on every comparison.
fn cmp_by_quotients((mut n1, mut d1): (i128, i128), (mut n2, mut d2): (i128, i128)) -> Ordering {
    loop {
        let (q1, q2) = (n1.div_euclid(d1), n2.div_euclid(d2));
        if q1 != q2 {
            return q1.cmp(&q2);
        }
        let (r1, r2) = (n1.rem_euclid(d1), n2.rem_euclid(d2));
        match (r1 == 0, r2 == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            // r1/d1 < r2/d2 exactly when d2/r2 < d1/r1.
            (false, false) => ((n1, d1), (n2, d2)) = ((d2, r2), (d1, r1)),
        }
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Exact) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Exact {}

impl Add<&Exact> for &Exact {
    type Output = Exact;
    fn add(self, other: &Exact) -> Exact {
        if let (Repr::Small(n1, d1), Repr::Small(n2, d2)) = (&self.0, &other.0) {
            let sum = if d1 == d2 {
                n1.checked_add(*n2).map(|n| (n, *d1))
            } else {
                n1.checked_mul(*d2)
                    .zip(n2.checked_mul(*d1))
                    .and_then(|(a, b)| a.checked_add(b))
                    .zip(d1.checked_mul(*d2))
            };
            if let Some((n, d)) = sum {
                return Exact(Repr::Small(n, d));
            }
        }
        let ((n1, d1), (n2, d2)) = (self.big(), other.big());
        if d1 == d2 {
            return Exact(Repr::Big(n1 + n2, d1));
        }
        Exact(Repr::Big(&n1 * &d2 + &n2 * &d1, d1 * d2))
    }
}

impl Sub<&Exact> for &Exact {
    type Output = Exact;
    fn sub(self, other: &Exact) -> Exact {
        self + &-other
    }
}

impl Mul<&Exact> for &Exact {
    type Output = Exact;
    fn mul(self, other: &Exact) -> Exact {
        if let (Repr::Small(n1, d1), Repr::Small(n2, d2)) = (&self.0, &other.0)
            && let (Some(n), Some(d)) = (n1.checked_mul(*n2), d1.checked_mul(*d2))
        {
            return Exact(Repr::Small(n, d));
        }
        let ((n1, d1), (n2, d2)) = (self.big(), other.big());
        Exact(Repr::Big(n1 * n2, d1 * d2))
    }
}

impl Neg for &Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        match &self.0 {
            Repr::Small(n, d) => match n.checked_neg() {
                Some(n) => Exact(Repr::Small(n, *d)),
                None => Exact(Repr::Big(-BigInt::from(*n), (*d).into())),
            },
            Repr::Big(n, d) => Exact(Repr::Big(-n, d.clone())),
        }
    }
}

impl AddAssign<&Exact> for Exact {
    fn add_assign(&mut self, other: &Exact) {
        *self = &*self + other;
    }
}

/// The owned forms of the operators, by reference.
macro_rules! owned {
    ($($trait:ident $method:ident),*) => {$(
        impl $trait<Exact> for Exact {
            type Output = Exact;
            fn $method(self, other: Exact) -> Exact {
                (&self).$method(&other)
            }
        }
        impl $trait<&Exact> for Exact {
            type Output = Exact;
            fn $method(self, other: &Exact) -> Exact {
                (&self).$method(other)
            }
        }
        impl $trait<Exact> for &Exact {
            type Output = Exact;
            fn $method(self, other: Exact) -> Exact {
                self.$method(&other)
            }
        }
    )*};
}

owned!(Add add, Sub sub, Mul mul);

impl Neg for Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        -&self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(numerator: i64, denominator: i64) -> Exact {
        Exact::new(numerator.into(), denominator.into()).expect("nonzero")
    }

    #[test]
    fn unreduced_values_compare_and_equal_by_value() {
        assert_eq!(q(2, 4), q(1, 2));
        assert_eq!(q(1, -2), q(-1, 2));
        assert!(q(1, 3) < q(34, 100));
        assert!(q(-1, 3) > q(-34, 100));
        assert_eq!(Exact::new(1.into(), 0.into()).map(|_| ()), None);
    }

    #[test]
    fn arithmetic() {
        assert_eq!(q(1, 3) + q(1, 6), q(1, 2));
        assert_eq!(q(1, 4) + q(1, 4), q(1, 2), "same denominator");
        assert_eq!(q(1, 3) - q(1, 2), q(-1, 6));
        assert_eq!(q(2, 3) * q(3, 4), q(1, 2));
        assert_eq!(q(1, 2).checked_div(&q(1, 4)), Some(Exact::integer(2)));
        assert_eq!(q(1, 2).checked_div(&Exact::zero()), None);
        let mut sum = Exact::zero();
        sum += &q(1, 10);
        sum += &q(2, 10);
        assert_eq!(sum, q(3, 10));
    }

    /// The same value held as big integers, to check the machine-integer
    /// path against.
    fn as_big(value: &Exact) -> Exact {
        let (numerator, denominator) = value.big();
        Exact(Repr::Big(numerator, denominator))
    }

    #[test]
    fn machine_integers_give_what_big_integers_give() {
        let max = i128::MAX;
        let values = [
            q(0, 1),
            q(7, 2),
            q(-7, 2),
            q(140_714, 100),
            q(-1_500_000_000, 3),
            Exact::fraction(max, 1).expect("nonzero"),
            Exact::fraction(max - 1, max).expect("nonzero"),
            Exact::fraction(i128::MIN, 3).expect("nonzero"),
            Exact::fraction(5, i128::MIN).expect("nonzero"),
            Exact::fraction(max / 2, 7).expect("nonzero"),
            // Cross products that overflow, with equal integer parts and
            // equal first terms of their remainders.
            Exact::fraction(max / 3, max / 5).expect("nonzero"),
            Exact::fraction(max / 3 + 1, max / 5).expect("nonzero"),
            Exact::fraction(-(max / 3), max / 5 - 1).expect("nonzero"),
            Exact::fraction(2 * (max / 5), max / 5).expect("nonzero"),
        ];
        for a in &values {
            assert_eq!(a.round(), as_big(a).round(), "round {a:?}");
            assert_eq!(a.trunc(), as_big(a).trunc(), "trunc {a:?}");
            assert_eq!((-a).big(), (-as_big(a)).big(), "neg {a:?}");
            for b in &values {
                let (big_a, big_b) = (as_big(a), as_big(b));
                assert_eq!(a.cmp(b), big_a.cmp(&big_b), "{a:?} cmp {b:?}");
                assert_eq!((a + b).big(), (&big_a + &big_b).big(), "{a:?} + {b:?}");
                assert_eq!((a - b).big(), (&big_a - &big_b).big(), "{a:?} - {b:?}");
                assert_eq!((a * b).big(), (&big_a * &big_b).big(), "{a:?} * {b:?}");
                assert_eq!(
                    a.checked_div(b).map(|x| x.big()),
                    big_a.checked_div(&big_b).map(|x| x.big()),
                    "{a:?} / {b:?}"
                );
            }
        }
    }

    #[test]
    fn a_step_past_the_machine_integers_keeps_the_value() {
        let max = Exact::integer(i128::MAX);
        let past = &max + &Exact::integer(1);
        assert_eq!(past.trunc(), BigInt::from(i128::MAX) + 1u8);
        assert!(past > max);
        assert_eq!(&past - &Exact::integer(1), max);
        assert_eq!((&max * &max).checked_div(&max), Some(max.clone()));
        // 1 + 1/(M - 1) < 1 + 1/(M - 2): the cross products overflow.
        let m = i128::MAX;
        let (a, b) = (
            Exact::fraction(m, m - 1).expect("nonzero"),
            Exact::fraction(m - 1, m - 2).expect("nonzero"),
        );
        assert!(a < b);
        let min = Exact::integer(i128::MIN);
        assert_eq!((-&min).trunc(), -BigInt::from(i128::MIN));
        // The largest odd number halved rounds away from zero, past the range.
        let half = Exact::fraction(m, 2).expect("nonzero");
        assert_eq!(half.round(), BigInt::from(m / 2 + 1));
        assert_eq!(
            Exact::fraction(i128::MIN + 1, 1).expect("nonzero").round(),
            BigInt::from(i128::MIN + 1)
        );
    }

    #[test]
    fn round_halves_away_from_zero_and_trunc_toward_it() {
        let rounded = |n, d| q(n, d).round().to_i64().expect("small");
        assert_eq!(rounded(5, 2), 3);
        assert_eq!(rounded(-5, 2), -3);
        assert_eq!(rounded(49, 20), 2);
        assert_eq!(rounded(-51, 20), -3);
        assert_eq!(rounded(0, 7), 0);
        let truncated = |n, d| q(n, d).trunc().to_i64().expect("small");
        assert_eq!(truncated(7, 2), 3);
        assert_eq!(truncated(-7, 2), -3);
    }
}
