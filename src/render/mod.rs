//! Render stage: everything the static tree holds besides the API responses'
//! data: the API tree itself, the Markdown docs, the website, the data
//! downloads, the market report, the CDN rules (the OpenAPI description is the API layer's:
//! `api::openapi`); and the tree's life, staged, published or abandoned
//! (`tree`): of the stages, only render reaches the tree being written.

pub mod api;
pub mod cdn;
pub mod datos;
pub mod docs;
pub mod informes;
pub mod markdown;
pub mod site;
pub mod sqlite;
pub mod templates;
pub mod tree;
