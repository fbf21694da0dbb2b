//! Render stage, website: what every page writer shares: the template
//! environment's site filters and globals, [`Site`] (the catalogue, the
//! templates and the tree being written) and a page's head facts
//! ([`PageMeta`]), and how a page is written or kept.

use minijinja::value::Serde;

use minijinja::{Environment, context};
use serde::Serialize;

use crate::api::Index;
use crate::api::types::Listed;
use crate::catalogue::{Catalogue, Vehicle};
use crate::output::TreeWriter;
use crate::snapshot::{Snapshot, Version};
use crate::time::format_time;

use super::{assets, cards, kept, money};

/// The most versions of a parallel loop over them (pages, feeds, files)
/// that one task takes
/// without offering the rest to other threads. Rayon otherwise cuts a loop
/// into as many pieces as there are threads (and a piece again only when
/// another thread takes it); a core that finishes a step beside the loop
/// then found nothing to take, and a whole piece ran on one core to the end
/// (bench/HISTORY.md, "Rivals hashed once, freed pages kept a second").
pub const PIECE: usize = 64;

/// Content type of every page.
pub use crate::headers::HTML;

/// Adds the asset paths (`assets.css`, `assets.js`,
/// `assets.favicon`) and the `fecha` filter (RFC 3339 to Argentine date and
/// time) to the environment every page and document renders with.
pub fn configure(env: &mut Environment<'static>) {
    env.add_global(
        "assets",
        minijinja::Value::from(Serde(assets::asset_paths())),
    );
    env.add_filter("fecha", |text: String| {
        crate::time::parse_time(&text).map_or(text, crate::format::date_time)
    });
    // Text with its amounts and percentages unbreakable (escaped here, so
    // the result is safe markup).
    env.add_filter("cifras", |text: String| {
        minijinja::Value::from_safe_string(crate::html::escape_keeping_figures(&text))
    });
    // An amount in the other currency (`money::Conversion`), as the element
    // the site's script fills in.
    env.add_filter(
        "conversion",
        |conversion: minijinja::Value| -> Result<minijinja::Value, minijinja::Error> {
            let field = |name: &str| conversion.get_attr(name).map(|value| value.to_string());
            Ok(minijinja::Value::from_safe_string(
                money::conversion_markup(&field("to")?, &field("value")?),
            ))
        },
    );
}

/// Puts the money bar of `meta` (the synthetic notice and the reference
/// dollar, under the header of every page, docs included) into the
/// templates' globals.
pub fn set_money_bar(env: &mut Environment<'static>, meta: &crate::catalogue::CatalogueMeta) {
    env.add_global(
        "money",
        minijinja::Value::from(Serde(money::Money::of(meta).bar())),
    );
}

/// What every page writer shares: the catalogue, the templates, the tree.
pub struct Site<'a> {
    /// The indexed catalogue.
    pub index: &'a Index,
    /// The catalogue it indexes (a version's position is the same in both).
    pub catalogue: &'a Catalogue,
    /// The snapshot it was computed from (the data downloads, the feeds' events).
    pub snapshot: &'a Snapshot,
    /// The templates.
    pub env: &'a Environment<'a>,
    /// The tree being written.
    pub out: &'a TreeWriter,
    /// `snapshotAt`, RFC 3339 (shown on every page through `fecha`).
    pub snapshot_at: String,
    /// The reference dollar and the snapshot facts every price view reads.
    pub money: money::Money,
    /// The previous tree's pages this run may keep, and this run's record.
    pub pages: &'a kept::KeptPages,
    /// The latest final month's report, for the home page: its page, its
    /// month in words and its headline.
    pub latest_report: Option<(String, String, String)>,
}

/// Head, navigation and indexing facts of one page.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageMeta {
    /// Site path (`/versiones/x`, `/404.html`).
    pub path: String,
    /// `<title>` before ` · autoprecios`.
    pub title: String,
    /// A whole `<title>` instead (the home page).
    pub full_title: Option<String>,
    /// Meta and Open Graph description.
    pub description: String,
    /// `robots` meta value (`noindex` on the 404 page).
    pub robots: Option<&'static str>,
    /// schema.org JSON-LD, already escaped by [`json_for_script`].
    pub jsonld: Option<String>,
    /// Atom feed of the page: (absolute URL, title).
    pub feed: Option<(String, String)>,
    /// Which script feature the page runs (`buscar`, `comparar`).
    pub kind: &'static str,
    /// Breadcrumbs: (path, label), the page itself last without a path.
    pub crumbs: Vec<(Option<String>, String)>,
}

impl<'a> Site<'a> {
    /// The site of a catalogue, its index and snapshot, written into `out`.
    pub fn new(
        index: &'a Index,
        catalogue: &'a Catalogue,
        snapshot: &'a Snapshot,
        env: &'a Environment<'a>,
        out: &'a TreeWriter,
        pages: &'a kept::KeptPages,
    ) -> Self {
        Site {
            index,
            catalogue,
            snapshot,
            env,
            out,
            snapshot_at: format_time(index.meta().snapshot_at),
            money: money::Money::of(index.meta()),
            pages,
            latest_report: None,
        }
    }

