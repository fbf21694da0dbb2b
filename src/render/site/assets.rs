//! Render stage, site assets: the hand-written stylesheet, script and
//! favicon from `assets/`, compiled in and published under content-hashed
//! names (`/assets/site.3f2a9c1e.css`, the first eight hex digits of the
//! SHA-256 of the bytes), so they can be cached for a year: a change gives a
//! new name. The favicon is the site's mark; a PNG of it is drawn from the
//! same SVG (resvg) for the MCP Registry and the hosts that take no SVG.

use std::sync::OnceLock;

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
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// The stylesheet.
pub const STYLESHEET: Asset = Asset {
    stem: "site",
    extension: "css",
    bytes: include_bytes!("../../../assets/site.css"),
};

/// The script that runs search and compare.
pub const SCRIPT: Asset = Asset {
    stem: "site",
    extension: "js",
    bytes: include_bytes!("../../../assets/site.js"),
};

/// The favicon.
pub const FAVICON: Asset = Asset {
    stem: "favicon",
    extension: "svg",
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

/// The mark as a square PNG of [`MARK_PNG_SIDE`](crate::api::identity::MARK_PNG_SIDE)
/// pixels, drawn once from [`FAVICON`]: the same SVG gives the same bytes.
pub fn favicon_png() -> Asset {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    let bytes = PNG.get_or_init(|| {
        draw_png(FAVICON.bytes, crate::api::identity::MARK_PNG_SIDE)
            .expect("invariant: the compiled-in mark is an SVG resvg draws (tested)")
    });
    Asset {
        stem: "favicon",
        extension: "png",
        bytes,
    }
}

/// `svg` drawn to fit a square of `side` pixels, as PNG bytes.
fn draw_png(svg: &[u8], side: u32) -> anyhow::Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_data(svg, &usvg::Options::default())?;
    let mut pixmap = tiny_skia::Pixmap::new(side, side)
        .ok_or_else(|| anyhow::anyhow!("a {side} px square is no pixmap"))?;
    let size = tree.size();
    let scale = side as f32 / size.width().max(size.height());
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap.encode_png()?)
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
    /// The favicon as a PNG.
    pub favicon_png: String,
}

/// The published paths of every asset.
pub fn asset_paths() -> AssetPaths {
    AssetPaths {
        css: STYLESHEET.path(),
        js: SCRIPT.path(),
        favicon: FAVICON.path(),
        favicon_png: favicon_png().path(),
    }
}

/// Writes every asset under its hashed name.
pub fn write_assets(out: &TreeWriter) -> anyhow::Result<()> {
    for asset in [STYLESHEET, SCRIPT, FAVICON, favicon_png()] {
        let path = asset.path();
        out.write(
            &path,
            path.trim_start_matches('/'),
            crate::headers::content_type_of(&path),
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

    #[test]
    fn the_png_mark_is_the_svg_drawn_square_in_its_colours() {
        let png = favicon_png();
        let first = draw_png(FAVICON.bytes, 512).expect("drawn");
        assert_eq!(png.bytes, first.as_slice(), "the same bytes every time");
        assert_eq!(&png.bytes[..8], b"\x89PNG\r\n\x1a\n");
        let image = resvg::tiny_skia::Pixmap::decode_png(png.bytes).expect("a PNG");
        assert_eq!((image.width(), image.height()), (512, 512));
        // The mark's blue at its centre-left edge band, its white shape in
        // the middle, and its rounded corner left clear.
        let at = |x: u32, y: u32| {
            let p = image.pixel(x, y).expect("inside");
            (p.red(), p.green(), p.blue(), p.alpha())
        };
        assert_eq!(at(40, 256), (0x0b, 0x4f, 0x9c, 255));
        assert_eq!(at(256, 300), (255, 255, 255, 255));
        assert_eq!(at(0, 0).3, 0, "the corner is rounded off");
        assert!(favicon_png().path().ends_with(".png"));
    }
}
