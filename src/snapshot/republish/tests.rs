//! The history kept in brief and republished by month: a check's lowest
//! quote is its brief's, and every month read back from the spill is the
//! frame the whole snapshot gives.

use std::fs;

use chrono::{Datelike, TimeZone, Utc};

use super::spill::digest_path;
use super::*;
use crate::sample::{SampleOptions, generate_sample};
use crate::snapshot::Money;
use crate::snapshot::{
    InBrief, SnapshotTable, TableFormat, load_snapshot, load_snapshot_for_signals, write_snapshot,
};
use crate::vocab::Currency;

/// The calendar months (UTC) from `first` to `last`.
fn months(first: Time, last: Time) -> Vec<Range<Time>> {
    let start = |time: Time| {
        Utc.with_ymd_and_hms(time.year(), time.month(), 1, 0, 0, 0)
            .single()
            .expect("a month's first instant")
    };
    let mut out = Vec::new();
    let mut at = start(first);
    while at <= last {
        let next = start(at + chrono::Duration::days(32));
        out.push(at..next);
        at = next;
    }
    out
}

/// A check's lowest quote, as `controles` publishes it, is the lowest
/// of its cheapest quote in each currency ([`QuoteCheck::in_brief`]):
/// hand-made checks in both currencies (a tie within a currency, a tie
/// across them, no rate for the pesos) and every check of a sample.
#[test]
fn the_lowest_quote_of_a_check_is_the_lowest_of_its_brief() {
    use crate::signals::current_quotes;
    use crate::snapshot::QuoteCheck;
    let lowest = |check: &QuoteCheck| {
        current_quotes(check)
            .into_iter()
            .next()
            .map(|q| (q.id, q.price, q.currency, q.price_usd.to_bits()))
    };
    let quote = |id: &str, amount: f64, currency: Currency| {
        SourceQuote::bare(id, Money { amount, currency })
    };
    let check = |rate: Option<f64>, quotes: Vec<SourceQuote>| QuoteCheck {
        observed_at: Utc.with_ymd_and_hms(2026, 11, 2, 12, 0, 0).unwrap(),
        ars_per_usd: rate,
        in_stock: true,
        quotes,
    };
    let dollars = || {
        vec![
            quote("b", 20_000.0, Currency::Usd),
            quote("a", 20_000.0, Currency::Usd),
        ]
    };
    let cases = [
        // 19,000,000 pesos at 1,000 are USD 19,000: the pesos win.
        (
            check(
                Some(1000.0),
                [dollars(), vec![quote("c", 19e6, Currency::Ars)]].concat(),
            ),
            "c",
        ),
        // USD 20,000 either way: the lower ID, across currencies.
        (
            check(
                Some(1000.0),
                [
                    dollars(),
                    vec![
                        quote("0", 20e6, Currency::Ars),
                        quote("1", 30e6, Currency::Ars),
                    ],
                ]
                .concat(),
            ),
            "0",
        ),
        // No rate: pesos have no dollar price and rank last.
        (
            check(
                None,
                [dollars(), vec![quote("0", 1.0, Currency::Ars)]].concat(),
            ),
            "a",
        ),
    ];
    for (check, id) in &cases {
        let brief = check.in_brief();
        assert!(brief.quotes.len() == 2, "{brief:?}");
        assert_eq!(lowest(check).map(|l| l.0), Some(id.to_string()));
        assert_eq!(lowest(&brief), lowest(check), "{check:?}");
    }
    let sample = generate_sample(&SampleOptions {
        versions: 30,
        days: 400,
        ..SampleOptions::default()
    });
    for check in sample.versions.iter().flat_map(|v| &v.checks) {
        assert_eq!(lowest(&check.in_brief()), lowest(check), "{check:?}");
    }
}

/// A month's `quotes` and `quote_checks` from a snapshot loaded for the
/// signals and its spill are the frames the whole snapshot gives, for
/// every month, though it holds its old checks in brief and most of
/// them not at all.
#[test]
fn every_month_from_the_spill_is_the_frame_of_the_whole_snapshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let sample = generate_sample(&SampleOptions {
        versions: 30,
        days: 400,
        ..SampleOptions::default()
    });
    write_snapshot(&sample, &data, TableFormat::Parquet).expect("write");
    let full = load_snapshot(&data).expect("load");
    let scratch = dir.path().join("scratch");
    let compact = load_snapshot_for_signals(
        &data,
        InBrief::Before(crate::signals::reach()),
        Some(&scratch),
    )
    .expect("load");
    let in_brief: u32 = compact
        .versions
        .iter()
        .flat_map(|v| &v.earlier)
        .map(|c| c.quote_count)
        .sum();
    assert!(in_brief > 0, "a premise: the loader kept checks in brief");
    // Each spill file has beside it the digest of its bytes.
    let mut files = 0;
    for folder in [scratch.clone(), scratch.join(CHECKS_DIR)] {
        for entry in fs::read_dir(&folder).expect("the spill") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|ext| ext == "msgpack") {
                let mut hash = blake3::Hasher::new();
                hash.update(b"file");
                hash.update(&fs::read(&path).expect("a spill file"));
                let beside = fs::read(digest_path(&path)).expect("its digest");
                assert_eq!(beside, hash.finalize().as_bytes(), "{}", path.display());
                files += 1;
            }
        }
    }
    assert!(files > 2, "a premise: months of quotes and checks spilled");
    // Without its spill, a compacted snapshot cannot be republished.
    let unspilled =
        load_snapshot_for_signals(&data, InBrief::Before(crate::signals::reach()), None)
            .expect("load");
    assert!(HistoryMonths::of(&unspilled).is_err());
    let times = full
        .versions
        .iter()
        .flat_map(|v| &v.checks)
        .map(|c| c.observed_at);
    let (first, last) = (
        times.clone().min().expect("a check"),
        times.max().expect("a check"),
    );
    let months = months(first, last);
    let spilled = HistoryMonths::of(&compact).expect("months");
    assert!(
        compact.versions.iter().all(|v| v.earlier.len() <= 2),
        "a spilled snapshot holds each version's first and last earlier check"
    );
    assert!(scratch.join(CHECKS_DIR).is_dir());
    assert!(scratch.is_dir());
    let spilled_checks: usize = months
        .iter()
        .map(|month| spilled.spilled_checks(month).expect("checks").len())
        .sum();
    assert!(spilled_checks > 0, "a premise: some check was spilled");
    for month in &months {
        assert_eq!(
            spilled.quote_frame(month.clone()).expect("frame"),
            SnapshotTable::Quotes.frame_between(&full, month.clone()),
            "{month:?}"
        );
        assert_eq!(
            spilled.check_frame(month.clone()).expect("frame"),
            SnapshotTable::QuoteChecks.frame_between(&full, month.clone()),
            "{month:?}"
        );
        let checks = spilled.spilled_checks(month).expect("checks");
        assert_eq!(
            crate::render::datos::tables::controles(&compact, &checks, month.clone()),
            crate::render::datos::tables::controles(&full, &[], month.clone()),
            "{month:?}"
        );
    }
}
