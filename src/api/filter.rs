//! API stage, filters: the checks of the shared search filters that a typed
//! query can still fail (text lengths, the budget order). Their matching is
//! the index's (`api::index::select`).

use crate::api::error::{ApiError, ErrorDetail};
use crate::api::query::{Filters, MAX_NAME_CHARS, MAX_Q_CHARS};

/// The specification value behind the `aeb` filter.
pub const AEB_VALUE: &str = "aebLowSpeed";

/// Checks the bounds a typed query can still violate: text lengths and the
/// budget order (minPriceUsd above maxPriceUsd).
pub fn validate_filters(filters: &Filters) -> Result<(), ApiError> {
    let mut details = Vec::new();
    if filters
        .q
        .as_ref()
        .is_some_and(|q| q.chars().count() > MAX_Q_CHARS)
    {
        details.push(ErrorDetail::new(
            "q",
            format!("must be at most {MAX_Q_CHARS} characters"),
        ));
    }
    for (path, value) in [("make", &filters.make), ("model", &filters.model)] {
        if let Some(value) = value
            && let Err(ApiError::InvalidParameters(mut found)) = validate_name(path, value)
        {
            details.append(&mut found);
        }
    }
    if let (Some(min), Some(max)) = (filters.min_price_usd, filters.max_price_usd)
        && min > max
    {
        details.push(ErrorDetail::new(
            "maxPriceUsd",
            "must not be less than minPriceUsd",
        ));
    }
    if details.is_empty() {
        Ok(())
    } else {
        Err(ApiError::InvalidParameters(details))
    }
}

/// A make or model of 1 to 100 characters.
pub fn validate_name(path: &str, value: &str) -> Result<(), ApiError> {
    let chars = value.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ApiError::invalid(
            path,
            format!("must be 1 to {MAX_NAME_CHARS} characters"),
        ));
    }
    Ok(())
}
