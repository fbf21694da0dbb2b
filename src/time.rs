//! Times: UTC instants, RFC 3339 parsing and the one output format, and the
//! Argentine calendar (UTC-03:00, no daylight saving) used for weekly averages
//! and dates on the site.

use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};

/// An instant in UTC. Every time in the snapshot and the API is one.
pub type Time = DateTime<Utc>;

/// Seconds in a day.
pub const DAY: i64 = 86_400;

/// Argentine time: UTC-03:00 all year (Argentina has no daylight saving).
pub fn argentina() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).expect("invariant: -03:00 is a valid offset")
}

/// The first instant of the calendar month (UTC) that holds `time`.
pub fn month_start(time: Time) -> Time {
    use chrono::{Datelike, TimeZone};
    Utc.with_ymd_and_hms(time.year(), time.month(), 1, 0, 0, 0)
        .single()
        .expect("invariant: the first of a month is a time")
}

/// The first instant of the calendar month (UTC) after the one that holds
/// `time`.
pub fn next_month_start(time: Time) -> Time {
    month_start(month_start(time) + chrono::Duration::days(32))
}

/// The items of `items` (ascending by time, as `at` reads it) whose time is
/// in `period`: a version's checks of one month, found by two binary searches.
pub fn in_period<'a, C>(
    items: &'a [C],
    at: impl Fn(&C) -> Time,
    period: &std::ops::Range<Time>,
) -> &'a [C] {
    let start = items.partition_point(|item| at(item) < period.start);
    let end = items.partition_point(|item| at(item) < period.end);
    &items[start..end]
}

/// Parses an RFC 3339 time (`Z` or an offset) into UTC.
pub fn parse_time(text: &str) -> Option<Time> {
    DateTime::parse_from_rfc3339(text.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The one output format: RFC 3339 in UTC with whole seconds, `2026-11-21T15:00:00Z`.
pub fn format_time(time: Time) -> String {
    time.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Serde adapter writing times in [`format_time`] form.
pub mod rfc3339 {
    use super::{Time, format_time, parse_time};
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Serializes a time as RFC 3339 UTC with whole seconds.
    pub fn serialize<S: Serializer>(time: &Time, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format_time(*time))
    }

    /// Deserializes an RFC 3339 time.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Time, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_time(&text).ok_or_else(|| D::Error::custom(format!("invalid time {text:?}")))
    }

    /// The same for optional times.
    pub mod option {
        use super::super::{Time, format_time, parse_time};
        use serde::{Deserialize, Deserializer, Serializer, de::Error};

        /// Serializes an optional time; `None` is null.
        pub fn serialize<S: Serializer>(
            time: &Option<Time>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match time {
                Some(time) => serializer.serialize_str(&format_time(*time)),
                None => serializer.serialize_none(),
            }
        }

        /// Deserializes an optional RFC 3339 time.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<Time>, D::Error> {
            match Option::<String>::deserialize(deserializer)? {
                Some(text) => parse_time(&text)
                    .map(Some)
                    .ok_or_else(|| D::Error::custom(format!("invalid time {text:?}"))),
                None => Ok(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_offsets_into_utc_and_formats_whole_seconds() {
        let time = parse_time("2026-11-21T12:00:00.5-03:00").expect("valid");
        assert_eq!(format_time(time), "2026-11-21T15:00:00Z");
        assert_eq!(parse_time("2026-11-21 15:00"), None);
    }

    #[test]
    fn a_month_starts_at_its_first_midnight_utc_and_ends_at_the_next() {
        let at = |text| parse_time(text).expect("valid");
        // 21:00 in Buenos Aires on the last of December is January in UTC.
        let new_year = at("2026-12-31T21:00:00-03:00");
        assert_eq!(month_start(new_year), at("2027-01-01T00:00:00Z"));
        assert_eq!(next_month_start(new_year), at("2027-02-01T00:00:00Z"));
        let last_of_december = at("2026-12-31T23:59:59.999999999Z");
        assert_eq!(month_start(last_of_december), at("2026-12-01T00:00:00Z"));
        assert_eq!(
            next_month_start(last_of_december),
            at("2027-01-01T00:00:00Z")
        );
        // The first instant is its own month's start; February's next is March.
        let february = at("2028-02-01T00:00:00Z");
        assert_eq!(month_start(february), february);
        assert_eq!(next_month_start(february), at("2028-03-01T00:00:00Z"));
    }
}
