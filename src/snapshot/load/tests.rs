//! Where the checks kept in brief end (`InBrief::cutoff`): a reach in
//! days where it says, a reach in whole months where its month begins.

use super::*;
use crate::time::parse_time;

fn at(text: &str) -> Time {
    parse_time(text).expect("a time")
}

/// Hand-computed: 180 days before 2026-11-21T23:00Z is
/// 2026-05-25T23:00Z, so May is held whole and April kept in brief, to
/// its last nanosecond; a reach that ends on a month's first instant
/// holds that month whole too.
#[test]
fn whole_months_in_brief_end_where_the_reachs_month_begins() {
    let t = at("2026-11-21T23:00:00Z");
    let days = chrono::Duration::days;
    assert_eq!(
        InBrief::Before(days(180)).cutoff(t),
        at("2026-05-25T23:00:00Z")
    );
    let april_ends = at("2026-04-30T23:59:59.999999999Z");
    assert_eq!(InBrief::MonthsBefore(days(180)).cutoff(t), april_ends);
    let to_may_first = t - at("2026-05-01T00:00:00Z");
    assert_eq!(InBrief::MonthsBefore(to_may_first).cutoff(t), april_ends);
    let to_april_last = to_may_first + chrono::Duration::nanoseconds(1);
    assert_eq!(
        InBrief::MonthsBefore(to_april_last).cutoff(t),
        at("2026-03-31T23:59:59.999999999Z")
    );
}
