//! es-AR formats: money, numbers, percentages and dates as
//! Argentine readers write them (es-AR: thousands with `.`, decimals with `,`,
//! times in UTC-03:00). Pure functions of their input, so pages are
//! byte-identical run after run.

use chrono::NaiveDate;

use crate::time::{Time, argentina, four_digit_date, push_digits};
use crate::vocab::Currency;

/// Text for a value that is not known. The spec: unknown never means absent.
pub const UNKNOWN: &str = "sin dato";

/// An amount with es-AR separators, cents only when it has them:
/// `25300.0` -> `25.300`, `1445.6` -> `1.445,60`.
pub fn amount(value: f64) -> String {
    signed_amount("", value)
}

/// Dollars: `US$ 25.300`.
pub fn usd(value: f64) -> String {
    signed_amount("US$ ", value)
}

/// Pesos: `$ 35.000.000`.
pub fn ars(value: f64) -> String {
    signed_amount("$ ", value)
}

/// An amount in its currency.
pub fn money(value: f64, currency: Currency) -> String {
    match currency {
        Currency::Usd => usd(value),
        Currency::Ars => ars(value),
    }
}

/// A car price in its currency, in whole units as buyers read them (half a
/// unit rounds away from zero): `27241.39` US$ -> `US$ 27.241`.
pub fn price(value: f64, currency: Currency) -> String {
    money(value.round(), currency)
}

/// An exchange rate as Argentines say it: `$ 1.420,50 por dólar`.
pub fn rate(ars_per_usd: f64) -> String {
    format!("{} por dólar", ars(ars_per_usd))
}

/// [`amount`] after `prefix` (a currency's symbol and a space), the sign
/// before both (`-US$ 300`), written into one
/// string (every version page formats dozens of amounts, and every run
/// formats every page's to know whether it changed).
fn signed_amount(prefix: &str, value: f64) -> String {
    if !value.is_finite() {
        return UNKNOWN.to_owned();
    }
    let cents = (value.abs() * 100.0).round() as u64;
    let (whole, fraction) = (cents / 100, cents % 100);
    let mut text = String::with_capacity(prefix.len() + 24);
    if value < 0.0 && cents > 0 {
        text.push('-');
    }
    text.push_str(prefix);
    push_grouped(&mut text, whole);
    if fraction != 0 {
        text.push(',');
        text.push(char::from(b'0' + (fraction / 10) as u8));
        text.push(char::from(b'0' + (fraction % 10) as u8));
    }
    text
}

/// `1234567` -> `1.234.567`.
fn group_thousands(value: u64) -> String {
    let mut text = String::with_capacity(26);
    push_grouped(&mut text, value);
    text
}

/// Appends `value` with a `.` between thousands.
fn push_grouped(text: &mut String, value: u64) {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(value);
    for (position, digit) in digits.char_indices() {
        if position > 0 && (digits.len() - position).is_multiple_of(3) {
            text.push('.');
        }
        text.push(digit);
    }
}

/// A measured value as published, with es-AR separators and no invented
/// precision: `4626` -> `4.626`, `8.4` -> `8,4`, `0.25` -> `0,25`.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return UNKNOWN.to_owned();
    }
    // `{}` prints the shortest text that reads back as the same f64.
    let text = format!("{}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let grouped = whole
        .parse::<u64>()
        .map(group_thousands)
        .unwrap_or_else(|_| whole.to_owned());
    let sign = if value < 0.0 { "-" } else { "" };
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped},{fraction}")
    }
}

/// A percentage with two decimals, truncated toward zero like the API's own
/// `discountPct` and `dropPct` (a 4,995 % discount never reads as 5,00 %):
/// `7.16` -> `7,16 %`, `4.8` -> `4,80 %`.
pub fn percent(value: f64) -> String {
    if !value.is_finite() {
        return UNKNOWN.to_owned();
    }
    let hundredths = hundredths(value);
    let sign = if value < 0.0 && hundredths > 0 {
        "-"
    } else {
        ""
    };
    format!(
        "{sign}{},{:02} %",
        group_thousands(hundredths / 100),
        hundredths % 100
    )
}

/// The size of a difference in percent, for a sentence that already says its
/// direction: like [`percent`] without the sign, and `menos de 0,01 %` for a
/// nonzero difference that truncates to zero (never `0,00 %` beside an amount).
pub fn share(value: f64) -> String {
    if value.is_finite() && hundredths(value) == 0 {
        "menos de 0,01 %".to_owned()
    } else {
        percent(value.abs())
    }
}

/// The size of a percentage in whole numbers, as pages say it, truncated
/// toward zero like the API (so it never crosses a threshold the exact
/// value did not): `6,98` -> `6 %`; a size under one but not zero reads
/// `menos de 1 %`.
pub fn whole_percent(value: f64) -> String {
    let hundredths = if value.is_finite() {
        hundredths(value)
    } else {
        return UNKNOWN.to_owned();
    };
    match hundredths / 100 {
        0 if hundredths > 0 => "menos de 1 %".to_owned(),
        whole => format!("{} %", group_thousands(whole)),
    }
}

