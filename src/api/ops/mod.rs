//! API stage, the operations: each operation of the service is one file
//! here, holding its row of the operations table (name, HTTP side, MCP
//! tool), how its checked arguments become its [`Question`], its payload,
//! the function that answers it, and the line an MCP result of it starts
//! with (and, for a list, its brief form). `operations()` lists them in the
//! service's order; the edge's router and cache, the MCP tools, the
//! OpenAPI writer, `ApiInfo.endpoints` and the CDN rules read it. The
//! operation files do not import each other (the layering test says so):
//! what several share is below them (the list payloads' paging and a
//! version in brief in `api::types`, the queries in `api::query`).
//!
//! A new endpoint is four files: its file here (with its query's
//! `typed_query!` line), its line in `table::LISTED`, its `Operation`
//! variant and query type in `api::query`, and its parameters' rows in
//! `api::params::table`. (A query whose rows read a part no query has yet
//! adds that part's `Field` variant in `api::params::row`.)

pub mod api_info;
pub mod catalogue;
pub mod compare;
pub mod deals;
pub mod model_prices;
pub mod op;
pub mod report;
pub mod reports;
pub mod search;
pub mod series;
pub mod table;
pub mod vehicle;

use crate::api::operations::{Http, Spec};
use crate::api::query::Operation;
pub use op::{Asked, Headline, Op, Question, Reply};

/// Every operation of the API, in the order of `ApiInfo.endpoints`, the
/// OpenAPI paths and `tools/list`: the entry point, then [`table::LISTED`]
/// (MCP's connector tools, `search` and `fetch`, are the edge's).
pub fn operations() -> impl Iterator<Item = &'static dyn Op> {
    std::iter::once(&api_info::GetApiInfo as &dyn Op).chain(table::LISTED.iter().copied())
}

/// The operation whose row is `operation`'s.
pub fn op_of(operation: Operation) -> Option<&'static dyn Op> {
    operations().find(|op| op.spec().operation == operation)
}

/// The HTTP operation a request for `path` (without its query) asks, as
/// the edge's router routes it ([`Http::matches`]).
pub fn op_at(path: &str) -> Option<&'static dyn Op> {
    operations().find(|op| {
        op.spec()
            .http
            .as_ref()
            .is_some_and(|http| http.matches(path))
    })
}

/// The HTTP operations with their HTTP side, in table order.
pub fn http_operations() -> impl Iterator<Item = (&'static Spec, &'static Http)> {
    operations().filter_map(|op| op.spec().http.as_ref().map(|http| (op.spec(), http)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_one_row_and_a_way_to_be_asked() {
        for (at, op) in operations().enumerate() {
            let spec = op.spec();
            assert!(
                std::ptr::eq(op_of(spec.operation).expect("listed").spec(), spec),
                "{} at {at}",
                spec.name
            );
            assert!(spec.http.is_some() || spec.tool.is_some(), "{}", spec.name);
        }
        let paths: Vec<&str> = operations()
            .filter_map(|op| op.spec().http.map(|http| http.path))
            .collect();
        assert_eq!(
            paths.len(),
            10,
            "the spec's seven operations and the market's three"
        );
        assert_eq!(paths[0], "/api/v1");
    }
}
