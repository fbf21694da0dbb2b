//! API stage, typed queries both ways: a query is built from checked
//! arguments by its operation's table rows (each row's setter), and written
//! back as a query string by the same rows (each row's getter), so that
//! `parse(q.to_query()) == q` for every query of every operation (a
//! property test says so). Links and precomputed URLs are written from
//! typed queries this way, never by hand.

use crate::api::links::percent_encode;
use crate::api::operations::Operation;
use crate::api::params::table::{Field, Given, Location, params_of};
use crate::api::query::{CompareQuery, DealsQuery, ModelQuery, SearchQuery};

/// A typed query of an operation, read and written through its table rows.
pub trait TypedQuery {
    /// The operation whose rows it has.
    const OPERATION: Operation;

    /// The value `field` holds in this query, `None` at its default.
    fn get(&self, field: &Field) -> Option<Given>;

    /// Stores a checked value in `field`.
    fn set(&mut self, field: &Field, given: &Given);

    /// The query's (name, value) pairs in table order, defaults left out.
    fn to_pairs(&self) -> Vec<(&'static str, Given)> {
        params_of(Self::OPERATION)
            .filter(|param| param.location == Location::Query)
            .filter_map(|param| Some((param.name, self.get(&param.field)?)))
            .collect()
    }

    /// The query string the operation parses back into this query: each
    /// value percent-encoded (each ID on its own, the literal commas
    /// between them kept).
    fn to_query(&self) -> String {
        self.to_pairs()
            .iter()
            .map(|(name, given)| match given {
                Given::Ids(ids) => {
                    let ids: Vec<String> = ids.iter().map(|id| percent_encode(id)).collect();
                    format!("{name}={}", ids.join(","))
                }
                other => format!("{name}={}", percent_encode(&other.to_text())),
            })
            .collect::<Vec<_>>()
            .join("&")
    }
}

impl TypedQuery for SearchQuery {
    const OPERATION: Operation = Operation::Search;

    fn get(&self, field: &Field) -> Option<Given> {
        match field {
            Field::Filter(access) => (access.get)(&self.filters),
            Field::Search(access) => (access.get)(self),
            Field::Page(access) => (access.get)(&self.page),
            _ => None,
        }
    }

    fn set(&mut self, field: &Field, given: &Given) {
        match field {
            Field::Filter(access) => (access.set)(&mut self.filters, given),
            Field::Search(access) => (access.set)(self, given),
            Field::Page(access) => (access.set)(&mut self.page, given),
            _ => {}
        }
    }
}

impl TypedQuery for DealsQuery {
    const OPERATION: Operation = Operation::Deals;

    fn get(&self, field: &Field) -> Option<Given> {
        match field {
            Field::Filter(access) => (access.get)(&self.filters),
            Field::Deals(access) => (access.get)(self),
            Field::Page(access) => (access.get)(&self.page),
            _ => None,
        }
    }

    fn set(&mut self, field: &Field, given: &Given) {
        match field {
            Field::Filter(access) => (access.set)(&mut self.filters, given),
            Field::Deals(access) => (access.set)(self, given),
            Field::Page(access) => (access.set)(&mut self.page, given),
            _ => {}
        }
    }
}

impl TypedQuery for ModelQuery {
    const OPERATION: Operation = Operation::ModelPrices;

    fn get(&self, field: &Field) -> Option<Given> {
        match field {
            Field::Model(access) => (access.get)(self),
            Field::Page(access) => (access.get)(&self.page),
            _ => None,
        }
    }

    fn set(&mut self, field: &Field, given: &Given) {
        match field {
            Field::Model(access) => (access.set)(self, given),
            Field::Page(access) => (access.set)(&mut self.page, given),
            _ => {}
        }
    }
}

impl TypedQuery for CompareQuery {
    const OPERATION: Operation = Operation::Compare;

    fn get(&self, field: &Field) -> Option<Given> {
        match field {
            Field::Compare(access) => (access.get)(self),
            _ => None,
        }
    }

    fn set(&mut self, field: &Field, given: &Given) {
        if let Field::Compare(access) = field {
            (access.set)(self, given);
        }
    }
}
