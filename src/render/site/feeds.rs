//! Render stage, machine-readable site files: `sitemap.xml`, `robots.txt`,
//! the Atom feed of new deals (`/feeds/ofertas.xml`: price drops and new
//! opportunities of the last seven days) and the Atom writing that each
//! version's feed (`version_feed.rs`) shares, rendered with the templates
//! `sitemap.xml`, `sitemap-index.xml`, `feed.xml` and `robots.txt` (XML
//! escaping by name: `render::templates`).

use minijinja::value::Serde;
use minijinja::{Environment, context};
use serde::Serialize;

use super::cards::{card, change_text, drop_size};
use super::page::{Site, docs_paths};
use crate::catalogue::{RecentChange, Vehicle};
use crate::render::templates::render_file;
use crate::time::{Time, format_time};
use crate::vocab::{ChangeKind, Window};

/// Path of the deals feed.
pub const DEALS_FEED: &str = "/feeds/ofertas.xml";
/// Most entries in the deals feed.
const DEALS_FEED_LIMIT: usize = 200;

/// A page for the sitemap.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SitemapEntry {
    /// Site path.
    pub path: String,
    /// Last change, RFC 3339.
    pub lastmod: Option<String>,
}

impl SitemapEntry {
    /// An entry last changed at `lastmod`.
    pub fn at(path: &str, lastmod: &str) -> Self {
        SitemapEntry {
            path: path.to_owned(),
            lastmod: Some(lastmod.to_owned()),
        }
    }
}

/// Most URLs in one sitemap file (the sitemaps.org limit; 50,000 URLs of
/// ours stay far below its other limit, 50 MB).
const SITEMAP_URLS: usize = 50_000;

/// Writes `/sitemap.xml` with the given pages and the documents: one URL
/// set, or past `SITEMAP_URLS` a sitemap index of `/sitemaps/N.xml`
/// files, so `robots.txt` names one address at any catalogue size.
pub fn write_sitemap(site: &Site, pages: &[SitemapEntry]) -> anyhow::Result<()> {
    let mut entries = pages.to_vec();
    entries.extend(docs_paths().into_iter().map(|path| SitemapEntry {
        path: path.to_owned(),
        lastmod: None,
    }));
    entries.sort();
    let files = sitemap_files(site.env, &entries, SITEMAP_URLS, |path| {
        site.index.links().absolute(path)
    })?;
    for (path, xml) in files {
        let file = path.trim_start_matches('/');
        site.out
            .write(&path, file, crate::headers::XML, xml.as_bytes())?;
    }
    Ok(())
}

/// The sitemap files for `entries` (sorted), at most `limit` URLs each, as
/// (path, XML); `absolute` makes a path a full URL.
fn sitemap_files(
    env: &Environment,
    entries: &[SitemapEntry],
    limit: usize,
    absolute: impl Fn(&str) -> String,
) -> anyhow::Result<Vec<(String, String)>> {
    let url_set = |chunk: &[SitemapEntry]| {
        let urls: Vec<_> = chunk
            .iter()
            .map(|entry| context! { loc => absolute(&entry.path), lastmod => &entry.lastmod })
            .collect();
        render_file(env, "sitemap.xml", context! { entries => urls })
    };
    if entries.len() <= limit {
        return Ok(vec![("/sitemap.xml".to_owned(), url_set(entries)?)]);
    }
    let mut parts = Vec::new();
    for (n, chunk) in entries.chunks(limit).enumerate() {
        parts.push((format!("/sitemaps/{}.xml", n + 1), url_set(chunk)?));
    }
    let locs: Vec<String> = parts.iter().map(|(path, _)| absolute(path)).collect();
    let index = render_file(env, "sitemap-index.xml", context! { parts => locs })?;
    let mut files = vec![("/sitemap.xml".to_owned(), index)];
    files.extend(parts);
    Ok(files)
}

/// Writes `/robots.txt`: pages open to every crawler, the API and the
/// edge's data left out, the sitemap announced.
pub fn write_robots(site: &Site) -> anyhow::Result<()> {
    let sitemap = site.index.links().absolute("/sitemap.xml");
    let text = render_file(site.env, "robots.txt", context! { sitemap })?;
    site.out.write(
        "/robots.txt",
        "robots.txt",
        crate::headers::PLAIN,
        text.as_bytes(),
    )
}

/// One Atom entry.
#[derive(Serialize)]
pub(super) struct Entry {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) link: String,
    #[serde(with = "crate::time::rfc3339")]
    pub(super) updated: Time,
    pub(super) summary: String,
}

/// A feed's own facts.
#[derive(Serialize)]
pub(super) struct FeedHead<'a> {
    pub(super) title: &'a str,
    pub(super) subtitle: String,
    pub(super) self_url: String,
    pub(super) html_url: String,
    pub(super) json_url: Option<String>,
    #[serde(with = "crate::time::rfc3339")]
    pub(super) updated: Time,
}

/// Content type of the feeds.
pub(super) use crate::headers::ATOM;

/// An Atom document (`templates/feed.xml`).
pub(super) fn render_feed(
    env: &Environment,
    head: &FeedHead,
    entries: &[Entry],
) -> anyhow::Result<String> {
    render_file(
        env,
        "feed.xml",
        context! { head => Serde(head), entries => Serde(entries) },
    )
}

