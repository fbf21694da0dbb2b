//! Site pages with a query, the comparison picks: the versions a buyer has
//! chosen to compare travel in the page's URL (`?comparar=a,b`, each ID
//! percent-encoded as in `/comparar?ids=`), so they survive from page to
//! page without a script or an account, and a link shares them. The edge
//! applies them to any page it sends with a query (`picked.rs`):
//!
//! - each "Agregar a la comparación" control (`<a class="pick-add"
//!   data-pick="ID">`, whose static `href` is the relative `?comparar=ID`)
//!   becomes a link to the same page with that ID added, or, when already
//!   picked, removed ("Quitar de la comparación");
//! - every link to another page of the site, and every search form, carries
//!   the picks on;
//! - the compare bar ([`BAR`]) shows "Comparar (n)" with the names.
//!
//! At most four versions are compared: a fifth pick drops the oldest.
//! IDs that name no published version are dropped.

use crate::api::params::typed::ids_value;
use crate::api::query::COMPARE_IDS;
use crate::api::text::form_decode;

/// The URL parameter that carries the picks.
pub const NAME: &str = "comparar";

/// The compare bar's empty slot, at the end of every page
/// (`templates/base.html`), as a selector.
pub const BAR: &str = "#barra-comparar";

/// The IDs picked in a query (`comparar=a,b`): decoded, without blanks or
/// repeats, the newest four.
///
/// One `comparar` pair is a list, as links carry it: commas separate IDs and
/// a comma inside an ID is `%2C`, as in `/comparar?ids=`. A value with no
/// comma as such came through a proxy that encodes every comma (a CDN
/// rule's query condition does) and is split where its commas are, as the
/// compare page splits IDs typed into its form. Several pairs are one ID
/// each, whole: a search form sends one hidden field per pick (a form
/// encodes every comma and `%` of a value, so one field holding the list
/// would reach the edge as a different list when an ID has any character a
/// URL encodes).
pub fn read(query: &str) -> Vec<String> {
    let values: Vec<&str> = query
        .split('&')
        .filter_map(|pair| pair.strip_prefix("comparar="))
        .collect();
    let pieces: Vec<String> = match values.as_slice() {
        [value] if value.contains(',') => value.split(',').filter_map(form_decode).collect(),
        [value] => form_decode(value)
            .map(|decoded| decoded.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        several => several
            .iter()
            .filter_map(|value| form_decode(value))
            .collect(),
    };
    let mut ids: Vec<String> = Vec::new();
    for id in pieces {
        let id = id.trim().to_owned();
        if !id.is_empty() && !ids.contains(&id) {
            ids.push(id);
        }
    }
    newest(ids)
}

/// The last four of `ids`.
pub(crate) fn newest(mut ids: Vec<String>) -> Vec<String> {
    let most = *COMPARE_IDS.end();
    if ids.len() > most {
        ids.drain(..ids.len() - most);
    }
    ids
}

/// The value of a `comparar` parameter for `ids`.
pub fn value(ids: &[String]) -> String {
    ids_value(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_are_read_decoded_without_repeats_the_newest_four() {
        assert_eq!(read("q=x&comparar=a%20b,c%2Cd,a%20b"), ["a b", "c,d"]);
        assert_eq!(read("comparar=a,b,c,d,e"), ["b", "c", "d", "e"]);
        assert_eq!(
            read("comparar=a%2Cb%20c"),
            ["a", "b c"],
            "every comma encoded"
        );
        assert!(read("q=comparar").is_empty());
        assert_eq!(value(&["a b".to_owned(), "c,d".to_owned()]), "a%20b,c%2Cd");
    }
}
