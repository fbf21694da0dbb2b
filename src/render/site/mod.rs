//! Render stage, website: the public Spanish (es-AR) site rendered into the
//! same tree as the API with the minijinja templates in `templates/` (named
//! `*.html`, so every catalogue string is escaped). Reads the indexed
//! catalogue through the API's own endpoint functions and writes every page,
//! feed and asset through [`TreeWriter::write`](crate::output::TreeWriter::write)
//! with its URL.
//!
//! Pages: `/` (deals), `/ofertas`, `/ofertas/bajas` and `/ofertas/nuevas`
//! (every deal, pages of 100), `/modelos` (every make and model), `/modelos/{make}`,
//! `/modelos/{make}/{model}`, `/versiones/{id}` (with its Atom data feed at
//! `/versiones/{id}/feed.xml` and its chart's data at
//! `/versiones/{id}/historial.csv`), `/buscar`, `/comparar`, `/404.html`;
//! plus `/feeds/ofertas.xml`, `/sitemap.xml`, `/robots.txt` and the hashed
//! assets. The data downloads and `/datos` are `render::datos`'.

pub mod assets;
pub mod cards;
pub mod catalogue_pages;
pub mod chart;
pub mod deals;
pub mod feeds;
pub mod fragments;
pub mod kept;
pub mod labels;
pub mod money;
pub mod page;
pub mod rate;
pub mod rivals;
pub mod shells;
pub mod specs;
pub mod version;
pub mod version_feed;

pub use page::{
    HTML, PIECE, PageMeta, Site, configure, json_for_script, page_file, safe_href, set_money_bar,
};

use feeds::SitemapEntry;

/// Writes the whole site, with `extra` pages (written by other steps) in its
/// sitemap; returns the number of pages written.
pub fn write_site(site: &Site, extra: &[SitemapEntry]) -> anyhow::Result<usize> {
    assets::write_assets(site.out)?;
    let mut pages = vec![catalogue_pages::write_home(site)?];
    pages.extend(deals::write_deal_pages(site)?);
    pages.extend(catalogue_pages::write_catalogue_pages(site)?);
    // The edge's fragments end in one long serial write: beside the
    // version pages, the other cores are not left idle through it.
    let (versions, fragments) = rayon::join(
        || version::write_versions(site),
        || fragments::write_fragments(site),
    );
    pages.extend(versions?);
    fragments?;
    let query_pages = shells::write_query_pages(site)?;
    let unlisted = crate::api::site_pages::ALL.len() - query_pages.len();
    pages.extend(query_pages);
    pages.push(rate::write_rate(site)?);
    shells::write_not_found(site)?;
    feeds::write_deals_feed(site)?;
    pages.extend(extra.iter().cloned());
    feeds::write_sitemap(site, &pages)?;
    feeds::write_robots(site)?;
    // The 404 page and the query pages the sitemap leaves out.
    Ok(pages.len() + unlisted + 1)
}
