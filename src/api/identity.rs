//! API stage, the service's identity as an MCP server: one source for what
//! `/mcp` says of itself (`initialize`'s `serverInfo`) and for the MCP
//! Registry's entry, `/server.json` (schema 2025-12-11, vendored with its
//! facts in `../shared/vendor/mcp-registry/`): name, title, version,
//! description, website, icon and the one `streamable-http` remote at
//! `{base}/mcp`.
//!
//! The registry's name is the maintainer's (`generate --mcp-name`:
//! `io.github.<owner>/<name>`, or the reverse-DNS of a domain they prove);
//! without it, the reverse-DNS of `--base-url`'s host. [`refusals`] says
//! what the registry would refuse of an entry, which `generate --strict`
//! turns into an error.

use serde_json::{Value, json};

use crate::api::links::{Links, host_of, is_loopback_host};

/// The server's name in `serverInfo`, and the registry name's last part.
pub const NAME: &str = "autoprecios";

/// Its title, for people.
pub const TITLE: &str = "autoprecios: new-car prices in Argentina";

/// What it does, in at most 100 characters (the registry's limit).
pub const DESCRIPTION: &str =
    "New-car dealer prices in Argentina: usual price, drops, deals and a monthly price index.";

/// Its version: the program's.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Site path of the registry entry.
pub const SERVER_JSON_PATH: &str = "/server.json";

/// The registry schema the entry follows (`$schema`).
pub const SERVER_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The registry name: `given`, or `<host reversed>/autoprecios` from the
/// base URL's host (`precios.example.com` gives
/// `com.example.precios/autoprecios`; an IP address gives
/// `localhost/autoprecios`).
pub fn registry_name(given: Option<&str>, base_url: &str) -> String {
    if let Some(given) = given {
        return given.to_owned();
    }
    let host = host_of(base_url);
    // An address, not a name: a tree on this machine, not for the registry.
    if host.parse::<std::net::IpAddr>().is_ok() {
        return format!("localhost/{NAME}");
    }
    let mut labels: Vec<String> = host
        .split('.')
        .map(|label| {
            label
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect()
        })
        .filter(|label: &String| !label.is_empty())
        .collect();
    labels.reverse();
    format!("{}/{NAME}", labels.join("."))
}

/// Side of the PNG drawn from the site's mark, in pixels.
pub const MARK_PNG_SIDE: u32 = 512;

/// An icon of the site's mark at site path `path`: its address, type and
/// sizes, as MCP's `Icon` and the registry's `icons` take them (the SVG
/// first, any size; then the PNG); `None` for another kind of file.
pub fn mark_icon(links: &Links, path: &str) -> Option<(String, &'static str, String)> {
    let (mime_type, sizes) = match path.rsplit('.').next()? {
        "svg" => (crate::headers::SVG, "any".to_owned()),
        "png" => (
            crate::headers::PNG,
            format!("{MARK_PNG_SIDE}x{MARK_PNG_SIDE}"),
        ),
        _ => return None,
    };
    Some((links.absolute(path), mime_type, sizes))
}

/// The icons of the site's marks at `paths`, SVG first.
pub fn mark_icons(links: &Links, paths: &[&str]) -> Vec<(String, &'static str, String)> {
    let mut icons: Vec<_> = paths.iter().filter_map(|p| mark_icon(links, p)).collect();
    icons.sort_by_key(|(_, mime_type, _)| *mime_type != crate::headers::SVG);
    icons
}

/// The registry entry of the service at `links`' base URL under `name`,
/// with the site's marks at `icons` (site paths) when the base URL is
/// https (the registry takes https icons only).
pub fn server_json(name: &str, links: &Links, icons: &[&str]) -> Value {
    let https = links.base().starts_with("https://");
    let mut entry = json!({
        "$schema": SERVER_SCHEMA,
        "name": name,
        "title": TITLE,
        "description": DESCRIPTION,
        "version": VERSION,
        "websiteUrl": links.base(),
        "remotes": [{"type": "streamable-http", "url": links.mcp()}],
    });
    if https {
        let icons: Vec<Value> = mark_icons(links, icons)
            .into_iter()
            .map(|(src, mime_type, sizes)| json!({"src": src, "mimeType": mime_type, "sizes": [sizes]}))
            .collect();
        entry["icons"] = json!(icons);
    }
    entry
}

