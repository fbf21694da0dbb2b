//! Render stage, site assets: the hand-written stylesheet, script and
//! favicon from `assets/`, compiled in and published under content-hashed
//! names (`/assets/site.3f2a9c1e.css`, the first eight hex digits of the
//! SHA-256 of the bytes), so they can be cached for a year: a change gives a
//! new name.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::output::TreeWriter;

/// One static asset.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// File stem (`site`).
    pub stem: &'static str,
    /// File extension (`css`).
    pub extension: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// The stylesheet.
pub const STYLESHEET: Asset = Asset {
    stem: "site",
    extension: "css",
    content_type: "text/css; charset=utf-8",
    bytes: include_bytes!("../../../assets/site.css"),
};

/// The script that runs search and compare.
pub const SCRIPT: Asset = Asset {
    stem: "site",
    extension: "js",
    content_type: "text/javascript; charset=utf-8",
    bytes: include_bytes!("../../../assets/site.js"),
};

/// The favicon.
pub const FAVICON: Asset = Asset {
    stem: "favicon",
    extension: "svg",
    content_type: "image/svg+xml",
    bytes: include_bytes!("../../../assets/favicon.svg"),
};

impl Asset {
    /// Its published path: `/assets/<stem>.<hash>.<extension>`.
    pub fn path(&self) -> String {
        let digest = Sha256::digest(self.bytes);
        let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        format!("/assets/{}.{hash}.{}", self.stem, self.extension)
    }
}

/// The published paths, as the templates see them (`assets.css`, ...).
#[derive(Debug, Clone, Serialize)]
pub struct AssetPaths {
    /// Stylesheet.
    pub css: String,
    /// Script.
    pub js: String,
    /// Favicon.
    pub favicon: String,
}

/// The published paths of every asset.
pub fn asset_paths() -> AssetPaths {
    AssetPaths {
        css: STYLESHEET.path(),
        js: SCRIPT.path(),
        favicon: FAVICON.path(),
    }
}

/// Writes every asset under its hashed name.
pub fn write_assets(out: &TreeWriter) -> anyhow::Result<()> {
    for asset in [STYLESHEET, SCRIPT, FAVICON] {
        let path = asset.path();
        out.write(
            &path,
            path.trim_start_matches('/'),
            asset.content_type,
            asset.bytes,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_a_content_hash() {
        let path = STYLESHEET.path();
        let hash = path
            .strip_prefix("/assets/site.")
            .and_then(|rest| rest.strip_suffix(".css"))
            .expect("shape");
        assert_eq!(hash.len(), 8);
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(SCRIPT.path(), FAVICON.path());
    }
}
