//! API stage, index orders: every list order of the spec, sorted once per
//! catalogue with its tie rules (searches by ID; deals and model lists by
//! price, then ID), so that a page is found by walking an order over the
//! selected versions and a total by counting them.

use std::cmp::Ordering;

use fixedbitset::FixedBitSet;

use crate::api::facts::Facts;
use crate::api::index::select::Selection;
use crate::api::query::{DealSort, Page, SearchSort};
use crate::api::text::{Folder, fold};
use crate::api::types::{DealKind, Pagination};
use crate::vocab::Window;

/// Below this share of the catalogue (1 in `SPARSE`), a selection's page is
/// found by sorting its members by rank rather than by walking the order.
const SPARSE: usize = 16;

/// An order of versions (positions), with each position's rank in it.
#[derive(Debug, Clone, Default)]
pub struct Order {
    positions: Vec<u32>,
    /// `ranks[position]`: where the position stands in `positions`;
    /// `u32::MAX` for a version the order does not hold.
    ranks: Vec<u32>,
    /// The versions the order holds, when not every one.
    members: Option<FixedBitSet>,
}

impl Order {
    /// Sorts `members` (in ID order) by `compare`; the sort is stable, so
    /// ties stay in ID order.
    fn new(len: usize, mut members: Vec<u32>, compare: impl Fn(&u32, &u32) -> Ordering) -> Order {
        members.sort_by(compare);
        let mut ranks = vec![u32::MAX; len];
        for (rank, position) in members.iter().enumerate() {
            ranks[*position as usize] = rank as u32;
        }
        let held = (members.len() < len).then(|| {
            let mut set = FixedBitSet::with_capacity(len);
            set.extend(members.iter().map(|p| *p as usize));
            set
        });
        Order {
            positions: members,
            ranks,
            members: held,
        }
    }

    /// The page of the selected members and the pagination facts: for a
    /// sparse selection a sort of its members by rank, else a walk along
    /// the order that stops at the page's end (the total is counted on the
    /// sets); either way the cost follows the page and the selection, not
    /// the catalogue.
    pub fn page(&self, selection: &Selection, page: Page) -> (Vec<u32>, Pagination) {
        let (start, limit) = (page.offset as usize, page.limit as usize);
        let set = match selection {
            Selection::All => return page_of(&self.positions, page),
            Selection::Only(set) => set,
        };
        let selected = set.count_ones(..);
        let (items, total) = if selected * SPARSE < self.positions.len() {
            let mut members: Vec<u32> = set
                .ones()
                .map(|position| self.ranks[position])
                .filter(|rank| *rank != u32::MAX)
                .collect();
            members.sort_unstable();
            let total = members.len();
            let items = members
                .iter()
                .skip(start)
                .take(limit)
                .map(|rank| self.positions[*rank as usize])
                .collect();
            (items, total)
        } else {
            let total = match &self.members {
                None => selected,
                Some(members) => set.intersection_count(members),
            };
            let end = (start + limit).min(total);
            let mut items = Vec::with_capacity(end.saturating_sub(start));
            let mut seen = 0;
            for position in &self.positions {
                if seen == end {
                    break;
                }
                if set.contains(*position as usize) {
                    if seen >= start {
                        items.push(*position);
                    }
                    seen += 1;
                }
            }
            (items, total)
        };
        (items, pagination(page, total))
    }

    /// Every member, in order.
    pub fn positions(&self) -> &[u32] {
        &self.positions
    }
}

/// The page of a whole list.
pub fn page_of(list: &[u32], page: Page) -> (Vec<u32>, Pagination) {
    let total = list.len();
    let start = (page.offset as usize).min(total);
    let end = (start + page.limit as usize).min(total);
    (list[start..end].to_vec(), pagination(page, total))
}

/// The paging facts of `page` over `total` matches.
fn pagination(page: Page, total: usize) -> Pagination {
    let end = (page.offset as usize + page.limit as usize).min(total);
    Pagination {
        total,
        limit: page.limit,
        offset: page.offset,
        next_offset: (end < total).then_some(end),
    }
}

/// Every list order of the API.
#[derive(Debug, Clone)]
pub struct Orders {
    /// Search orders, in [`SearchSort::ALL`] order.
    search: Vec<Order>,
    /// Deal orders by (kind, window, sort), in `ALL` order of each.
    deals: Vec<Order>,
}