/// The car's name as every entry title starts: make, model and trim, the
/// trim as the site's pages write it.
pub(super) fn display_name(vehicle: &Vehicle) -> String {
    let trim = super::labels::trim(
        &vehicle.identity.trim,
        vehicle.identity.trim_display.as_deref(),
    );
    format!(
        "{} {} {trim}",
        vehicle.identity.make, vehicle.identity.model
    )
}

/// The distinct seven-day changes of a version: its recent change and, when
/// a drop took that place, the new opportunity as well.
pub(super) fn changes(vehicle: &Vehicle) -> Vec<&RecentChange> {
    let mut found: Vec<&RecentChange> = Vec::new();
    let candidates = [
        vehicle.recent_changes.get(Window::D7),
        vehicle.new_opportunities.get(Window::D7),
    ];
    for change in candidates.into_iter().flatten() {
        if !found
            .iter()
            .any(|seen| seen.kind == change.kind && seen.recency() == change.recency())
        {
            found.push(change);
        }
    }
    found
}

/// The entry of a recent change (the deals feed's; a version's feed takes
/// its new opportunities).
pub(super) fn change_entry(site: &Site, vehicle: &Vehicle, change: &RecentChange) -> Entry {
    let url = site.index.links().vehicle(&vehicle.id);
    let updated = change
        .recency()
        .unwrap_or(site.index.meta().catalogue_observed_at);
    let (kind, headline) = match (change.kind, drop_size(change)) {
        (ChangeKind::PriceDrop, Some(size)) => ("baja", format!("bajó {size}")),
        (ChangeKind::PriceDrop, None) => ("baja", "bajó de precio".to_owned()),
        (ChangeKind::NewOpportunity, _) => ("oportunidad", "nueva oportunidad".to_owned()),
    };
    Entry {
        id: format!("{url}#{kind}-{}", format_time(updated)),
        title: format!("{}: {headline}", display_name(vehicle)),
        link: url,
        updated,
        summary: summary_text(site, vehicle, change),
    }
}

/// An entry's text, in the words of the version's card: what happened, the
/// best dealer price in the currency it was quoted in (a feed converts
/// nothing: an entry stays as written when only the dollar moves), and how
/// that compares with the usual price.
fn summary_text(site: &Site, vehicle: &Vehicle, change: &RecentChange) -> String {
    let card = card(vehicle, &site.money);
    format!(
        "{}. Mejor precio de concesionaria: {}. {}.",
        change_text(change).trim_end_matches('.'),
        card.price.lead,
        card.comparison.trim_end_matches('.')
    )
}

/// Writes `/feeds/ofertas.xml`: every price drop and new opportunity of the
/// last seven days, newest first.
pub fn write_deals_feed(site: &Site) -> anyhow::Result<()> {
    let mut entries: Vec<Entry> = site
        .vehicles()
        .iter()
        .flat_map(|vehicle| {
            changes(vehicle)
                .into_iter()
                .map(move |change| change_entry(site, vehicle, change))
        })
        .collect();
    entries.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
    entries.truncate(DEALS_FEED_LIMIT);
    let links = site.index.links();
    let head = FeedHead {
        title: "autoprecios: ofertas nuevas",
        subtitle: format!(
            "Bajas de precio y nuevas oportunidades de autos 0 km de los últimos 7 días.{}",
            site.money.feed_note()
        ),
        self_url: links.absolute(DEALS_FEED),
        html_url: links.absolute("/"),
        json_url: None,
        updated: site.index.meta().catalogue_observed_at,
    };
    let xml = render_feed(site.env, &head, &entries)?;
    site.out.write(
        DEALS_FEED,
        DEALS_FEED.trim_start_matches('/'),
        ATOM,
        xml.as_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::templates::environment;

    fn entries(count: usize) -> Vec<SitemapEntry> {
        (1..=count)
            .map(|n| SitemapEntry::at(&format!("/p/{n}"), "2026-11-21T12:00:00Z"))
            .collect()
    }

    fn absolute(path: &str) -> String {
        format!("https://autoprecios.example{path}")
    }

    #[test]
    fn up_to_the_limit_the_sitemap_is_one_url_set() {
        let env = environment();
        let files = sitemap_files(&env, &entries(3), 3, absolute).expect("renders");
        assert_eq!(files.len(), 1);
        let (path, xml) = &files[0];
        assert_eq!(path, "/sitemap.xml");
        assert!(xml.contains("<urlset "), "{xml}");
        assert_eq!(xml.matches("<url>").count(), 3);
        assert!(xml.contains(
            "<url><loc>https://autoprecios.example/p/1</loc><lastmod>2026-11-21T12:00:00Z</lastmod></url>"
        ));
    }

    #[test]
    fn past_the_limit_the_sitemap_is_an_index_of_full_parts() {
        let env = environment();
        let files = sitemap_files(&env, &entries(7), 3, absolute).expect("renders");
        let paths: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/sitemap.xml",
                "/sitemaps/1.xml",
                "/sitemaps/2.xml",
                "/sitemaps/3.xml"
            ]
        );
        let index = &files[0].1;
        assert!(index.contains("<sitemapindex "), "{index}");
        assert!(
            index.contains(
                "<sitemap><loc>https://autoprecios.example/sitemaps/3.xml</loc></sitemap>"
            )
        );
        let counts: Vec<usize> = files[1..]
            .iter()
            .map(|(_, xml)| xml.matches("<url>").count())
            .collect();
        assert_eq!(counts, [3, 3, 1], "every URL once, in order");
        assert!(files[3].1.contains("/p/7</loc>"));
    }
}
