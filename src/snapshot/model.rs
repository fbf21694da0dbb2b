//! Snapshot stage, data: the input tables of `data/README.md` as typed Rust
//! values, grouped per version and sorted, ready for the signal engine.

use std::collections::BTreeMap;
use std::sync::Arc;

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

pub use crate::catalogue::{SpecSource, Specs};
use crate::month::ArMonth;
use crate::time::Time;
use crate::vocab::{BodyType, Currency, Drivetrain, Fuel, Transmission};

/// A whole snapshot: its metadata, the catalogue check times and every version.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// `snapshot.json`.
    pub meta: SnapshotMeta,
    /// Every catalogue check time (monitoring time), ascending; the last is `T`.
    pub catalogue_checks: Vec<Time>,
    /// Every version, sorted by ID in byte order.
    pub versions: Vec<Version>,
    /// Where the loader spilled what it does not hold, a file a month
    /// (`snapshot::republish`): the quotes of the versions' [`EarlierCheck`]s,
    /// and those checks themselves but each version's first and last; `None`
    /// when no spill was asked for (every earlier check is then held).
    pub spilled_in: Option<std::path::PathBuf>,
    /// The consumer price index by month (the optional `cpi` table),
    /// ascending; empty without one.
    pub cpi: Vec<CpiMonth>,
}

/// One month of the consumer price index.
#[derive(Debug, Clone, PartialEq)]
pub struct CpiMonth {
    /// The month it measures.
    pub month: ArMonth,
    /// The index's value (any base).
    pub value: f64,
    /// Where it was published.
    pub source: Option<String>,
}

/// `snapshot.json`: the times that anchor every signal, and the source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotMeta {
    /// Version of the snapshot format; 1.
    pub format_version: u32,
    /// `S`: latest capture anywhere in the snapshot.
    #[serde(with = "crate::time::rfc3339")]
    pub snapshot_at: Time,
    /// `T`: the latest catalogue check, reference time of recent-change windows.
    #[serde(with = "crate::time::rfc3339")]
    pub catalogue_observed_at: Time,
    /// Address of the listing site.
    pub source: String,
    /// Name of the listing site.
    pub site_name: String,
    /// Whether the data is generated rather than scraped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub synthetic: bool,
    /// Free text for maintainers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// Which dollar the quote checks' `arsPerUsd` is (`Banco Nación,
    /// vendedor`), as the site names it; without one, pages say it is the
    /// rate the listing site used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange_rate_source: Option<String>,
    /// The licence the published data is under, the maintainer's choice;
    /// without one, CC BY 4.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_license: Option<DataLicense>,
}

/// A licence of the published data (`snapshot.json`'s `dataLicense`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DataLicense {
    /// Its SPDX identifier (`CC-BY-4.0`, `ODbL-1.0`).
    pub spdx: String,
    /// Its name as readers know it (`CC BY 4.0`).
    pub name: String,
    /// Its text, an https address.
    pub url: String,
}

impl DataLicense {
    /// The licence when `snapshot.json` names none: Creative Commons
    /// Attribution 4.0.
    pub fn default_license() -> DataLicense {
        DataLicense {
            spdx: "CC-BY-4.0".to_owned(),
            name: "CC BY 4.0".to_owned(),
            url: "https://creativecommons.org/licenses/by/4.0/".to_owned(),
        }
    }

    /// Its long title, in Spanish for the default licence (the data
    /// packages' `title`), else its name.
    pub fn title(&self) -> String {
        match *self == DataLicense::default_license() {
            true => "Creative Commons Atribución 4.0 Internacional".to_owned(),
            false => self.name.clone(),
        }
    }

    /// What is wrong with it, as `(field, problem)`, if anything.
    pub fn problem(&self) -> Option<(&'static str, &'static str)> {
        let spdx_ok = !self.spdx.is_empty()
            && self
                .spdx
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
        if !spdx_ok {
            return Some(("spdx", "must be an SPDX identifier such as CC-BY-4.0"));
        }
        if self.name.trim().is_empty() {
            return Some(("name", "must not be empty"));
        }
        let host = self.url.strip_prefix("https://").unwrap_or_default();
        if host.is_empty() || host.contains(char::is_whitespace) {
            return Some(("url", "must be an https address"));
        }
        None
    }
}

/// A price in its original currency.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Money {
    /// Amount in `currency`, positive.
    pub amount: f64,
    /// ARS or USD.
    pub currency: Currency,
}

impl Money {
    /// The amount in USD at `ars_per_usd` (ignored for USD prices).
    pub fn usd(self, ars_per_usd: f64) -> f64 {
        match self.currency {
            Currency::Usd => self.amount,
            Currency::Ars => self.amount / ars_per_usd,
        }
    }
}

