//! Sample stage, deliberate cases: versions scripted so that every signal
//! path of `DESIGN.md` ("Signals") occurs in every sample, whatever its size
//! or seed. `T` is the last catalogue check, `S = T + 40 min`; "T-2d 17:00"
//! is the 17:00 UTC check two days before `T`'s day.
//!
//! | Version ID | Case | What the signals must say |
//! |---|---|---|
//! | `volkswagen-taos-14-tsi-highline-tiptronic` | [`Case::Opportunity`] | dealers 9% under list since T-25d: `below_typical`, no recent change |
//! | `audi-q3-35-tfsi-s-tronic` | [`Case::OpportunityUsd`] | USD-quoted; dealers 8% under since T-40d: `below_typical` |
//! | `renault-kangoo-16-express-confort-mt` | [`Case::DollarUp`] | one peso price (catalogue and dealers, exactly) for the whole period while the dollar crawls up: `below_typical` in dollars only; the site names the dollar and says the peso price did not change |
//! | `fiat-cronos-13-drive-mt` | [`Case::PesoCut`] | one peso price, then dealers 10% under at T-20d: `below_typical`; the site shows the fall in pesos |
//! | `toyota-hilux-28-tdi-srv-4x4-at` | [`Case::Drop1d`] | ARS list -6% at T-6h: `price_drop` in 1d, 3d, 7d |
//! | `bmw-x1-sdrive20i-xline-steptronic` | [`Case::Drop3d`] | USD 58,900 -> 55,900 at T-2d 23:00, dealers 1.5% under: `price_drop` in 3d and 7d, not 1d; `below_typical` |
//! | `chevrolet-tracker-12-turbo-ltz-at` | [`Case::Drop7d`] | ARS list -3.5% at T-5d 17:00, dealers 2% over: `price_drop` in 7d only, no opportunity |
//! | `renault-kwid-10-zen-mt` | [`Case::CheapDrop`] | ARS 20,290,000 -> 19,880,000 (2.02%, under USD 300) at T-2d 17:00: no `price_drop` |
//! | `mercedes-benz-gla-gla-200-progressive-7g-dct` | [`Case::CrossingDrop`] | USD 56,000 -> 55,100 (1.6%) at T-2d 20:00 crosses 95% of the usual price: `price_drop` in 3d, 7d and `below_typical` |
//! | `jeep-grand-cherokee-20-4xe-limited-plug-in-hybrid-at` | [`Case::CurrencyDrop`] | list moves from ARS 88,500,000 to USD 57,900 at T-4d 14:00, dealers 1% over: `price_drop` in 7d (on USD values), no opportunity |
//! | `ford-territory-15-turbo-titanium-at` | [`Case::DropReversed`] | -4% at T-5d, back up at T-2d: no `price_drop` |
//! | `toyota-yaris-cross-15-xei-hybrid-ecvt` | [`Case::NewBySpan`] | launched T-38d; history spans 35 days at T-2d: `new_opportunity` in 3d and 7d, not 1d, no price change |
//! | `ram-dakota-22-td-laramie-4x4-at` | [`Case::NewByWeeks`] | weekly checks; the sixth observed week starts at T-6h: `new_opportunity` in 1d, 3d, 7d, no price change |
//! | `byd-shark-15-dm-o-4x4-gs` | [`Case::Insufficient`] | listed since T-20d: insufficient history |
//! | `volvo-xc90-b6-ultimate-awd-at` | [`Case::Stale`] | last quote check T-60d, in stock, still listed: insufficient (stale) history |
//! | `nissan-sentra-20-advance-cvt` | [`Case::LeftCatalogue`] | last listed T-10d: not published |
//! | `fiat-mobi-10-like-mt` | [`Case::CatalogueGap`] | missing from three checks at T-40d, same price either side: no change |
//! | `porsche-cayenne-30-v6-tiptronic-s` | [`Case::OutOfStock`] | latest quote check out of stock, no quotes: not published |
//! | `chery-tiggo-7-15-phev-pro-luxury-dht` | [`Case::Unchecked`] | first listed at `T`; its quote check lands after `S`: not published |
//! | `peugeot-208-16-allure-at` and `Peugeot-208-16-Allure-AT` | [`Case::CaseBase`], [`Case::CaseSibling`] | two published versions whose IDs differ only in case |
//!
//! Random versions add ordinary opportunities, drops, launches, departures
//! and dollar-quoted imports on top (see `prices.rs`).

