//! Render stage, data downloads: the calendar months (UTC) that split the
//! history tables of `/datos` into one file pair per month. A month that
//! ended before `snapshotAt` is closed: no later snapshot adds a check to
//! it, so as long as the snapshot keeps its rows, its files are the same
//! bytes at every publication and a deploy re-uploads only the current
//! month's.

use std::ops::Range;

use crate::snapshot::Snapshot;
use crate::time::Time;

/// One calendar month in UTC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Month {
    /// `2026-11`: the file name of its part.
    pub label: String,
    /// Its first instant.
    pub start: Time,
    /// The first instant of the next month.
    pub end: Time,
}

impl Month {
    /// The month that holds `time`.
    pub fn of(time: Time) -> Month {
        let start = crate::time::month_start(time);
        Month {
            label: start.format("%Y-%m").to_string(),
            start,
            end: crate::time::next_month_start(time),
        }
    }

    /// Its instants.
    pub fn range(&self) -> Range<Time> {
        self.start..self.end
    }
}

/// Every month from that of the snapshot's first quote check to that of its
/// last, in order, empty months included (so the list has no holes); none
/// when there is no check.
pub fn of_checks(snapshot: &Snapshot) -> Vec<Month> {
    let spans = snapshot
        .versions
        .iter()
        .filter_map(|version| version.check_span());
    let (Some(first), Some(last)) = (
        spans.clone().map(|(first, _)| first).min(),
        spans.map(|(_, last)| last).max(),
    ) else {
        return Vec::new();
    };
    let mut months = vec![Month::of(first)];
    loop {
        let end = months.last().map_or(last, |month| month.end);
        if end > last {
            return months;
        }
        months.push(Month::of(end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    #[test]
    fn a_month_runs_from_its_first_instant_to_the_next_months() {
        let time = |text| parse_time(text).expect("time");
        let december = Month::of(time("2026-12-31T23:59:59Z"));
        assert_eq!(december.label, "2026-12");
        assert_eq!(december.start, time("2026-12-01T00:00:00Z"));
        assert_eq!(december.end, time("2027-01-01T00:00:00Z"));
        // Months are UTC: 22:00 in Argentina on the 31st is already the 1st.
        assert_eq!(
            Month::of(time("2026-10-31T22:00:00-03:00")).label,
            "2026-11"
        );
        assert!(!december.range().contains(&december.end));
    }
}
