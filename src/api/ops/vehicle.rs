//! API stage, `get_vehicle` (`GET /api/v1/vehicles/{id}`): the full record
//! of one published version.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Headline, Op, Question, Reply};
use crate::api::error::{ApiError, Missing};
use crate::api::index::{Index, Piece};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::{Args, text_argument};
use crate::api::query::Operation;
use crate::api::types::{Envelope, Listed, VehicleRecord};

/// The operation.
#[derive(Debug)]
pub struct GetVehicle;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Vehicle,
    name: "get_vehicle",
    http: Some(Http {
        path: "/api/v1/vehicles/{id}",
        tag: "vehicles",
        summary: "Full record of one version",
        description: "Every current quote, the exchange rate and the sourced specifications \
        of one version. An unknown ID or a version outside the current priced catalogue \
        gives 404.",
        body: "DetailResponse",
        not_found: true,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Get a vehicle",
        description: "The full record of one version by ID: every current dealer quote, the usual-price comparison, \
         recent changes and sourced specifications. Same JSON as GET /api/v1/vehicles/{id}; an unpublished ID \
         is an error.",
    }),
};

/// `GET /api/v1/vehicles/{id}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Detail",
    deny_unknown_fields,
    description = "The full record of one version."
)]
pub struct DetailData<'a> {
    /// The version (its Vehicle record).
    #[schemars(with = "VehicleRecord<'static>")]
    pub vehicle: Listed<'a>,
}

/// The version asked for, by its ID.
#[derive(Debug, Clone, PartialEq)]
pub struct VehicleId(pub String);

/// `GET /api/v1/vehicles/{id}`.
pub fn get_vehicle<'a>(index: &'a Index, id: &str) -> Result<Envelope<DetailData<'a>>, ApiError> {
    Ok(index.envelope(DetailData {
        vehicle: index.record(published(index, id)?),
    }))
}

/// The position of the published version `id`; a 404 for any other.
fn published(index: &Index, id: &str) -> Result<u32, ApiError> {
    index
        .find(id)
        .ok_or_else(|| ApiError::NotFound(Missing::Version(id.to_owned())))
}

/// The bytes of [`get_vehicle`]'s answer, its record put in as the records
/// file holds it: checking the record as JSON again on its way through
/// serde was the largest part of a detail's own work at the edge
/// (bench/HISTORY.md, "A detail put in its envelope as written"). The same
/// bytes as the typed answer serialized, a test holds, for every version.
fn detail_bytes(index: &Index, position: u32) -> Vec<u8> {
    index.envelope_bytes(&[
        Piece::Json("{\"vehicle\":"),
        Piece::Record(position),
        Piece::Json("}"),
    ])
}

impl Op for GetVehicle {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, _: bool) -> Result<Question, ApiError> {
        text_argument(args).map(|id| Question::new(SPEC.operation, VehicleId(id)))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<DetailData<'static>>>();
    }
}

impl Asked for VehicleId {
    fn key(&self) -> String {
        self.0.clone()
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let position = published(index, &self.0)?;
        let headline = Headline::OfVersions {
            write: detail_headline,
            positions: vec![position],
        };
        Ok(Reply::json(detail_bytes(index, position), headline))
    }
}

/// `get_vehicle: Toyota Hilux …, best dealer price … (currentPriceUsd …).`
fn detail_headline(index: &Index, positions: &[u32]) -> String {
    format!("{}: {}.", SPEC.name, index.vehicle_lines(positions))
}
