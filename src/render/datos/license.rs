//! Render stage, data downloads: the licence of the published data and
//! where a reader reads it.

use crate::render::site::Site;
use crate::snapshot::DataLicense;

/// The licence of the published data: `snapshot.json`'s `dataLicense`,
/// the maintainer's choice, or CC BY 4.0 (the code's MIT licence does not
/// cover data).
pub fn data_license(site: &Site) -> DataLicense {
    site.snapshot
        .meta
        .data_license
        .clone()
        .unwrap_or_else(DataLicense::default_license)
}

/// Where a reader of the page reads `license`: the Spanish deed of the
/// default licence, else its own address.
pub fn license_page(license: &DataLicense) -> String {
    match *license == DataLicense::default_license() {
        true => "https://creativecommons.org/licenses/by/4.0/deed.es".to_owned(),
        false => license.url.clone(),
    }
}
