//! Site pages with a query, Atom: the feeds the edge writes (a search's,
//! and alerts at a price), their head and their entries.

use crate::api::links::Links;
use crate::html::escape_xml;
use crate::time::{Time, format_time};

pub use crate::headers::ATOM;

/// An Atom feed: its head (`title`, `subtitle`, its own address and the
/// page it follows, absolute; `updated`) and its entries, written.
pub fn atom_feed(
    links: &Links,
    title: &str,
    subtitle: &str,
    (own, page): (&str, &str),
    updated: Time,
    entries: impl Iterator<Item = String>,
) -> String {
    let mut feed = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"es-AR\" xml:base=\"{}/\">\n\
         <title>{}</title>\n<subtitle>{}</subtitle>\n<id>{}</id>\n\
         <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n\
         <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n\
         <updated>{}</updated>\n<author><name>autoprecios</name></author>\n",
        escape_xml(links.base()),
        escape_xml(title),
        escape_xml(subtitle),
        escape_xml(own),
        escape_xml(own),
        escape_xml(page),
        format_time(updated),
    );
    for xml in entries {
        feed.push_str(&xml);
    }
    feed.push_str("</feed>\n");
    feed
}

/// One entry: `html` (a card, a sentence) as its content.
pub fn atom_entry(id: &str, page: &str, title: &str, updated: Time, html: &str) -> String {
    format!(
        "<entry>\n<id>{}</id>\n<title>{}</title>\n<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n\
         <updated>{}</updated>\n<content type=\"html\">{}</content>\n</entry>\n",
        escape_xml(id),
        escape_xml(title),
        escape_xml(page),
        format_time(updated),
        escape_xml(html)
    )
}
