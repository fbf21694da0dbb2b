//! Render stage, data downloads: `/datos/CITATION.cff`, how to cite this
//! publication of the data in the Citation File Format 1.2.0 (reference
//! managers, Zenodo and GitHub read it): the dataset, its address, the day
//! of its snapshot as its release and version, its licence, and the same
//! abstract as the `/datos` page's schema.org `Dataset`. The repository's
//! own `CITATION.cff` cites the program.

use super::place::DATOS;
use crate::api::links::Links;
use crate::snapshot::DataLicense;
use crate::time::Time;

/// Site path of the file.
pub const CITATION_PATH: &str = "/datos/CITATION.cff";

/// The dataset's title.
pub const TITLE: &str = "autoprecios: precios de autos 0 km en concesionarias de la Argentina";

/// The `CITATION.cff` of the data published from a snapshot taken at
/// `snapshot_at` under `license` (synthetic data says so in its abstract).
pub fn citation_cff(
    links: &Links,
    snapshot_at: Time,
    synthetic: bool,
    license: &DataLicense,
) -> String {
    // The snapshot's day in Argentina, as the `/datos` page dates it.
    let day = snapshot_at
        .with_timezone(&crate::time::argentina())
        .format("%Y-%m-%d")
        .to_string();
    let note = match synthetic {
        true => " Datos de ejemplo: los precios son inventados.",
        false => "",
    };
    let text = |value: &str| serde_json::to_string(value).expect("invariant: text is JSON");
    // YAML is a superset of JSON's strings: each value is written as one.
    format!(
        "cff-version: 1.2.0\n\
         message: {}\n\
         type: dataset\n\
         title: {}\n\
         authors:\n  - name: autoprecios\n\
         abstract: {}\n\
         url: {}\n\
         license: {}\n\
         version: {}\n\
         date-released: {}\n\
         keywords:\n  - precios\n  - autos 0 km\n  - concesionarias\n  - Argentina\n",
        text("Si usás estos datos, citalos así."),
        text(TITLE),
        text(&format!(
            "Precios de contado de concesionarias por versión, con su precio habitual, \
             bajas y oportunidades, historial y precios de catálogo.{note}"
        )),
        text(&links.absolute(DATOS)),
        license.spdx,
        text(&day),
        day,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_time;

    #[test]
    fn the_citation_names_the_dataset_its_day_and_its_licence() {
        let links = Links::new("https://autoprecios.example", std::iter::empty());
        let at = parse_time("2026-11-21T23:40:00Z").expect("time");
        let cff = citation_cff(&links, at, true, &DataLicense::default_license());
        for line in [
            "cff-version: 1.2.0",
            "type: dataset",
            "license: CC-BY-4.0",
            "url: \"https://autoprecios.example/datos\"",
            "date-released: 2026-11-21",
            "version: \"2026-11-21\"",
        ] {
            assert!(cff.lines().any(|l| l == line), "{line} in\n{cff}");
        }
        assert!(cff.contains("inventados"), "synthetic data says so");
        let default = DataLicense::default_license();
        assert!(!citation_cff(&links, at, false, &default).contains("inventados"));
        let odbl = DataLicense {
            spdx: "ODbL-1.0".to_owned(),
            name: "ODbL 1.0".to_owned(),
            url: "https://opendatacommons.org/licenses/odbl/1-0/".to_owned(),
        };
        assert!(citation_cff(&links, at, false, &odbl).contains("\nlicense: ODbL-1.0\n"));
    }
}
