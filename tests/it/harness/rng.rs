//! The tests' random numbers: splitmix64, small, seeded and the same on
//! every machine, so a failing random case is reproduced by its seed.

/// A seeded stream of test choices.
pub struct Rng(u64);

impl Rng {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// True `p` times in a hundred.
    pub fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `Some` of `make()` two times in three.
    pub fn maybe<T>(&mut self, make: impl FnOnce(&mut Rng) -> T) -> Option<T> {
        (!self.one_in(3)).then(|| make(self))
    }
}
