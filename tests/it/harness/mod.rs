//! What the integration tests share: the generated fixture tree
//! ([`tree`]), a case's own directory built in steps ([`case`]), requests to the edge over it ([`http`]), hand-built snapshot
//! versions ([`versions`]) and seeded random choices ([`rng`]). Each test module
//! imports from here, never from another test module.

pub mod case;
pub mod http;
pub mod rng;
pub mod tree;
pub mod versions;

pub use case::Case;
pub use http::{
    Reply, computed_urls, edge_vehicles, get, get_json, ids, pinned_live, send, send_app, send_to,
    state,
};
pub use tree::{
    BASE, EDGE, Fixture, copy_tree, edge_data, files_under, fixture, manifest_tag, options, pin,
    pinned, read_tree, text_of,
};
pub use versions::{bare_quote, bare_version};