impl Orders {
    /// Sorts every order over `facts` (in ID order).
    pub fn new(facts: &[Facts]) -> Orders {
        let all: Vec<u32> = (0..facts.len() as u32).collect();
        Orders {
            search: search_orders(facts, &all),
            deals: deal_orders(facts, &all),
        }
    }

    /// The order of a search sort.
    pub fn search(&self, sort: SearchSort) -> &Order {
        let slot = SearchSort::ALL
            .iter()
            .position(|(s, _)| *s == sort)
            .expect("invariant: ALL lists every sort");
        &self.search[slot]
    }

    /// The order of a deal list.
    pub fn deals(&self, kind: DealKind, window: Window, sort: DealSort) -> &Order {
        let slot = |found: Option<usize>| found.expect("invariant: ALL lists every value");
        let kind = slot(DealKind::ALL.iter().position(|(k, _)| *k == kind));
        let window = slot(Window::ALL.iter().position(|w| *w == window));
        let sort = slot(DealSort::ALL.iter().position(|(s, _)| *s == sort));
        &self.deals[(kind * Window::ALL.len() + window) * DealSort::ALL.len() + sort]
    }
}

/// The search orders of every version (`all`), in [`SearchSort::ALL`]
/// order: a name sorts by make, model and trim folded.
fn search_orders(facts: &[Facts], all: &[u32]) -> Vec<Order> {
    let fact = |position: &u32| &facts[*position as usize];
    let mut folder = Folder::default();
    let names: Vec<(String, String, String)> = facts
        .iter()
        .map(|f| {
            (
                folder.fold(&f.identity.make).to_owned(),
                folder.fold(&f.identity.model).to_owned(),
                fold(&f.identity.trim),
            )
        })
        .collect();
    SearchSort::ALL
        .iter()
        .map(|(sort, _)| {
            let compare = |a: &u32, b: &u32| match sort {
                SearchSort::PriceAsc => by_price(facts, a, b),
                SearchSort::PriceDesc => by_price(facts, b, a),
                SearchSort::DiscountDesc => {
                    descending_nulls_last(discount(facts, a), discount(facts, b))
                }
                SearchSort::Name => names[*a as usize].cmp(&names[*b as usize]),
                SearchSort::PriceArsAsc => {
                    ascending_nulls_last(fact(a).price_ars, fact(b).price_ars)
                }
                SearchSort::PriceArsDesc => {
                    descending_nulls_last(fact(a).price_ars, fact(b).price_ars)
                }
            };
            Order::new(facts.len(), all.to_vec(), compare)
        })
        .collect()
}

/// The deal orders, by (kind, window, sort) in `ALL` order of each, each
/// of the versions its kind lists in its window; ties by price.
fn deal_orders(facts: &[Facts], all: &[u32]) -> Vec<Order> {
    let fact = |position: &u32| &facts[*position as usize];
    let mut deals = Vec::new();
    for (kind, _) in DealKind::ALL {
        for window in Window::ALL {
            let members: Vec<u32> = all
                .iter()
                .copied()
                .filter(|position| is_deal(fact(position), kind, *window))
                .collect();
            let shown = |position: &u32| *fact(position).window(deal_window(kind, *window));
            for (sort, _) in DealSort::ALL {
                let compare = |a: &u32, b: &u32| {
                    let primary = match (sort, kind) {
                        (DealSort::Recommended, DealKind::Opportunities)
                        | (DealSort::DiscountDesc, _) => {
                            descending_nulls_last(discount(facts, a), discount(facts, b))
                        }
                        (DealSort::Recommended, DealKind::PriceDrops) => {
                            descending_nulls_last(shown(a).drop_pct, shown(b).drop_pct)
                        }
                        (DealSort::Recommended, DealKind::NewOpportunities)
                        | (DealSort::Recent, _) => {
                            descending_nulls_last(shown(a).recency, shown(b).recency)
                        }
                        (DealSort::PriceAsc, _) => Ordering::Equal,
                        (DealSort::PriceArsAsc, _) => {
                            ascending_nulls_last(fact(a).price_ars, fact(b).price_ars)
                        }
                    };
                    primary.then(by_price(facts, a, b))
                };
                deals.push(Order::new(facts.len(), members.clone(), compare));
            }
        }
    }
    deals
}

