//! Snapshot rows the tests build by hand: a version with nothing but its
//! names and a quote with nothing but its price, which each test fills in
//! with what its rule needs.

use autoprecios::snapshot::{Money, SourceQuote, Version};

/// A version with its names, no facts, no prices, no checks (the signal
/// oracle's versions start from it too).
pub fn bare_version(id: &str, make: &str, model: &str, trim: &str) -> Version {
    Version::bare(id, make, model, trim)
}

/// A dealer quote with its ID and price, nothing else known.
pub fn bare_quote(id: &str, price: Money) -> SourceQuote {
    SourceQuote::bare(id, price)
}