/// Whole hundredths of `|value|`, truncated; binary noise is cancelled first
/// (the API's 4.99 is stored as 4.98999…), as the API does when it truncates.
fn hundredths(value: f64) -> u64 {
    ((value.abs() * 100.0 * 1e6).round() / 1e6).trunc() as u64
}

/// Date and time in Argentina: `21/11/2026 20:00`.
pub fn date_time(time: Time) -> String {
    use chrono::Timelike;
    let local = time.with_timezone(&argentina()).naive_local();
    let mut text = day(local.date());
    text.push(' ');
    push_digits(&mut text, local.hour(), 2);
    text.push(':');
    push_digits(&mut text, local.minute(), 2);
    text
}

/// Date in Argentina: `21/11/2026`.
pub fn date(time: Time) -> String {
    day(time.with_timezone(&argentina()).date_naive())
}

/// A calendar day: `16/11/2026`. Written digit by digit for a year of four
/// digits (every page shows several, and chrono's general formatter was a
/// measurable share of a routine run's CPU), by chrono otherwise.
pub fn day(day: NaiveDate) -> String {
    match four_digit_date(day) {
        Some([year, month, day]) => {
            let mut text = String::with_capacity(16);
            push_digits(&mut text, day, 2);
            text.push('/');
            push_digits(&mut text, month, 2);
            text.push('/');
            push_digits(&mut text, year, 4);
            text
        }
        None => day.format("%d/%m/%Y").to_string(),
    }
}

/// A date the sources print as `2026-03-01` (or anything else), shown as
/// `01/03/2026` when it is an ISO date or an RFC 3339 time (its Argentine
/// date), and as given otherwise.
pub fn document_date(text: &str) -> String {
    match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        Ok(parsed) => day(parsed),
        Err(_) => match crate::time::parse_time(text) {
            Some(time) => date(time),
            None => text.to_owned(),
        },
    }
}

/// Spanish abbreviation of a month, 1-based: `1` -> `ene`.
pub fn month_abbreviation(month: u32) -> &'static str {
    const MONTHS: [&str; 12] = [
        "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic",
    ];
    MONTHS[(month.clamp(1, 12) - 1) as usize]
}

/// A file size in decimal units with one decimal, es-AR: `850 bytes`,
/// `12,3 kB`, `1,3 MB`. Whole integer arithmetic (tenths, half up), so the
/// text never depends on float formatting.
pub fn file_size(bytes: usize) -> String {
    let bytes = bytes as u64;
    if bytes < 1_000 {
        return format!("{} bytes", group_thousands(bytes));
    }
    let units = [(1_000, "kB"), (1_000_000, "MB"), (1_000_000_000, "GB")];
    let mut shown = (0, "GB");
    for (unit, name) in units {
        shown = ((bytes * 10 + unit / 2) / unit, name);
        // 999,96 kB rounds to 1.000,0 kB: say 1,0 MB instead.
        if shown.0 < 10_000 {
            break;
        }
    }
    let (tenths, name) = shown;
    format!("{},{} {name}", group_thousands(tenths / 10), tenths % 10)
}

/// A count with thousands separators: `132686` -> `132.686`.
pub fn count(value: usize) -> String {
    group_thousands(value as u64)
}

