//! Generate stage, its options: what a run reads and writes, and the checks
//! made of them before any work (origins, the MCP Registry entry).

use std::path::PathBuf;

use tracing::warn;

use crate::api::{identity, links};

/// Where the site is served when no base URL is given: the local edge server.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

/// What `generate` reads and writes.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// Snapshot directory.
    pub data: PathBuf,
    /// Destination of the tree.
    pub out: PathBuf,
    /// Origin the site is served from (absolute URLs in responses and pages).
    pub base_url: String,
    /// Origin of the edge server that the CDN proxies parameterised requests to.
    pub edge_origin: String,
    /// Earlier trees kept beside the new one (see `output::publish`).
    pub keep: usize,
    /// Refuse a loopback edge origin with a public base URL instead of
    /// warning.
    pub strict: bool,
    /// The MCP Registry name of `/server.json` (`api::identity`).
    pub mcp_name: Option<String>,
    /// Encode every data download and render every page, keeping none of
    /// the previous tree's (`render::datos::reuse`, `render::site::kept`).
    pub fresh: bool,
    /// Fail after writing this many files (tests of the all-or-nothing swap).
    pub fail_after: Option<usize>,
    /// The process ends when the run does (the command line): what the run
    /// computed is then left to the system instead of being freed: freeing
    /// millions of small allocations kept a core busy after the tree was
    /// published.
    pub exits_after: bool,
}

/// The base URL and the edge origin are absolute http(s) URLs, and a
/// public site does not send its queries to this machine.
pub fn check_origins(options: &GenerateOptions) -> anyhow::Result<()> {
    for (name, origin) in [
        ("--base-url", &options.base_url),
        ("--edge-origin", &options.edge_origin),
    ] {
        if !(origin.starts_with("https://") || origin.starts_with("http://")) {
            anyhow::bail!("{name} must be an absolute http(s) URL, got {origin:?}");
        }
    }
    if is_loopback(&options.edge_origin) && !is_loopback(&options.base_url) {
        let problem = format!(
            "--edge-origin {} is this machine, but --base-url {} is public: the CDN would proxy every search, comparison and /mcp request to an address that only reaches itself; pass the edge host's public origin",
            options.edge_origin, options.base_url
        );
        if options.strict {
            anyhow::bail!("{problem} (refused under --strict)");
        }
        warn!("{problem}");
    }
    Ok(())
}

/// A public site's registry entry is checked before any work: what the
/// registry would refuse. A site on this machine is not for the registry.
pub fn check_registry_entry(options: &GenerateOptions) -> anyhow::Result<()> {
    if is_loopback(&options.base_url) {
        return Ok(());
    }
    for problem in identity::refusals(&registry_entry(options)) {
        let problem = format!("/server.json: the MCP Registry would refuse it: {problem}");
        if options.strict {
            anyhow::bail!("{problem} (refused under --strict)");
        }
        warn!("{problem}");
    }
    Ok(())
}

/// The MCP Registry entry of the site `options` publish (`/server.json`).
pub fn registry_entry(options: &GenerateOptions) -> serde_json::Value {
    let name = identity::registry_name(options.mcp_name.as_deref(), &options.base_url);
    let links = links::Links::new(&options.base_url, std::iter::empty());
    let assets = crate::render::site::assets::asset_paths();
    identity::server_json(&name, &links, &[&assets.favicon, &assets.favicon_png])
}

/// Whether an http(s) origin names this machine (a loopback address or
/// `localhost`), which no one else can reach.
fn is_loopback(origin: &str) -> bool {
    links::is_loopback_host(&links::host_of(origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_are_told_from_public_ones() {
        for local in [
            "http://127.0.0.1:8080",
            "http://localhost:8888",
            "http://[::1]:8080/",
            "http://127.1.2.3",
            "https://edge.localhost",
            "http://0.0.0.0:8080",
        ] {
            assert!(is_loopback(local), "{local}");
        }
        for public in [
            "https://autoprecios.example",
            "https://edge.autoprecios.example:8443",
            "http://192.168.1.10:8080",
            "https://[2001:db8::1]",
            "https://localhost.example",
        ] {
            assert!(!is_loopback(public), "{public}");
        }
    }
}
