//! Render stage, the reference dollar: `/dolar.json`, from which the site's
//! script fills in every page's conversions and rate line, and `/dolar`, the
//! page that names it (where a page read without the script sends its
//! reader). When only the dollar moved, these two files change and no page
//! does (`money.rs`).

use super::feeds::SitemapEntry;
use super::money::{RATE_FILE, RATE_PAGE};
use super::page::{PageMeta, Site};

/// What `dolar.html` shows.
#[derive(serde::Serialize)]
struct RateView {
    /// The rate in words, when the snapshot has one.
    line: Option<String>,
    /// [`RATE_FILE`].
    file: &'static str,
}

/// Writes `/dolar.json` and `/dolar`.
pub fn write_rate(site: &Site) -> anyhow::Result<SitemapEntry> {
    let file = site.money.file();
    // The API's own serializer, as every JSON file of the tree.
    site.out
        .write_json(RATE_FILE, RATE_FILE.trim_start_matches('/'), &file)?;
    let page = PageMeta {
        path: RATE_PAGE.to_owned(),
        title: "Dólar de referencia".to_owned(),
        description: "El tipo de cambio con que autoprecios pasa los precios de los 0 km de \
                      pesos a dólares y de dólares a pesos, con su fecha y su fuente."
            .to_owned(),
        crumbs: super::catalogue_pages::crumbs(&[("/", "Inicio")], "Dólar de referencia"),
        ..PageMeta::default()
    };
    let view = RateView {
        line: file.line,
        file: RATE_FILE,
    };
    site.write_page(&page, "dolar.html", &view)?;
    Ok(SitemapEntry::at(RATE_PAGE, &site.snapshot_at))
}
