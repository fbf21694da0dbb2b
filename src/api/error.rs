//! API stage, errors: the one error type of every operation, mapped to the
//! spec's status codes and JSON error body. The edge and MCP map from it.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use crate::api::problem::Problem;

/// One problem with one parameter.
///
/// Its schema is the serialized detail's (below): `problem` is written as
/// `message`, its English text.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[schemars(
    inline,
    deny_unknown_fields,
    description = "A problem with one parameter."
)]
pub struct ErrorDetail {
    /// The parameter (`limit`, `ids[1]`).
    pub path: String,
    /// What is wrong with it.
    #[schemars(rename = "message", with = "String")]
    pub problem: Problem,
}

impl ErrorDetail {
    /// A detail for `path`.
    pub fn new(path: impl Into<String>, problem: Problem) -> Self {
        ErrorDetail {
            path: path.into(),
            problem,
        }
    }
}

/// The spec's detail object: `{"path", "message"}`, the problem in English.
impl Serialize for ErrorDetail {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut detail = serializer.serialize_struct("ErrorDetail", 2)?;
        detail.serialize_field("path", &self.path)?;
        detail.serialize_field("message", &self.problem.english())?;
        detail.end()
    }
}

/// What a 404 did not find.
#[derive(Debug, Clone, PartialEq)]
pub enum Missing {
    /// A version that is not published (or never was).
    Version(String),
    /// A model without published versions.
    Model {
        /// The make asked for.
        make: String,
        /// The model asked for.
        model: String,
    },
    /// A URL under the API that no operation answers.
    Resource,
    /// An MCP tool that does not exist.
    Tool(String),
    /// A month without a report (outside the publication's months).
    Report(String),
}

impl Missing {
    /// The Spanish text of the site's pages.
    pub fn spanish(&self) -> String {
        match self {
            Missing::Version(id) => format!("no hay una versión publicada con el ID {id:?}"),
            Missing::Model { make, model } => {
                format!("no hay versiones publicadas de {make} {model}")
            }
            Missing::Resource => "no existe ese recurso de la API".to_owned(),
            Missing::Tool(name) => format!("no hay una herramienta llamada {name:?}"),
            Missing::Report(month) => format!("no hay un informe del mes {month}"),
        }
    }
}

/// The English text of the API's error body.
impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Version(id) => write!(f, "no published version with id {id:?}"),
            Missing::Model { make, model } => {
                write!(f, "no published versions of {make} {model}")
            }
            Missing::Resource => f.write_str("no such API resource"),
            Missing::Tool(name) => write!(f, "no tool named {name:?}"),
            Missing::Report(month) => write!(
                f,
                "no report for month {month}: see GET /api/v1/reports for the months published"
            ),
        }
    }
}

/// Why a request could not be answered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 400: invalid, unknown or repeated parameters, reversed bounds, duplicate IDs.
    #[error("invalid parameters")]
    InvalidParameters(Vec<ErrorDetail>),
    /// 404: unknown route, model or version.
    #[error("{0}")]
    NotFound(Missing),
    /// 405: a method other than GET, HEAD or OPTIONS.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 413: a request body over the limit.
    #[error("request body too large")]
    PayloadTooLarge,
    /// 414: a query string over 4096 characters.
    #[error("query string too long")]
    UriTooLong,
}

/// The spec's error body: `{"error": {"code", "message", "details"?}}`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "Error", deny_unknown_fields, description = "Error body.")]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorObject,
}

/// Code, message and optional per-parameter details.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(inline, deny_unknown_fields)]
pub struct ErrorObject {
    /// Machine-readable code: invalid_parameters, not_found,
    /// method_not_allowed, payload_too_large or uri_too_long for a request
    /// the server refuses; internal_error, overloaded or timeout for its own
    /// failures (500, 503, 503).
    pub code: &'static str,
    /// Human-readable message.
    pub message: String,
    /// Per-parameter problems.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<ErrorDetail>")]
    pub details: Option<Vec<ErrorDetail>>,
}

impl ApiError {
    /// A 400 with a single detail.
    pub fn invalid(path: impl Into<String>, problem: Problem) -> Self {
        ApiError::InvalidParameters(vec![ErrorDetail::new(path, problem)])
    }

    /// The message in Spanish, for the site's pages (the API body says it
    /// in English: [`ApiError::body`]).
    pub fn spanish(&self) -> String {
        match self {
            ApiError::InvalidParameters(_) => "parámetros no válidos".to_owned(),
            ApiError::NotFound(missing) => missing.spanish(),
            ApiError::MethodNotAllowed => "método no permitido".to_owned(),
            ApiError::PayloadTooLarge => "la solicitud es demasiado grande".to_owned(),
            ApiError::UriTooLong => "la consulta es demasiado larga".to_owned(),
        }
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::InvalidParameters(_) => 400,
            ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::PayloadTooLarge => 413,
            ApiError::UriTooLong => 414,
        }
    }

    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidParameters(_) => "invalid_parameters",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::PayloadTooLarge => "payload_too_large",
            ApiError::UriTooLong => "uri_too_long",
        }
    }

    /// The error body.
    pub fn body(&self) -> ErrorBody {
        let details = match self {
            ApiError::InvalidParameters(details) => Some(details.clone()),
            _ => None,
        };
        ErrorBody {
            error: ErrorObject {
                code: self.code(),
                message: self.to_string(),
                details,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published description of `code` names every code the service
    /// sends: the API's refusals and the edge's own failures.
    #[test]
    fn the_code_description_names_every_code() {
        let schema = schemars::schema_for!(ErrorObject);
        let description = schema
            .as_value()
            .pointer("/properties/code/description")
            .and_then(|d| d.as_str())
            .expect("a description of code")
            .to_owned();
        let refusals = [
            ApiError::InvalidParameters(Vec::new()),
            ApiError::NotFound(Missing::Resource),
            ApiError::MethodNotAllowed,
            ApiError::PayloadTooLarge,
            ApiError::UriTooLong,
        ];
        let failures = ["internal_error", "overloaded", "timeout"];
        for code in refusals.iter().map(ApiError::code).chain(failures) {
            assert!(description.contains(code), "{code}: {description}");
        }
    }
}
