//! Render stage, website: unchanged pages (and version feeds and history
//! files, `render::datos::write_history_csvs`) kept. A page
//! is a function of what it is rendered from: its template, the values it
//! is rendered with, the environment's templates and globals (the money
//! bar, the asset paths), and this program (the filters and the formatter
//! are code; [`crate::program`] names it by its build ID). Their 128-bit
//! XXH3 digest is the page's key (why not a cryptographic hash: see
//! [`KeptPages`]'s `key`). When the previous tree recorded the same key
//! for the same file, and that file still has the bytes it recorded
//! ([`TreeWriter::unchanged`]), the file is hard-linked from it
//! ([`TreeWriter::link`]) instead of being rendered and written again:
//! most version pages are unchanged at the next catalogue check, and
//! rendering and writing them was most of a routine run's site
//! (bench/HISTORY.md, "Unchanged pages kept").
//!
//! The record is `pages-sources.json` beside the tree's manifest: each page
//! file's key and ETag. Every run writes it, a first run and `--fresh`
//! included (computing a key costs a fraction of a render), so the run
//! after any run keeps what it can. A first run, `generate --fresh`, a
//! missing or unreadable record, another key, another build of the program
//! or a file whose bytes no longer match all mean the page is rendered as
//! usual. Keeping a page never changes what is published: its bytes are
//! the ones rendering the same values gives.

use std::sync::OnceLock;

use anyhow::Context;
use minijinja::Environment;
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::api::json::hex;
use crate::output::{Kept, TreeWriter};

/// Name of the record beside a tree's manifest.
pub const RECORD: &str = "pages-sources.json";

/// What a page file was rendered from, and its ETag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Rendered {
    /// Hex XXH3-128 digest of everything the page was rendered from
    /// ([`KeptPages::key`]).
    key: String,
    /// The file's ETag (its quoted hex SHA-256).
    etag: String,
}

/// The previous tree's record of its pages, and this run's.
pub struct KeptPages {
    /// The record, by page file.
    record: Kept<Rendered>,
    /// The digest of the program, the templates and the globals, computed
    /// with the first key (`None` inside when the program cannot be read:
    /// no page is kept nor recorded).
    environment: OnceLock<Option<[u8; 32]>>,
}

impl KeptPages {
    /// The record of the tree `out` replaces.
    pub fn open(out: &TreeWriter) -> Self {
        KeptPages {
            record: out.kept(RECORD),
            environment: OnceLock::new(),
        }
    }

    /// Writes the page at `file` (relative to the public directory) as the
    /// answer to `url`: what `render` gives, or the previous tree's file
    /// when it was rendered from the same. `inputs` are everything `render`
    /// reads besides `env` (the template's name among them): a value left
    /// out would keep a page that changed.
    pub fn write(
        &self,
        out: &TreeWriter,
        env: &Environment,
        (url, file, content_type): (&str, &str, &str),
        inputs: &impl Serialize,
        render: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        let key = self.key(env, inputs)?;
        if let Some(key) = &key
            && self.keep(out, (url, file, content_type), key)?
        {
            return Ok(());
        }
        let text = render()?;
        let etag = out.write_tagged(url, file, content_type, text.as_bytes())?;
        if let Some(key) = key {
            out.note_stamp(file);
            self.record.note(file, Rendered { key, etag })?;
        }
        Ok(())
    }

    /// The key of a page rendered with `env` from `inputs`: the XXH3-128
    /// digest of the environment ([`environment_digest`]) and the inputs in
    /// MessagePack; `None` when the program cannot be read.
    ///
    /// A key is only ever compared with the key the same file had in the
    /// previous tree, and only decides whether the page is rendered again.
    /// Two different inputs of one page meet the same 128-bit digest with a
    /// chance of 2^-128, and making them meet on purpose takes control of
    /// two consecutive snapshots' rows: what a cryptographic hash would add
    /// is out of reach of anyone it could guard against. The keys hash
    /// every page's inputs at every run, a few kilobytes each, where
    /// BLAKE3's per-chunk steps dominate and XXH3 costs a small fraction of
    /// it (bench/HISTORY.md, "Page keys in XXH3").
    fn key(&self, env: &Environment, inputs: &impl Serialize) -> anyhow::Result<Option<String>> {
        let Some(environment) = self.environment.get_or_init(|| environment_digest(env)) else {
            return Ok(None);
        };
        // MessagePack: no field names, no escaping, numbers in binary, so
        // far fewer bytes than JSON's go through the hash; serialized
        // whole first, since a hasher is fast on a buffer and slow on the
        // serializer's many small writes.
        let inputs = rmp_serde::to_vec(inputs).context("the inputs of a page")?;
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(environment);
        hasher.update(&inputs);
        Ok(Some(hex(&hasher.digest128().to_le_bytes())))
    }

