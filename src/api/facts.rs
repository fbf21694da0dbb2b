//! API stage, index facts: what a query reads of each version (the fields it
//! filters, sorts and names by), and the two edge data files that carry them
//! with each version's Summary and Vehicle JSON, serialized once by
//! `generate`, so the edge never rebuilds either: `_edge/catalogue.msgpack`
//! (facts and Summaries, MessagePack: see [`crate::msgpack`]) and
//! `_edge/records.jsonl` (one Vehicle a line, in the same order, read as
//! text and parsed only when a record is asked for, which keeps loading a
//! tree fast).

use serde::{Deserialize, Serialize};

use crate::catalogue::{CatalogueMeta, Comparison, Identity, NO_LOCATION, RecentChange, Vehicle};
use crate::time::Time;
use crate::vocab::{ChangeKind, Drivetrain, Window};

/// The specification value behind the `aeb` filter.
pub const AEB_VALUE: &str = "aebLowSpeed";

/// Version of [`IndexFile`]; the edge refuses any other.
/// Version 4 was the first in MessagePack (3 and before were JSON,
/// `_edge/catalogue.json`); 5 added each version's quote cities and the
/// prices file; 6 holds each version's names in one `identity` map (the
/// catalogue's [`Identity`]).
pub const INDEX_FILE_VERSION: u32 = 6;

/// Site path of the edge data file.
pub const INDEX_FILE_PATH: &str = "/_edge/catalogue.msgpack";

/// Site path of the edge data file of versions 3 and before, named when a
/// tree has it instead of [`INDEX_FILE_PATH`].
pub const OLD_INDEX_FILE_PATH: &str = "/_edge/catalogue.json";

/// Site path of the edge's Vehicle records: one JSON record a line, in the
/// order of [`IndexFile::vehicles`].
pub const RECORDS_FILE_PATH: &str = "/_edge/records.jsonl";

/// Site path of the edge's dealer prices, check by check: one JSON array
/// of [`DealerPoint`](crate::catalogue::DealerPoint)s a line, in the order
/// of [`IndexFile::vehicles`], read when an alert at a price asks for one.
pub const PRICES_FILE_PATH: &str = "/_edge/prices.jsonl";

/// The query facts of one published version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    /// Catalogue ID, case-sensitive.
    pub id: String,
    /// Names and facts, the catalogue's.
    pub identity: Identity,
    /// Drivetrain.
    pub drivetrain: Option<Drivetrain>,
    /// Confirmed low-speed AEB (`Some(false)`: confirmed absent); unknown,
    /// gaps and "optional" are `None`.
    pub aeb: Option<bool>,
    /// Official specifications available.
    pub has_specs: bool,
    /// When the detailed quotes were checked.
    #[serde(with = "crate::time::rfc3339")]
    pub observed_at: Time,
    /// Lowest detailed quote in USD.
    pub current_price_usd: f64,
    /// The price in pesos (`priceArs`): what peso budgets and peso sorts read.
    pub price_ars: Option<f64>,
    /// Comparison with the usual price.
    pub comparison: Comparison,
    /// The cities of the latest check's quotes (`dealers.byLocation`,
    /// without "sin dato"), as the quotes spell them: what `location`
    /// reads.
    pub locations: Vec<String>,
    /// Deal facts per window, in [`Window::ALL`] order.
    pub windows: [WindowFacts; 3],
}

/// What the deal lists read of one window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowFacts {
    /// `recentChanges[window]` is a price drop.
    pub price_drop: bool,
    /// The version newly qualifies as an opportunity within the window,
    /// whatever caused it (even when a drop takes `recentChanges[window]`).
    pub new_opportunity: bool,
    /// `recentChanges[window].dropPct`.
    pub drop_pct: Option<f64>,
    /// `recentChanges[window]`'s `changedAt`, else its `qualifiedSince`:
    /// the recency a client reads in the response.
    #[serde(with = "crate::time::rfc3339::option")]
    pub recency: Option<Time>,
}

impl Facts {
    /// The facts of a catalogue version.
    pub fn of(vehicle: &Vehicle) -> Facts {
        let window = |window: Window| {
            let shown = vehicle.recent_changes.get(window);
            WindowFacts {
                price_drop: shown.is_some_and(|change| change.kind == ChangeKind::PriceDrop),
                new_opportunity: vehicle.new_opportunities.get(window).is_some(),
                drop_pct: shown.and_then(|change| change.drop_pct),
                recency: shown.and_then(RecentChange::recency),
            }
        };
        Facts {
            id: vehicle.id.clone(),
            identity: vehicle.identity.clone(),
            drivetrain: vehicle.drivetrain,
            aeb: vehicle
                .specs
                .as_ref()
                .and_then(|specs| specs.values.get(AEB_VALUE))
                .and_then(serde_json::Value::as_bool),
            has_specs: vehicle.has_specs(),
            observed_at: vehicle.observed_at,
            current_price_usd: vehicle.current_price_usd,
            price_ars: vehicle.price_ars,
            comparison: vehicle.comparison,
            locations: vehicle
                .dealers
                .iter()
                .flat_map(|dealers| &dealers.by_location)
                .map(|place| &place.location)
                .filter(|place| *place != NO_LOCATION)
                .cloned()
                .collect(),
            windows: [window(Window::D1), window(Window::D3), window(Window::D7)],
        }
    }

