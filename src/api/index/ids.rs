//! API stage, index IDs: a published version's position by its ID.
//!
//! Why not a binary search of the facts, which are sorted by ID: a
//! version's facts are hundreds of bytes apart and its ID is behind a
//! pointer, so each of the search's fifteen steps at 30,000 versions
//! missed the CPU's caches twice, a visible part of a detail's time at the
//! edge (bench/HISTORY.md, "A version found by its ID"). The table holds
//! only positions: an ID is compared where the facts hold it.

use hashbrown::HashTable;

use crate::api::facts::Facts;

/// The position of every published version, by its ID.
#[derive(Debug, Default)]
pub struct Ids {
    table: HashTable<u32>,
    hasher: ahash::RandomState,
}

impl Ids {
    /// The table of `facts`' IDs (each ID once: they are a catalogue's).
    pub fn of(facts: &[Facts]) -> Ids {
        let hasher = ahash::RandomState::new();
        let mut table = HashTable::with_capacity(facts.len());
        for (position, version) in facts.iter().enumerate() {
            let position = u32::try_from(position).expect("invariant: positions fit in u32");
            let hash = hasher.hash_one(version.id.as_str());
            table.insert_unique(hash, position, |&p| {
                hasher.hash_one(facts[p as usize].id.as_str())
            });
        }
        Ids { table, hasher }
    }

    /// The position of the version with exactly this ID (case-sensitive,
    /// byte for byte) in `facts`, the facts the table was made of.
    pub fn find(&self, facts: &[Facts], id: &str) -> Option<u32> {
        let hash = self.hasher.hash_one(id);
        self.table
            .find(hash, |&position| facts[position as usize].id == id)
            .copied()
    }
}
