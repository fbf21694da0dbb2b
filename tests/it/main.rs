//! The one integration-test binary: each module covers one stage end to end.

mod broken_generate;
mod cdn;
mod cli;
mod datos;
mod datos_reuse;
mod edge;
mod feeds;
mod filter_rows;
mod generate;
mod harness;
mod hostile;
mod index;
mod layers;
mod market;
mod mcp;
mod money;
mod openapi;
mod pages_kept;
mod publish;
mod query_links;
mod safety;
mod sample;
mod signals_oracle;
mod site;
mod snapshot;
mod table_bounds;
