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
    let mut text = String::with_capacity(20);
    push_time(&mut text, time);
    text
}

/// Appends `time` as [`format_time`] writes it. The records, the data
/// downloads and the pages write millions of times and days a run, where
/// chrono's general formatter was a measurable share of the CPU; a year of
/// four digits is written here digit by digit, any other by chrono, so the
/// text is always chrono's.
pub fn push_time(out: &mut String, time: Time) {
    use chrono::Timelike;
    let date = time.date_naive();
    if !push_four_digit_day(out, date) {
        out.push_str(&time.to_rfc3339_opts(SecondsFormat::Secs, true));
        return;
    }
    out.push('T');
    for (index, part) in [time.hour(), time.minute(), time.second()]
        .into_iter()
        .enumerate()
    {
        if index > 0 {
            out.push(':');
        }
        push_digits(out, part, 2);
    }
    out.push('Z');
}

/// Appends `date` as `YYYY-MM-DD`, as chrono's `%Y-%m-%d` writes it.
pub fn push_day(out: &mut String, date: chrono::NaiveDate) {
    if !push_four_digit_day(out, date) {
        out.push_str(&date.format("%Y-%m-%d").to_string());
    }
}

/// Appends `date` as `YYYY-MM-DD` when its year has four digits (0 to
/// 9999); whether it did.
fn push_four_digit_day(out: &mut String, date: chrono::NaiveDate) -> bool {
    let Some([year, month, day]) = four_digit_date(date) else {
        return false;
    };
    push_digits(out, year, 4);
    out.push('-');
    push_digits(out, month, 2);
    out.push('-');
    push_digits(out, day, 2);
    true
}

/// `date`'s year, month and day when its year has four digits (0 to 9999),
/// the dates the digit-by-digit writers take (with [`push_digits`]); any
/// other is left to chrono.
pub(crate) fn four_digit_date(date: chrono::NaiveDate) -> Option<[u32; 3]> {
    use chrono::Datelike;
    let year = u32::try_from(date.year())
        .ok()
        .filter(|year| *year <= 9999)?;
    Some([year, date.month(), date.day()])
}

/// Appends the `width` last decimal digits of `value`, zero-padded.
pub(crate) fn push_digits(out: &mut String, value: u32, width: u32) {
    for place in (0..width).rev() {
        let digit = (value / 10u32.pow(place)) % 10;
        out.push(char::from(b'0' + digit as u8));
    }
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

    /// The fast writers give chrono's text: every day from 1900 to 2100
    /// and every 97th from year 0 to 9999 (a time in each at a varying
    /// second of the day), and chrono's own form beyond four digits.
    #[test]
    fn times_and_days_are_written_as_chrono_writes_them() {
        let day = |year| chrono::NaiveDate::from_ymd_opt(year, 1, 1).expect("day");
        let every = |from: chrono::NaiveDate, to: chrono::NaiveDate, step: u64| {
            (0..)
                .map(move |n: u64| from + chrono::Days::new(n * step))
                .take_while(move |date| *date <= to)
        };
        let last = chrono::NaiveDate::from_ymd_opt(9999, 12, 31).expect("day");
        let days = every(day(1900), day(2100), 1).chain(every(day(0), last, 97));
        for (n, day) in days.enumerate() {
            let mut text = String::new();
            push_day(&mut text, day);
            assert_eq!(text, day.format("%Y-%m-%d").to_string());
            let second = (n as u32 * 7_919) % 86_400;
            let time = day
                .and_hms_opt(second / 3600, second / 60 % 60, second % 60)
                .expect("time")
                .and_utc();
            assert_eq!(
                format_time(time),
                time.to_rfc3339_opts(SecondsFormat::Secs, true)
            );
        }
        for far in [
            chrono::NaiveDate::from_ymd_opt(10_000, 1, 1).expect("day"),
            chrono::NaiveDate::from_ymd_opt(-1, 12, 31).expect("day"),
        ] {
            let mut text = String::new();
            push_day(&mut text, far);
            assert_eq!(text, far.format("%Y-%m-%d").to_string());
            let time = far.and_hms_opt(23, 59, 59).expect("time").and_utc();
            assert_eq!(
                format_time(time),
                time.to_rfc3339_opts(SecondsFormat::Secs, true)
            );
        }
        let fraction = parse_time("2026-11-21T15:00:00.999Z").expect("valid");
        assert_eq!(format_time(fraction), "2026-11-21T15:00:00Z");
    }

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
