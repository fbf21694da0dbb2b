//! Fuzz target: query-string parsing and validation (`api::params`). Any
//! query string gives a typed query or a 400 naming parameters, never a
//! panic, and whatever is accepted is within the spec's bounds. The same
//! text as a price alert's query and as a `Range` header.

#![no_main]

use autoprecios::api::ApiError;
use autoprecios::api::params::table::{
    MAKE, MAX_PRICE_USD, MIN_AIRBAGS, MIN_DISCOUNT_PCT, MIN_PRICE_USD, MIN_SEATS, MODEL, Q,
};
use autoprecios::api::params::{parse_compare, parse_deals, parse_model, parse_none, parse_search};
use autoprecios::api::query::{
    Filters, MAX_AIRBAGS, MAX_LIMIT, MAX_NAME_CHARS, MAX_OFFSET, MAX_Q_CHARS, MAX_SEATS, Page,
};
use autoprecios::composed::alerts::Bound;
use autoprecios::edge::ranges::{Asked, asked};
use axum::http::header::{self, HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    match parse_search(query) {
        Ok(search) => {
            check_filters(&search.filters);
            check_page(search.page);
        }
        err => check_error(err),
    }
    match parse_deals(query) {
        Ok(deals) => {
            check_filters(&deals.filters);
            check_page(deals.page);
        }
        err => check_error(err),
    }
    match parse_model(query) {
        Ok(model) => {
            for name in [&model.make, &model.model] {
                assert!((1..=MAX_NAME_CHARS).contains(&name.chars().count()));
            }
            check_page(model.page);
        }
        err => check_error(err),
    }
    let _ = parse_compare(query);
    let _ = parse_none(query);
    // A price alert's bound (`composed::alerts`): read or refused, never a
    // panic; an amount read is a finite, unsigned number.
    if let Ok(Some(bound)) = Bound::read(query) {
        assert!(bound.amount.is_finite() && bound.amount >= 0.0, "{query:?}");
    }
    // The same text as a `Range` header (`edge::ranges`): a part asked is
    // within the answer.
    if let Ok(value) = HeaderValue::from_str(query) {
        let mut headers = HeaderMap::new();
        headers.insert(header::RANGE, value);
        for length in [0, 1, 100] {
            if let Asked::Part { start, end } = asked(&headers, length, None) {
                assert!(start <= end && end < length, "{query:?} of {length}");
            }
        }
    }
});

fn check_page(page: Page) {
    assert!((1..=MAX_LIMIT).contains(&page.limit), "{page:?}");
    assert!(page.offset <= MAX_OFFSET, "{page:?}");
}

fn check_filters(filters: &Filters) {
    if let Some(q) = Q.of(filters) {
        assert!(q.chars().count() <= MAX_Q_CHARS);
    }
    for name in [MAKE.of(filters), MODEL.of(filters)].into_iter().flatten() {
        assert!((1..=MAX_NAME_CHARS).contains(&name.chars().count()));
    }
    for price in [MIN_PRICE_USD.of(filters), MAX_PRICE_USD.of(filters)]
        .into_iter()
        .flatten()
    {
        assert!(price.is_finite() && price >= 0.0, "{price}");
    }
    if let (Some(min), Some(max)) = (MIN_PRICE_USD.of(filters), MAX_PRICE_USD.of(filters)) {
        assert!(min <= max, "reversed bounds accepted");
    }
    if let Some(discount) = MIN_DISCOUNT_PCT.of(filters) {
        assert!((0.0..=100.0).contains(&discount), "{discount}");
    }
    assert!(
        MIN_SEATS
            .of(filters)
            .is_none_or(|n| (1..=MAX_SEATS).contains(&n))
    );
    assert!(MIN_AIRBAGS.of(filters).is_none_or(|n| n <= MAX_AIRBAGS));
}

/// A refusal is a 400 whose every detail names a parameter and says why.
fn check_error<T>(result: Result<T, ApiError>) {
    match result {
        Ok(_) => {}
        Err(ApiError::InvalidParameters(details)) => {
            assert!(!details.is_empty());
            assert!(
                details.iter().all(|d| {
                    !d.problem.english().is_empty() && !d.problem.spanish().is_empty()
                })
            );
        }
        Err(other) => panic!("a query string gave {other:?}"),
    }
}
