//! Render stage, machine-readable site files: `sitemap.xml`, `robots.txt`,
//! the Atom feed of new deals (`/feeds/ofertas.xml`: price drops and new
//! opportunities of the last seven days) and the Atom writing that each
//! version's feed (`version_feed.rs`) shares. XML is written here with
//! [`escape`] on every value.

use std::fmt::Write;

use super::cards::{change_text, comparison_text, drop_size};
use super::chart::escape;
use super::format::usd;
use super::{Site, docs_paths};
use crate::catalogue::{RecentChange, Vehicle};
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
/// set, or past [`SITEMAP_URLS`] a sitemap index of `/sitemaps/N.xml`
/// files, so `robots.txt` names one address at any catalogue size.
pub fn write_sitemap(site: &Site, pages: &[SitemapEntry]) -> anyhow::Result<()> {
    let mut entries = pages.to_vec();
    entries.extend(docs_paths().into_iter().map(|path| SitemapEntry {
        path: path.to_owned(),
        lastmod: None,
    }));
    entries.sort();
    for (path, xml) in sitemap_files(&entries, SITEMAP_URLS, |path| {
        site.index.links().absolute(path)
    }) {
        let file = path.trim_start_matches('/');
        site.out.write(
            &path,
            file,
            "application/xml; charset=utf-8",
            xml.as_bytes(),
        )?;
    }
    Ok(())
}

/// The sitemap files for `entries` (sorted), at most `limit` URLs each, as
/// (path, XML); `absolute` makes a path a full URL.
fn sitemap_files(
    entries: &[SitemapEntry],
    limit: usize,
    absolute: impl Fn(&str) -> String,
) -> Vec<(String, String)> {
    if entries.len() <= limit {
        return vec![("/sitemap.xml".to_owned(), url_set(entries, &absolute))];
    }
    let parts: Vec<(String, String)> = entries
        .chunks(limit)
        .enumerate()
        .map(|(n, chunk)| {
            (
                format!("/sitemaps/{}.xml", n + 1),
                url_set(chunk, &absolute),
            )
        })
        .collect();
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (path, _) in &parts {
        let _ = writeln!(
            index,
            "<sitemap><loc>{}</loc></sitemap>",
            escape(&absolute(path))
        );
    }
    index.push_str("</sitemapindex>\n");
    let mut files = vec![("/sitemap.xml".to_owned(), index)];
    files.extend(parts);
    files
}

/// One `<urlset>` document.
fn url_set(entries: &[SitemapEntry], absolute: impl Fn(&str) -> String) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for entry in entries {
        let _ = write!(xml, "<url><loc>{}</loc>", escape(&absolute(&entry.path)));
        if let Some(lastmod) = &entry.lastmod {
            let _ = write!(xml, "<lastmod>{}</lastmod>", escape(lastmod));
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

/// Writes `/robots.txt`: pages open to every crawler, the API and the
/// edge's data left out, the sitemap announced.
pub fn write_robots(site: &Site) -> anyhow::Result<()> {
    let text = format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /_edge/\nDisallow: /mcp\n\nSitemap: {}\n",
        site.index.links().absolute("/sitemap.xml")
    );
    site.out.write(
        "/robots.txt",
        "robots.txt",
        "text/plain; charset=utf-8",
        text.as_bytes(),
    )
}

/// One Atom entry.
pub(super) struct Entry {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) link: String,
    pub(super) updated: Time,
    pub(super) summary: String,
}

/// A feed's own facts.
pub(super) struct FeedHead<'a> {
    pub(super) title: &'a str,
    pub(super) subtitle: &'a str,
    pub(super) self_url: String,
    pub(super) html_url: String,
    pub(super) json_url: Option<String>,
    pub(super) updated: Time,
}

/// Content type of the feeds.
pub(super) const ATOM: &str = "application/atom+xml; charset=utf-8";

pub(super) fn render_feed(head: &FeedHead, entries: &[Entry]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"es-AR\">\n",
    );
    let _ = write!(
        xml,
        "<title>{}</title>\n<subtitle>{}</subtitle>\n<id>{}</id>\n\
         <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n\
         <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
        escape(head.title),
        escape(head.subtitle),
        escape(&head.self_url),
        escape(&head.self_url),
        escape(&head.html_url)
    );
    if let Some(json) = &head.json_url {
        let _ = writeln!(
            xml,
            "<link rel=\"alternate\" type=\"application/json\" href=\"{}\"/>",
            escape(json)
        );
    }
    let _ = write!(
        xml,
        "<updated>{}</updated>\n<author><name>autoprecios</name></author>\n",
        format_time(head.updated)
    );
    for entry in entries {
        let _ = write!(
            xml,
            "<entry>\n<title>{}</title>\n<id>{}</id>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n\
             <updated>{}</updated>\n<summary>{}</summary>\n</entry>\n",
            escape(&entry.title),
            escape(&entry.id),
            escape(&entry.link),
            format_time(entry.updated),
            escape(&entry.summary)
        );
    }
    xml.push_str("</feed>\n");
    xml
}

/// The car's name as every entry title starts: make, model and trim.
pub(super) fn display_name(vehicle: &Vehicle) -> String {
    let trim = vehicle.trim_display.as_deref().unwrap_or(&vehicle.trim);
    format!("{} {} {trim}", vehicle.make, vehicle.model)
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
        summary: format!(
            "{}. Cotización más baja: {}. {}.",
            change_text(change),
            usd(vehicle.current_price_usd),
            comparison_text(vehicle.current_price_usd, &vehicle.comparison)
        ),
    }
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
        subtitle: "Bajas de precio y nuevas oportunidades de autos 0 km de los últimos 7 días.",
        self_url: links.absolute(DEALS_FEED),
        html_url: links.absolute("/"),
        json_url: None,
        updated: site.index.meta().catalogue_observed_at,
    };
    let xml = render_feed(&head, &entries);
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
        let files = sitemap_files(&entries(3), 3, absolute);
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
        let files = sitemap_files(&entries(7), 3, absolute);
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
