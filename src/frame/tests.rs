//! The table encoding at its boundaries: CSV quoting and empty cells, the
//! numbers as `Display` writes them, the pinned encoding, a digest that
//! tells every cell apart, and gzipped CSV cut into members by row count.

use std::io::Read;

use super::*;

fn sample() -> Frame {
    let time = |text: &str| crate::time::parse_time(text);
    Frame::new("t")
        .text("a", [Some("x,y"), None, Some("say \"hi\"")].into_iter())
        .number("b", [Some(25_300.0), Some(1445.6), None].into_iter())
        .boolean("c", [Some(true), None, Some(false)].into_iter())
        .time(
            "d",
            [
                time("2026-11-21T15:00:00.750-03:00"),
                None,
                time("1969-12-31T23:59:59Z"),
            ]
            .into_iter(),
        )
        .date(
            "e",
            [
                NaiveDate::from_ymd_opt(2026, 11, 16),
                NaiveDate::from_ymd_opt(1970, 1, 1),
                None,
            ]
            .into_iter(),
        )
}

#[test]
fn csv_quotes_only_what_needs_it_and_leaves_missing_cells_empty() {
    assert_eq!(
        sample().to_csv(),
        "a,b,c,d,e\n\"x,y\",25300,true,2026-11-21T18:00:00Z,2026-11-16\n\
         ,1445.6,,,1970-01-01\n\"say \"\"hi\"\"\",,false,1969-12-31T23:59:59Z,\n"
    );
    assert_eq!(sample().height(), 3);
}

#[test]
fn numbers_are_written_as_display_writes_them() {
    let exact = 9_007_199_254_740_992.0;
    let mut numbers = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        32_260_000.0,
        1408.76,
        0.5,
        -2.5,
        exact - 1.0,
        -(exact - 1.0),
        exact,
        exact + 2.0,
        1e16,
        1e21,
        -1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    // Every power of two and its neighbours, whole and not.
    for power in -60..70 {
        let x = 2f64.powi(power);
        numbers.extend([x, x + 1.0, x - 1.0, -x, x * 3.0 / 7.0]);
    }
    let mut digits = itoa::Buffer::new();
    for x in numbers {
        let mut out = String::new();
        push_number(&mut out, &mut digits, x);
        assert_eq!(out, format!("{x}"), "{x:e}");
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn the_encoding_is_pinned() {
    // A tree keeps an earlier tree's download when the frame's digest,
    // which names ENCODING, is unchanged. If these bytes change, bump
    // ENCODING, then pin the new digests here.
    use sha2::{Digest, Sha256};
    let csv = sample().to_csv_gz(5).expect("gzip");
    let parquet = sample().into_parquet().expect("parquet");
    assert_eq!(
        (hex(&Sha256::digest(&csv)), hex(&Sha256::digest(&parquet))),
        (
            String::from("050b806484d5197d36d5a7b87c81245d9869cdf67882211e2bb6c7cd4caa57fc"),
            String::from("5d0504e21f4e039313b640a4eb8c241c6aa419be9e91ae7a3a542ce0a9b76691")
        ),
        "the encoding changed: bump ENCODING"
    );
}

#[test]
fn the_digest_tells_every_cell_apart() {
    let base = sample().digest(5);
    assert_eq!(base, sample().digest(5), "the same frame, the same digest");
    assert_ne!(base, sample().digest(6), "another gzip level");
    let text = |cells: [Option<&str>; 2]| Frame::new("t").text("a", cells.into_iter());
    assert_ne!(
        text([Some("ab"), Some("c")]).digest(5),
        text([Some("a"), Some("bc")]).digest(5),
        "where one text ends"
    );
    assert_ne!(
        text([Some(""), None]).digest(5),
        text([None, Some("")]).digest(5),
        "an empty text is not a missing one"
    );
    let mut changed = 0;
    for (index, (_, cells)) in sample().columns.iter().enumerate() {
        let mut other = sample();
        other.columns[index].1 = match cells.clone() {
            Cells::Text(_) => Cells::Text(
                [Some("x,y"), None, Some("say \"hi!\"")]
                    .into_iter()
                    .collect(),
            ),
            Cells::Number(mut v) => {
                v[0] = Some(25_300.000_000_1);
                Cells::Number(v)
            }
            Cells::Boolean(mut v) => {
                v[1] = Some(false);
                Cells::Boolean(v)
            }
            Cells::Time(mut v) => {
                v[0] = v[0].map(|t| t + 1);
                Cells::Time(v)
            }
            Cells::Date(mut v) => {
                v[2] = Some(0);
                Cells::Date(v)
            }
            Cells::Integer(v) => Cells::Integer(v),
        };
        assert_ne!(other.digest(5), base, "column {index}");
        let mut renamed = sample();
        renamed.columns[index].0.push('_');
        assert_ne!(renamed.digest(5), base, "column {index} renamed");
        changed += 1;
    }
    assert_eq!(changed, 5);
    let numbers = Frame::new("t").number("a", [Some(1.0)].into_iter());
    let integers = Frame::new("t").integer("a", [Some(1.0f64.to_bits() as i64)].into_iter());
    assert_ne!(numbers.digest(5), integers.digest(5), "a column's type");
}

#[test]
fn gzipped_csv_is_the_csv_in_members_cut_by_row_count() {
    let many = Frame::new("n").integer("i", (0..ROWS_PER_MEMBER as i64 * 2 + 5).map(Some));
    let gz = many.to_csv_gz(6).expect("gzip");
    assert_eq!(gz, many.to_csv_gz(6).expect("gzip"), "the same bytes again");
    // Three members, read one by one, each with the fixed header.
    let (mut rest, mut text, mut members) = (&gz[..], String::new(), 0);
    while !rest.is_empty() {
        assert_eq!(&rest[..4], &[0x1f, 0x8b, 8, 0], "a gzip member starts here");
        assert_eq!(rest[9], 255, "operating system unknown");
        let mut member = flate2::bufread::GzDecoder::new(rest);
        member.read_to_string(&mut text).expect("gunzip a member");
        rest = member.into_inner();
        members += 1;
    }
    assert_eq!(members, 3);
    assert_eq!(text, many.to_csv());
    let mut whole = String::new();
    flate2::read::MultiGzDecoder::new(&gz[..])
        .read_to_string(&mut whole)
        .expect("gunzip");
    assert_eq!(
        whole, text,
        "a reader of concatenated members reads the same"
    );
    let empty = Frame::new("e").integer("i", std::iter::empty());
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(&empty.to_csv_gz(6).expect("gzip")[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    assert_eq!(text, "i\n", "an empty table is its header");
}
