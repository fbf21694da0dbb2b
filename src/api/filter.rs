//! API stage, filters: the shared search filters of deals and vehicles, with
//! the spec's semantics (every `q` word must match; names ignore case and
//! accents; specification filters exclude unknown values).

use crate::api::error::{ApiError, ErrorDetail};
use crate::api::index::Index;
use crate::api::query::{Filters, MAX_NAME_CHARS, MAX_Q_CHARS};
use crate::api::text::fold;
use crate::catalogue::Vehicle;

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

/// Whether the vehicle at `position` satisfies every filter.
pub fn matches_filters(
    index: &Index,
    position: usize,
    vehicle: &Vehicle,
    filters: &Filters,
) -> bool {
    let text = index.folded_text(position);
    let q_matches = filters
        .q
        .as_deref()
        .is_none_or(|q| fold(q).split_whitespace().all(|word| text.contains(word)));
    q_matches
        && filters
            .make
            .as_deref()
            .is_none_or(|make| fold(make) == index.folded_make(position))
        && filters
            .model
            .as_deref()
            .is_none_or(|model| fold(model) == index.folded_model(position))
        && filters
            .body_type
            .is_none_or(|wanted| vehicle.body_type == Some(wanted))
        && filters
            .fuel
            .is_none_or(|wanted| vehicle.fuel == Some(wanted))
        && filters
            .transmission
            .is_none_or(|wanted| vehicle.transmission == Some(wanted))
        && filters
            .drivetrain
            .is_none_or(|wanted| vehicle.drivetrain == Some(wanted))
        && filters
            .min_price_usd
            .is_none_or(|min| vehicle.current_price_usd >= min)
        && filters
            .max_price_usd
            .is_none_or(|max| vehicle.current_price_usd <= max)
        && filters
            .min_seats
            .is_none_or(|min| vehicle.seats.is_some_and(|seats| seats >= min))
        && filters
            .min_airbags
            .is_none_or(|min| vehicle.airbags.is_some_and(|airbags| airbags >= min))
        && filters
            .aeb
            .is_none_or(|wanted| aeb(vehicle) == Some(wanted))
        && filters
            .has_specs
            .is_none_or(|wanted| vehicle.has_specs() == wanted)
        && filters.min_discount_pct.is_none_or(|min| {
            vehicle.comparison.sufficient_history
                && vehicle
                    .comparison
                    .discount_pct
                    .is_some_and(|pct| pct >= min)
        })
}

/// Confirmed low-speed AEB: `Some(true)` or `Some(false)` only for a sourced
/// boolean; unknown, gaps and "optional" are `None`.
pub fn aeb(vehicle: &Vehicle) -> Option<bool> {
    vehicle.specs.as_ref()?.values.get(AEB_VALUE)?.as_bool()
}
