//! API stage, index: the published catalogue ready to answer queries. Built
//! once per tree, by `generate` from the computed catalogue and by the edge
//! from the edge data file, it holds each version's query facts and its
//! Summary and Vehicle JSON serialized once, the filter sets, every list
//! order, the model lists and the catalogue overview, so that an answer
//! costs what its page holds, not what the catalogue holds.

mod column;
mod derived;
mod ids;
mod load;
pub mod orders;
pub mod records;
pub mod select;

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::value::RawValue;

pub use crate::api::facts::{
    Entry, Facts, INDEX_FILE_PATH, INDEX_FILE_VERSION, IndexFile, OLD_INDEX_FILE_PATH,
    PRICES_FILE_PATH, RECORDS_FILE_PATH, WindowFacts,
};
use crate::api::json::to_json_bytes;
use crate::api::links::Links;
use crate::api::query::Filters;
use crate::api::reports::MarketData;
use crate::api::text::fold;
use crate::api::types::{
    CatalogueData, Envelope, Listed, SCHEMA_VERSION, VehicleRecord, vehicle_line,
};
use crate::catalogue::{Catalogue, CatalogueMeta, DealerPoint};
use derived::Indexed;
pub use derived::ModelEntry;
use ids::Ids;
use load::Parts;
pub use load::raw_json;
pub use orders::{Order, Orders};
pub use records::Records;
pub use select::{FilterIndex, Selection};

/// A piece of an answer's payload for [`Index::envelope_bytes`], written
/// out as it is.
#[derive(Debug, Clone, Copy)]
pub enum Piece<'a> {
    /// JSON text.
    Json(&'a str),
    /// The Vehicle JSON of the version at this position, as `generate`
    /// wrote it (the records file's ETag is checked at load).
    Record(u32),
}

/// A catalogue ready to answer queries.
#[derive(Debug)]
pub struct Index {
    meta: CatalogueMeta,
    base_url: String,
    links: Links,
    /// Every published version's facts, sorted by ID in byte order: a
    /// version's position here is its number in every set and order.
    facts: Vec<Facts>,
    /// Each version's position by its ID.
    ids: Ids,
    /// Each version's Summary JSON, by position.
    summaries: Vec<Box<RawValue>>,
    /// Each version's Vehicle JSON, by position.
    records: Records,
    /// Each version's dealer prices check by check (a JSON array of
    /// [`DealerPoint`]s), by position: what alerts at a price read.
    prices: Records,
    filters: FilterIndex,
    orders: Orders,
    models: HashMap<(String, String), ModelEntry>,
    catalogue: CatalogueData,
    /// The market report's answers (the edge reads them from their own
    /// file, `render::informes::MARKET_FILE_PATH`).
    market: MarketData,
    /// Every answer's bytes up to its payload (`{"schemaVersion":1,…,"data":`).
    envelope_head: Box<str>,
}

impl Index {
    /// Indexes a computed catalogue whose site lives at `base_url`,
    /// serializing each version's Summary and Vehicle once, the records
    /// held in memory.
    pub fn from_catalogue(catalogue: &Catalogue, base_url: &str) -> Index {
        let written = Index::from_catalogue_with(catalogue, base_url, |records, prices| {
            Ok::<_, std::convert::Infallible>((Records::write(records), Records::write(prices)))
        });
        match written {
            Ok(index) => index,
        }
    }

