//! The one integration-test binary: each module covers one stage end to end.

mod generate;
mod openapi;
mod sample;
mod snapshot;
mod cdn;