    /// Puts the previous tree's `file` in this tree, noted for the next
    /// run, when it was rendered from `key` and still has its recorded
    /// bytes; whether it did.
    fn keep(
        &self,
        out: &TreeWriter,
        (url, file, content_type): (&str, &str, &str),
        key: &str,
    ) -> anyhow::Result<bool> {
        let Some((tree, rendered)) = self
            .record
            .previous(file)
            .filter(|(_, rendered)| rendered.key == key)
        else {
            return Ok(false);
        };
        let Some(unchanged) = out.unchanged(tree, file, &rendered.etag) else {
            return Ok(false);
        };
        out.link(url, file, content_type, unchanged, rendered.etag.clone())?;
        self.record.count_kept();
        self.record.note(file, rendered.clone())?;
        Ok(true)
    }

    /// Writes this run's record beside the new tree's manifest.
    pub fn finish(self, out: &TreeWriter) -> anyhow::Result<()> {
        let (kept, pages) = out.write_kept(RECORD, self.record, false)?;
        info!(kept, pages, "pages kept from the previous tree");
        Ok(())
    }
}

/// The BLAKE3 digest of everything a page's key shares with every other page:
/// this program, every template's name and source, and every global's
/// name and value (its `Debug` form, which shows a map's every entry and
/// names a function). `None` when the program cannot be read.
pub fn environment_digest(env: &Environment) -> Option<[u8; 32]> {
    let program = crate::program::this_program()?;
    let mut hasher = blake3::Hasher::new();
    hasher.update(program);
    let mut templates: Vec<(&str, String)> = env
        .templates()
        .map(|(name, template)| (name, template.source().to_owned()))
        .collect();
    templates.sort_unstable();
    for (name, source) in templates {
        hasher.update(format!("template {}:{name}{}:", name.len(), source.len()).as_bytes());
        hasher.update(source.as_bytes());
    }
    for (name, value) in env.globals() {
        let shown = format!("{value:?}");
        hasher.update(format!("global {}:{name}{}:", name.len(), shown.len()).as_bytes());
        hasher.update(shown.as_bytes());
    }
    Some(*hasher.finalize().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(template: &str, money: &str) -> Environment<'static> {
        let mut env = Environment::new();
        env.add_template_owned("page.html".to_owned(), template.to_owned())
            .expect("template");
        env.add_global(
            "money",
            minijinja::Value::from(minijinja::value::Serde(
                serde_json::json!({ "rate": money }),
            )),
        );
        env
    }

    fn key(env: &Environment, inputs: serde_json::Value) -> String {
        let pages = KeptPages {
            record: Kept::new(None),
            environment: OnceLock::new(),
        };
        pages
            .key(env, &inputs)
            .expect("key")
            .expect("the test program has a build ID")
    }

    #[test]
    fn a_key_follows_the_values_the_templates_and_the_globals() {
        let base = env("{{ a }} {{ money.rate }}", "1450");
        let context = || serde_json::json!(["page.html", { "a": 1, "b": "x" }]);
        let same = key(&base, context());
        assert_eq!(
            key(&env("{{ a }} {{ money.rate }}", "1450"), context()),
            same
        );
        assert_ne!(
            key(
                &base,
                serde_json::json!(["page.html", { "a": 2, "b": "x" }])
            ),
            same
        );
        assert_ne!(
            key(
                &base,
                serde_json::json!(["other.html", { "a": 1, "b": "x" }])
            ),
            same
        );
        // A value the template does not show still counts: the key does
        // not read the template.
        assert_ne!(
            key(&base, serde_json::json!(["page.html", { "a": 1 }])),
            same
        );
        assert_ne!(
            key(&env("{{ a }}  {{ money.rate }}", "1450"), context()),
            same
        );
        assert_ne!(
            key(&env("{{ a }} {{ money.rate }}", "1451"), context()),
            same
        );
        // A global added, whatever its name.
        let mut more = env("{{ a }} {{ money.rate }}", "1450");
        more.add_global("assets", minijinja::Value::from("/a.css"));
        assert_ne!(key(&more, context()), same);
    }
}
