//! Snapshot stage, data, what the quote checks hold: a price in its
//! currency, the dealer quotes, a version's detailed checks, and the
//! earlier ones in brief with their cheapest quote of each currency.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

use crate::time::Time;
use crate::vocab::Currency;

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