    /// Indexes a computed catalogue as [`Index::from_catalogue`] does, its
    /// records kept by `store`: given every version's Vehicle, then every
    /// version's dealer prices, in position order, it returns each as
    /// [`Records`] (`generate` writes them to their files as they are
    /// serialized, and reads them from there). The
    /// records, the largest part, are serialized on a thread of their own
    /// while the rest of the index is built, rather than before it with a
    /// core idle.
    pub fn from_catalogue_with<'c, E: Send>(
        catalogue: &'c Catalogue,
        base_url: &str,
        store: impl FnOnce(
            &mut dyn Iterator<Item = VehicleRecord<'c>>,
            &mut dyn Iterator<Item = &'c [DealerPoint]>,
        ) -> Result<(Records, Records), E>
        + Send,
    ) -> Result<Index, E> {
        let (indexed, parts) = load::catalogue_parts(catalogue, base_url, store)?;
        Ok(Index::assemble(indexed, parts))
    }

    /// Indexes the edge data `generate` wrote: the data file and the open
    /// records and prices files. Its vehicles must be sorted by ID, each ID
    /// once (a position is a rank by ID, and the ID table keys each once),
    /// and it must place one line a vehicle in each of the two files
    /// ([`Records::open`]).
    pub fn from_file(
        file: IndexFile,
        records: std::fs::File,
        prices: std::fs::File,
    ) -> Result<Index, String> {
        let (indexed, parts) = load::file_parts(file, records, prices)?;
        Ok(Index::assemble(indexed, parts))
    }

    /// The index of `parts`, with what their facts give.
    fn assemble(indexed: Indexed, parts: Parts) -> Index {
        let Parts {
            meta,
            base_url,
            links,
            facts,
            summaries,
            records,
            prices,
        } = parts;
        let mut index = Index {
            meta,
            base_url,
            links,
            filters: indexed.filters,
            orders: indexed.orders,
            models: indexed.models,
            catalogue: indexed.catalogue,
            ids: Ids::of(&facts),
            facts,
            summaries,
            records,
            prices,
            market: MarketData::default(),
            envelope_head: Box::default(),
        };
        index.envelope_head = index.written_envelope_head();
        index
    }

    /// The bytes of [`Index::envelope`] up to its payload, written once.
    fn written_envelope_head(&self) -> Box<str> {
        let marker = RawValue::from_string("0".to_owned()).expect("invariant: 0 is a JSON number");
        let bytes = to_json_bytes(&self.envelope(marker));
        let text = String::from_utf8(bytes).expect("invariant: serde_json writes UTF-8");
        text.strip_suffix("0}\n")
            .expect("invariant: the payload is the envelope's last member")
            .into()
    }

    /// The bytes [`to_json_bytes`] makes of [`Index::envelope`] around a
    /// payload given as the JSON it serializes to, in pieces, put in as
    /// they are: for a payload already written (a record), which would
    /// otherwise be checked as JSON again on its way through serde. A
    /// record is read straight into the answer's buffer.
    pub fn envelope_bytes(&self, payload: &[Piece<'_>]) -> Vec<u8> {
        let head = self.envelope_head.as_bytes();
        let tail = b"}\n";
        let length = |piece: &Piece<'_>| match piece {
            Piece::Json(json) => json.len(),
            Piece::Record(position) => self.records.len_of(*position),
        };
        let payload_length: usize = payload.iter().map(length).sum();
        let mut bytes = Vec::with_capacity(head.len() + payload_length + tail.len());
        bytes.extend_from_slice(head);
        for piece in payload {
            match piece {
                Piece::Json(json) => bytes.extend_from_slice(json.as_bytes()),
                Piece::Record(position) => self.records.append_to(*position, &mut bytes),
            }
        }
        bytes.extend_from_slice(tail);
        bytes
    }

    /// The market's answers: reports and series.
    pub fn market(&self) -> &MarketData {
        &self.market
    }

    /// Sets the market's answers (read from their own file).
    pub fn set_market(&mut self, market: MarketData) {
        self.market = market;
    }

    /// The edge data file of this index, for `generate` to write.
    pub fn to_file(&self) -> IndexFile<Vec<Entry<&Facts, &str>>> {
        IndexFile {
            format_version: INDEX_FILE_VERSION,
            base_url: self.base_url.clone(),
            meta: self.meta.clone(),
            vehicles: self
                .facts
                .iter()
                .zip(&self.summaries)
                .map(|(facts, summary)| Entry {
                    facts,
                    summary: summary.get(),
                })
                .collect(),
            record_starts: self.records.starts(),
            price_starts: self.prices.starts(),
        }
    }

    /// The prices file of this index (one version's dealer prices a line)
    /// when it holds them in memory; `None` when they are in a file.
    pub fn prices_file(&self) -> Option<&str> {
        self.prices.text()
    }

    /// The dealer prices, check by check, of the version at `position`.
    pub fn dealer_prices(&self, position: u32) -> Vec<DealerPoint> {
        serde_json::from_str(self.prices.get(position).get())
            .expect("invariant: the prices file holds the points generate wrote (its ETag is checked at load)")
    }

    /// The records file of this index (one Vehicle a line) when it holds
    /// them in memory ([`Index::from_catalogue`]); `None` when they are in a
    /// file.
    pub fn records_file(&self) -> Option<&str> {
        self.records.text()
    }

    /// Snapshot times and source.
    pub fn meta(&self) -> &CatalogueMeta {
        &self.meta
    }

    /// The service's URLs.
    pub fn links(&self) -> &Links {
        &self.links
    }

    /// How many versions are published.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Whether no version is published.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// The facts of every version, in ID order.
    pub fn facts(&self) -> &[Facts] {
        &self.facts
    }

    /// The version at `position` as a list item (its Summary).
    pub fn summary(&self, position: u32) -> Listed<'_> {
        let at = position as usize;
        Listed::new(
            position,
            &self.facts[at],
            Cow::Borrowed(&self.summaries[at]),
        )
    }

    /// The versions at `positions` as an MCP headline names them
    /// ([`vehicle_line`], from their Summaries), joined by `; `.
    pub fn vehicle_lines(&self, positions: &[u32]) -> String {
        let lines: Vec<String> = positions
            .iter()
            .map(|&position| vehicle_line(&self.summary(position)))
            .collect();
        lines.join("; ")
    }

    /// The Summary JSON of the version at `position`, as every list
    /// answer writes it.
    pub fn summary_json(&self, position: u32) -> &str {
        self.summaries[position as usize].get()
    }

    /// The version at `position` as a full record (its Vehicle).
    pub fn record(&self, position: u32) -> Listed<'_> {
        let facts = &self.facts[position as usize];
        Listed::new(position, facts, Cow::Owned(self.records.get(position)))
    }

    /// The position of the published version with exactly this ID
    /// (case-sensitive, byte order).
    pub fn find(&self, id: &str) -> Option<u32> {
        self.ids.find(&self.facts, id)
    }

    /// The catalogue's own words, each with how many versions have it (what
    /// `q` matches against; the site's search forgives by them).
    pub fn words(&self) -> impl Iterator<Item = (&str, usize)> {
        self.filters.words()
    }

    /// The versions every filter admits.
    pub fn select(&self, filters: &Filters, opportunities_only: bool) -> Selection {
        self.filters.select(filters, opportunities_only)
    }

    /// Every list order.
    pub fn orders(&self) -> &Orders {
        &self.orders
    }

    /// A model's versions, by make and model ignoring case and accents.
    pub fn model(&self, make: &str, model: &str) -> Option<&ModelEntry> {
        self.models.get(&(fold(make), fold(model)))
    }

    /// The catalogue overview: counts, makes, models and filter values present.
    pub fn catalogue_data(&self) -> &CatalogueData {
        &self.catalogue
    }

    /// Wraps a payload in the envelope.
    pub fn envelope<T>(&self, data: T) -> Envelope<T> {
        Envelope {
            schema_version: SCHEMA_VERSION,
            snapshot_at: self.meta.snapshot_at,
            catalogue_observed_at: self.meta.catalogue_observed_at,
            source: self.meta.source.clone(),
            methodology_url: self.links.methodology(),
            documentation_url: self.links.documentation(),
            data,
        }
    }
}