    /// The deal facts of `window`.
    pub fn window(&self, window: Window) -> &WindowFacts {
        &self.windows[window_slot(window)]
    }

    /// "Make Model Trim", with the display form of the trim when there is one.
    pub fn title(&self) -> String {
        let names = &self.identity;
        let trim = names.trim_display.as_deref().unwrap_or(&names.trim);
        format!("{} {} {}", names.make, names.model, trim)
    }
}

/// The slot of `window` in [`Facts::windows`].
fn window_slot(window: Window) -> usize {
    match window {
        Window::D1 => 0,
        Window::D3 => 1,
        Window::D7 => 2,
    }
}

/// One version in the edge data: its facts and its Summary JSON, exactly as
/// the API writes it (as a string: the file is not JSON).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry<F = Facts, J = String> {
    /// What queries read.
    pub facts: F,
    /// The Summary (list items).
    pub summary: J,
}

/// The vehicles of the edge data as the edge reads them: the [`Entry`]s'
/// two halves in two vectors of the same length (each entry adds to both),
/// each made at its full size from the array's length. Growing one vector
/// of entries by doubling, then splitting it, moved every entry three times
/// into fresh pages at each load.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// Each version's facts.
    pub facts: Vec<Facts>,
    /// Each version's Summary JSON, in the order of `facts`.
    pub summaries: Vec<String>,
}

/// At most this many entries are made room for before they are read (four
/// times the largest sample): a broken length asks for no more (address
/// space, untouched until filled); a longer array still decodes, growing.
const COLUMNS_RESERVED: usize = 1 << 17;

impl<'de> Deserialize<'de> for Columns {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Columns;

            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("an array of entries")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Columns, A::Error> {
                let room = seq.size_hint().unwrap_or(0).min(COLUMNS_RESERVED);
                let mut columns = Columns {
                    facts: Vec::with_capacity(room),
                    summaries: Vec::with_capacity(room),
                };
                while let Some(entry) = seq.next_element::<Entry>()? {
                    columns.facts.push(entry.facts);
                    columns.summaries.push(entry.summary);
                }
                Ok(columns)
            }
        }
        deserializer.deserialize_seq(Visitor)
    }
}

/// The edge data file (`_edge/catalogue.msgpack`): with the records file,
/// everything the edge needs to answer every query without polars and
/// without serializing a vehicle.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFile<V = Columns> {
    /// [`INDEX_FILE_VERSION`].
    pub format_version: u32,
    /// Origin of the site, as given to `generate --base-url`.
    pub base_url: String,
    /// Snapshot times and source.
    pub meta: CatalogueMeta,
    /// Every published version, sorted by ID in byte order (borrowed when
    /// writing).
    pub vehicles: V,
    /// Where each version's record starts in the records file, in the
    /// order of `vehicles`, and where the last one ends (the file's size):
    /// the edge finds the records without reading them.
    pub record_starts: Vec<u64>,
    /// Where each version's line of the prices file ([`PRICES_FILE_PATH`])
    /// starts, as `record_starts` for the records.
    pub price_starts: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Quote;
    use crate::time::parse_time;
    use crate::vocab::Currency;

    fn facts(id: &str) -> Facts {
        let at = parse_time("2026-11-20T12:00:00Z").expect("time");
        let quote = Quote::bare(id, 17_500.0, Currency::Usd, 17_500.0);
        Facts::of(&Vehicle::bare(id, vec![quote], at))
    }

    #[test]
    fn the_columns_hold_each_entry_in_the_order_written() {
        let (a, b) = (facts("a"), facts("b"));
        let written = vec![
            Entry {
                facts: &a,
                summary: "{\"id\":\"a\"}",
            },
            Entry {
                facts: &b,
                summary: "{\"id\":\"b\"}",
            },
        ];
        let bytes = crate::msgpack::to_vec(&written).expect("encode");
        let columns: Columns = crate::msgpack::from_slice(&bytes).expect("decode");
        assert_eq!(columns.facts, [a, b]);
        assert_eq!(columns.summaries, ["{\"id\":\"a\"}", "{\"id\":\"b\"}"]);
        assert_eq!(columns.facts.capacity(), 2, "made at the array's length");
        // An array that says it holds more entries than it does is an error.
        let mut short = bytes.clone();
        assert_eq!(short[0], 0x92, "a MessagePack array of two");
        short[0] = 0x93;
        assert!(crate::msgpack::from_slice::<Columns>(&short).is_err());
        // So is one whose length asks for more room than is ever made.
        let mut long = vec![0xdd];
        long.extend(u32::MAX.to_be_bytes());
        long.extend(&bytes[1..]);
        assert!(crate::msgpack::from_slice::<Columns>(&long).is_err());
    }
}
