//! Site pages with a query, following a search: `/buscar/feed.xml?...`, the
//! Atom feed of any search or deal list the site can show (the same query
//! as `/buscar?...`), so a buyer can follow it in a feed reader without an
//! account or an e-mail. The edge answers it from the loaded tree; a feed
//! reader that polls it sees:
//!
//! - an entry for each version that matches (its ID is the version's page,
//!   so a version that newly matches is a new entry, and one that keeps
//!   matching is not repeated), updated when its quotes were last checked;
//! - an entry for each price drop of the last seven days of a matching
//!   version (its ID names the drop's time, so every new drop is a new
//!   entry), updated at the drop.
//!
//! At most the first 100 matches in the list's order are followed, the
//! API's largest page. Entries are ordered newest first, then by ID, so the
//! same tree and query give the same bytes.
//!
//! With a price bound (`hasta` or `hastaUsd`, `composed::alerts`), the
//! feed holds instead the alerts of the matching versions at that price.

use super::alerts::{self, Bound};
use super::atom::{atom_entry, atom_feed};
use super::budget;
use super::lists::find_listed;
use super::{PageFragments, PageQuery, SEARCH_PAGE, deals};
use crate::api::error::ErrorDetail;
use crate::api::params::{Problem, label};
use crate::api::{ApiError, Index};
use crate::format::money;
use crate::html::escape;
use crate::time::{Time, format_time};
use crate::vocab::Window;

/// The feed's path; its query is a search page's.
pub const FEED_PATH: &str = "/buscar/feed.xml";

/// The most matches a feed follows (the API's largest page).
const MOST: &str = "100";

/// The feed address of a search page's query (without one: every version),
/// and its price bound.
pub fn feed_path(sent: &PageQuery, bound: Option<Bound>) -> String {
    match bound {
        Some(bound) => sent
            .clone()
            .with(bound.name(), bound.spelt())
            .href(FEED_PATH),
        None => sent.href(FEED_PATH),
    }
}

/// The Atom feed of the search or deal list a page's query asks for; the
/// API's refusal when it refuses the query.
pub fn search_feed(
    index: &Index,
    fragments: &PageFragments,
    sent: &PageQuery,
    bound: Option<Bound>,
) -> Result<String, ApiError> {
    let deal = sent.get("kind").is_some();
    let pairs: Vec<(String, String)> = sent
        .clone()
        .without("offset")
        .with("limit", MOST)
        .pairs()
        .iter()
        .filter(|(name, _)| deal || !deals::NAMES.contains(&name.as_str()))
        .cloned()
        .collect();
    let rate = index.meta().current_rate.and_then(|rate| rate.ars_per_usd);
    let asked = budget::asked(&pairs, rate);
    if !asked.refused.is_empty() {
        return Err(ApiError::InvalidParameters(
            asked
                .refused
                .iter()
                .map(|field| ErrorDetail::new(*field, Problem::Amount))
                .collect(),
        ));
    }
    let data = find_listed(index, deal, asked.pairs)?;
    let links = index.links();
    let mut entries: Vec<(Time, String, String)> = Vec::new();
    for listed in &data.vehicles {
        let facts = listed.facts;
        if let Some(bound) = bound {
            entries.extend(alerts::entries(index, listed.position, bound));
            continue;
        }
        let page = links.vehicle(&facts.id);
        let card = fragments
            .vehicles
            .get(&facts.id)
            .map_or_else(String::new, |vehicle| without_pick(&vehicle.card));
        let card = card.as_str();
        let title = facts.title();
        entries.push((
            facts.observed_at,
            page.clone(),
            atom_entry(&page, &page, &title, facts.observed_at, card),
        ));
        let week = &facts.windows[Window::ALL.len() - 1];
        if let (true, Some(at)) = (week.price_drop, week.recency) {
            let id = format!("{page}#baja-{}", format_time(at));
            let title = format!("Bajó de precio: {title}");
            entries.push((at, id.clone(), atom_entry(&id, &page, &title, at, card)));
        }
    }
    let entries = match bound {
        Some(_) => alerts::newest_first(entries),
        None => {
            entries.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            entries
        }
    };
    // The feed changed when its newest entry did.
    let updated = entries
        .first()
        .map_or(index.meta().catalogue_observed_at, |(at, _, _)| *at);
    let own = links.absolute(&feed_path(sent, bound));
    let page = links.absolute(&sent.href(SEARCH_PAGE));
    let mut asked_for: Vec<String> = sent
        .pairs()
        .iter()
        .map(|(name, value)| format!("{}: {value}", label(name).unwrap_or(name)))
        .collect();
    if let Some(bound) = bound {
        asked_for.push(format!(
            "avisos a {} o menos",
            money(bound.amount, bound.currency)
        ));
    }
    let subtitle = match asked_for.is_empty() {
        true => "Todas las versiones publicadas.".to_owned(),
        false => format!("{}.", asked_for.join("; ")),
    };
    Ok(atom_feed(
        links,
        &data
            .title
            .unwrap_or_else(|| "Tu búsqueda en autoprecios".to_owned()),
        &subtitle,
        (&own, &page),
        updated,
        entries.into_iter().map(|(_, _, xml)| xml),
    ))
}

