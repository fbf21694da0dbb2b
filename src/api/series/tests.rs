//! The series query's cache key: one per query, and every field changes it.

use super::*;

fn asked(written: &str) -> Asked {
    Asked {
        written: written.to_owned(),
        id: written.split(':').next().unwrap_or_default().to_owned(),
        mode: None,
        aggregation: None,
    }
}

fn query(ids: &[&str]) -> SeriesQuery {
    SeriesQuery {
        ids: ids.iter().map(|id| asked(id)).collect(),
        ..SeriesQuery::default()
    }
}

#[test]
fn a_query_has_one_key_and_every_field_changes_it() {
    let base = query(&["indice.ars", "dolar"]);
    assert_eq!(base.key(), query(&["indice.ars", "dolar"]).key());
    let changed: Vec<SeriesQuery> = vec![
        query(&["dolar", "indice.ars"]),
        query(&["indice.ars"]),
        // The ids' texts cannot run into each other.
        query(&["indice.ars1:", "dolar"]),
        SeriesQuery {
            mode: "change",
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            months_per_period: 3,
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            aggregation: "sum",
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            start: Some((2026, 1)),
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            end: Some((2026, 1)),
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            csv: true,
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            header: "ids",
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            descending: true,
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            limit: 5,
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            offset: 5,
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            decimal: ',',
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            sep: ';',
            ..query(&["indice.ars", "dolar"])
        },
        SeriesQuery {
            metadata: "full",
            ..query(&["indice.ars", "dolar"])
        },
    ];
    let mut keys: Vec<String> = changed.iter().map(SeriesQuery::key).collect();
    keys.push(base.key());
    let count = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), count, "every field is in the key");
}
