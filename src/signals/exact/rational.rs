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
mod tests;
