//! Site and MCP search, forgiveness: when the words a buyer typed match no
//! version, what they probably meant. The API's `q` keeps its contract
//! (every word a substring of the version's folded make, model and trim
//! words); the site's `/buscar` and the MCP `search` tool ask this module
//! for another reading only when `q` finds nothing.
//!
//! Each word that matches no word of the catalogue is read, in order:
//! 1. as an alias from [`ALIASES`] (`vw` is Volkswagen);
//! 2. as a body type from [`BODIES`] (`camioneta` is a pick-up or an SUV),
//!    which becomes the `type` filter rather than a word;
//! 3. as the catalogue's own word nearest to it by edit distance (`corola`
//!    is `corolla`): at most one edit for words of up to five letters, two
//!    for longer ones, never for words under three letters; among equally
//!    near words, the one more versions have, then the first alphabetically.
//!
//! A word none of these explains leaves nothing to suggest.

use crate::api::Index;
use crate::api::text::fold;
use crate::vocab::BodyType;

/// Names buyers use for a make or model that the catalogue spells another
/// way (folded forms).
pub const ALIASES: [(&str, &str); 5] = [
    ("vw", "volkswagen"),
    ("volks", "volkswagen"),
    ("chevy", "chevrolet"),
    ("mb", "mercedes-benz"),
    ("merce", "mercedes-benz"),
];

/// Words for a body type, and the types they mean (folded forms).
pub const BODIES: [(&str, &[BodyType]); 12] = [
    ("camioneta", &[BodyType::Pickup, BodyType::Suv]),
    ("camionetas", &[BodyType::Pickup, BodyType::Suv]),
    ("pickup", &[BodyType::Pickup]),
    ("pick-up", &[BodyType::Pickup]),
    ("chata", &[BodyType::Pickup]),
    ("suv", &[BodyType::Suv]),
    ("todoterreno", &[BodyType::Suv]),
    ("sedan", &[BodyType::Sedan]),
    ("hatch", &[BodyType::Hatchback]),
    ("hatchback", &[BodyType::Hatchback]),
    ("utilitario", &[BodyType::Van]),
    ("furgon", &[BodyType::Van]),
];

/// Another reading of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The words to search for (folded), if any are left.
    pub q: Option<String>,
    /// The body type a word meant.
    pub body: Option<BodyType>,
}

impl Reading {
    /// How the page names it: `«toyota corolla»`, `pick-ups`,
    /// `SUV con «hilux»`.
    pub fn label(&self) -> String {
        let words = self.q.as_ref().map(|q| format!("«{q}»"));
        match (self.body, words) {
            (Some(body), Some(words)) => format!("{} con {words}", body_name(body)),
            (Some(body), None) => body_name(body).to_owned(),
            (None, Some(words)) => words,
            (None, None) => String::new(),
        }
    }
}

/// A body type as the site says it in a list's name.
fn body_name(body: BodyType) -> &'static str {
    match body {
        BodyType::Pickup => "pick-ups",
        BodyType::Suv => "SUV",
        BodyType::Sedan => "sedanes",
        BodyType::Hatchback => "hatchbacks",
        BodyType::Van => "utilitarios",
        BodyType::Coupe => "coupés",
        BodyType::Wagon => "rurales",
        BodyType::Mpv => "monovolúmenes",
        BodyType::Other => "otras carrocerías",
    }
}

/// The readings of `q` when some of its words match nothing, best first
/// (one per body type a word may mean); empty when every word matches or a
/// word cannot be read. The caller keeps those that find versions.
pub fn readings(index: &Index, q: &str) -> Vec<Reading> {
    let vocabulary: Vec<(&str, usize)> = index.words().collect();
    let known = |word: &str| vocabulary.iter().any(|(own, _)| own.contains(word));
    let mut words: Vec<String> = Vec::new();
    let mut bodies: &[BodyType] = &[];
    let mut changed = false;
    for word in fold(q).split_whitespace() {
        if known(word) {
            words.push(word.to_owned());
            continue;
        }
        changed = true;
        if let Some((_, meant)) = ALIASES.iter().find(|(alias, _)| *alias == word) {
            words.push((*meant).to_owned());
        } else if let Some((_, types)) = BODIES.iter().find(|(name, _)| *name == word) {
            bodies = types;
        } else if let Some(nearest) = nearest(word, &vocabulary) {
            words.push(nearest.to_owned());
        } else {
            return Vec::new();
        }
    }
    if !changed {
        return Vec::new();
    }
    let q = (!words.is_empty()).then(|| words.join(" "));
    match bodies {
        [] => vec![Reading { q, body: None }],
        types => types
            .iter()
            .map(|body| Reading {
                q: q.clone(),
                body: Some(*body),
            })
            .collect(),
    }
}

/// The catalogue word nearest to `word` within its allowed edits.
fn nearest<'a>(word: &str, vocabulary: &[(&'a str, usize)]) -> Option<&'a str> {
    let length = word.chars().count();
    let allowed = match length {
        0..=2 => return None,
        3..=5 => 1,
        _ => 2,
    };
    vocabulary
        .iter()
        .filter_map(|(own, count)| {
            let distance = edits(word, own, allowed)?;
            Some((distance, std::cmp::Reverse(*count), *own))
        })
        .min()
        .map(|(_, _, own)| own)
}

/// The optimal string alignment distance between `a` and `b` (insertions,
/// deletions, substitutions and swaps of two neighbours), when at most
/// `most`.
fn edits(a: &str, b: &str, most: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > most {
        return None;
    }
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for j in 0..=b.len() {
        rows[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        rows[at(i, 0)] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[at(i - 1, j)] + 1)
                .min(rows[at(i, j - 1)] + 1)
                .min(rows[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[at(i - 2, j - 2)] + 1);
            }
            rows[at(i, j)] = best;
        }
    }
    let distance = rows[at(a.len(), b.len())];
    (distance <= most).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("corola", "corolla", 2), Some(1));
        assert_eq!(edits("hilxu", "hilux", 1), Some(1));
        assert_eq!(edits("ranegr", "ranger", 1), Some(1));
        assert_eq!(edits("abc", "xyz", 2), None);
        assert_eq!(edits("a", "abcd", 2), None);
    }

    #[test]
    fn the_nearest_word_is_within_its_allowed_edits() {
        let vocabulary = [("corolla", 3), ("corona", 1), ("hilux", 5), ("208", 4)];
        assert_eq!(nearest("corola", &vocabulary), Some("corolla"));
        assert_eq!(
            nearest("hulix", &vocabulary),
            None,
            "two edits in five letters"
        );
        assert_eq!(nearest("hilox", &vocabulary), Some("hilux"));
        assert_eq!(nearest("20", &vocabulary), None, "too short to guess");
        // Equally near: the word more versions have.
        assert_eq!(
            nearest("corela", &[("corola", 1), ("corula", 3)]),
            Some("corula")
        );
    }

    #[test]
    fn readings_name_what_they_search() {
        let reading = Reading {
            q: Some("hilux".to_owned()),
            body: Some(BodyType::Suv),
        };
        assert_eq!(reading.label(), "SUV con «hilux»");
        let reading = Reading {
            q: None,
            body: Some(BodyType::Pickup),
        };
        assert_eq!(reading.label(), "pick-ups");
    }
}
