//! Sample stage, versions: picks which car versions a sample of a given size
//! lists. The deliberate cases come first, then the table's trims taken
//! round-robin over models (so a small sample still spans many makes), then
//! package and model-year variants of them for sizes beyond the table.

use std::collections::BTreeSet;

use super::cases::{CASES, Case};
use super::makes::{Make, Model, Trim, slug, version_id};
use super::{table_import, table_mass, table_more};

/// Every make of the catalogue table, mass market first: the tables are
/// gathered here, beside the lineup that draws from them.
pub(super) fn all_makes() -> impl Iterator<Item = &'static Make> {
    table_mass::MAKES
        .iter()
        .chain(table_more::MAKES)
        .chain(table_import::MAKES)
}
/// One version to generate.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its make.
    pub make: &'static Make,
    /// Its model.
    pub model: &'static Model,
    /// The table trim it is or derives from.
    pub trim: &'static Trim,
    /// Position of the trim within its model, and the model's trim count.
    pub rank: (usize, usize),
    /// Catalogue ID.
    pub id: String,
    /// Trim name as listed (the table's, plus a variant label).
    pub trim_name: String,
    /// Price factor of the variant over the table trim.
    pub premium: f64,
    /// The deliberate case it carries, if any.
    pub case: Option<Case>,
}

/// Package names of derived variants, as Argentine catalogues write them.
const PACKAGES: [&str; 12] = [
    "Pack Tech",
    "Edición Especial",
    "Black Edition",
    "Pack Confort",
    "Serie Limitada",
    "Pack Seguridad",
    "Full",
    "Plus",
    "Connect",
    "Edición Aniversario",
    "Pack Lujo",
    "Sport",
];

/// The versions of a sample of `size` versions (never fewer than the
/// deliberate cases: they are what the sample is for).
pub fn lineup(size: usize) -> Vec<Entry> {
    let natural = natural_trims();
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let mut entries: Vec<Entry> = Vec::with_capacity(size.max(CASES.len()));
    for &(case, id) in CASES {
        let found = match case {
            Case::CaseSibling => sibling_of(&natural, id),
            _ => natural.iter().find(|entry| entry.id == id).cloned(),
        };
        if let Some(mut entry) = found {
            entry.case = Some(case);
            ids.insert(entry.id.clone());
            entries.push(entry);
        }
    }
    for entry in &natural {
        if entries.len() >= size {
            return entries;
        }
        if ids.insert(entry.id.clone()) {
            entries.push(entry.clone());
        }
    }
    for round in 1.. {
        for base in &natural {
            if entries.len() >= size {
                return entries;
            }
            let variant = variant_of(base, round);
            if ids.insert(variant.id.clone()) {
                entries.push(variant);
            }
        }
    }
    entries
}

/// Every table trim, round-robin over models: first trims of every model,
/// then second trims, and so on.
fn natural_trims() -> Vec<Entry> {
    let models: Vec<(&'static Make, &'static Model)> = all_makes()
        .flat_map(|make| make.models.iter().map(move |model| (make, model)))
        .collect();
    let deepest = models
        .iter()
        .map(|(_, model)| model.trims.len())
        .max()
        .unwrap_or(0);
    let mut entries = Vec::new();
    for rank in 0..deepest {
        for &(make, model) in &models {
            if let Some(trim) = model.trims.get(rank) {
                entries.push(Entry {
                    make,
                    model,
                    trim,
                    rank: (rank, model.trims.len()),
                    id: version_id(make, model, trim.name),
                    trim_name: trim.name.to_owned(),
                    premium: 1.0,
                    case: None,
                });
            }
        }
    }
    entries
}

/// The listing whose ID differs from `id` only in case: an older listing of
/// the same car with a leather package, whose ID the catalogue kept in the
/// capitalised style it once used (`Peugeot-208-16-Allure-AT`).
fn sibling_of(natural: &[Entry], id: &str) -> Option<Entry> {
    let base = natural
        .iter()
        .find(|entry| entry.id.eq_ignore_ascii_case(id) && entry.id != id)?;
    Some(Entry {
        id: id.to_owned(),
        trim_name: format!("{} Pack Cuero", base.trim_name),
        premium: 1.03,
        ..base.clone()
    })
}

/// The `round`-th variant of a table trim: a package, and from the second
/// cycle on an older model year still in stock (cheaper).
fn variant_of(base: &Entry, round: usize) -> Entry {
    let package = PACKAGES[(round - 1) % PACKAGES.len()];
    let cycle = (round - 1) / PACKAGES.len();
    let label = match cycle {
        0 => package.to_owned(),
        _ => format!("{package} {}", 2026 - cycle),
    };
    let premium =
        (1.0 + 0.015 * (1 + (round - 1) % 4) as f64) * (1.0 - (0.03 * cycle as f64).min(0.15));
    Entry {
        id: format!("{}-{}", base.id, slug(&label)),
        trim_name: format!("{} {label}", base.trim_name),
        premium,
        ..base.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lineups_start_with_the_cases_and_grow_with_unique_ids() {
        let small = lineup(5);
        assert_eq!(small.len(), CASES.len(), "never fewer than the cases");
        let big = lineup(3_000);
        assert_eq!(big.len(), 3_000);
        let ids: BTreeSet<&str> = big.iter().map(|entry| entry.id.as_str()).collect();
        assert_eq!(ids.len(), 3_000);
        assert!(big.iter().all(|entry| (1..=160).contains(&entry.id.len())));
    }
}
