//! autoprecios: new-car dealer price signals for Argentina.
//!
//! The generator (`generate` feature: polars, signals, rendering) turns a
//! snapshot into a static API and site; the edge server answers what a static
//! tree cannot. Both share the vocabulary, the catalogue model and the API
//! layer; only the generator links polars.

pub mod api;
pub mod catalogue;
pub mod composed;
pub mod format;
pub mod headers;
pub mod html;
pub mod logging;
pub mod manifest;
pub mod month;
pub mod msgpack;
pub mod schema;
pub mod time;
pub mod vocab;

#[cfg(feature = "generate")]
pub mod check;
#[cfg(feature = "generate")]
pub mod cli;
#[cfg(feature = "edge")]
pub mod edge;
#[cfg(feature = "generate")]
pub mod frame;
#[cfg(feature = "generate")]
pub mod generate;
#[cfg(feature = "generate")]
pub mod market;
#[cfg(feature = "generate")]
pub mod output;
#[cfg(feature = "generate")]
pub mod program;
#[cfg(feature = "generate")]
pub mod render;
#[cfg(feature = "generate")]
pub mod run;
#[cfg(feature = "generate")]
pub mod sample;
#[cfg(feature = "generate")]
pub mod signals;
#[cfg(feature = "generate")]
pub mod snapshot;
#[cfg(feature = "generate")]
pub mod steps;
