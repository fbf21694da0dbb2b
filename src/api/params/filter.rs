//! API stage, the shared filters' rows: what a row of `table::FILTERS`
//! says of its filter beyond its wire form: the typed [`Key`] that reads
//! and writes its value in [`Filters`], the fact of a version it is about
//! (read from [`Facts`]), how that fact admits a version, and how the
//! search form asks for it. The rows are written once, in
//! `shared_filters!`'s invocation in `table.rs`, which declares each
//! row and its key together.
//!
//! A row's fact and [`Admits`] are the spec's rule said plainly (a version
//! with several values of a fact, the cities of its quotes, is admitted
//! when one of them is): the
//! brute-force oracle of the tests applies them, and must not share the
//! index's sets and columns (`api::index::select`, which answers each
//! filter its own way); the catalogue overview lists the facts present of
//! each choice and count.

use std::marker::PhantomData;

use crate::api::facts::Facts;
use crate::api::query::{Filters, Given};
use crate::vocab::Vocabulary;

/// How a shared filter admits a version: by the version's facts (none,
/// unknown, is never admitted; of several, any one) and the value asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admits {
    /// The fact is the value asked: a choice or a boolean exactly, a text
    /// ignoring case and accents.
    Same,
    /// The fact is at least the value asked.
    AtLeast,
    /// The fact is at most the value asked.
    AtMost,
    /// Every word of the value asked is part of the fact (a text),
    /// ignoring case and accents.
    EveryWord,
}

/// How the search form (`templates/search.html`) asks for a shared filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A control written by hand among the form's first fields (words,
    /// make, model, budgets).
    Own,
    /// A control among the further filters, with the id `f-{id}`: a select
    /// of the values present for a choice or a text (the cities), a number
    /// field for a minimum.
    Further(&'static str),
    /// A boolean among the further filters, with the id `f-{id}`: a
    /// select of its two answers, labelled `yes` and `no`.
    Answers {
        /// The control's id, after `f-`.
        id: &'static str,
        /// The label of `true`.
        yes: &'static str,
        /// The label of `false`.
        no: &'static str,
    },
}

/// What a shared filter's row says beyond its wire form.
#[derive(Debug, Clone, Copy)]
pub struct Filter {
    /// The version's facts it is about, as values of its kind: none when
    /// unknown, one for most rows, several for a list (the cities of its
    /// quotes).
    pub fact: fn(&Facts) -> Vec<Given>,
    /// How the fact admits a version.
    pub admits: Admits,
    /// Its control on the search form.
    pub form: Form,
}

/// A shared filter's typed handle on [`Filters`], declared with its row:
/// what the index and the code that builds queries read and write.
pub struct Key<T> {
    name: &'static str,
    value: PhantomData<fn() -> T>,
}

impl<T> Clone for Key<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Key<T> {}

impl<T: FilterValue> Key<T> {
    /// The key of the filter `name` (its row's wire name).
    pub const fn new(name: &'static str) -> Self {
        Key {
            name,
            value: PhantomData,
        }
    }

    /// The filter's wire name.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The value `filters` asks of this filter, if any.
    pub fn of(self, filters: &Filters) -> Option<T> {
        filters.get(self.name).and_then(T::from_given)
    }

    /// `filters`, asking `value` of this filter (nothing with `None`).
    pub fn put(self, filters: &mut Filters, value: Option<T>) {
        filters.set(self.name, value.map(|value| value.to_given()));
    }
}

/// A type of a shared filter's value: read from a checked value and
/// written back as one.
pub trait FilterValue: Sized {
    /// The value, if `given` is of this type's kind.
    fn from_given(given: &Given) -> Option<Self>;

    /// The value as a checked value.
    fn to_given(&self) -> Given;
}

impl FilterValue for String {
    fn from_given(given: &Given) -> Option<Self> {
        given.text()
    }

    fn to_given(&self) -> Given {
        Given::Text(self.clone())
    }
}

impl FilterValue for u32 {
    fn from_given(given: &Given) -> Option<Self> {
        given.integer()
    }

    fn to_given(&self) -> Given {
        Given::Integer(*self)
    }
}

impl FilterValue for f64 {
    fn from_given(given: &Given) -> Option<Self> {
        given.number()
    }

    fn to_given(&self) -> Given {
        Given::Number(*self)
    }
}

impl FilterValue for bool {
    fn from_given(given: &Given) -> Option<Self> {
        given.boolean()
    }

    fn to_given(&self) -> Given {
        Given::Boolean(*self)
    }
}

impl<T: Vocabulary> FilterValue for T {
    fn from_given(given: &Given) -> Option<Self> {
        given.choice(T::from_spelling)
    }

    fn to_given(&self) -> Given {
        Given::Choice(self.spelling())
    }
}

/// A row's facts of `facts`, read by `read` (an `Option` of one, or a
/// list) and checked to be of the row's type `T`.
pub fn read_fact<T: FilterValue, I: IntoIterator<Item = T>>(
    facts: &Facts,
    read: impl Fn(&Facts) -> I,
) -> Vec<Given> {
    read(facts)
        .into_iter()
        .map(|value| value.to_given())
        .collect()
}

/// Declares the shared filters: their rows (`FILTERS`), each with its
/// typed [`Key`] (a constant named as the row says) and its fact checked to
/// be of the key's type.
macro_rules! shared_filters {
    ($(
        $key:ident: $ty:ty {
            name: $name:literal,
            kind: $kind:expr,
            label: $label:literal,
            description: $description:literal,
            fact: $fact:expr,
            admits: $admits:ident,
            form: $form:expr $(,)?
        }
    )+) => {
        $(#[doc = concat!("The `", $name, "` filter: ", $description)]
        pub const $key: Key<$ty> = Key::new($name);)+

        /// The shared filters, at the top of [`PARAMS`].
        pub const FILTERS: &[Param] = &[$(
            filter($name, $kind, $label, $description, Filter {
                fact: |facts| read_fact::<$ty, _>(facts, $fact),
                admits: Admits::$admits,
                form: $form,
            }),
        )+];
    };
}

pub(crate) use shared_filters;
