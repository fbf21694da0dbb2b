//! The table reader at its boundaries: a cell's error naming the row of
//! its file, a Parquet file read a row group at a time in order, the runs
//! of a table in parts, and the slices' first rows.

use std::fs::File;

use super::*;

#[test]
fn a_cell_error_names_the_row_of_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = "stock\n1\n2\n3\nmany\n5\n";
    std::fs::write(dir.path().join("quotes.csv"), csv).expect("write");
    let table = Table::read(dir.path(), "quotes").expect("read");
    assert_eq!(table.height(), 5);
    let err = table.integers("stock", Need::Required).expect_err("row 4");
    assert_eq!(
        err.to_string(),
        "quotes.csv: row 4, column \"stock\": expected an integer, found \"many\""
    );
    assert_eq!(table.file_row(3), 3);
}

#[test]
fn a_parquet_file_is_read_a_row_group_at_a_time_in_order_until_a_run_fails() {
    use polars::prelude::ParquetWriter;
    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("rows.csv");
    let rows: String = (1..=10).map(|n| format!("{n}\n")).collect();
    std::fs::write(&csv, format!("stock\n{rows}")).expect("write");
    let mut frame = read_csv(&csv).expect("read");
    let file = File::create(dir.path().join("quotes.parquet")).expect("create");
    ParquetWriter::new(file)
        .with_row_group_size(Some(3))
        .finish(&mut frame)
        .expect("write");
    let mut seen = Vec::new();
    let names = Table::read_runs(
        dir.path(),
        "quotes",
        |run| (run.file_row(0), run.height()),
        |run, (first, rows)| {
            assert_eq!(first, run.file_row(0), "prepared from the same run");
            seen.push((run.file_row(0), rows));
            Ok(())
        },
    )
    .expect("read in runs");
    // polars' writer folds the short last group into the one before.
    assert_eq!(seen, [(0, 3), (3, 3), (6, 4)]);
    assert_eq!(names.file, "quotes.parquet");
    // A run that fails ends the reading, whatever was decoded ahead.
    let mut runs = 0;
    let err = Table::read_runs(
        dir.path(),
        "quotes",
        |_| (),
        |run, ()| {
            runs += 1;
            if run.file_row(0) == 3 {
                bail!("row 4 is broken");
            }
            Ok(())
        },
    )
    .expect_err("the second run fails");
    assert_eq!(runs, 2);
    assert!(format!("{err:#}").contains("row 4 is broken"), "{err:#}");
    // Slices of at most two rows, none across two groups, each the
    // rows it says it starts at.
    let mut slices = Vec::new();
    let pair = |frame: DataFrame, at: usize| (frame, at);
    let rows = read_parquet_slices(&dir.path().join("quotes.parquet"), 2, &pair, &mut |(
        frame,
        at,
    )| {
        let column = frame.column("stock")?.str()?.clone();
        let values: Vec<&str> = column.iter().map(|cell| cell.unwrap_or("")).collect();
        slices.push((at, values.join(" ")));
        Ok(())
    })
    .expect("read in slices");
    assert_eq!(rows, 10);
    let expected = [
        (0, "1 2"),
        (2, "3"),
        (3, "4 5"),
        (5, "6"),
        (6, "7 8"),
        (8, "9 10"),
    ];
    let expected: Vec<(usize, String)> = expected
        .iter()
        .map(|(at, values)| (*at, (*values).to_owned()))
        .collect();
    assert_eq!(slices, expected);
    // A file without rows is still read once, so that its columns are
    // checked.
    let mut empty = frame.head(Some(0));
    let path = dir.path().join("empty.parquet");
    ParquetWriter::new(File::create(&path).expect("create"))
        .finish(&mut empty)
        .expect("write");
    let mut runs = Vec::new();
    let rows = read_parquet_slices(&path, 2, &pair, &mut |(frame, at)| {
        runs.push((at, frame.height(), frame.width()));
        Ok(())
    })
    .expect("read empty");
    assert_eq!((rows, runs), (0, vec![(0, 0, 1)]));
}

#[test]
fn runs_of_a_table_in_parts_name_the_rows_of_their_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("quotes");
    std::fs::create_dir(&folder).expect("folder");
    std::fs::write(folder.join("2026-10.csv"), "stock\n1\n2\n").expect("write");
    std::fs::write(folder.join("2026-11.csv"), "stock\n3\nmany\n").expect("write");
    let mut seen = Vec::new();
    let stock = |run: &Table| (run.height(), run.integers("stock", Need::Required));
    let names = Table::read_runs(dir.path(), "quotes", stock, |run, (rows, cells)| {
        seen.push((run.file_row(0), rows));
        if run.file_row(0) == 2 {
            let err = cells.expect_err("row 2 of the second part");
            assert_eq!(
                err.to_string(),
                "quotes/2026-11.csv: row 2, column \"stock\": expected an integer, found \"many\""
            );
        }
        Ok(())
    })
    .expect("read");
    assert_eq!(seen, [(0, 2), (2, 2)]);
    assert_eq!(names.file(), "quotes/");
    assert_eq!(names.row(1), "quotes/2026-10.csv: row 2");
    assert_eq!(names.row(2), "quotes/2026-11.csv: row 1");
}

#[test]
fn slices_start_every_most_rows_and_an_empty_file_is_one_slice() {
    let starts = |rows, most| slice_starts(rows, most).collect::<Vec<_>>();
    assert_eq!(starts(5, 2), [0, 2, 4]);
    assert_eq!(starts(4, 2), [0, 2]);
    assert_eq!(starts(1, 2), [0]);
    assert_eq!(starts(0, 2), [0]);
}
