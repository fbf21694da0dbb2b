//! API stage, parameters: the one table of every operation's parameters
//! ([`table::PARAMS`]) and the only way to a typed query: parsing an HTTP
//! query string or MCP's JSON arguments against it ([`check::Args`]), then
//! building the operation's query here, each value stored by its row (a
//! shared filter's under its name, any other by its row's setter). A typed
//! query is checked once, here; the operations trust it. The same rows
//! write a query back ([`TypedQuery::to_query`]): parsing what is written gives the query back, so links and
//! precomputed URLs are written from typed queries, and the edge's cache
//! knows two spellings of one question as one.
//! Problems are data ([`Problem`]), said in English by the API and in
//! Spanish by the site's pages.
//!
//! What adding a shared filter takes is said where its row goes, in
//! [`table`]'s header: its row, its `Facts` field and its index rule.
//!
//! A rule across parameters (minPriceUsd above maxPriceUsd) is code here
//! (`budget_rule`), with its own [`Problem`] variant.

pub mod check;
pub mod choices;
pub mod filter;
pub mod row;
pub mod schema;
mod series;
pub mod table;
pub mod typed;

#[cfg(test)]
mod tests;

pub use crate::api::problem::Problem;
pub use check::{Args, Raw};
pub use series::series_query;
pub use typed::TypedQuery;

use crate::api::error::ApiError;
use crate::api::query::Operation;
use crate::api::query::*;
use table::{FILTER_COUNT, Field, PARAMS};

/// Names of the shared filters, in table order.
pub const FILTER_NAMES: [&str; FILTER_COUNT] = {
    let mut names = [""; FILTER_COUNT];
    let mut at = 0;
    while at < FILTER_COUNT {
        names[at] = PARAMS[at].name;
        at += 1;
    }
    names
};

/// The site's form label of a parameter (`minSeats`: "Asientos, al
/// menos"), for the forms and the pages' error messages; `None` for a
/// parameter no form has.
pub fn label(name: &str) -> Option<&'static str> {
    PARAMS
        .iter()
        .filter(|param| param.name == name)
        .find_map(|param| param.label)
}

/// Every parameter with a form label, once each, in table order.
pub fn form_labels() -> Vec<(&'static str, &'static str)> {
    let mut labels: Vec<(&'static str, &'static str)> = Vec::new();
    for param in PARAMS {
        if let Some(label) = param.label
            && !labels.iter().any(|(name, _)| *name == param.name)
        {
            labels.push((param.name, label));
        }
    }
    labels
}

/// The query the given arguments set, each through its row.
fn typed<Q: TypedQuery>(args: &Args, mut query: Q) -> Q {
    for (param, given) in args.values() {
        query.set(param, given);
    }
    query
}

/// The rule across two shared filters: a budget's minimum above its
/// maximum.
fn budget_rule(filters: &Filters, args: &mut Args) {
    for (min, max) in [
        (table::MIN_PRICE_USD, table::MAX_PRICE_USD),
        (table::MIN_PRICE_ARS, table::MAX_PRICE_ARS),
    ] {
        if let (Some(low), Some(high)) = (min.of(filters), max.of(filters))
            && low > high
        {
            args.fail(max.name(), Problem::BelowMinPrice { min: min.name() });
        }
    }
}

/// The query of `search_vehicles`.
pub fn search_query(mut args: Args) -> Result<SearchQuery, ApiError> {
    let query = typed(&args, SearchQuery::default());
    budget_rule(&query.filters, &mut args);
    args.finish(query)
}

/// The query of `find_deals`.
pub fn deals_query(mut args: Args) -> Result<DealsQuery, ApiError> {
    let query = typed(&args, DealsQuery::default());
    budget_rule(&query.filters, &mut args);
    args.finish(query)
}

/// The query of `get_model_prices`.
pub fn model_query(args: Args) -> Result<ModelQuery, ApiError> {
    let query = typed(&args, ModelQuery::default());
    args.finish(query)
}

/// The query of `compare_vehicles`; `commas_separate` as
/// [`CompareQuery::commas_separate`] says (true for HTTP).
pub fn compare_query(args: Args, commas_separate: bool) -> Result<CompareQuery, ApiError> {
    let query = typed(
        &args,
        CompareQuery {
            ids: Vec::new(),
            commas_separate,
        },
    );
    args.finish(query)
}

/// The one text argument of an operation that takes one (`id`, `query`):
/// the value of its row that no typed query holds, found by its place in
/// the table rather than by name, so renaming the row renames it here.
pub fn text_argument(args: Args) -> Result<String, ApiError> {
    let text = args
        .values()
        .find(|(param, _)| matches!(param.field, Field::Own))
        .and_then(|(_, given)| given.text());
    args.finish(text.unwrap_or_default())
}

/// The one text argument of an operation whose argument is optional (the
/// market report's month in MCP): `None` when not given.
pub fn optional_text(args: Args) -> Result<Option<String>, ApiError> {
    let text = args
        .values()
        .find(|(param, _)| matches!(param.field, Field::Own))
        .and_then(|(_, given)| given.text());
    args.finish(text)
}

/// Checks that an operation without parameters got none.
pub fn no_arguments(args: Args) -> Result<(), ApiError> {
    args.finish(())
}

/// Parses the query of `GET /api/v1/vehicles`.
pub fn parse_search(query: &str) -> Result<SearchQuery, ApiError> {
    search_query(Args::from_query(Operation::Search, None, query))
}

/// Parses the query of `GET /api/v1/deals`.
pub fn parse_deals(query: &str) -> Result<DealsQuery, ApiError> {
    deals_query(Args::from_query(Operation::Deals, None, query))
}

/// Parses the query of `GET /api/v1/models/prices`.
pub fn parse_model(query: &str) -> Result<ModelQuery, ApiError> {
    model_query(Args::from_query(Operation::ModelPrices, None, query))
}

/// Parses the query of `GET /api/v1/compare`: `ids` split at its literal
/// commas, each piece then decoded. An encoded comma (`%2C`, as standard URL
/// builders and CDN proxies send every comma) stays in its piece here;
/// `compare_vehicles` splits a list sent as one piece at its encoded commas
/// unless the piece is a published ID ([`CompareQuery::commas_separate`]).
pub fn parse_compare(query: &str) -> Result<CompareQuery, ApiError> {
    compare_query(Args::from_query(Operation::Compare, None, query), true)
}

/// Parses `GET /api/v1/vehicles/{id}`: the raw (percent-encoded) path
/// segment, decoded once here so every byte of an ID survives, and a query
/// string that must be empty.
pub fn parse_vehicle(raw_id: &str, query: &str) -> Result<String, ApiError> {
    text_argument(Args::from_query(Operation::Vehicle, Some(raw_id), query))
}

/// Checks that an operation without parameters got none.
pub fn parse_none(query: &str) -> Result<(), ApiError> {
    no_arguments(Args::from_query(Operation::Catalogue, None, query))
}
