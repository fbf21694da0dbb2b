//! Render stage, data downloads: where `/datos` files go and how one is
//! written (its URL, its tree file, its stamp for the next run).

use crate::output::TreeWriter;

use super::package::Written;

/// Site path of the page; the files live under `/datos/`.
pub const DATOS: &str = "/datos";
/// Writes `/datos/<path>` and returns its record; its stamp is noted, for
/// the run that keeps it (`reuse.rs`).
pub fn write_file(
    out: &TreeWriter,
    path: &str,
    content_type: &str,
    bytes: &[u8],
) -> anyhow::Result<Written> {
    let (url, file) = placed(path);
    let etag = out.write_tagged(&url, &file, content_type, bytes)?;
    out.note_stamp(&file);
    Ok(Written {
        path: path.to_owned(),
        bytes: bytes.len(),
        sha256: etag.trim_matches('"').to_owned(),
    })
}

/// The URL and tree file of `/datos/<path>`.
pub fn placed(path: &str) -> (String, String) {
    (
        format!("{DATOS}/{path}"),
        format!("{}/{path}", DATOS.trim_start_matches('/')),
    )
}
