//! API stage, what an operation is: the trait every operation file
//! implements ([`Op`]), the question it is asked ([`Question`]) and its
//! answer ([`Reply`]).

use std::fmt::Debug;
use std::sync::Arc;

use schemars::SchemaGenerator;

use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::operations::Spec;
use crate::api::params::Args;
use crate::api::query::Operation;

/// One operation of the service, as every consumer of the table reads it.
pub trait Op: Sync {
    /// Its row: name, HTTP side, MCP tool.
    fn spec(&self) -> &'static Spec;

    /// The question its checked arguments ask (`commas_separate`: HTTP's
    /// rule for a comparison's `ids`, see
    /// [`CompareQuery::commas_separate`](crate::api::query::CompareQuery::commas_separate)).
    fn ask(&self, args: Args, commas_separate: bool) -> Result<Question, ApiError>;

    /// Adds the component schema of its 200 body, and what it refers to.
    fn add_schema(&self, generator: &mut SchemaGenerator);

    /// Whether MCP's `brief: true` gives its list in brief
    /// (`api::types::Brief`).
    fn briefs(&self) -> bool {
        false
    }
}

/// What a [`Question`] holds: one operation's checked query.
pub trait Asked: Debug + Send + Sync {
    /// The query written back in one spelling: two requests that parse
    /// alike have one key.
    fn key(&self) -> String;

    /// Computes the answer (`brief`: in brief, for an operation that
    /// [`Op::briefs`]).
    fn answer(&self, index: &Index, brief: bool) -> Result<Reply, ApiError>;
}

/// One question asked of one operation, checked: what an answer is
/// computed from, and what the edge's cache keeps it by.
#[derive(Debug, Clone)]
pub struct Question {
    operation: Operation,
    asked: Arc<dyn Asked>,
    brief: bool,
}

impl Question {
    /// The question `asked` of `operation`.
    pub fn new(operation: Operation, asked: impl Asked + 'static) -> Question {
        Question {
            operation,
            asked: Arc::new(asked),
            brief: false,
        }
    }

    /// The same question, answered in brief (MCP's `brief: true`).
    pub fn in_brief(self, brief: bool) -> Question {
        Question { brief, ..self }
    }

    /// The question an HTTP request of `operation` asks: its raw (still
    /// percent-encoded) query string, and for a path parameter the raw
    /// path segment after the operation's path prefix, decoded by the
    /// parser rather than by the router, so that every byte of an ID (`/`
    /// as `%2F`, `+`, `%`) survives exactly once-decoded.
    pub fn of_request(op: &dyn Op, path: &str, query: &str) -> Result<Question, ApiError> {
        let spec = op.spec();
        let raw_id = spec.http.as_ref().and_then(|http| http.parameter(path));
        op.ask(Args::from_query(spec.operation, raw_id, query), true)
    }

    /// Its operation.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// Its cache key: the operation, whether in brief, and the query in
    /// one spelling.
    pub fn key(&self) -> (Operation, bool, String) {
        (self.operation, self.brief, self.asked.key())
    }

    /// Computes its answer.
    pub fn answer(&self, index: &Index) -> Result<Reply, ApiError> {
        self.asked.answer(index, self.brief)
    }
}

/// An operation's answer: its bytes, their content type, and the line an
/// MCP result of it starts with (`find_deals: 7 price drops within 3d;
/// this page lists 6 to 7.`).
#[derive(Debug, Clone)]
pub struct Reply {
    /// The body.
    pub bytes: Vec<u8>,
    /// Its content type.
    pub content_type: &'static str,
    /// What it answered, in one line.
    pub headline: Headline,
}

impl Reply {
    /// A JSON answer.
    pub fn json(bytes: Vec<u8>, headline: impl Into<Headline>) -> Reply {
        Reply {
            bytes,
            content_type: crate::headers::JSON,
            headline: headline.into(),
        }
    }
}

/// What an answer answered, in one line: written with the answer, or, where
/// writing it reads the versions' Summaries again (a detail, a comparison),
/// when an MCP result first needs it, which an HTTP answer never does.
#[derive(Debug, Clone)]
pub enum Headline {
    /// Written with the answer.
    Written(String),
    /// Written by `write` from the versions at `positions`, when asked.
    OfVersions {
        /// How the operation writes it.
        write: fn(&Index, &[u32]) -> String,
        /// The versions it names, in order.
        positions: Vec<u32>,
    },
}

impl Headline {
    /// The line, from `index` (the tree the answer was made from).
    pub fn text(&self, index: &Index) -> String {
        match self {
            Headline::Written(text) => text.clone(),
            Headline::OfVersions { write, positions } => write(index, positions),
        }
    }
}

impl From<String> for Headline {
    fn from(text: String) -> Headline {
        Headline::Written(text)
    }
}
