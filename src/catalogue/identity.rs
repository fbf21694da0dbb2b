//! The published catalogue, identity: what names a version and what it is,
//! as the snapshot's `versions` table states it. One type carried from the
//! snapshot's `Version` to the catalogue's `Vehicle`, the index's `Facts`
//! and the API's Summary, which flattens it into its wire shape; its serde
//! and schema attributes are therefore the Summary's (absent names are
//! left out, facts without a value are null).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use crate::vocab::{BodyType, Fuel, Transmission};

/// A version's names and facts: every Summary field between `sourceUrl`
/// and `factSources`. The catalogue ID and the drivetrain (a filter, not a
/// Summary field) stand beside it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// Original listing.
    #[schemars(url)]
    pub source_url: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim.
    pub trim: String,
    /// Display form of trim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub trim_display: Option<String>,
    /// Body type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BodyType")]
    pub body_type: Option<BodyType>,
    /// Native tier code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", description = "Native tier label.")]
    pub tier: Option<String>,
    /// Native tier label text; no tier is inferred from price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier_label: Option<String>,
    /// Fuel.
    pub fuel: Option<Fuel>,
    /// Transmission.
    pub transmission: Option<Transmission>,
    /// Seats.
    #[schemars(description = "Unknown is null.")]
    pub seats: Option<u32>,
    /// Airbags.
    #[schemars(description = "Unknown is null.")]
    pub airbags: Option<u32>,
    /// Catalogue fact name to its source kind (official, catalogue).
    // Shared: versions whose facts came from the same sources hold one map
    // (`shared_sources`), as a catalogue has a few dozen of them.
    #[serde(deserialize_with = "deserialize_sources")]
    #[schemars(with = "BTreeMap<String, String>")]
    pub fact_sources: Arc<FactSources>,
}

/// Fact name to source kind.
pub type FactSources = BTreeMap<String, String>;

impl Identity {
    /// A version named `make model trim`, nothing else known (the
    /// fixtures' identity; set the rest with
    /// `Identity { .., ..Identity::named(..) }`).
    pub fn named(make: &str, model: &str, trim: &str) -> Self {
        Identity {
            make: make.into(),
            model: model.into(),
            trim: trim.into(),
            ..Identity::default()
        }
    }
}

/// How many distinct maps a thread shares at most; past it a map is held
/// on its own, so that a snapshot with a map per version costs what it did
/// before sharing, never more.
const SHARED_MAPS: usize = 1024;

thread_local! {
    static SHARED: RefCell<HashSet<Arc<FactSources>>> = RefCell::new(HashSet::new());
}

/// `sources`, as the one map this thread already holds equal to it if
/// any. The edge decodes every version's identity when it loads a tree,
/// and each its own map was most of what the names cost it in memory and
/// in time; the loading thread's maps are freed with it.
pub fn shared_sources(sources: FactSources) -> Arc<FactSources> {
    SHARED.with_borrow_mut(|shared| {
        if let Some(held) = shared.get(&sources) {
            return Arc::clone(held);
        }
        let sources = Arc::new(sources);
        if shared.len() < SHARED_MAPS {
            shared.insert(Arc::clone(&sources));
        }
        sources
    })
}

fn deserialize_sources<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Arc<FactSources>, D::Error> {
    FactSources::deserialize(deserializer).map(shared_sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(pairs: &[(&str, &str)]) -> FactSources {
        pairs
            .iter()
            .map(|(fact, source)| ((*fact).to_owned(), (*source).to_owned()))
            .collect()
    }

    #[test]
    fn identities_decoded_with_equal_sources_hold_one_map() {
        let official = sources(&[("seats", "official"), ("fuel", "catalogue")]);
        let named = |trim: &str, map: &FactSources| Identity {
            fact_sources: Arc::new(map.clone()),
            ..Identity::named("Fiat", "Cronos", trim)
        };
        let written = [
            named("1.3", &official),
            named("1.3 Drive", &official),
            named("1.3 Precision", &sources(&[("seats", "catalogue")])),
        ];
        let bytes = crate::msgpack::to_vec(&written).expect("encode");
        let read: Vec<Identity> = crate::msgpack::from_read(&bytes[..]).expect("decode");
        assert_eq!(read, written, "the same identities");
        assert!(Arc::ptr_eq(&read[0].fact_sources, &read[1].fact_sources));
        assert!(!Arc::ptr_eq(&read[0].fact_sources, &read[2].fact_sources));
    }

    #[test]
    fn past_the_shared_maps_each_map_is_its_own() {
        // Run on a thread of its own: its shared maps are this test's alone.
        std::thread::spawn(|| {
            for n in 0..SHARED_MAPS {
                shared_sources(sources(&[("seats", &n.to_string())]));
            }
            let first = shared_sources(sources(&[("seats", "0")]));
            assert!(Arc::ptr_eq(
                &first,
                &shared_sources(sources(&[("seats", "0")]))
            ));
            let past = sources(&[("seats", "past")]);
            let (one, other) = (shared_sources(past.clone()), shared_sources(past));
            assert_eq!(one, other);
            assert!(!Arc::ptr_eq(&one, &other), "held on its own");
        })
        .join()
        .expect("the thread's checks");
    }
}