/// A card without its "Agregar a la comparación" control, which means
/// nothing in a feed reader.
fn without_pick(card: &str) -> String {
    match card.find("<p class=\"pick\">") {
        Some(start) => {
            let end = card[start..]
                .find("</p>")
                .map_or(card.len(), |end| start + end + "</p>".len());
            let rest = &card[end..];
            format!(
                "{}{}",
                &card[..start],
                rest.strip_prefix('\n').unwrap_or(rest)
            )
        }
        None => card.to_owned(),
    }
}

/// The "Seguir esta búsqueda" link of a search page, and its
/// `<link rel="alternate">` for the page's head.
pub fn follow_links(sent: &PageQuery) -> (String, String) {
    let path = escape(&feed_path(sent, None));
    (
        format!(
            "<a class=\"follow\" href=\"{path}\" type=\"application/atom+xml\">Seguir esta búsqueda</a> \
             <span class=\"meta\">(en un lector de feeds: las versiones que empiezan a coincidir y las que bajan de precio)</span>"
        ),
        format!(
            "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Seguir esta búsqueda\" href=\"{path}\">"
        ),
    )
}

/// The search page's alert form: its feed at the buyer's price in pesos
/// (`composed::alerts`), the page's query carried as hidden fields. The
/// site's script shows the address it builds; without it, the form opens
/// the feed at the same address.
pub fn alert_form(sent: &PageQuery) -> String {
    let hidden: String = sent
        .pairs()
        .iter()
        .map(|(name, value)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(name),
                escape(value)
            )
        })
        .collect();
    format!(
        "<form class=\"alert-form\" action=\"{FEED_PATH}\" method=\"get\">{hidden}\
         <div class=\"field\"><label for=\"aviso-precio\">Avisame cuando alguna de estas versiones \
         cueste menos de (en pesos)</label><input id=\"aviso-precio\" name=\"{}\" \
         inputmode=\"decimal\" autocomplete=\"off\" placeholder=\"60.000.000\" required></div>\
         <p class=\"actions\"><button type=\"submit\">Armar el aviso</button></p>\
         <p class=\"alert-url\" hidden>Tu aviso: <a></a></p>\
         </form>",
        alerts::PESOS
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_address_is_the_page_query_as_the_page_reads_it() {
        let feed = |query| feed_path(&PageQuery::read(query), None);
        assert_eq!(
            feed("q=hilux&make=&utm_source=x&comparar=a"),
            "/buscar/feed.xml?q=hilux"
        );
        assert_eq!(feed(""), "/buscar/feed.xml");
    }
}
