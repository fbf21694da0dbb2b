//! Sample stage, randomness: the one pseudo-random number generator of the
//! synthetic snapshot.
//!
//! Hand-written (SplitMix64) rather than taken from a crate on purpose: the
//! bundled snapshot and every test that pins its numbers depend on the exact
//! stream, which must stay the same forever, for every seed, on every
//! platform, whatever crate versions the lockfile holds. It only uses integer
//! arithmetic and IEEE basic operations (no `ln`, `cos` or `powf`, whose last
//! bits differ between math libraries), so the numbers are bit-identical
//! everywhere.

/// A SplitMix64 stream (Steele, Lea and Flood 2014): tiny, fast, and good
/// enough for invented prices; not for cryptography.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mix.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a string: a stable hash (std's `Hash` is allowed to change
/// between Rust releases, so it cannot seed a stream that must never change).
pub fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3)
    })
}

impl Rng {
    /// A stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Rng {
            state: mix(seed ^ GOLDEN),
        }
    }

    /// An independent stream for `label` under `seed`: every version and
    /// purpose draws from its own stream, so adding versions, days or draws
    /// in one place never shifts the numbers of another.
    pub fn derive(seed: u64, label: &str) -> Self {
        Rng::new(mix(seed).wrapping_add(stable_hash(label)))
    }

    /// A sub-stream of this stream for `tag`, without advancing it.
    pub fn fork(&self, tag: u64) -> Self {
        Rng::new(self.state ^ mix(tag.wrapping_add(GOLDEN)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix(self.state)
    }

    /// Uniform in `[0, 1)`, 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[0, n)`; 0 when `n` is 0. Multiply-shift: the bias is
    /// below 2^-50 for the small `n` used here.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform integer in `[low, high]`.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = high.saturating_sub(low).max(0) as usize + 1;
        low + self.below(span) as i64
    }

    /// Uniform in `[low, high)`.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Approximately standard normal, bounded to about ±3.5: the Irwin–Hall
    /// sum of four uniforms, centred and scaled to unit variance (no `ln` or
    /// `cos`, see the module header).
    pub fn normal(&mut self) -> f64 {
        let sum = self.unit() + self.unit() + self.unit() + self.unit();
        (sum - 2.0) * 1.732_050_807_568_877_2
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index drawn with the given relative weights (all zero picks 0).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut draw = self.below(total as usize) as u32;
        for (index, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return index;
            }
            draw -= weight;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_never_changes() {
        // SplitMix64's published first output for state 0 after one step.
        let mut rng = Rng { state: 0 };
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut a = Rng::derive(7, "toyota-hilux");
        let mut b = Rng::derive(7, "toyota-hilux");
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(
            Rng::derive(7, "a").next_u64(),
            Rng::derive(8, "a").next_u64()
        );
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let x = rng.unit();
            assert!((0.0..1.0).contains(&x));
            assert!((3..=7).contains(&rng.between(3, 7)));
            assert!(rng.normal().abs() < 3.47);
            assert!(rng.weighted(&[0, 5, 0, 1]) % 2 == 1);
        }
        assert_eq!(rng.below(0), 0);
    }
}
