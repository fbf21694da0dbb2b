//! Months of the market report: calendar months in Argentine time
//! (UTC-03:00, no daylight saving), where `/datos` cuts its files by UTC
//! months: the report speaks of "octubre" as a reader in Argentina does.
//! Shared by the generator (`market`) and the edge (the reports' and the
//! series' months).

use chrono::{Datelike, NaiveDate, TimeZone};

use crate::time::{Time, argentina};

/// One calendar month in Argentine time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArMonth {
    /// Year.
    pub year: i32,
    /// Month, 1 to 12.
    pub month: u32,
}

/// Spanish month names, January first.
const NAMES: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];

impl ArMonth {
    /// The month holding `time` in Argentine time.
    pub fn of(time: Time) -> ArMonth {
        let local = time.with_timezone(&argentina());
        ArMonth {
            year: local.year(),
            month: local.month(),
        }
    }

    /// Parses `AAAA-MM` exactly (four digits, a dash, two digits, a month
    /// from 01 to 12).
    pub fn parse(text: &str) -> Option<ArMonth> {
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
        if bytes.len() != 7 || bytes[4] != b'-' || !digits(0..4) || !digits(5..7) {
            return None;
        }
        let year = text[..4].parse().ok()?;
        let month = text[5..].parse().ok()?;
        (1..=12).contains(&month).then_some(ArMonth { year, month })
    }

    /// `AAAA-MM`.
    pub fn label(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// `octubre de 2026`.
    pub fn spanish(self) -> String {
        format!("{} de {}", self.name(), self.year)
    }

    /// `octubre`.
    pub fn name(self) -> &'static str {
        NAMES[(self.month - 1) as usize]
    }

    /// Its first instant.
    pub fn start(self) -> Time {
        let midnight = NaiveDate::from_ymd_opt(self.year, self.month, 1)
            .expect("invariant: the first of a month is a date")
            .and_hms_opt(0, 0, 0)
            .expect("invariant: midnight exists");
        argentina()
            .from_local_datetime(&midnight)
            .single()
            .expect("invariant: a fixed offset has no gaps")
            .to_utc()
    }

    /// Its end: the first instant of the next month.
    pub fn end(self) -> Time {
        self.next().start()
    }

    /// The month after it.
    pub fn next(self) -> ArMonth {
        match self.month {
            12 => ArMonth {
                year: self.year + 1,
                month: 1,
            },
            month => ArMonth {
                year: self.year,
                month: month + 1,
            },
        }
    }

    /// Every month from `first` to `last`, both included.
    pub fn span(first: ArMonth, last: ArMonth) -> Vec<ArMonth> {
        let mut months = vec![first];
        while let Some(&month) = months.last().filter(|month| **month < last) {
            months.push(month.next());
        }
        months
    }
}

/// A month is written as its label, `AAAA-MM` (the market's record of
/// kept months, `market::kept`).
impl serde::Serialize for ArMonth {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

impl<'de> serde::Deserialize<'de> for ArMonth {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        ArMonth::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a month AAAA-MM: {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    #[test]
    fn months_are_argentine_calendar_months() {
        let time = |text| parse_time(text).expect("time");
        // 23:59 in Argentina on the 31st is 02:59 UTC on the 1st.
        assert_eq!(ArMonth::of(time("2026-11-01T02:59:59Z")).label(), "2026-10");
        assert_eq!(ArMonth::of(time("2026-11-01T03:00:00Z")).label(), "2026-11");
        let december = ArMonth::parse("2026-12").expect("month");
        assert_eq!(december.start(), time("2026-12-01T03:00:00Z"));
        assert_eq!(december.end(), time("2027-01-01T03:00:00Z"));
        assert_eq!(december.next().label(), "2027-01");
        assert_eq!(december.spanish(), "diciembre de 2026");
        let span = ArMonth::span(ArMonth::parse("2025-11").expect("m"), december);
        assert_eq!(span.len(), 14);
    }

    #[test]
    fn only_a_well_formed_month_parses() {
        for bad in [
            "2026-13",
            "2026-00",
            "2026-1",
            "26-10",
            "2026/10",
            "2026-10-01",
            "２０２６-10",
            "",
        ] {
            assert_eq!(ArMonth::parse(bad), None, "{bad}");
        }
        assert_eq!(
            ArMonth::parse("0001-01").map(ArMonth::label).as_deref(),
            Some("0001-01")
        );
    }
}