/// One car version with everything the snapshot records about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    /// Catalogue ID, case-sensitive.
    pub id: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim (version name).
    pub trim: String,
    /// Display form of the trim.
    pub trim_display: Option<String>,
    /// Body type.
    pub body_type: Option<BodyType>,
    /// Native tier code.
    pub tier: Option<String>,
    /// Native tier text.
    pub tier_label: Option<String>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Drivetrain.
    pub drivetrain: Option<Drivetrain>,
    /// Seats, when known.
    pub seats: Option<u32>,
    /// Airbags, when known.
    pub airbags: Option<u32>,
    /// Listing on the source site.
    pub source_url: String,
    /// Fact name to source kind.
    pub fact_sources: BTreeMap<String, String>,
    /// Catalogue price runs, ascending by `first_seen`, not overlapping.
    pub catalogue: Vec<CatalogueRun>,
    /// Detailed quote checks, ascending by `observed_at`: every one, except
    /// in a snapshot loaded for the signals, where the checks the signals
    /// never read are in `earlier` instead.
    pub checks: Vec<QuoteCheck>,
    /// The checks a snapshot loaded for the signals
    /// (`load_snapshot_for_signals`) keeps in brief: those of the months
    /// before the one where the signals begin to read, except the
    /// version's latest. Ascending by
    /// `observed_at`, all before `checks`; empty in any other snapshot. With
    /// a spill, only the first and the last of them are held (the latest
    /// check at any time the signals ask about, and the start of the
    /// history); the others are in the spill ([`Snapshot::spilled_in`]).
    pub earlier: Vec<EarlierCheck>,
    /// Official specifications, when any (shared with the published record).
    pub specs: Option<Arc<Specs>>,
}

impl Version {
    /// A version with its names, no facts, no prices, no checks, listed at
    /// `https://autos.example/{id}` (the fixtures' version; set the rest with
    /// `Version { .., ..Version::bare(..) }`).
    pub fn bare(id: &str, make: &str, model: &str, trim: &str) -> Self {
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

    /// The times of its first and last quote check, held whole or in brief
    /// (a spilled check lies between them); `None` when it has none.
    pub fn check_span(&self) -> Option<(Time, Time)> {
        let (earlier, checks) = (&self.earlier, &self.checks);
        let firsts = [
            earlier.first().map(|c| c.observed_at),
            checks.first().map(|c| c.observed_at),
        ];
        let lasts = [
            earlier.last().map(|c| c.observed_at),
            checks.last().map(|c| c.observed_at),
        ];
        Some((
            firsts.into_iter().flatten().min()?,
            lasts.into_iter().flatten().max()?,
        ))
    }
}

/// A stretch of consecutive catalogue checks at which a version was listed at one price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CatalogueRun {
    /// First check of the run.
    pub first_seen: Time,
    /// Last check of the run.
    pub last_seen: Time,
    /// Catalogue price.
    pub price: Money,
}

/// The catalogue price in effect at `time` among a version's `runs`
/// (ascending by `first_seen`): that of the last run begun at or before it
/// (absence from a check does not end a price); `None` before the first.
pub fn catalogue_price_at(runs: &[CatalogueRun], time: Time) -> Option<Money> {
    let begun = runs.partition_point(|run| run.first_seen <= time);
    begun.checked_sub(1).map(|last| runs[last].price)
}

/// One detailed quote check of a version.
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteCheck {
    /// When the quotes were read.
    pub observed_at: Time,
    /// Exchange rate at the check (ARS per USD), when observed.
    pub ars_per_usd: Option<f64>,
    /// Whether the listing showed stock.
    pub in_stock: bool,
    /// Dealer quotes, sorted by quote ID.
    pub quotes: Vec<SourceQuote>,
}

/// A quote check that the signals never read (older than `T` minus
/// `signals::reach`, and not its version's latest), in brief: what its
/// dealer price and `controles` read, 48 bytes however many quotes it had.
/// A long history is mostly these, so memory follows the window. Its quotes
/// themselves go to the loader's spill (`snapshot::republish`).
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierCheck {
    /// When the quotes were read.
    pub observed_at: Time,
    /// Exchange rate at the check (ARS per USD), when observed.
    pub ars_per_usd: Option<f64>,
    /// Whether the listing showed stock.
    pub in_stock: bool,
    /// How many quotes it had.
    pub quote_count: u32,
    /// Its cheapest quotes, kept for a version's first and last earlier
    /// check only: the signals read the last, and the loader spills the
    /// others, whose cheapest quotes are found again in the spill when
    /// their month is written (`HistoryMonths::spilled_checks`). Boxed, so
    /// that a check without them costs 8 bytes, not 64.
    pub cheapest: Option<Box<Cheapest>>,
}

