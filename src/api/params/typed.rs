//! API stage, typed queries both ways: a query is built from checked
//! arguments by its operation's table rows (each row's setter), and written
//! back as a query string by the same rows (each row's getter), so that
//! `parse(q.to_query()) == q` for every query of every operation (a
//! property test says so). Links and precomputed URLs are written from
//! typed queries this way, never by hand; [`write_query`] is the one writer
//! of a query string, for the API's queries and the site pages' alike.

use crate::api::params::table::{Given, Kind, Location, Param, params_of};
use crate::api::query::{CompareQuery, Operation};
use crate::api::text::percent_encode;

/// A typed query of an operation, read and written through its table rows.
pub trait TypedQuery {
    /// The operation whose rows it has.
    const OPERATION: Operation;

    /// The value `param` holds in this query, `None` at its default.
    fn get(&self, param: &Param) -> Option<Given>;

    /// Stores a checked value of `param`.
    fn set(&mut self, param: &Param, given: &Given);

    /// The query's (name, value) pairs in table order, defaults left out.
    fn to_pairs(&self) -> Vec<(&'static str, Given)> {
        params_of(Self::OPERATION)
            .filter(|param| param.location == Location::Query)
            .filter_map(|param| Some((param.name, self.get(param)?)))
            .collect()
    }

    /// The query string the operation parses back into this query.
    fn to_query(&self) -> String {
        let pairs = self.to_pairs();
        write_query(pairs.iter().map(|(name, given)| (*name, given)))
    }

    /// As [`TypedQuery::to_query`], with every choice written out, defaults
    /// included (`kind=opportunities&window=7d&sort=recommended`): the
    /// address a page shows a reader, who learns the vocabulary from it.
    fn to_spelt_out_query(&self) -> String {
        let pairs: Vec<(&'static str, Given)> = params_of(Self::OPERATION)
            .filter(|param| param.location == Location::Query)
            .filter_map(|param| {
                let given = self.get(param).or(match param.kind {
                    Kind::Choice { default, .. } => default.map(Given::Choice),
                    _ => None,
                })?;
                Some((param.name, given))
            })
            .collect();
        write_query(pairs.iter().map(|(name, given)| (*name, given)))
    }
}

/// The one writer of query strings: `name=value` pairs in the order given,
/// joined by `&`, each name and value percent-encoded (RFC 3986 unreserved
/// characters kept), IDs each on their own with literal commas between,
/// so that every parser of the service reads the pairs back.
pub fn write_query<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a Given)>) -> String {
    pairs
        .into_iter()
        .map(|(name, given)| {
            let value = match given {
                Given::Ids(ids) => ids_value(ids),
                other => percent_encode(&other.to_text()),
            };
            [percent_encode(name), value].join("=")
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A list of IDs as one query value: each percent-encoded on its own (a
/// comma inside an ID is `%2C`), literal commas between them.
pub fn ids_value(ids: &[String]) -> String {
    ids.iter()
        .map(|id| percent_encode(id))
        .collect::<Vec<_>>()
        .join(",")
}

/// The site's comparison page of `ids`, in order (`/comparar?ids=…`, as the
/// API's `compare_vehicles` reads it back); the empty page without any.
pub fn compare_page(ids: &[impl AsRef<str>]) -> String {
    if ids.is_empty() {
        return COMPARE_PAGE.to_owned();
    }
    let query = CompareQuery {
        ids: ids.iter().map(|id| id.as_ref().to_owned()).collect(),
        commas_separate: true,
    };
    with_query(COMPARE_PAGE, &query.to_query())
}

/// The site's comparison page.
pub const COMPARE_PAGE: &str = crate::api::site_pages::COMPARE.path;

/// `path`, with `query` after a `?` when it is not empty.
pub fn with_query(path: &str, query: &str) -> String {
    match query.is_empty() {
        true => path.to_owned(),
        false => [path, query].join("?"),
    }
}

/// Implements [`TypedQuery`] for a query type (each operation's file in
/// `api::ops` says its own): the operation it asks, the
/// part holding its shared filters if it takes them (`filters in filters`:
/// each stored there under its row's name), and, for each other kind of row
/// it takes, the part of the query that kind of row reads and writes
/// (`Page(page)`: `self.page`; `Search()`: the query itself). Rows of any
/// other kind are not its own.
macro_rules! typed_query {
    ($query:ty: $operation:expr $(, filters in $filters:ident)?; $($kind:ident($($part:ident)?)),+ $(,)?) => {
        impl $crate::api::params::TypedQuery for $query {
            const OPERATION: $crate::api::query::Operation = $operation;

            fn get(
                &self,
                param: &$crate::api::params::table::Param,
            ) -> Option<$crate::api::query::Given> {
                use $crate::api::params::table::Field;
                match &param.field {
                    $(Field::Filter(_) => self.$filters.get(param.name).cloned(),)?
                    $(Field::$kind(access) => (access.get)(&(*self) $(.$part)?),)+
                    _ => None,
                }
            }

            fn set(
                &mut self,
                param: &$crate::api::params::table::Param,
                given: &$crate::api::query::Given,
            ) {
                use $crate::api::params::table::Field;
                match &param.field {
                    $(Field::Filter(_) => self.$filters.set(param.name, Some(given.clone())),)?
                    $(Field::$kind(access) => (access.set)(&mut (*self) $(.$part)?, given),)+
                    _ => {}
                }
            }
        }
    };
}
pub(crate) use typed_query;