/// A deliberate case (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Long-running dealer discount: an opportunity with no recent change.
    Opportunity,
    /// The same on a dollar-quoted import.
    OpportunityUsd,
    /// A peso price that never moves while the dollar rises.
    DollarUp,
    /// A peso price that dealers cut.
    PesoCut,
    /// Catalogue cut inside the 1-day window.
    Drop1d,
    /// Catalogue cut inside 3 days, not 1.
    Drop3d,
    /// Catalogue cut inside 7 days, not 3.
    Drop7d,
    /// A 2% cut worth less than USD 300 on a cheap car: not a drop.
    CheapDrop,
    /// A cut under 2% that crosses the opportunity threshold: a drop.
    CrossingDrop,
    /// A cut that comes with a change of list currency, ARS to USD.
    CurrencyDrop,
    /// A cut undone by an increase: not a drop.
    DropReversed,
    /// History becomes sufficient as its span reaches 35 days.
    NewBySpan,
    /// History becomes sufficient with its sixth observed week.
    NewByWeeks,
    /// A recent launch with too little history.
    Insufficient,
    /// Quote checks stopped more than 45 days ago; still listed and in stock.
    Stale,
    /// Left the catalogue before `T`.
    LeftCatalogue,
    /// Missing from a few catalogue checks; absence is not a price change.
    CatalogueGap,
    /// Latest quote check found no stock.
    OutOfStock,
    /// Listed, but no quote check yet.
    Unchecked,
    /// The lowercase member of a case-differing ID pair.
    CaseBase,
    /// The capitalised member of a case-differing ID pair.
    CaseSibling,
}

/// Every case with the ID of the version that carries it.
pub const CASES: &[(Case, &str)] = &[
    (
        Case::Opportunity,
        "volkswagen-taos-14-tsi-highline-tiptronic",
    ),
    (Case::OpportunityUsd, "audi-q3-35-tfsi-s-tronic"),
    (Case::DollarUp, "renault-kangoo-16-express-confort-mt"),
    (Case::PesoCut, "fiat-cronos-13-drive-mt"),
    (Case::Drop1d, "toyota-hilux-28-tdi-srv-4x4-at"),
    (Case::Drop3d, "bmw-x1-sdrive20i-xline-steptronic"),
    (Case::Drop7d, "chevrolet-tracker-12-turbo-ltz-at"),
    (Case::CheapDrop, "renault-kwid-10-zen-mt"),
    (
        Case::CrossingDrop,
        "mercedes-benz-gla-gla-200-progressive-7g-dct",
    ),
    (
        Case::CurrencyDrop,
        "jeep-grand-cherokee-20-4xe-limited-plug-in-hybrid-at",
    ),
    (Case::DropReversed, "ford-territory-15-turbo-titanium-at"),
    (Case::NewBySpan, "toyota-yaris-cross-15-xei-hybrid-ecvt"),
    (Case::NewByWeeks, "ram-dakota-22-td-laramie-4x4-at"),
    (Case::Insufficient, "byd-shark-15-dm-o-4x4-gs"),
    (Case::Stale, "volvo-xc90-b6-ultimate-awd-at"),
    (Case::LeftCatalogue, "nissan-sentra-20-advance-cvt"),
    (Case::CatalogueGap, "fiat-mobi-10-like-mt"),
    (Case::OutOfStock, "porsche-cayenne-30-v6-tiptronic-s"),
    (Case::Unchecked, "chery-tiggo-7-15-phev-pro-luxury-dht"),
    (Case::CaseBase, "peugeot-208-16-allure-at"),
    (Case::CaseSibling, "Peugeot-208-16-Allure-AT"),
];

/// The shortest period the cases fit in (the stale case needs 60 days).
pub const MIN_DAYS: usize = 62;
