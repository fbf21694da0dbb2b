//! API stage, errors: the one error type of every operation, mapped to the
//! spec's status codes and JSON error body. The edge and MCP map from it.

use serde::Serialize;

/// One problem with one parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorDetail {
    /// The parameter (`limit`, `ids[1]`).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl ErrorDetail {
    /// A detail for `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorDetail {
            path: path.into(),
            message: message.into(),
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
    NotFound(String),
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

/// The detail message for a parameter whose bytes, once percent-decoded,
/// are not UTF-8.
pub const NOT_UTF8: &str = "must be UTF-8 once percent-decoded";

/// The spec's error body: `{"error": {"code", "message", "details"?}}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorBody {
    /// The error object.
    pub error: ErrorObject,
}

/// Code, message and optional per-parameter details.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorObject {
    /// Machine-readable code.
    pub code: &'static str,
    /// Human-readable message.
    pub message: String,
    /// Per-parameter problems.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<ErrorDetail>>,
}

impl ApiError {
    /// A 400 with a single detail.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::InvalidParameters(vec![ErrorDetail::new(path, message)])
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
