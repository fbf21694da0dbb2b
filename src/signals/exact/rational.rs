//! Signals stage, exact arithmetic: the rational number type. Numerator and
//! denominator are big integers kept unreduced: the rules only add, multiply
//! and compare a few dozen values per version, and reducing by the greatest
//! common divisor after every step cost far more than the slightly longer
//! integers it saves.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use num_bigint::{BigInt, Sign};
use num_traits::{ToPrimitive, Zero};

/// An exact rational number.
#[derive(Clone)]
pub struct Exact {
    numerator: BigInt,
    /// Always positive.
    denominator: BigInt,
}

impl Exact {
    /// `numerator / denominator`; `None` when the denominator is zero.
    pub fn new(numerator: BigInt, denominator: BigInt) -> Option<Exact> {
        match denominator.sign() {
            Sign::NoSign => None,
            Sign::Plus => Some(Exact {
                numerator,
                denominator,
            }),
            Sign::Minus => Some(Exact {
                numerator: -numerator,
                denominator: -denominator,
            }),
        }
    }

    /// An integer.
    pub fn integer(value: impl Into<BigInt>) -> Exact {
        Exact {
            numerator: value.into(),
            denominator: BigInt::from(1u8),
        }
    }

    /// Zero.
    pub fn zero() -> Exact {
        Exact::integer(0u8)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.numerator.is_zero()
    }

    /// `self / divisor`; `None` when `divisor` is zero.
    pub fn checked_div(&self, divisor: &Exact) -> Option<Exact> {
        Exact::new(
            &self.numerator * &divisor.denominator,
            &self.denominator * &divisor.numerator,
        )
    }

    /// The nearest integer, halves away from zero.
    pub fn round(&self) -> BigInt {
        let quotient = &self.numerator / &self.denominator;
        let remainder = &self.numerator % &self.denominator;
        let twice: BigInt = remainder.magnitude().clone().into();
        if twice * 2u8 >= self.denominator {
            match self.numerator.sign() {
                Sign::Minus => quotient - 1u8,
                _ => quotient + 1u8,
            }
        } else {
            quotient
        }
    }

    /// The integer part, toward zero.
    pub fn trunc(&self) -> BigInt {
        &self.numerator / &self.denominator
    }

    /// The nearest `f64` (for diagnostics; published values go through
    /// [`Exact::round`] or [`Exact::trunc`]).
    pub fn approx(&self) -> f64 {
        let numerator = self.numerator.to_f64().unwrap_or(f64::NAN);
        let denominator = self.denominator.to_f64().unwrap_or(f64::NAN);
        numerator / denominator
    }
}

impl fmt::Debug for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} (~{})",
            self.numerator,
            self.denominator,
            self.approx()
        )
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Exact) -> Ordering {
        // Denominators are positive, so cross-multiplying keeps the order.
        (&self.numerator * &other.denominator).cmp(&(&other.numerator * &self.denominator))
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
        if self.denominator == other.denominator {
            return Exact {
                numerator: &self.numerator + &other.numerator,
                denominator: self.denominator.clone(),
            };
        }
        Exact {
            numerator: &self.numerator * &other.denominator + &other.numerator * &self.denominator,
            denominator: &self.denominator * &other.denominator,
        }
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
        Exact {
            numerator: &self.numerator * &other.numerator,
            denominator: &self.denominator * &other.denominator,
        }
    }
}

impl Neg for &Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        Exact {
            numerator: -&self.numerator,
            denominator: self.denominator.clone(),
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
