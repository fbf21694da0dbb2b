//! The one integration-test binary: each module covers one stage end to end.

mod cdn;
mod edge;
mod generate;
mod openapi;
mod sample;
mod snapshot;
