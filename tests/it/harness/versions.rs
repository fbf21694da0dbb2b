//! Snapshot rows the tests build by hand: a version with nothing but its
//! names and a quote with nothing but its price, which each test fills in
//! with what its rule needs.

use std::collections::BTreeMap;

use autoprecios::snapshot::{Money, SourceQuote, Version};

/// A version with its names, no facts, no prices, no checks (the signal
/// oracle's versions start from it too).
pub fn bare_version(id: &str, make: &str, model: &str, trim: &str) -> Version {
    Version {
        id: id.into(),
        make: make.into(),
        model: model.into(),
        trim: trim.into(),
        trim_display: None,
        body_type: None,
        tier: None,
        tier_label: None,
        fuel: None,
        transmission: None,
        drivetrain: None,
        seats: None,
        airbags: None,
        source_url: format!("https://autos.example/{id}"),
        fact_sources: BTreeMap::new(),
        catalogue: Vec::new(),
        checks: Vec::new(),
        earlier: Vec::new(),
        specs: None,
    }
}

/// A dealer quote with its ID and price, nothing else known.
pub fn bare_quote(id: &str, price: Money) -> SourceQuote {
    SourceQuote::bare(id, price)
}
