//! API stage, `get_series` (`GET /api/v1/series`): the market's monthly
//! series with the parameters and meanings of Argentina's national
//! time-series API, in JSON or CSV (`api::series` computes them).

use schemars::SchemaGenerator;

use super::op::{Asked, Op, Question, Reply};
use crate::api::error::ApiError;
use crate::api::index::Index;
use crate::api::operations::{Cdn, Http, Spec};
use crate::api::params::{Args, series_query};
use crate::api::query::Operation;
use crate::api::series::{SeriesAnswer, SeriesQuery, answer_series};

/// The operation.
#[derive(Debug)]
pub struct GetSeries;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Series,
    name: "get_series",
    http: Some(Http {
        path: "/api/v1/series",
        tag: "market",
        summary: "Monthly series, as the national time-series API",
        description: "The market's monthly series (indices, the reference dollar, each \
        version's monthly price) with the parameters and meanings of Argentina's national \
        time-series API: ids with :mode and :aggregation suffixes, representation_mode, \
        collapse, collapse_aggregation, dates, format (json or csv), header, sort, limit, \
        start, decimal, sep and metadata. Percent changes are fractions (0.0123 is 1.23 %), \
        as there. An unknown id, a collapse finer than a month or a malformed date gives \
        400 naming the parameter.",
        body: "SeriesResponse",
        not_found: false,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: true,
    }),
    tool: None,
};

impl Op for GetSeries {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        series_query(args).map(|query| Question::new(SPEC.operation, query))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<SeriesAnswer>();
    }
}

impl Asked for SeriesQuery {
    /// Its own spelling of every field: two requests that parse alike are
    /// one question.
    fn key(&self) -> String {
        SeriesQuery::key(self)
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let (bytes, content_type) = answer_series(&index.market().series, self)?;
        let headline = format!("{}: {} series.", SPEC.name, self.ids.len());
        Ok(Reply {
            bytes,
            content_type,
            headline: headline.into(),
        })
    }
}
