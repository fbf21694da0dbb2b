//! API stage, links: every absolute URL a response carries (site pages, docs,
//! OpenAPI, MCP), built from the one configured base URL.

use std::collections::BTreeMap;

use crate::api::page_id::page_path;
pub use crate::api::text::percent_encode;
use crate::api::text::{fold, slug};

/// Absolute URLs of the service, from its base URL.
#[derive(Debug, Clone, PartialEq)]
pub struct Links {
    base: String,
    /// Folded (make, model) to the model page's path segments.
    model_slugs: BTreeMap<(String, String), (String, String)>,
}

impl Links {
    /// Links under `base_url` (trailing slashes ignored), with unique model
    /// page slugs for every model of the catalogue.
    /// `models` are the (make, model) pairs of every version, in ID order.
    pub fn new<'a>(base_url: &str, models: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut model_slugs = BTreeMap::new();
        let mut taken = std::collections::BTreeSet::new();
        for (make, model) in models {
            let key = (fold(make), fold(model));
            if model_slugs.contains_key(&key) {
                continue;
            }
            let (make, model) = (slug(make), slug(model));
            // Two models that slug alike ("C-3" and "C3") get -2, -3, ...
            let mut candidate = (make.clone(), model.clone());
            let mut n = 2;
            while taken.contains(&candidate) {
                candidate = (make.clone(), format!("{model}-{n}"));
                n += 1;
            }
            taken.insert(candidate.clone());
            model_slugs.insert(key, candidate);
        }
        Links {
            base: base_url.trim_end_matches('/').to_owned(),
            model_slugs,
        }
    }

    /// The base URL, without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// An absolute URL for a site path starting with `/`.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The methodology page.
    pub fn methodology(&self) -> String {
        self.absolute("/metodologia")
    }

    /// The developer guide.
    pub fn documentation(&self) -> String {
        self.absolute("/developers")
    }

    /// The OpenAPI description.
    pub fn openapi(&self) -> String {
        self.absolute("/openapi.json")
    }

    /// The MCP endpoint.
    pub fn mcp(&self) -> String {
        self.absolute("/mcp")
    }

    /// Site path of a version's page (readable and reversible: see
    /// [`crate::api::page_id`]).
    pub fn vehicle_path(id: &str) -> String {
        format!("/versiones/{}", page_path(id))
    }

    /// A version's canonical page.
    pub fn vehicle(&self, id: &str) -> String {
        self.absolute(&Self::vehicle_path(id))
    }

    /// A version's Atom data feed (current lowest quote, recent changes,
    /// weekly averages), beside its page.
    pub fn vehicle_feed(&self, id: &str) -> String {
        self.absolute(&format!("{}/feed.xml", Self::vehicle_path(id)))
    }

    /// Site path of a model's page (make and model as in the catalogue).
    pub fn model_path(&self, make: &str, model: &str) -> String {
        match self.model_slugs.get(&(fold(make), fold(model))) {
            Some((make, model)) => format!("/modelos/{make}/{model}"),
            None => format!("/modelos/{}/{}", slug(make), slug(model)),
        }
    }

    /// A model's page.
    pub fn model(&self, make: &str, model: &str) -> String {
        self.absolute(&self.model_path(make, model))
    }

    /// The API path of a version's record (`/api/v1/vehicles/{id}`, the
    /// ID percent-encoded as one segment).
    pub fn vehicle_api_path(id: &str) -> String {
        ["/api/v1/vehicles/", &percent_encode(id)].concat()
    }
}

/// The host of a URL or an origin, lowercase, without user, port or the
/// brackets of an IPv6 address: `https://u@[::1]:8080/x` gives `::1`.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = match host.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    host.to_ascii_lowercase()
}

/// Whether a host (as [`host_of`] gives it) is this machine: `localhost`,
/// a name under `.localhost`, or a loopback or unspecified address.
pub fn is_loopback_host(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unreserved_characters_stay_as_they_are() {
        assert_eq!(percent_encode("Az09-._~"), "Az09-._~");
        assert_eq!(percent_encode("a b/c,d%"), "a%20b%2Fc%2Cd%25");
        assert_eq!(percent_encode("Citroën+"), "Citro%C3%ABn%2B");
    }
}
