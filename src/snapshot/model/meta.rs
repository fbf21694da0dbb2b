//! Snapshot stage, data, `snapshot.json`: the times that anchor every
//! signal, the source, and the licence of the published data.

use serde::{Deserialize, Serialize};

use crate::time::Time;

/// `snapshot.json`: the times that anchor every signal, and the source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotMeta {
    /// Version of the snapshot format; 1.
    pub format_version: u32,
    /// `S`: latest capture anywhere in the snapshot.
    #[serde(with = "crate::time::rfc3339")]
    pub snapshot_at: Time,
    /// `T`: the latest catalogue check, reference time of recent-change windows.
    #[serde(with = "crate::time::rfc3339")]
    pub catalogue_observed_at: Time,
    /// Address of the listing site.
    pub source: String,
    /// Name of the listing site.
    pub site_name: String,
    /// Whether the data is generated rather than scraped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub synthetic: bool,
    /// Free text for maintainers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// Which dollar the quote checks' `arsPerUsd` is (`Banco Nación,
    /// vendedor`), as the site names it; without one, pages say it is the
    /// rate the listing site used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange_rate_source: Option<String>,
    /// The licence the published data is under, the maintainer's choice;
    /// without one, CC BY 4.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_license: Option<DataLicense>,
}

/// A licence of the published data (`snapshot.json`'s `dataLicense`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DataLicense {
    /// Its SPDX identifier (`CC-BY-4.0`, `ODbL-1.0`).
    pub spdx: String,
    /// Its name as readers know it (`CC BY 4.0`).
    pub name: String,
    /// Its text, an https address.
    pub url: String,
}

impl DataLicense {
    /// The licence when `snapshot.json` names none: Creative Commons
    /// Attribution 4.0.
    pub fn default_license() -> DataLicense {
        DataLicense {
            spdx: "CC-BY-4.0".to_owned(),
            name: "CC BY 4.0".to_owned(),
            url: "https://creativecommons.org/licenses/by/4.0/".to_owned(),
        }
    }

    /// Its long title, in Spanish for the default licence (the data
    /// packages' `title`), else its name.
    pub fn title(&self) -> String {
        match *self == DataLicense::default_license() {
            true => "Creative Commons Atribución 4.0 Internacional".to_owned(),
            false => self.name.clone(),
        }
    }

    /// What is wrong with it, as `(field, problem)`, if anything.
    pub fn problem(&self) -> Option<(&'static str, &'static str)> {
        let spdx_ok = !self.spdx.is_empty()
            && self
                .spdx
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
        if !spdx_ok {
            return Some(("spdx", "must be an SPDX identifier such as CC-BY-4.0"));
        }
        if self.name.trim().is_empty() {
            return Some(("name", "must not be empty"));
        }
        let host = self.url.strip_prefix("https://").unwrap_or_default();
        if host.is_empty() || host.contains(char::is_whitespace) {
            return Some(("url", "must be an https address"));
        }
        None
    }
}