/// The cheapest quote of each currency in a check: all that ranking its
/// quotes needs of it, since its cheapest quote overall is the cheapest of
/// one of its currencies.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cheapest {
    /// In dollars.
    pub usd: Option<CheapestQuote>,
    /// In pesos.
    pub ars: Option<CheapestQuote>,
}

/// The cheapest quote of one currency in a [`Cheapest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CheapestQuote {
    /// Quote identifier.
    pub id: CompactString,
    /// Cash price in the slot's currency.
    pub amount: f64,
}

impl Cheapest {
    /// Keeps the quote `id` at `price` if it is its currency's cheapest so
    /// far, ties to the lower ID (as current quotes are ranked).
    pub fn offer(&mut self, id: &str, price: Money) {
        let slot = match price.currency {
            Currency::Usd => &mut self.usd,
            Currency::Ars => &mut self.ars,
        };
        let cheaper = slot.as_ref().is_none_or(|kept| {
            (price.amount.total_cmp(&kept.amount))
                .then_with(|| id.cmp(kept.id.as_str()))
                .is_lt()
        });
        if cheaper {
            *slot = Some(CheapestQuote {
                id: id.into(),
                amount: price.amount,
            });
        }
    }
}

impl Cheapest {
    /// The cheapest of `quotes` in each currency.
    pub fn of(quotes: &[SourceQuote]) -> Cheapest {
        let mut cheapest = Cheapest::default();
        for quote in quotes {
            cheapest.offer(&quote.id, quote.price);
        }
        cheapest
    }

    /// Its quotes, by ID, as a check's quotes (their other fields unknown).
    pub fn quotes(&self) -> Vec<SourceQuote> {
        let quote = |(slot, currency): (&Option<CheapestQuote>, Currency)| {
            slot.as_ref().map(|cheapest| SourceQuote {
                id: cheapest.id.clone(),
                price: Money {
                    amount: cheapest.amount,
                    currency,
                },
                fees_included: None,
                color: None,
                stock: None,
                location: None,
                seller_id: None,
            })
        };
        let mut quotes: Vec<SourceQuote> = [(&self.usd, Currency::Usd), (&self.ars, Currency::Ars)]
            .into_iter()
            .filter_map(quote)
            .collect();
        quotes.sort_by(|a, b| a.id.cmp(&b.id));
        quotes
    }
}

impl EarlierCheck {
    /// The check with its cheapest quotes as its only quotes: what the
    /// dealer price and the ranking of quotes need (`signals`). A check
    /// that does not keep them ([`EarlierCheck::cheapest`]) has none here.
    pub fn as_check(&self) -> QuoteCheck {
        QuoteCheck {
            observed_at: self.observed_at,
            ars_per_usd: self.ars_per_usd,
            in_stock: self.in_stock,
            quotes: self
                .cheapest
                .as_deref()
                .map_or_else(Vec::new, Cheapest::quotes),
        }
    }
}

impl QuoteCheck {
    /// The check with only its cheapest quote in each currency: its lowest
    /// quote is one of them, so ranking these two gives it (`controles`)
    /// without converting every quote to dollars.
    pub fn in_brief(&self) -> QuoteCheck {
        QuoteCheck {
            observed_at: self.observed_at,
            ars_per_usd: self.ars_per_usd,
            in_stock: self.in_stock,
            quotes: Cheapest::of(&self.quotes).quotes(),
        }
    }
}

/// One dealer quote as recorded. A snapshot holds millions of these, so its
/// short texts are [`CompactString`]s: up to 24 bytes inline, without a heap
/// allocation each.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceQuote {
    /// Quote identifier.
    pub id: CompactString,
    /// Cash price.
    pub price: Money,
    /// Freight and paperwork included.
    pub fees_included: Option<bool>,
    /// Colour.
    pub color: Option<CompactString>,
    /// Units in stock.
    pub stock: Option<i64>,
    /// Dealer location.
    pub location: Option<CompactString>,
    /// Dealer identifier.
    pub seller_id: Option<CompactString>,
}

impl SourceQuote {
    /// A quote with its ID and price, nothing else known (the fixtures'
    /// quote; set the rest with `SourceQuote { .., ..SourceQuote::bare(..) }`).
    pub fn bare(id: &str, price: Money) -> Self {
        SourceQuote {
            id: id.into(),
            price,
            fees_included: None,
            color: None,
            stock: None,
            location: None,
            seller_id: None,
        }
    }
}
