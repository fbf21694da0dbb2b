//! Exact rationals: compared and equal by value, and the machine-integer
//! path giving what big integers give, overflow included.

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
