//! Snapshot stage: the input tables described in `data/README.md`, loaded and
//! validated with polars into a [`Snapshot`], and written back (the sample
//! generator and test fixtures use the writer).

mod columns;
pub mod cpi;
mod drafts;
pub mod load;
pub mod model;
mod quotes;
pub mod republish;
mod table;
pub mod write;

pub use load::{InBrief, load_snapshot, load_snapshot_for_signals};
pub use model::*;
pub use write::{SnapshotTable, TableFormat, specs_jsonl, write_snapshot};
