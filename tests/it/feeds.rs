//! Each version's Atom feed records events, not weekly averages: every entry
//! names the car, the catalogue price drops and rises of the window are
//! there (the recent drop among them), and a new opportunity has its entry.

use std::fs;

use crate::harness::{BASE, fixture};

/// One Atom entry's title, id and updated time, as written (escaped).
struct Entry {
    title: String,
    id: String,
    updated: String,
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text.find(open).expect(open) + open.len();
    let end = start + text[start..].find(close).expect(close);
    &text[start..end]
}

fn entries(feed: &str) -> Vec<Entry> {
    feed.split("<entry>")
        .skip(1)
        .map(|entry| Entry {
            title: between(entry, "<title>", "</title>").to_owned(),
            id: between(entry, "<id>", "</id>").to_owned(),
            updated: between(entry, "<updated>", "</updated>").to_owned(),
        })
        .collect()
}

/// The XML text of a plain string, as the feeds escape it.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Every published version's record from the API files.
#[test]
fn version_feeds_name_the_car_in_every_entry_and_record_events() {
    let fixture = fixture();
    let (mut drops, mut rises, mut opportunities, mut feeds) = (0, 0, 0, 0);
    for vehicle in crate::harness::edge_vehicles() {
        let feed_url = vehicle["feedUrl"].as_str().expect("feedUrl");
        let path = feed_url.strip_prefix(BASE).expect("absolute");
        let feed = fs::read_to_string(fixture.public.join(path.trim_start_matches('/')))
            .expect("the version's feed");
        feeds += 1;
        // The trim as the site's pages write it (gearbox codes spelled out).
        let trim = autoprecios::render::site::labels::trim(
            vehicle["trim"].as_str().expect("trim"),
            vehicle["trimDisplay"].as_str(),
        );
        let name = xml(&format!(
            "{} {} {trim}",
            vehicle["make"].as_str().expect("make"),
            vehicle["model"].as_str().expect("model")
        ));
        let list = entries(&feed);
        for entry in &list {
            assert!(
                entry.title.starts_with(&format!("{name}: ")),
                "{path}: {}",
                entry.title
            );
            assert!(!entry.id.contains("#semana-"), "{path}: a weekly entry");
            assert!(!entry.id.contains("#cotizacion-"), "{path}: a status entry");
        }
        let times: Vec<&str> = list.iter().map(|e| e.updated.as_str()).collect();
        let mut newest_first = times.clone();
        newest_first.sort_by(|a, b| b.cmp(a));
        assert_eq!(times, newest_first, "{path}: newest first");
        let mut ids: Vec<&str> = list.iter().map(|e| e.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), list.len(), "{path}: ids are unique");
        drops += list
            .iter()
            .filter(|e| e.title.contains("el precio del catálogo del sitio bajó"))
            .count();
        rises += list
            .iter()
            .filter(|e| e.title.contains("el precio del catálogo del sitio subió"))
            .count();
        let drop = &vehicle["recentChanges"]["7d"];
        if drop["kind"] == "price_drop" {
            let at = drop["changedAt"].as_str().expect("changedAt");
            let entry = list
                .iter()
                .find(|e| e.id.ends_with(&format!("#catalogo-{at}")))
                .unwrap_or_else(|| panic!("{path}: no entry for the drop at {at}"));
            assert!(entry.title.contains("bajó"), "{}", entry.title);
        }
        let reasons = vehicle["reasons"].as_array().expect("reasons");
        if reasons.iter().any(|r| r == "new_opportunity") {
            let entry = list
                .iter()
                .find(|e| e.id.contains("#oportunidad-"))
                .unwrap_or_else(|| panic!("{path}: no new-opportunity entry"));
            assert_eq!(entry.title, format!("{name}: nueva oportunidad"));
            opportunities += 1;
        }
    }
    assert!(feeds > 10, "{feeds} feeds");
    assert!(drops > 0 && rises > 0, "{drops} drops, {rises} rises");
    assert!(opportunities > 0, "the fixture has a new opportunity");
}
