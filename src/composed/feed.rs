//! Site pages with a query, following a search: the feed itself (see
//! `follow.rs`), its entries from the search's results and each card as
//! the search page shows it, less its comparison control.

use std::cell::Cell;
use std::rc::Rc;

use lol_html::html_content::ContentType;
use lol_html::{element, end_tag, text};

use super::alerts::{self, Bound};
use super::atom::{atom_entry, atom_feed};
use super::budget;
use super::deals;
use super::follow::feed_path;
use super::fragments::Fragments;
use super::lists::find_listed;
use super::query::{PageQuery, SEARCH_PAGE};
use super::rewrite::rewrite;
use crate::api::error::ErrorDetail;
use crate::api::facts::Facts;
use crate::api::links::Links;
use crate::api::params::{Problem, label};
use crate::api::{ApiError, Index};
use crate::format::money;
use crate::time::{Time, format_time};
use crate::vocab::Window;

/// The most matches a feed follows (the API's largest page).
const MOST: &str = "100";

/// The Atom feed of the search or deal list a page's query asks for; the
/// API's refusal when it refuses the query.
pub fn search_feed(
    index: &Index,
    fragments: &dyn Fragments,
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
    let mut entries: Vec<Entry> = Vec::new();
    for listed in &data.vehicles {
        match bound {
            Some(bound) => entries.extend(alerts::entries(index, listed.position, bound)),
            None => entries.extend(version_entries(links, fragments, listed.facts)),
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
    let subtitle = subtitle(sent, bound);
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

/// A feed entry: when it happened, its ID and its XML.
type Entry = (Time, String, String);

/// A listed version's entries: the version itself, at its check, and its
/// drop of the week, if any.
fn version_entries(links: &Links, fragments: &dyn Fragments, facts: &Facts) -> Vec<Entry> {
    let page = links.vehicle(&facts.id);
    let card = fragments
        .vehicle(&facts.id)
        .map_or_else(String::new, |vehicle| without_pick(&vehicle.card));
    let card = card.as_str();
    let title = facts.title();
    let mut entries = vec![(
        facts.observed_at,
        page.clone(),
        atom_entry(&page, &page, &title, facts.observed_at, card),
    )];
    let week = &facts.windows[Window::ALL.len() - 1];
    if let (true, Some(at)) = (week.price_drop, week.recency) {
        let id = format!("{page}#baja-{}", format_time(at));
        let title = format!("Bajó de precio: {title}");
        entries.push((at, id.clone(), atom_entry(&id, &page, &title, at, card)));
    }
    entries
}

/// The feed's subtitle: what it asks for, in Spanish, the price of its
/// alerts included.
fn subtitle(sent: &PageQuery, bound: Option<Bound>) -> String {
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
    match asked_for.is_empty() {
        true => "Todas las versiones publicadas.".to_owned(),
        false => format!("{}.", asked_for.join("; ")),
    }
}

/// A card without its "Agregar a la comparación" paragraph, which means
/// nothing in a feed reader, nor the line break after it.
fn without_pick(card: &str) -> String {
    // Set at the paragraph's end, until the next text or tag.
    let ended = Rc::new(Cell::new(false));
    let at_end = Rc::clone(&ended);
    rewrite(
        card,
        vec![
            element!("p.pick", move |el| {
                el.remove();
                let at_end = Rc::clone(&at_end);
                el.on_end_tag(end_tag!(move |_| {
                    at_end.set(true);
                    Ok(())
                }))
            }),
            element!("*", |_| {
                ended.set(false);
                Ok(())
            }),
            text!("*", |chunk| {
                if ended.get() && !chunk.as_str().is_empty() {
                    ended.set(false);
                    if let Some(rest) = chunk.as_str().strip_prefix('\n') {
                        let rest = rest.to_owned();
                        chunk.replace(&rest, ContentType::Html);
                    }
                }
                Ok(())
            }),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_card_has_no_comparison_control() {
        let card = "<article class=\"card\">\n<p class=\"price\">$ 1</p>\n\
            <p class=\"pick\"><a class=\"pick-add\" href=\"?comparar=a#elegir-a\" id=\"elegir-a\" \
            data-pick=\"a\">Agregar a la comparación<span>: A</span></a></p>\n\
            <p class=\"meta\">1 precio</p>\n</article>";
        assert_eq!(
            without_pick(card),
            "<article class=\"card\">\n<p class=\"price\">$ 1</p>\n<p class=\"meta\">1 precio</p>\n</article>"
        );
        let card = "<article><p id=x class='pick big'>a</p><p>\nb</p></article>";
        assert_eq!(without_pick(card), "<article><p>\nb</p></article>");
    }
}
