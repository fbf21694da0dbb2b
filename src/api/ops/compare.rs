//! API stage, `compare_vehicles` (`GET /api/v1/compare`): two to four
//! versions' full records side by side, with a shareable page.

use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

use super::op::{Asked, Headline, Op, Question, Reply};
use crate::api::error::{ApiError, ErrorDetail, Missing};
use crate::api::index::{Index, Piece};
use crate::api::operations::{Cdn, Http, McpTool, Spec};
use crate::api::params::typed::compare_page;
use crate::api::params::typed::typed_query;
use crate::api::params::{Args, Problem, TypedQuery, compare_query};
use crate::api::query::{COMPARE_IDS, CompareQuery, MAX_ID_CHARS, Operation};
use crate::api::types::{Envelope, Listed, VehicleRecord};

/// The operation.
#[derive(Debug)]
pub struct CompareVehicles;

/// Its row.
pub static SPEC: Spec = Spec {
    operation: Operation::Compare,
    name: "compare_vehicles",
    http: Some(Http {
        path: "/api/v1/compare",
        tag: "vehicles",
        summary: "Compare 2 to 4 versions",
        description: "Full records of the versions, in the order asked, and a shareable \
        comparison page. Duplicate IDs give 400; an unknown ID gives 404. Missing \
        specifications remain unknown.",
        body: "CompareResponse",
        not_found: true,
        cdn: Cdn::Edge,
        fixed_at_load: false,
        csv: false,
    }),
    tool: Some(McpTool {
        title: "Compare vehicles",
        description: "Full records of 2 to 4 distinct versions side by side, with a shareable comparison page URL. \
         Same JSON as GET /api/v1/compare.",
    }),
};

/// `GET /api/v1/compare`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    rename = "Compare",
    deny_unknown_fields,
    description = "Versions compared, in the order asked."
)]
pub struct CompareData<'a> {
    /// The versions (Vehicle records), in the order asked.
    #[schemars(
        with = "Vec<VehicleRecord<'static>>",
        length(min = *COMPARE_IDS.start(), max = *COMPARE_IDS.end())
    )]
    pub vehicles: Vec<Listed<'a>>,
    /// Shareable comparison page.
    #[schemars(url)]
    pub url: String,
}

/// `GET /api/v1/compare`.
pub fn compare_vehicles<'a>(
    index: &'a Index,
    query: &CompareQuery,
) -> Result<Envelope<CompareData<'a>>, ApiError> {
    let (positions, url) = compared(index, query)?;
    Ok(index.envelope(CompareData {
        vehicles: positions.into_iter().map(|p| index.record(p)).collect(),
        url,
    }))
}

/// The bytes of [`compare_vehicles`]'s answer for the versions at
/// `positions` and the page `url`, the records put in as the records file
/// holds them, as a detail's are (`vehicle::detail_bytes`). The same bytes
/// as the typed answer serialized, a test holds.
fn compare_bytes(index: &Index, positions: &[u32], url: &str) -> Vec<u8> {
    let url = serde_json::to_string(url).expect("invariant: a string serializes to JSON");
    let mut payload = vec![Piece::Json("{\"vehicles\":[")];
    for (number, &position) in positions.iter().enumerate() {
        if number > 0 {
            payload.push(Piece::Json(","));
        }
        payload.push(Piece::Record(position));
    }
    payload.extend([
        Piece::Json("],\"url\":"),
        Piece::Json(&url),
        Piece::Json("}"),
    ]);
    index.envelope_bytes(&payload)
}

/// The positions of the versions `query` compares, in its order, and the
/// address of their comparison page; a 400 for a list of the wrong length,
/// an empty, overlong or repeated ID, a 404 for an unpublished one.
fn compared(index: &Index, query: &CompareQuery) -> Result<(Vec<u32>, String), ApiError> {
    let ids = compared_ids(index, query);
    let mut details = Vec::new();
    if !COMPARE_IDS.contains(&ids.len()) {
        details.push(ErrorDetail::new(
            "ids",
            Problem::IdCount {
                min: *COMPARE_IDS.start(),
                max: *COMPARE_IDS.end(),
            },
        ));
    }
    for (position, id) in ids.iter().enumerate() {
        let path = format!("ids[{position}]");
        let chars = id.chars().count();
        if chars == 0 || chars > MAX_ID_CHARS {
            let problem = Problem::TextLength {
                min: 1,
                max: MAX_ID_CHARS,
            };
            details.push(ErrorDetail::new(path, problem));
        } else if ids[..position].contains(id) {
            details.push(ErrorDetail::new(
                path,
                Problem::DuplicateId((*id).to_owned()),
            ));
        }
    }
    if !details.is_empty() {
        return Err(ApiError::InvalidParameters(details));
    }
    let positions = ids
        .iter()
        .map(|id| {
            index
                .find(id)
                .ok_or_else(|| ApiError::NotFound(Missing::Version((*id).to_owned())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((positions, index.links().absolute(&compare_page(&ids))))
}

/// The IDs a comparison asks for. With [`CompareQuery::commas_separate`],
/// a list sent with every comma encoded (one item: `ids=a%2Cb`, as URL
/// builders and CDN proxies send it) that is not itself a published ID is
/// the IDs between its commas. A list with literal commas keeps its items
/// exactly, so an ID that holds commas is compared by sending it encoded
/// between literal separators.
fn compared_ids<'q>(index: &Index, query: &'q CompareQuery) -> Vec<&'q str> {
    let whole = query.ids.len() == 1;
    query
        .ids
        .iter()
        .flat_map(|item| {
            let split =
                query.commas_separate && whole && item.contains(',') && index.find(item).is_none();
            if split {
                item.split(',').collect()
            } else {
                vec![item.as_str()]
            }
        })
        .collect()
}

// Its query read and written by its rows of the parameter table.
typed_query!(CompareQuery: Operation::Compare; Compare());

impl Op for CompareVehicles {
    fn spec(&self) -> &'static Spec {
        &SPEC
    }

    fn ask(&self, args: Args, commas_separate: bool) -> Result<Question, ApiError> {
        compare_query(args, commas_separate).map(|query| Question::new(SPEC.operation, query))
    }

    fn add_schema(&self, generator: &mut SchemaGenerator) {
        generator.subschema_for::<Envelope<CompareData<'static>>>();
    }
}

impl Asked for CompareQuery {
    /// HTTP's and MCP's readings of one list differ: which it is, then the
    /// list.
    fn key(&self) -> String {
        format!("{}{}", u8::from(self.commas_separate), self.to_query())
    }

    fn answer(&self, index: &Index, _: bool) -> Result<Reply, ApiError> {
        let (positions, url) = compared(index, self)?;
        let bytes = compare_bytes(index, &positions, &url);
        let headline = Headline::OfVersions {
            write: compare_headline,
            positions,
        };
        Ok(Reply::json(bytes, headline))
    }
}

/// `compare_vehicles: 2 versions side by side: …; ….`
fn compare_headline(index: &Index, positions: &[u32]) -> String {
    format!(
        "{}: {} versions side by side: {}.",
        SPEC.name,
        positions.len(),
        index.vehicle_lines(positions)
    )
}