    /// The snapshot's record of a published version (the snapshot and the
    /// catalogue both hold versions in ID order).
    pub fn version(&self, id: &str) -> Option<&'a Version> {
        let versions = &self.snapshot.versions;
        versions
            .binary_search_by(|version| version.id.as_str().cmp(id))
            .ok()
            .map(|index| &versions[index])
    }

    /// Every published version, in ID order.
    pub fn vehicles(&self) -> &[Vehicle] {
        &self.catalogue.vehicles
    }

    /// The card of a version an API answer listed.
    pub fn card(&self, listed: &Listed) -> cards::Card {
        self.card_at(listed.position)
    }

    /// The card of the version at `position` in the catalogue.
    pub fn card_at(&self, position: u32) -> cards::Card {
        cards::card(&self.catalogue.vehicles[position as usize], &self.money)
    }

    /// Renders `template` with the page's head facts and `data` merged in,
    /// and writes it at the page's path (`<path>/index.html`), or keeps the
    /// previous tree's page when it was rendered from the same
    /// ([`kept::KeptPages`]).
    pub fn write_page<T: Serialize>(
        &self,
        meta: &PageMeta,
        template: &str,
        data: &T,
    ) -> anyhow::Result<()> {
        self.write_page_with(meta, template, data, || data)
    }

    /// [`Site::write_page`] for a page whose data is costly to finish:
    /// keyed on `key`, which must determine what `data` gives (`data` is
    /// only called when the page is rendered, not kept).
    pub fn write_page_with<K: Serialize, T: Serialize>(
        &self,
        meta: &PageMeta,
        template: &str,
        key: &K,
        data: impl FnOnce() -> T,
    ) -> anyhow::Result<()> {
        let links = self.index.links();
        let snapshot_date = catalogue_wide(&meta.path).then_some(&self.snapshot_at);
        let file = page_file(&meta.path);
        // Everything the context below is made of.
        let inputs = (template, meta, links.base(), snapshot_date, key);
        self.pages.write(
            self.out,
            self.env,
            (&meta.path, &file, HTML),
            &inputs,
            || {
                let data = data();
                let context = context! {
                    title => &meta.title,
                    description => &meta.description,
                    canonical => links.absolute(&meta.path),
                    base => links.base(),
                    snapshot_date,
                    page => Serde(meta),
                    ..minijinja::Value::from(Serde(&data))
                };
                Ok(self.env.get_template(template)?.render(context)?)
            },
        )
    }
}

/// Whether a page speaks for the whole catalogue, and so says when the
/// data is from. Version and model pages say when each of their versions
/// was checked instead, so that a page changes only when what it shows
/// changes (and a deploy uploads only those).
/// A month's report says when its own data is from (a final month's page
/// never changes).
fn catalogue_wide(path: &str) -> bool {
    !(path.starts_with("/versiones/")
        || path.starts_with("/modelos/")
        || path.starts_with("/informes/"))
}

/// The file of a page path: `/` -> `index.html`, `/404.html` as it is,
/// `/a/b` -> `a/b/index.html`.
pub fn page_file(path: &str) -> String {
    let relative = path.trim_start_matches('/');
    if relative.is_empty() {
        "index.html".to_owned()
    } else if relative.ends_with(".html") {
        relative.to_owned()
    } else {
        format!("{relative}/index.html")
    }
}

/// A link target from catalogue data, only when it is an http(s) URL: a
/// `javascript:` or `data:` address must never become a link.
pub fn safe_href(url: &str) -> Option<String> {
    let lower = url.trim().to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://")).then(|| url.trim().to_owned())
}

/// JSON for a `<script type="application/ld+json">` (or any data island):
/// `<`, `>` and `&` become `\u003c`, `\u003e`, `\u0026`, which JSON reads as
/// the same characters but which cannot close the element or start a
/// comment. They only occur inside strings, so the JSON keeps its meaning.
pub fn json_for_script(value: &serde_json::Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Site paths of the Markdown documents (rendered by the docs step).
pub fn docs_paths() -> Vec<&'static str> {
    crate::render::docs::DOCS
        .iter()
        .map(|doc| doc.path)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_its_element() {
        let value = serde_json::json!({"name": "</script><!-- & \u{2028}"});
        let text = json_for_script(&value);
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(back, value);
    }

    #[test]
    fn only_web_addresses_become_links() {
        assert_eq!(
            safe_href("https://a.example/x").as_deref(),
            Some("https://a.example/x")
        );
        assert_eq!(safe_href(" JavaScript:alert(1)"), None);
        assert_eq!(safe_href("data:text/html,x"), None);
        assert_eq!(page_file("/"), "index.html");
        assert_eq!(page_file("/404.html"), "404.html");
        assert_eq!(page_file("/modelos/a/b"), "modelos/a/b/index.html");
    }
}
