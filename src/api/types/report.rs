//! API stage, the market report's shapes (`GET /api/v1/reports`,
//! `GET /api/v1/reports/{month}`): computed by `market` in the generator,
//! written as files, served as they are. Percentages are rounded to two
//! decimals; a number the rules do not publish (too few matched versions,
//! no previous month) is `null`, never zero.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::time::Time;

/// Whether a month's report can still change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportStatus {
    /// The month in progress: its numbers change with every publication.
    Provisional,
    /// A month that ended: its files stay byte-identical while the checks
    /// it reads are unchanged.
    Final,
}

/// One month in `GET /api/v1/reports`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportMonth {
    /// `AAAA-MM`, a calendar month in Argentine time.
    pub month: String,
    /// Provisional (the month in progress) or final.
    pub status: ReportStatus,
    /// The report's page.
    #[schemars(url)]
    pub url: String,
    /// The report's JSON (`GET /api/v1/reports/{month}`).
    #[schemars(url)]
    pub api_url: String,
}

/// `data` of `GET /api/v1/reports`: every month the snapshot covers,
/// newest first.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reports {
    /// The months, newest first.
    pub reports: Vec<ReportMonth>,
}

/// `data` of `GET /api/v1/reports/{month}`: the market in one calendar
/// month, by the rules of the methodology ("Informe mensual y el índice").
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Report {
    /// `AAAA-MM`, a calendar month in Argentine time (UTC-03:00).
    pub month: String,
    /// Provisional (the month in progress) or final.
    pub status: ReportStatus,
    /// The data's cut: the month's last catalogue check for a final month,
    /// `snapshotAt` for the month in progress.
    #[serde(with = "crate::time::rfc3339")]
    #[schemars(with = "Time")]
    pub as_of: Time,
    /// The report's page.
    #[schemars(url)]
    pub url: String,
    /// The sentence to quote, with its numbers.
    pub headline: Headline,
    /// The reference dollar of the month.
    pub dollar: Dollar,
    /// The index rows: all versions, each body type, each make; in pesos
    /// and in dollars.
    pub index: Vec<IndexRow>,
    /// The 10 cheapest versions at the month's last catalogue check (now,
    /// for the month in progress), cheapest first.
    pub cheapest: Vec<CheapItem>,
    /// The cheapest version of each body type, by type.
    pub cheapest_by_type: BTreeMap<String, CheapItem>,
    /// The largest rises and falls of the month.
    pub movers: Movers,
    /// Dealer quotes against the listing site's catalogue price: all
    /// versions, then each make.
    pub dealers_vs_catalogue: Vec<DealerRow>,
    /// What the month's numbers are read from.
    pub coverage: Coverage,
    /// Each table of the report as CSV, by table name.
    pub csv: BTreeMap<String, String>,
    /// How to cite the report.
    pub citation: String,
}

/// The report's sentence and its numbers.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Headline {
    /// One sentence in Spanish.
    pub text: String,
    /// All versions' change in pesos, percent.
    pub change_pct_ars: Option<f64>,
    /// All versions' change in dollars, percent.
    pub change_pct_usd: Option<f64>,
    /// The reference dollar's change, percent.
    pub dollar_change_pct: Option<f64>,
    /// The consumer price index's change, percent; null without a `cpi`
    /// table in the snapshot.
    pub cpi_change_pct: Option<f64>,
}

/// The reference dollar of the month.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dollar {
    /// Time-weighted mean of the rates observed at the month's quote checks.
    pub ars_per_usd: Option<f64>,
    /// Change from the previous month, percent.
    pub change_pct: Option<f64>,
}

/// Which versions a row covers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Group {
    /// `all`, `type` or `make`.
    pub kind: GroupKind,
    /// The body type or make; null for all versions.
    pub value: Option<String>,
}

/// The kind of a [`Group`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum GroupKind {
    /// Every version.
    All,
    /// One body type.
    Type,
    /// One make.
    Make,
}

/// One row of the index.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexRow {
    /// The versions it covers.
    pub group: Group,
    /// `ARS` or `USD`.
    pub currency: String,
    /// Versions with a monthly price in this month and the previous one.
    pub n: usize,
    /// Month-on-month change, percent; null under 5 matched versions.
    pub change_pct: Option<f64>,
    /// Change since December, percent.
    pub ytd_pct: Option<f64>,
    /// Change over twelve months, percent.
    pub yoy_pct: Option<f64>,
    /// The chained level, 100 in the snapshot's first month.
    pub level: Option<f64>,
}

/// A version in the cheapest lists.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheapItem {
    /// Catalogue ID.
    pub id: String,
    /// Its page.
    #[schemars(url)]
    pub url: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim.
    pub trim: String,
    /// Body type.
    #[serde(rename = "type")]
    pub body_type: Option<String>,
    /// Its lowest quote in pesos (as quoted, or in dollars at its check's rate).
    pub price_ars: f64,
    /// Its dealer price in dollars.
    pub current_price_usd: f64,
    /// Whether its lowest quote includes freight and paperwork.
    pub fees_included: Option<bool>,
    /// Its own change in pesos this month, percent; null when it has no
    /// price in one of the two months.
    pub change_pct: Option<f64>,
}

/// The month's largest changes.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Movers {
    /// The 10 largest rises in pesos, largest first.
    pub rises: Vec<Mover>,
    /// The 10 largest falls in pesos, largest first.
    pub falls: Vec<Mover>,
    /// The median change of each make's matched versions.
    pub by_make: Vec<MakeChange>,
}

/// A version that rose or fell.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Mover {
    /// Catalogue ID.
    pub id: String,
    /// Its page.
    #[schemars(url)]
    pub url: String,
    /// Make.
    pub make: String,
    /// Model.
    pub model: String,
    /// Trim.
    pub trim: String,
    /// Its change in pesos, percent.
    pub change_pct: f64,
}

/// A make's median change.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MakeChange {
    /// Make.
    pub make: String,
    /// Matched versions.
    pub n: usize,
    /// Median change in pesos, percent; null under 5 matched versions.
    pub median_change_pct: Option<f64>,
}

/// Dealer quotes against the catalogue price, for one group.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DealerRow {
    /// The versions it covers.
    pub group: Group,
    /// Quotes compared.
    pub quotes: usize,
    /// Share at least 0.5 % under the catalogue price, percent.
    pub below_pct: Option<f64>,
    /// Share within 0.5 % of it, percent.
    pub at_pct: Option<f64>,
    /// Share at least 0.5 % over it, percent.
    pub above_pct: Option<f64>,
    /// Median of (quote - catalogue) / catalogue, percent.
    pub median_gap_pct: Option<f64>,
}

/// What a month's report reads.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Coverage {
    /// Versions with a quote check in the month.
    pub versions: usize,
    /// Quote checks.
    pub checks: usize,
    /// Dealer quotes.
    pub quotes: usize,
    /// Distinct dealers (`sellerId`).
    pub dealers: usize,
    /// Distinct locations.
    pub locations: usize,
    /// Share of checks with stock, percent.
    pub in_stock_pct: Option<f64>,
}