/// Cheaper first, by the price in dollars.
fn by_price(facts: &[Facts], a: &u32, b: &u32) -> Ordering {
    facts[*a as usize]
        .current_price_usd
        .total_cmp(&facts[*b as usize].current_price_usd)
}

/// The discount below the usual price of the version at `position`.
fn discount(facts: &[Facts], position: &u32) -> Option<f64> {
    facts[*position as usize].comparison.discount_pct
}

/// Whether a version belongs to a deal list.
fn is_deal(facts: &Facts, kind: DealKind, window: Window) -> bool {
    match kind {
        DealKind::Opportunities => facts.comparison.opportunity,
        DealKind::PriceDrops => facts.window(window).price_drop,
        DealKind::NewOpportunities => facts.window(window).new_opportunity,
    }
}

/// The window whose recent change a deal list ranks by and shows: seven
/// days for opportunities (the window is ignored), else the one asked.
fn deal_window(kind: DealKind, window: Window) -> Window {
    match kind {
        DealKind::Opportunities => Window::D7,
        DealKind::PriceDrops | DealKind::NewOpportunities => window,
    }
}

/// Ascending order with unknown values last.
pub fn ascending_nulls_last<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    nulls_last(a, b, |a, b| a.partial_cmp(&b))
}

/// Descending order with unknown values last.
pub fn descending_nulls_last<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    nulls_last(a, b, |a, b| b.partial_cmp(&a))
}

/// Known values in `order`, unknown ones after them.
fn nulls_last<T>(
    a: Option<T>,
    b: Option<T>,
    order: impl FnOnce(T, T) -> Option<Ordering>,
) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => order(a, b).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page and its facts by a plain pass over the order.
    fn by_hand(order: &[u32], selected: &FixedBitSet, page: Page) -> (Vec<u32>, usize) {
        let found: Vec<u32> = order
            .iter()
            .copied()
            .filter(|p| selected.contains(*p as usize))
            .collect();
        let items = found
            .iter()
            .skip(page.offset as usize)
            .take(page.limit as usize)
            .copied()
            .collect();
        (items, found.len())
    }

    #[test]
    fn a_page_is_the_selected_members_in_order_sparse_or_dense() {
        // 64 versions in a scrambled order; one order holds them all, one a
        // third of them. Selections sparse (under 1 in SPARSE of the order,
        // one of them of a version the second order does not hold) and
        // dense, pages inside, across and past the total.
        let len = 64;
        let scrambled: Vec<u32> = (0..len as u32).map(|i| (i * 37) % len as u32).collect();
        let rank = |p: &u32| scrambled.iter().position(|q| q == p);
        let all = Order::new(len, (0..len as u32).collect(), |a, b| rank(a).cmp(&rank(b)));
        let some = Order::new(
            len,
            (0..len as u32).filter(|p| p % 3 == 0).collect(),
            |a, b| rank(a).cmp(&rank(b)),
        );
        for (order, members) in [(&all, len), (&some, 22)] {
            assert_eq!(order.positions().len(), members);
            let multiples = [1, 2, 5, 16, 21, 30, 64]
                .map(|every| (0..len).filter(|p| p % every == 0).collect::<Vec<_>>());
            for chosen in multiples.iter().chain([&vec![1]]) {
                let mut selected = FixedBitSet::with_capacity(len);
                selected.extend(chosen.iter().copied());
                let count = chosen.len();
                for (offset, limit) in [(0, 1), (0, 100), (2, 3), (5, 2), (10, 10), (40, 5)] {
                    let page = Page { limit, offset };
                    let (items, pagination) = order.page(&Selection::Only(selected.clone()), page);
                    let (expected, total) = by_hand(order.positions(), &selected, page);
                    assert_eq!(items, expected, "{count} chosen, {offset}+{limit}");
                    assert_eq!(pagination.total, total, "{count} chosen");
                    let end = (offset + limit) as usize;
                    assert_eq!(pagination.next_offset, (end < total).then_some(end));
                }
            }
        }
    }
}
