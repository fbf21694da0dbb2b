//! The command line as a maintainer meets it: the real binary run in a
//! directory of its own under `CARGO_TARGET_TMPDIR`, set up by the
//! harness's case builder (a snapshot, broken one way or another), with
//! what it prints on failure pinned whole, the temporary path and the wall
//! clock's figures masked. A changed message is a reviewed snapshot diff.

use crate::harness::Case;

/// A case of this module with the fixture's snapshot as `data/`.
fn case(name: &str) -> Case {
    Case::new("cli", name).with_fixture_data()
}

#[test]
fn check_and_generate_say_what_is_wrong() {
    let ok = case("ok");
    let cases: Vec<(&str, (bool, String))> = vec![
        (
            "check, stale past --max-age",
            ok.run(&["check", "data", "--max-age", "24"]),
        ),
        ("check, no such directory", ok.run(&["check", "nowhere"])),
        (
            "generate, a loopback edge behind a public site under --strict",
            ok.run(&[
                "generate",
                "--base-url",
                "https://autoprecios.example",
                "--strict",
            ]),
        ),
        (
            "generate, a relative base URL",
            ok.run(&["generate", "--base-url", "autoprecios.example"]),
        ),
        (
            "check, a price that is not a number",
            case("bad-price")
                .edit("catalogue_prices.csv", |text| {
                    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                    let header: Vec<&str> = lines[0].split(',').collect();
                    let column = header
                        .iter()
                        .position(|name| *name == "price")
                        .expect("price");
                    let mut row: Vec<String> = lines[2].split(',').map(str::to_owned).collect();
                    row[column] = "12O00".to_owned();
                    lines[2] = row.join(",");
                    lines.join("\n") + "\n"
                })
                .run(&["check", "data"]),
        ),
        (
            "sample, --end between checks",
            ok.run(&[
                "sample",
                "--versions",
                "1",
                "--end",
                "2026-11-21T21:00:00Z",
                "--out",
                "s",
            ]),
        ),
    ];
    let mut pinned = String::new();
    for (name, (success, stderr)) in &cases {
        assert!(!success, "{name} must fail");
        pinned.push_str(&format!(
            "## {name} ({})\n{stderr}\n\n",
            if *success { "ok" } else { "fails" }
        ));
    }
    insta::assert_snapshot!(pinned);
}
