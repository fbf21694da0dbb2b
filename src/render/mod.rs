//! Render stage: everything the static tree holds besides the API responses'
//! data: the API tree itself, the Markdown docs, the OpenAPI description, the
//! data downloads.

pub mod api;
pub mod cdn;
pub mod datos;
pub mod docs;
pub mod markdown;
pub mod openapi;
pub mod site;