/// `1 unidad`, `3 unidades`.
pub fn units(count: i64) -> String {
    if count == 1 {
        "1 unidad".to_owned()
    } else {
        format!("{} unidades", number(count as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    /// Days and Argentine times read as chrono's `%d/%m/%Y %H:%M` writes
    /// them: every 13th day from year 0 to 9999 at a varying second, the
    /// day before and after midnight in Argentina, and years beyond.
    #[test]
    fn dates_are_written_as_chrono_writes_them() {
        let chrono_text =
            |time: Time, format: &str| time.with_timezone(&argentina()).format(format).to_string();
        let first = NaiveDate::from_ymd_opt(0, 1, 2).expect("day");
        let last = NaiveDate::from_ymd_opt(9999, 12, 31).expect("day");
        let mut at = first;
        let mut second = 0u32;
        while at <= last {
            assert_eq!(day(at), at.format("%d/%m/%Y").to_string());
            second = (second + 7_919) % 86_400;
            let time = at
                .and_hms_opt(second / 3600, second / 60 % 60, second % 60)
                .expect("time")
                .and_utc();
            assert_eq!(date_time(time), chrono_text(time, "%d/%m/%Y %H:%M"));
            assert_eq!(date(time), chrono_text(time, "%d/%m/%Y"));
            at = at + chrono::Days::new(13);
        }
        let midnight = parse_time("2026-11-22T02:59:59Z").expect("valid");
        assert_eq!(date_time(midnight), "21/11/2026 23:59");
        assert_eq!(date(midnight + chrono::Duration::seconds(1)), "22/11/2026");
        let far = NaiveDate::from_ymd_opt(10_000, 3, 1).expect("day");
        assert_eq!(day(far), far.format("%d/%m/%Y").to_string());
    }

    #[test]
    fn money_uses_points_for_thousands_and_commas_for_cents() {
        assert_eq!(usd(25_300.0), "US$ 25.300");
        assert_eq!(ars(35_000_000.0), "$ 35.000.000");
        assert_eq!(usd(999.0), "US$ 999");
        assert_eq!(usd(1_000.0), "US$ 1.000");
        assert_eq!(usd(54_879.19), "US$ 54.879,19");
        assert_eq!(ars(1_445.6), "$ 1.445,60");
        assert_eq!(usd(0.004), "US$ 0");
        assert_eq!(usd(-300.0), "-US$ 300");
        assert_eq!(usd(1_234_567.899), "US$ 1.234.567,90");
        assert_eq!(money(12.5, Currency::Ars), "$ 12,50");
        assert_eq!(money(999.999, Currency::Usd), "US$ 1.000", "cents carry");
        assert_eq!(money(-300.0, Currency::Ars), "-$ 300");
        assert_eq!(usd(f64::NAN), UNKNOWN);
    }

    #[test]
    fn car_prices_are_whole_units() {
        assert_eq!(price(27_241.39, Currency::Usd), "US$ 27.241");
        assert_eq!(price(27_241.5, Currency::Usd), "US$ 27.242");
        assert_eq!(price(63_900_000.0, Currency::Ars), "$ 63.900.000");
        assert_eq!(price(-300.5, Currency::Usd), "-US$ 301");
        assert_eq!(price(f64::NAN, Currency::Ars), UNKNOWN);
        assert_eq!(rate(1_420.5), "$ 1.420,50 por dólar");
    }

    #[test]
    fn file_sizes_and_counts_read_as_in_argentina() {
        assert_eq!(file_size(850), "850 bytes");
        assert_eq!(file_size(12_345), "12,3 kB");
        assert_eq!(file_size(999_960), "1,0 MB");
        assert_eq!(file_size(1_299_254), "1,3 MB");
        assert_eq!(count(132_686), "132.686");
    }

    #[test]
    fn numbers_keep_their_published_precision() {
        assert_eq!(number(4626.0), "4.626");
        assert_eq!(number(8.4), "8,4");
        assert_eq!(number(0.25), "0,25");
        assert_eq!(number(1_234_567.5), "1.234.567,5");
        assert_eq!(number(-12.0), "-12");
    }

    #[test]
    fn percentages_truncate_to_two_decimals() {
        assert_eq!(percent(7.16), "7,16 %");
        assert_eq!(percent(6.97), "6,97 %");
        assert_eq!(percent(0.02), "0,02 %");
        assert_eq!(percent(4.8), "4,80 %");
        assert_eq!(percent(4.99), "4,99 %");
        assert_eq!(
            percent(4.995),
            "4,99 %",
            "never rounded up to the threshold"
        );
        assert_eq!(
            percent(1.15),
            "1,15 %",
            "binary noise is not a lost hundredth"
        );
        assert_eq!(percent(5.0), "5,00 %");
        assert_eq!(percent(-2.35), "-2,35 %");
        assert_eq!(percent(-0.004), "0,00 %", "no negative zero");
        assert_eq!(percent(1234.5), "1.234,50 %");
        assert_eq!(percent(f64::NAN), UNKNOWN);
    }

    #[test]
    fn a_share_below_a_hundredth_is_said_in_words() {
        assert_eq!(share(7.16), "7,16 %");
        assert_eq!(share(-2.35), "2,35 %");
        assert_eq!(share(0.004), "menos de 0,01 %");
        assert_eq!(share(-0.0), "menos de 0,01 %");
        assert_eq!(share(0.01), "0,01 %");
    }

    #[test]
    fn dates_are_argentine_time() {
        let t = parse_time("2026-11-21T23:00:00Z").expect("time");
        assert_eq!(date_time(t), "21/11/2026 20:00");
        assert_eq!(date(t), "21/11/2026");
        // 01:30 UTC is still the previous day in Argentina.
        let t = parse_time("2026-01-01T01:30:00Z").expect("time");
        assert_eq!(date_time(t), "31/12/2025 22:30");
        let t = parse_time("2026-11-22T02:59:00Z").expect("time");
        assert_eq!(
            date(t),
            "21/11/2026",
            "a minute before midnight in Argentina"
        );
        assert_eq!(document_date("2026-03-01"), "01/03/2026");
        assert_eq!(document_date("marzo 2026"), "marzo 2026");
        assert_eq!(month_abbreviation(1), "ene");
        assert_eq!(units(1), "1 unidad");
        assert_eq!(units(1200), "1.200 unidades");
    }
}