/// What the registry would refuse of `entry`: a name outside its pattern,
/// a description over 100 characters, `latest` or a version range, a
/// remote that is not https or that is a loopback or private address.
pub fn refusals(entry: &Value) -> Vec<String> {
    let text = |key: &str| entry[key].as_str().unwrap_or_default();
    let mut refused = Vec::new();
    let name = text("name");
    let name_ok = name.len() >= 3
        && name.len() <= 200
        && name.split('/').count() == 2
        && name.split_once('/').is_some_and(|(namespace, server)| {
            !namespace.is_empty()
                && !server.is_empty()
                && namespace
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
                && server
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        });
    if !name_ok {
        refused.push(format!(
            "name {name:?} is not a reverse-DNS namespace, one `/` and a server name"
        ));
    }
    let description = text("description").chars().count();
    if !(1..=100).contains(&description) {
        refused.push(format!(
            "the description has {description} characters (1 to 100)"
        ));
    }
    let version = text("version");
    let range = version.starts_with(['^', '~', '>', '<', '='])
        || version
            .split('.')
            .any(|part| matches!(part, "*" | "x" | "X"));
    if version.is_empty() || version == "latest" || range {
        refused.push(format!("version {version:?} is not one release"));
    }
    for remote in entry["remotes"].as_array().into_iter().flatten() {
        let url = remote["url"].as_str().unwrap_or_default();
        let host = url.strip_prefix("https://").map(host_of);
        match host {
            None => refused.push(format!("remote {url:?} is not https")),
            Some(host) if is_private(&host) => {
                refused.push(format!("remote {url:?} is a loopback or private address"));
            }
            Some(_) => {}
        }
    }
    refused
}

/// Whether `host` (as [`host_of`] gives it) is this machine, or a private
/// or link-local address.
fn is_private(host: &str) -> bool {
    is_loopback_host(host)
        || match host.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => ip.is_private() || ip.is_link_local(),
            Ok(std::net::IpAddr::V6(ip)) => (ip.segments()[0] & 0xfe00) == 0xfc00,
            Err(_) => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(base: &str) -> Links {
        Links::new(base, std::iter::empty())
    }

    #[test]
    fn the_name_is_given_or_the_base_urls_host_reversed() {
        assert_eq!(
            registry_name(Some("io.github.someone/autoprecios"), "https://x.example"),
            "io.github.someone/autoprecios"
        );
        assert_eq!(
            registry_name(None, "https://precios.example.com/sub"),
            "com.example.precios/autoprecios"
        );
        for base in [
            "http://localhost:8080",
            "http://127.0.0.1:8080",
            "http://[::1]:8080",
        ] {
            assert_eq!(registry_name(None, base), "localhost/autoprecios", "{base}");
        }
    }

    #[test]
    fn a_public_https_entry_has_nothing_refused() {
        let entry = server_json(
            "com.example.precios/autoprecios",
            &links("https://precios.example.com"),
            &[
                "/assets/favicon.9abcdef0.png",
                "/assets/favicon.12345678.svg",
            ],
        );
        assert_eq!(refusals(&entry), Vec::<String>::new());
        assert_eq!(
            entry["remotes"][0]["url"],
            "https://precios.example.com/mcp"
        );
        assert_eq!(
            entry["icons"][0]["src"],
            "https://precios.example.com/assets/favicon.12345678.svg"
        );
        assert_eq!(entry["icons"][1]["mimeType"], "image/png");
        assert_eq!(entry["icons"][1]["sizes"], json!(["512x512"]));
        assert!(DESCRIPTION.chars().count() <= 100);
    }

    #[test]
    fn each_kind_of_entry_the_registry_refuses_is_named() {
        let good = server_json(
            "com.example/autoprecios",
            &links("https://precios.example.com"),
            &["/i.svg"],
        );
        let refused = |edit: &dyn Fn(&mut Value)| {
            let mut entry = good.clone();
            edit(&mut entry);
            refusals(&entry)
        };
        for name in ["autoprecios", "a/b/c", "com example/x", "/x", "co"] {
            assert_eq!(refused(&|e| e["name"] = json!(name)).len(), 1, "{name}");
        }
        assert_eq!(
            refused(&|e| e["description"] = json!("x".repeat(101))).len(),
            1
        );
        assert_eq!(
            refused(&|e| e["description"] = json!("x".repeat(100))).len(),
            0
        );
        for version in ["latest", "^1.2.3", "~1.2", ">=1.0", "1.x", "1.*", ""] {
            assert_eq!(
                refused(&|e| e["version"] = json!(version)).len(),
                1,
                "{version}"
            );
        }
        assert_eq!(refused(&|e| e["version"] = json!("2.1.0-alpha")).len(), 0);
        let local = server_json(
            "com.example/autoprecios",
            &links("http://127.0.0.1:8080"),
            &["/i.svg"],
        );
        assert_eq!(refusals(&local).len(), 1, "not https");
        for base in [
            "https://127.0.0.1",
            "https://localhost:8443",
            "https://10.0.0.5",
            "https://[::1]",
        ] {
            let entry = server_json("com.example/autoprecios", &links(base), &["/i.svg"]);
            assert_eq!(refusals(&entry).len(), 1, "{base}");
        }
        assert!(local.get("icons").is_none(), "no icon but https");
    }
}
