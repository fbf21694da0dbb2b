//! Render stage: everything the static tree holds besides the API responses'
//! data: the API tree itself, the Markdown docs, the OpenAPI description.

pub mod api;
pub mod cdn;
pub mod docs;
pub mod markdown;
pub mod openapi;
pub mod site;
